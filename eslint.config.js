// Lint rules for the web app, its tests, benches and scripts (npm run lint; the test command
// runs it). Formatting is Prettier's (.prettierrc.json); eslint-config-prettier turns off the
// rules that would disagree with it.
import js from '@eslint/js';
import react from 'eslint-plugin-react';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

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
      // Boundaries: the core is reached through its one module (web/src/core/index.js), never
      // its generated binding; pages and components do not fetch on their own (web/src/api).
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/core/pkg/*', '**/core/pkg'], message: 'Import the core through web/src/core/index.js.' },
            {
              group: ['**/wallet/eip1193*'],
              message: 'Reach the wallet through web/src/wallet (wallet.js, allowance.js, useChainAction.js).',
            },
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'fetch', message: 'Fetch through web/src/api/client.js.' }],
    },
  },
  {
    files: ['web/src/api/client.js'],
    rules: { 'no-restricted-globals': 'off' },
  },
  {
    // The wallet's own modules speak EIP-1193.
    files: ['web/src/wallet/**/*.{js,jsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/core/pkg/*', '**/core/pkg'] }] }] },
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
