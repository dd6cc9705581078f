-- The referral network (docs/product/network.md): activation nodes, commissions, network volume,
-- ranks with their audit and one-time bonuses, and claims. Amounts are base-unit decimal TEXT
-- (LVLX 18 decimals, USDT 6); times are milliseconds.

-- Where on the chain an indexed ledger entry sits (null for seeded rows): a node counts for a
-- purchase when it was activated before it, by (block, log index).
ALTER TABLE ico_transactions ADD COLUMN block INTEGER;

-- A member's network volume (USDT their whole downline paid for LVLX) and their own purchases'
-- USDT, kept as purchases settle.
ALTER TABLE users ADD COLUMN network_usdt TEXT NOT NULL DEFAULT '0';
ALTER TABLE users ADD COLUMN own_usdt TEXT NOT NULL DEFAULT '0';

-- Seed-only figures from before the network existed: addRewards and rank now come from
-- commissions and rank bonuses.
UPDATE users SET add_rewards = '0', rank = 'None';

CREATE TABLE activation_nodes (
    wallet     TEXT    NOT NULL PRIMARY KEY,          -- EIP-55; one node per wallet, ever
    user_id    INTEGER REFERENCES users(id),          -- null while the wallet is not linked
    usdt_paid  TEXT    NOT NULL,
    block      INTEGER NOT NULL,
    log_index  INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    tx_hash    TEXT    NOT NULL,
    UNIQUE (tx_hash, log_index)
);
CREATE INDEX activation_nodes_user ON activation_nodes(user_id);
CREATE INDEX activation_nodes_created ON activation_nodes(created_at);

-- What each settled purchase paid each upline level; once per (purchase, level).
CREATE TABLE commissions (
    purchase_id INTEGER NOT NULL REFERENCES ico_transactions(id),
    level       INTEGER NOT NULL,
    user_id     INTEGER NOT NULL REFERENCES users(id),
    buyer_id    INTEGER NOT NULL REFERENCES users(id),
    amount      TEXT    NOT NULL,                      -- LVLX base units
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (purchase_id, level)
) WITHOUT ROWID;
CREATE INDEX commissions_user ON commissions(user_id, buyer_id);

-- Purchases whose commissions and volume were settled (at indexing, or when the buyer's wallet
-- was linked later): settling twice does nothing.
CREATE TABLE settled_purchases (
    purchase_id INTEGER PRIMARY KEY REFERENCES ico_transactions(id),
    buyer_id    INTEGER NOT NULL REFERENCES users(id),
    usdt        TEXT    NOT NULL,
    at          INTEGER NOT NULL
);
CREATE INDEX settled_purchases_buyer ON settled_purchases(buyer_id);

CREATE TABLE ranks (
    id         INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    threshold  TEXT    NOT NULL,                       -- USDT base units of network volume
    bonus      TEXT    NOT NULL,                       -- LVLX base units, paid once
    updated_at INTEGER NOT NULL
);
INSERT INTO ranks (id, name, threshold, bonus, updated_at) VALUES
    (1, 'Bronze',   '1000000000',   '100000000000000000000',   0),
    (2, 'Silver',   '5000000000',   '600000000000000000000',   0),
    (3, 'Gold',     '25000000000',  '3500000000000000000000',  0),
    (4, 'Platinum', '100000000000', '15000000000000000000000', 0),
    (5, 'Diamond',  '500000000000', '80000000000000000000000', 0);

-- Every admin change to the network's rules (a rank, the activation node's terms): who, when,
-- what, before and after (JSON). Rows are never changed or removed.
CREATE TABLE admin_audit (
    id       INTEGER PRIMARY KEY,
    subject  TEXT    NOT NULL,                     -- 'rank' or 'activation-node'
    item     INTEGER,                              -- the rank's id
    admin_id INTEGER NOT NULL REFERENCES users(id),
    at       INTEGER NOT NULL,
    before   TEXT,
    after    TEXT    NOT NULL
);
CREATE INDEX admin_audit_subject ON admin_audit(subject, id);
CREATE TRIGGER admin_audit_no_update BEFORE UPDATE ON admin_audit
BEGIN SELECT RAISE(ABORT, 'admin_audit is append-only'); END;
CREATE TRIGGER admin_audit_no_delete BEFORE DELETE ON admin_audit
BEGIN SELECT RAISE(ABORT, 'admin_audit is append-only'); END;

-- The bonus of each rank a member reached, credited once, as the rank read when it was reached.
CREATE TABLE rank_bonuses (
    user_id    INTEGER NOT NULL REFERENCES users(id),
    rank_id    INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    amount     TEXT    NOT NULL,                       -- LVLX base units
    volume     TEXT    NOT NULL,                       -- the volume that reached it
    created_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, rank_id)
) WITHOUT ROWID;

-- Claims of the claimable balance (commissions + rank bonuses − what was claimed): asked for,
-- signed once the emailed claimCode is confirmed, paid when the indexer sees Claimed.
CREATE TABLE claims (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users(id),
    attempt    TEXT    NOT NULL UNIQUE,                -- the code's attempt id
    wallet     TEXT    NOT NULL,
    amount     TEXT    NOT NULL,                       -- LVLX base units this claim adds
    cumulative TEXT    NOT NULL,                       -- what the voucher names
    deadline   INTEGER,                                -- seconds; set when signed
    signature  TEXT,
    status     TEXT    NOT NULL CHECK (status IN ('requested', 'signed', 'paid')),
    created_at INTEGER NOT NULL,
    paid_at    INTEGER,
    tx_hash    TEXT,
    log_index  INTEGER,
    UNIQUE (tx_hash, log_index)
);
CREATE INDEX claims_user ON claims(user_id, created_at);

-- Claimed events as the chain reported them (also for wallets not linked yet).
CREATE TABLE claim_payments (
    tx_hash    TEXT    NOT NULL,
    log_index  INTEGER NOT NULL,
    wallet     TEXT    NOT NULL,
    amount     TEXT    NOT NULL,
    cumulative TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (tx_hash, log_index)
) WITHOUT ROWID;
CREATE INDEX claim_payments_wallet ON claim_payments(wallet COLLATE NOCASE);

-- Codes gain the claim purpose (6 digits, bound to one claim). SQLite cannot change a CHECK in
-- place: the table is rebuilt with its rows.
CREATE TABLE codes_new (
    id           TEXT    PRIMARY KEY,
    purpose      TEXT    NOT NULL CHECK (purpose IN ('login', 'register', 'recover', 'claim')),
    email        TEXT    NOT NULL,
    user_id      INTEGER REFERENCES users(id) ON DELETE CASCADE,
    code_hash    TEXT    NOT NULL,
    tries        INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL,
    used_at      INTEGER,
    reset_hash   TEXT
);
INSERT INTO codes_new SELECT id, purpose, email, user_id, code_hash, tries, created_at, expires_at, used_at, reset_hash FROM codes;
DROP TABLE codes;
ALTER TABLE codes_new RENAME TO codes;
CREATE INDEX codes_email_created ON codes(email, created_at);
