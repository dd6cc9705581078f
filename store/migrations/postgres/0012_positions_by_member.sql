-- A member's positions newest first from one index (SQLite's 0012, the same here).
DROP INDEX stake_positions_user;
CREATE INDEX stake_positions_user ON stake_positions(user_id, pool, start_date, position);
