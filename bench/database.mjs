// The benches' database: SQLite in their data folder, or — when BENCH_POSTGRES names a
// PostgreSQL server (postgres://…/postgres, as scripts/pg.sh prints) — a database of their own
// there, so the same figures are measured on both backends.
import { execFileSync } from 'node:child_process';

export const postgres = process.env.BENCH_POSTGRES || null;
export const backend = postgres ? 'PostgreSQL' : 'SQLite';

/** The server environment for database `name` on the PostgreSQL server ({} on SQLite), and
 *  whether the database was made just now (empty). */
export function database(name) {
  if (!postgres) return { env: {}, created: false };
  const exists =
    execFileSync('psql', [postgres, '-qAtc', `SELECT 1 FROM pg_database WHERE datname = '${name}'`], {
      encoding: 'utf8',
    }).trim() === '1';
  if (!exists) execFileSync('psql', [postgres, '-qc', `CREATE DATABASE ${name}`]);
  return {
    created: !exists,
    // Instances on PostgreSQL need their signing keys configured (the server refuses otherwise).
    env: {
      LVLX_DATABASE_URL: postgres.replace(/\/[^/]*$/, `/${name}`),
      LVLX_JWT_SECRET: 'bench-session-key-'.padEnd(48, 'k'),
      LVLX_CLAIM_SIGNING_KEY: '22'.repeat(32),
    },
  };
}

/** The API reads both benches ask (bench:load's throughput, bench:queries' statements): [label,
 *  path, token], the health baseline first. */
export function apiReads(member, admin) {
  return [
    ['GET health (baseline)', '/api/v1/health'],
    ['GET tokenVerify', '/api/v1/tokenVerify', member],
    ['GET content/dashboard-notice', '/api/v1/content/dashboard-notice', member],
    ['GET dashboard', '/api/v1/dashboard', member],
    ['GET network/glance', '/api/v1/network/glance', member],
    ['GET kyc', '/api/v1/kyc', member],
    ['GET admin/session', '/api/v1/admin/session', admin],
    ['GET statistics-users (admin)', '/api/v1/statistics-users', admin],
  ];
}
