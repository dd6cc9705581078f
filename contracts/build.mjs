// Compiles contracts/src with solc-js (npm `solc`, pinned) and OpenZeppelin from node_modules
// into contracts/artifacts/<Name>.abi.json (the core embeds these: calldata, events, revert
// reasons) and <Name>.bin (creation bytecode, hex; the server's deploy command embeds these);
// and verification.json: the compiler's version and its standard JSON input with every source
// it read (OpenZeppelin's included), which explorers (Polygonscan) take to verify a deployed
// contract. --check also compiles that input alone and requires the same bytecode. Safe's
// contracts are copied from its npm package as built (see SAFE below).
//   node contracts/build.mjs           write the artifacts
//   node contracts/build.mjs --check   fail if the committed artifacts differ from a fresh build
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const solc = require('solc');
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

/** Polygon PoS runs Cancun; the compiler's default (Prague) would emit opcodes it may lack. */
export const EVM_VERSION = 'cancun';
const CONTRACTS = [
  'LVLX',
  'MockUSDT',
  'IcoSale',
  'LevelNFT',
  'NftSale',
  'NftStaking',
  'LvlxStaking',
  'ActivationNode',
  'ClaimDistributor',
];

const sources = Object.fromEntries(
  readdirSync(join(here, 'src'))
    .filter((f) => f.endsWith('.sol'))
    .map((f) => [f, { content: readFileSync(join(here, 'src', f), 'utf8') }]),
);
const input = {
  language: 'Solidity',
  sources,
  settings: {
    evmVersion: EVM_VERSION,
    optimizer: { enabled: true, runs: 200 },
    metadata: { bytecodeHash: 'none' },
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'devdoc'] } },
  },
};
const imported = {};
const findImports = (path) => {
  try {
    imported[path] = { content: readFileSync(join(root, 'node_modules', path), 'utf8') };
    return { contents: imported[path].content };
  } catch {
    return { error: `not found: ${path}` };
  }
};
const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));
const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
for (const e of output.errors ?? []) console.error(e.formattedMessage);
if (errors.length) process.exit(1);

// NatSpec: every function our sources declare (in a contract or the bases it takes from them)
// names each parameter and each returned value (`@param`, `@return`); solc already refuses a tag
// that names nothing.
const declared = (file) => {
  const text = sources[file]?.content ?? '';
  const bases = (text.match(/contract \w+ is ([^{]+)\{/)?.[1] ?? '').split(',').map((b) => `${b.trim()}.sol`);
  const own = [...text.matchAll(/function (\w+)\(/g)].map((m) => m[1]);
  return new Set([...own, 'constructor', ...bases.filter((b) => sources[b]).flatMap((b) => [...declared(b)])]);
};
let undocumented = 0;
for (const name of CONTRACTS) {
  const { abi, devdoc } = output.contracts[`${name}.sol`][name];
  const ours = declared(`${name}.sol`);
  for (const item of abi.filter((i) => ['function', 'constructor'].includes(i.type))) {
    const key = item.type === 'constructor' ? 'constructor' : item.name;
    if (!ours.has(key)) continue;
    const sig =
      item.type === 'constructor' ? 'constructor' : `${item.name}(${item.inputs.map((i) => i.type).join(',')})`;
    // A public state variable's getter is documented on the variable.
    const doc = devdoc?.methods?.[sig] ?? devdoc?.stateVariables?.[item.name] ?? {};
    const missing = item.inputs.filter((i) => i.name && !doc.params?.[i.name]).map((i) => `@param ${i.name}`);
    const returns = Object.keys(doc.returns ?? {}).length || (doc.return ? 1 : 0);
    if ((item.outputs ?? []).length > returns) missing.push('@return');
    if (missing.length) {
      console.error(`${name}.${sig}: no ${missing.join(', ')}`);
      undocumented += 1;
    }
  }
}
if (undocumented) process.exit(1);

// What an explorer needs to rebuild the bytecode: every source (sorted, so the file is stable)
// and the settings that shape the code.
const standardInput = {
  language: 'Solidity',
  sources: Object.fromEntries(Object.entries({ ...sources, ...imported }).sort(([a], [b]) => a.localeCompare(b))),
  settings: { ...input.settings, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
};
const verification = {
  compilerVersion: `v${solc.version().replace(/\.Emscripten.*$/, '')}`,
  contracts: Object.fromEntries(CONTRACTS.map((name) => [name, `${name}.sol:${name}`])),
  standardJsonInput: standardInput,
};
const alone = JSON.parse(solc.compile(JSON.stringify(standardInput)));

const check = process.argv.includes('--check');
let stale = 0;
const written = (file, text) => {
  const path = join(here, 'artifacts', file);
  if (!check) {
    writeFileSync(path, text);
    return;
  }
  let committed = '';
  try {
    committed = readFileSync(path, 'utf8');
  } catch {
    /* missing counts as stale */
  }
  if (committed !== text) {
    console.error(`contracts/artifacts/${file} is stale: run node contracts/build.mjs`);
    stale += 1;
  }
};
written('verification.json', `${JSON.stringify(verification)}\n`);
for (const name of CONTRACTS) {
  const built = output.contracts[`${name}.sol`][name];
  if (alone.contracts?.[`${name}.sol`]?.[name]?.evm.bytecode.object !== built.evm.bytecode.object) {
    console.error(`${name}: the verification input does not rebuild its bytecode`);
    stale += 1;
  }
  const files = {
    [`${name}.abi.json`]: `${JSON.stringify(built.abi, null, 1)}\n`,
    [`${name}.bin`]: `${built.evm.bytecode.object}\n`,
  };
  for (const [file, text] of Object.entries(files)) written(file, text);
  if (!check)
    console.log(
      `${name}: ${built.evm.bytecode.object.length / 2} bytes of bytecode (solc ${solc.version()}, ${EVM_VERSION})`,
    );
}

// Safe's audited contracts (npm @safe-global/safe-contracts 1.4.1, the version deployed on
// Polygon) are taken as Safe built them, never recompiled here: the development chain deploys
// the same bytecode as the owners' Safe on Polygon runs.
const SAFE = {
  SafeL2: 'SafeL2.sol',
  SafeProxyFactory: 'proxies/SafeProxyFactory.sol',
  CompatibilityFallbackHandler: 'handler/CompatibilityFallbackHandler.sol',
};
for (const [name, source] of Object.entries(SAFE)) {
  const artifact = JSON.parse(
    readFileSync(
      join(root, 'node_modules/@safe-global/safe-contracts/build/artifacts/contracts', source, `${name}.json`),
      'utf8',
    ),
  );
  written(`${name}.abi.json`, `${JSON.stringify(artifact.abi, null, 1)}\n`);
  written(`${name}.bin`, `${artifact.bytecode.replace(/^0x/, '')}\n`);
}
if (stale) process.exit(1);
