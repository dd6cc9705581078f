// Throughput of the API itself: wrk (Debian's package) on loopback against the
// release server with the demo data, 64 connections, a signed-in member and admin. Each row is
// printed beside the same run's GET /api/v1/health (the server doing nothing but answer), with
// the CPU time the server and (on PostgreSQL) the database spent per request.
// Run: npm run bench:load [SECONDS] [ROW]   (after scripts/build.sh --release; default 8 s a row; ROW
// `writes`: only the write rows). BENCH_SERVER_BINARY: another build (the test command's smoke
// runs the debug one, 1 s a row).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_ADMIN, DEMO_USER, startServer } from '../web/test/browser/harness.mjs';
import { apiReads, backend, database } from './database.mjs';

const root = new URL('../', import.meta.url).pathname;
const SECONDS = Number(process.argv[2] ?? 8);
// Optional: only the rows whose name contains this text (after the health baseline).
const ONLY = process.argv[3] ?? '';
const CONNECTIONS = 64;
// What browsers send for the app's files.
const GZIP = ['-H', 'Accept-Encoding: gzip, deflate, br'];

console.log(`backend: ${backend}`);
const binary = process.env.BENCH_SERVER_BINARY ?? 'target/release/lvlx';
const server = await startServer({
  binary,
  seed: ['--users', '2000', '--ico-tx', '5000', '--seed', '7'],
  env: database(`lvlx_bench_load_${Date.now()}`).env,
});
const member = (await server.storageFor(DEMO_USER)).sessionToken;
const admin = (await server.storageFor(DEMO_ADMIN)).sessionToken;
// The app's own first file (index.html also names the small runtime shared with the landing page).
const script = readFileSync(join(root, 'web/dist/index.html'), 'utf8').match(/src="?\/?(main\.[0-9a-f]+\.js)/)[1];

/** CPU time so far (ms) of the server's process and of every PostgreSQL process (0 on SQLite),
 *  from /proc: where a row's time goes when wrk, the server and the database share the cores. */
function cpuMs() {
  const tick = 1000 / 100; // USER_HZ
  const out = { server: 0, database: 0 };
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ms = (Number(fields[11]) + Number(fields[12])) * tick; // utime + stime
    if (Number(pid) === server.pid) out.server += ms;
    else if (comm === 'postgres') out.database += ms;
  }
  return out;
}

/** wrk's figures for one GET: requests a second, p50 / p99 latency in ms, and the server's and
 *  the database's CPU µs per request. */
// Asynchronously: the server's log pipe must keep being read while wrk runs.
async function wrk(path, token, { connections = CONNECTIONS, extra = [], env = {} } = {}) {
  extra ??= [];
  const args = ['-t2', `-c${connections}`, `-d${SECONDS}s`, '--timeout', '5s', '--latency', ...extra];
  if (token) args.push('-H', `Authorization: Bearer ${token}`);
  const cpuBefore = cpuMs();
  const { stdout: out } = await promisify(execFile)('wrk', [...args, `${server.url}${path}`], {
    encoding: 'utf8',
    timeout: (SECONDS + 30) * 1000,
    env: { ...process.env, ...env },
  });
  const ms = (label) => {
    const m = out.match(new RegExp(`^\\s+${label}%\\s+([\\d.]+)(us|ms|s)$`, 'm'));
    if (!m) return NaN;
    return Number(m[1]) * { us: 0.001, ms: 1, s: 1000 }[m[2]];
  };
  const non2xx = Number(out.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0);
  if (non2xx) throw new Error(`${path}: ${non2xx} answers were not 2xx\n${out}`);
  const rps = Number(out.match(/Requests\/sec:\s+([\d.]+)/)[1]);
  if (!rps) throw new Error(`${path}: nothing answered\n${out}`);
  const cpuAfter = cpuMs();
  const requests = Number(out.match(/(\d+) requests in/)[1]);
  const perRequest = (part) => ((cpuAfter[part] - cpuBefore[part]) * 1000) / requests;
  return { rps, p50: ms(50), p99: ms(99), serverUs: perRequest('server'), databaseUs: perRequest('database') };
}

const rows = [
  ...apiReads(member, admin),
  ['static /locales/en/en.json (gzip)', '/locales/en/en.json', null, GZIP],
  [`static /${script} (gzip)`, `/${script}`, null, GZIP],
  ['static / (index.html, gzip)', '/', null, GZIP],
];

const pad = (s, n) => String(s).padStart(n);
console.log(`\nwrk -t2 -c${CONNECTIONS} -d${SECONDS}s on loopback, ${binary}, ${new Date().toISOString()}`);
console.log(
  `${'request'.padEnd(40)}${pad('req/s', 10)}${pad('× health', 10)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('server µs', 11)}${pad('db µs', 8)}`,
);
let base;
try {
  const print = (name, r) =>
    console.log(
      `${name.padEnd(40)}${pad(Math.round(r.rps), 10)}${pad((r.rps / base).toFixed(2), 10)}${pad(r.p50.toFixed(2), 9)}${pad(r.p99.toFixed(2), 9)}${pad(r.serverUs.toFixed(0), 11)}${pad(backend === 'SQLite' ? '' : r.databaseUs.toFixed(0), 8)}`,
    );
  for (const [name, path, token, extra] of rows.filter(([name], i) => i === 0 || name.includes(ONLY))) {
    const r = await wrk(path, token, { extra });
    base ??= r.rps;
    print(name, r);
  }
  // Writes: content edits (each with its audit row) alone, then half the connections editing
  // while the other half reads: the reads beside the same reads alone.
  if (ONLY === '' || ONLY === 'writes') {
    const edit = {
      extra: ['-s', join(root, 'bench/put.lua')],
      env: { BENCH_BODY: JSON.stringify({ title: 'Bench notice', description: 'Written by bench:load.' }) },
    };
    const editPath = '/api/v1/admin/content/dashboard-notice/en';
    const half = CONNECTIONS / 2;
    print('PUT admin/content (writes)', await wrk(editPath, admin, edit));
    print(`GET tokenVerify, ${half} connections`, await wrk('/api/v1/tokenVerify', member, { connections: half }));
    const [reads, writes] = await Promise.all([
      wrk('/api/v1/tokenVerify', member, { connections: half }),
      wrk(editPath, admin, { ...edit, connections: half }),
    ]);
    print(`  the same, beside ${half} writing`, reads);
    print(`  PUT admin/content, beside the reads`, writes);
  }
} finally {
  server.stop();
}
