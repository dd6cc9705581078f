// Lint rules for the web app, its tests, benches and scripts (npm run lint; the test command
// runs it). Formatting is Prettier's (.prettierrc.json); eslint-config-prettier turns off the
// rules that would disagree with it.
import js from '@eslint/js';
import react from 'eslint-plugin-react';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

// The app by feature (docs/architecture.md#the-web-app): a feature's pages, components, hooks and
// API calls live in its folder and may import their own files, `common/` (the building blocks:
// tables, amounts, forms, dialogs, the API client, settings, translations), `core/` (the one door
// to the WebAssembly core) and `wallet/` (the one door to the chain, every feature's chain actions
// go through it), never another feature's files, except the public entries listed with each
// feature: a part another feature shows as it is. `main.jsx`, `App.jsx`, `routes.js` and
// `shell/` (the frame: menu, sign-out, guards) put the features together and may import any.
const FEATURES = {
  accounts: [],
  admin: [],
  books: [],
  dashboard: [],
  help: [],
  // The member's KYC card is a box of the dashboard; its status badge, filter and dialog are
  // columns and actions of the admin's users table. Both read KYC's own calls. What is claimable
  // now and what waits for a verified identity is said the same way wherever the claimable
  // amount appears (the money account, the dashboard's network box, the rank bonus page).
  kyc: ['KycCard.jsx', 'KycAdmin.jsx', 'ClaimableSplit.jsx'],
  // The referral link is also the dashboard's last box.
  network: ['ReferralLink.jsx'],
  owners: [],
  // The reserve's cover in weeks is also shown on the public solvency page (books).
  staking: ['ReserveMonitor.jsx'],
  // The money account and the figures it is made of (GET /dashboard) are the dashboard's first
  // box as well as My assets'.
  token: ['MoneyAccount.jsx'],
};

/**
 * The import patterns `feature` may not use (undefined: the app's frame, which may import any
 * feature; null: shared code, which imports none).
 */
const restricted = (feature) => [
  { group: ['**/core/pkg/*', '**/core/pkg'], message: 'Import the core through web/src/core/index.js.' },
  ...(feature === 'wallet'
    ? []
    : [
        {
          group: ['**/wallet/eip1193*'],
          message: 'Reach the wallet through web/src/wallet (wallet.js, allowance.js, useChainAction.js).',
        },
      ]),
  ...Object.entries(FEATURES)
    .filter(([other]) => other !== feature && feature !== undefined)
    .map(([other, open]) => ({
      group: [`**/${other}/**`, ...(feature in FEATURES ? open.map((file) => `!**/${other}/${file}`) : [])],
      message: `A feature imports common/, core/, wallet/ and its own files; ${other}/ is another feature's.`,
    })),
  ...(feature === undefined
    ? []
    : [{ group: ['**/shell/*', '**/routes.js', '**/App.jsx'], message: 'Only the frame knows every page.' }]),
];

export default [
  {
    ignores: [
      'web/dist/**',
      'web/pkg/**',
      'web/pkg-forms/**',
      'target/**',
      'fuzz/**',
      'contracts/artifacts/**',
      'node_modules/**',
    ],
  },
  js.configs.recommended,
  {
    files: ['web/src/**/*.{js,jsx}', 'web/landing/**/*.{js,jsx}', 'web/prerender/**/*.{js,jsx,mjs}'],
    plugins: { react, 'react-hooks': reactHooks },
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: 'module',
      globals: { ...globals.browser },
      parserOptions: { ecmaFeatures: { jsx: true } },
    },
    settings: { react: { version: '19' } },
    rules: {
      ...react.configs.recommended.rules,
      ...react.configs['jsx-runtime'].rules,
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'react/prop-types': 'off',
      // Off: it flags the [key, element] pairs summary boxes and tables take, which are keyed
      // where they are rendered.
      'react/jsx-key': 'off',
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Boundaries: the core, the wallet provider and the features (below).
      'no-restricted-imports': ['error', { patterns: restricted() }],
      'no-restricted-globals': ['error', { name: 'fetch', message: 'Fetch through web/src/common/client.js.' }],
      // A function longer than this is split into named components and hooks; one that should
      // stay whole says why in an eslint-disable comment.
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['web/src/common/client.js'],
    rules: { 'no-restricted-globals': 'off' },
  },
  // Each feature and the shared parts, with what they may not import.
  {
    // The wallet's own modules speak EIP-1193; like shared code, they import no feature.
    files: ['web/src/wallet/**/*.{js,jsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: restricted('wallet'),
        },
      ],
    },
  },
  ...Object.keys(FEATURES).map((feature) => ({
    files: [`web/src/${feature}/**/*.{js,jsx}`],
    rules: { 'no-restricted-imports': ['error', { patterns: restricted(feature) }] },
  })),
  {
    files: ['web/src/common/**/*.{js,jsx}', 'web/src/core/**/*.js', 'web/src/styles/**/*.js'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: restricted(null),
        },
      ],
    },
  },
  {
    files: [
      'web/test/**/*.{js,mjs}',
      'bench/**/*.{js,mjs}',
      'scripts/**/*.{js,mjs}',
      'contracts/**/*.{js,mjs}',
      '*.js',
    ],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: 'module',
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  prettier,
  // After Prettier's config, which turns max-len off: Prettier keeps code within 120 characters
  // but leaves comments and long strings; this holds them to it too (an SVG path excepted).
  {
    files: ['web/src/**/*.{js,jsx}', 'web/landing/**/*.{js,jsx}', 'web/prerender/**/*.{js,jsx,mjs}'],
    rules: { 'max-len': ['error', { code: 120, ignorePattern: '^\\s*d="', ignoreUrls: true }] },
  },
];
