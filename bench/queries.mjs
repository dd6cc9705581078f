// Statements per request ("the authenticated filters may be doing their database work
// more than once per request"): each GET below runs once against the server on a PostgreSQL
// database whose statements the server logs, and the statements it ran are counted. On
// PostgreSQL each one is a round trip, and the load bench's figures follow their count.
// Run: BENCH_POSTGRES=postgres://…/postgres BENCH_POSTGRES_LOG=DIR/server.log npm run bench:queries
// (a server such as `scripts/pg.sh start DIR` starts, whose log is DIR/server.log; without
// BENCH_POSTGRES_LOG the server's own logging collector's file; BENCH_SERVER_BINARY: another
// build). The test command runs it on its throwaway PostgreSQL.
import { readFileSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { DEMO_ADMIN, DEMO_USER, startServer } from '../web/test/browser/harness.mjs';
import { apiReads, database, postgres } from './database.mjs';

if (!postgres) throw new Error('BENCH_POSTGRES must name a PostgreSQL server');
const name = `lvlx_bench_queries_${Date.now()}`;
const { env } = database(name);
execFileSync('psql', [postgres, '-qc', `ALTER DATABASE ${name} SET log_statement = 'all'`]);
const ask = (sql) => execFileSync('psql', [env.LVLX_DATABASE_URL, '-qAtc', sql], { encoding: 'utf8' }).trim();
const log = process.env.BENCH_POSTGRES_LOG || `${ask('SHOW data_directory')}/${ask('SELECT pg_current_logfile()')}`;
const server = await startServer({ binary: process.env.BENCH_SERVER_BINARY ?? 'target/release/lvlx', env });
try {
  const member = (await server.storageFor(DEMO_USER)).sessionToken;
  const admin = (await server.storageFor(DEMO_ADMIN)).sessionToken;
  const rows = apiReads(member, admin);
  console.log(`statements per request, server ${server.url} on PostgreSQL (each one a round trip)`);
  console.log('request                          statements');
  for (const [label, path, token] of rows) {
    // Once to warm what is kept (prepared statements, kept answers), then the counted one.
    for (const counted of [false, true]) {
      const before = statSync(log).size;
      const res = await fetch(`${server.url}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
      if (!res.ok) throw new Error(`${path}: ${res.status}`);
      await res.arrayBuffer();
      await new Promise((r) => setTimeout(r, 300));
      if (!counted) continue;
      const lines = readFileSync(log, 'utf8').slice(before).split('\n');
      const statements = lines.filter((l) => /LOG:\s+(execute|statement)/.test(l));
      // The one check: a request authenticates once (its session and account, one statement).
      const sessionReads = statements.filter((l) => l.includes('FROM sessions s JOIN users')).length;
      const flag = sessionReads === (token ? 1 : 0) ? '' : `  ← ${sessionReads} session reads`;
      if (flag) process.exitCode = 1;
      console.log(`${label.padEnd(32)} ${String(statements.length).padStart(10)}${flag}`);
      if (process.env.VERBOSE)
        for (const s of statements) console.log('   ', s.replace(/^.*LOG:\s+/, '').slice(0, 150));
    }
  }
} finally {
  await server.stop?.();
}
