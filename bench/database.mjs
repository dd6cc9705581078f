// The benches' database (issue 16): SQLite in their data folder, or — when BENCH_POSTGRES names a
// PostgreSQL server (postgres://…/postgres, as scripts/pg.sh prints) — a database of their own
// there, so the same figures are measured on both backends.
import { execFileSync } from 'node:child_process';

export const postgres = process.env.BENCH_POSTGRES || null;
export const backend = postgres ? 'PostgreSQL' : 'SQLite';

/** The server environment for database `name` on the PostgreSQL server ({} on SQLite), and
 *  whether the database was made just now (empty). */
export function database(name) {
  if (!postgres) return { env: {}, created: false };
  const exists = execFileSync('psql', [postgres, '-qAtc', `SELECT 1 FROM pg_database WHERE datname = '${name}'`], { encoding: 'utf8' }).trim() === '1';
  if (!exists) execFileSync('psql', [postgres, '-qc', `CREATE DATABASE ${name}`]);
  return {
    created: !exists,
    // Instances on PostgreSQL need their signing keys configured (the server refuses otherwise).
    env: { LVLX_DATABASE_URL: postgres.replace(/\/[^/]*$/, `/${name}`), LVLX_JWT_SECRET: 'bench-session-key-'.padEnd(48, 'k'), LVLX_CLAIM_SIGNING_KEY: '22'.repeat(32) },
  };
}
