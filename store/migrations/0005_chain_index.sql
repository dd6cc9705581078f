-- The chain indexer (docs/product/chain.md#indexer). Also corrects 0003's comment on the sealed
-- key: it is AES-256-GCM (see secret.rs), not XChaCha20-Poly1305.

-- Where the indexer of one contract (the ICO sale) goes on: the next block to read, and the hash
-- of the last block read, so a reorganisation deeper than the confirmation depth (or a reset
-- development chain) is noticed instead of silently skipped.
CREATE TABLE chain_cursor (
    contract   TEXT    PRIMARY KEY,           -- lowercase address
    next_block INTEGER NOT NULL,
    last_hash  TEXT,
    updated_at INTEGER NOT NULL
);

-- What a purchase event carried beyond the ledger's amount (LVLX bought): the USDT paid and the
-- referrer, for referrals. Null on rows that did not come from a Purchased event.
ALTER TABLE ico_transactions ADD COLUMN usdt_paid TEXT;
ALTER TABLE ico_transactions ADD COLUMN referrer TEXT;
