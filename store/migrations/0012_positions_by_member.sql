-- A member's positions newest first (GET /dashboard, GET /staking) read from one index:
-- with only (user_id, pool), SQLite preferred (pool, start_date) for the order and scanned every
-- position of the pool on every dashboard (2,400 req/s at 700 positions, worse with more).
DROP INDEX stake_positions_user;
CREATE INDEX stake_positions_user ON stake_positions(user_id, pool, start_date, position);
