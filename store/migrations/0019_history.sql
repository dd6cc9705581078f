-- A member's money history reads the staking events of their positions (interest withdrawn,
-- releases) by position: without this index each position scanned every event.
CREATE INDEX chain_events_position ON chain_events(position) WHERE position IS NOT NULL;
-- And the sale's prices, the few events the history values LVLX at.
CREATE INDEX chain_events_price ON chain_events(at) WHERE event = 'price';
-- And a member's commissions, newest first, without sorting all of them.
CREATE INDEX commissions_user_time ON commissions(user_id, created_at);
