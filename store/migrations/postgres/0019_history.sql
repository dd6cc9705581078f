-- The money history reads staking events by position (SQLite's 0019, the same in PostgreSQL).
CREATE INDEX chain_events_position ON chain_events(position) WHERE position IS NOT NULL;
CREATE INDEX chain_events_price ON chain_events(at) WHERE event = 'price';
CREATE INDEX commissions_user_time ON commissions(user_id, created_at);
