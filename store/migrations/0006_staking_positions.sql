-- Staking as the chain holds it (docs/product/staking.md). The positions of NftStaking and
-- LvlxStaking as their events describe them, replacing 0003's nft_stakes and lvlx_stakes (whose
-- stored "current interests" never moved; accrual is now computed at read time by the core from
-- the position and the clock). Amounts are base-unit decimal TEXT; times are milliseconds.

DROP TABLE nft_stakes;
DROP TABLE lvlx_stakes;

CREATE TABLE stake_positions (
    pool         TEXT    NOT NULL CHECK (pool IN ('nft', 'lvlx')),
    position     INTEGER NOT NULL,               -- the contract's position id
    user_id      INTEGER REFERENCES users(id),   -- null while the staking wallet is not linked
    wallet       TEXT    NOT NULL,               -- EIP-55
    kind         INTEGER NOT NULL,               -- NFT id (1-11) or LVLX lock tier
    amount       TEXT    NOT NULL,               -- NFTs, or LVLX base units
    reward       TEXT    NOT NULL,               -- the whole reward, reserved at opening
    start_date   INTEGER NOT NULL,
    release_date INTEGER NOT NULL,
    withdrawn    TEXT    NOT NULL DEFAULT '0',   -- interest paid so far
    closed_at    INTEGER,                        -- principal returned
    tx_hash      TEXT    NOT NULL,
    log_index    INTEGER NOT NULL,
    PRIMARY KEY (pool, position)
) WITHOUT ROWID;
CREATE UNIQUE INDEX stake_positions_log ON stake_positions(tx_hash, log_index);
CREATE INDEX stake_positions_release ON stake_positions(pool, release_date);
CREATE INDEX stake_positions_start ON stake_positions(pool, start_date);
CREATE INDEX stake_positions_user ON stake_positions(user_id, pool);
CREATE INDEX stake_positions_wallet ON stake_positions(wallet COLLATE NOCASE) WHERE user_id IS NULL;

-- Every staking and NFT-sale event applied, once (tx hash + log index): withdrawals and
-- releases change a position only when their row is new, so reading a range again is harmless.
CREATE TABLE chain_events (
    tx_hash   TEXT    NOT NULL,
    log_index INTEGER NOT NULL,
    contract  TEXT    NOT NULL,                  -- lowercase address
    event     TEXT    NOT NULL,
    amount    TEXT,
    at        INTEGER NOT NULL,
    PRIMARY KEY (tx_hash, log_index)
) WITHOUT ROWID;

CREATE TABLE nft_purchases (
    tx_hash    TEXT    NOT NULL,
    log_index  INTEGER NOT NULL,
    user_id    INTEGER REFERENCES users(id),
    wallet     TEXT    NOT NULL,
    nft_id     INTEGER NOT NULL CHECK (nft_id BETWEEN 1 AND 11),
    quantity   TEXT    NOT NULL,
    usdt_paid  TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (tx_hash, log_index)
) WITHOUT ROWID;
CREATE INDEX nft_purchases_user ON nft_purchases(user_id, created_at);
