-- The ICO ledger with its daily rollup, NFT and LVLX stakes, the editable content blocks, and
-- the sealed operational key with its append-only audit. Amounts are base-unit decimal TEXT
-- (SQLite's INTEGER overflows at 9.22 LVLX); sums happen in Rust.

ALTER TABLE users ADD COLUMN lvlx_balance TEXT NOT NULL DEFAULT '0'; -- kept with the ledger
ALTER TABLE users ADD COLUMN add_rewards  TEXT NOT NULL DEFAULT '0';
ALTER TABLE users ADD COLUMN rank         TEXT NOT NULL DEFAULT 'None';
-- Covers the members' summary (statistics-users) without reading the wide user rows.
CREATE INDEX users_members_summary ON users(role, lvlx_balance, add_rewards, wallet);

-- token = the product symbol for a purchase; any other token is a retirement
-- (docs/product/money.md#ledger).
CREATE TABLE ico_transactions (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER REFERENCES users(id),   -- null while the buying wallet is not linked
    wallet     TEXT,
    created_at INTEGER NOT NULL,
    token      TEXT    NOT NULL,
    amount     TEXT    NOT NULL,               -- base units of `token`
    tx_hash    TEXT    NOT NULL,
    log_index  INTEGER NOT NULL,
    UNIQUE (tx_hash, log_index)
);
CREATE INDEX ico_created ON ico_transactions(created_at);
CREATE INDEX ico_user ON ico_transactions(user_id, created_at);

-- Per UTC day and token: rows and amount sum, so statistics never scan the ledger.
CREATE TABLE ico_daily (
    day    INTEGER NOT NULL,                   -- days since 1970-01-01 (UTC)
    token  TEXT    NOT NULL,
    count  INTEGER NOT NULL,
    amount TEXT    NOT NULL,
    PRIMARY KEY (day, token)
) WITHOUT ROWID;

CREATE TABLE nft_stakes (
    id                 INTEGER PRIMARY KEY,
    user_id            INTEGER NOT NULL REFERENCES users(id),
    nft_id             INTEGER NOT NULL CHECK (nft_id BETWEEN 1 AND 11),
    amount             INTEGER NOT NULL CHECK (amount > 0), -- NFTs of that id in this stake
    start_date         INTEGER NOT NULL,
    withdraw_date      INTEGER NOT NULL,                     -- release (end of the lock)
    current_interests  TEXT    NOT NULL DEFAULT '0',         -- LVLX base units accrued
    interest_withdrawn TEXT    NOT NULL DEFAULT '0'
);
CREATE INDEX nft_stakes_withdraw ON nft_stakes(withdraw_date);
CREATE INDEX nft_stakes_user ON nft_stakes(user_id);

CREATE TABLE lvlx_stakes (
    id                 INTEGER PRIMARY KEY,
    user_id            INTEGER NOT NULL REFERENCES users(id),
    amount             TEXT    NOT NULL,                     -- LVLX base units
    start_date         INTEGER NOT NULL,
    release_date       INTEGER NOT NULL,
    current_interests  TEXT    NOT NULL DEFAULT '0',
    interest_withdrawn TEXT    NOT NULL DEFAULT '0'
);
CREATE INDEX lvlx_stakes_release ON lvlx_stakes(release_date);
CREATE INDEX lvlx_stakes_user ON lvlx_stakes(user_id);

-- Blocks of text and image that user pages show, per language, edited by admins.
CREATE TABLE content_blocks (
    block       TEXT    NOT NULL,
    language    TEXT    NOT NULL,
    title       TEXT    NOT NULL,
    description TEXT    NOT NULL,
    image       TEXT,                                         -- file name under data/content
    updated_at  INTEGER NOT NULL,
    updated_by  INTEGER REFERENCES users(id),
    PRIMARY KEY (block, language)
) WITHOUT ROWID;

-- The platform's operational wallet key, sealed (XChaCha20-Poly1305 under an argon2id key
-- derived from the admin secret). One row.
CREATE TABLE sealed_secrets (
    name       TEXT    PRIMARY KEY,
    salt       BLOB    NOT NULL,
    nonce      BLOB    NOT NULL,
    ciphertext BLOB    NOT NULL,
    created_at INTEGER NOT NULL
) WITHOUT ROWID;

-- Every reveal attempt. Append-only: the triggers refuse changes.
CREATE TABLE secret_audit (
    id       INTEGER PRIMARY KEY,
    admin_id INTEGER NOT NULL,
    at       INTEGER NOT NULL,
    outcome  TEXT    NOT NULL CHECK (outcome IN ('revealed', 'wrong-secret', 'rate-limited', 'not-provisioned')),
    ip       TEXT
);
CREATE INDEX secret_audit_admin_at ON secret_audit(admin_id, at);
CREATE TRIGGER secret_audit_no_update BEFORE UPDATE ON secret_audit
BEGIN SELECT RAISE(ABORT, 'secret_audit is append-only'); END;
CREATE TRIGGER secret_audit_no_delete BEFORE DELETE ON secret_audit
BEGIN SELECT RAISE(ABORT, 'secret_audit is append-only'); END;
