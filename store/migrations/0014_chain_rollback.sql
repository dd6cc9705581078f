-- What the indexer needs to take back what a reorganisation removed, and to tell
-- pending events from final ones.
-- The hash of every block the indexer read an event in, and of each step's last block, while
-- they are not final: where a reorganised chain forks from what was recorded.
CREATE TABLE chain_blocks (
    number INTEGER PRIMARY KEY,
    hash   TEXT    NOT NULL
);
-- The highest block the node called final (or the head less the confirmations): events at or
-- below it count for commissions, volume, ranks and claims.
ALTER TABLE chain_cursor ADD COLUMN final_block INTEGER NOT NULL DEFAULT 0;
-- The block of every recorded event, so a rollback finds what it must take back.
ALTER TABLE chain_events ADD COLUMN block INTEGER;
ALTER TABLE chain_events ADD COLUMN position INTEGER;
CREATE INDEX chain_events_block ON chain_events(block);
ALTER TABLE nft_purchases ADD COLUMN block INTEGER;
CREATE INDEX nft_purchases_block ON nft_purchases(block);
ALTER TABLE claim_payments ADD COLUMN block INTEGER;
CREATE INDEX claim_payments_block ON claim_payments(block);
CREATE INDEX ico_block ON ico_transactions(block);
CREATE INDEX activation_nodes_block ON activation_nodes(block);
-- What a rollback took back, one line per event, for the member's history.
CREATE TABLE chain_reversals (
    id      INTEGER PRIMARY KEY,
    user_id INTEGER REFERENCES users(id),
    event   TEXT    NOT NULL,
    tx_hash TEXT    NOT NULL,
    amount  TEXT,
    block   INTEGER NOT NULL,
    at      INTEGER NOT NULL
);
CREATE INDEX chain_reversals_user ON chain_reversals(user_id, at);
