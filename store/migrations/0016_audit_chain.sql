-- The admin audit chained by hash. Each audit row gets a link naming the row before
-- it and SHA-256 over that row's link and its own content, written in the same transaction as
-- the row (store::audit). Triggers only stop mistakes; whoever holds the database file can drop
-- them, but not rewrite a row without `lvlx audit verify` naming it, unless they recompute
-- every later link, which moves the chain's head away from the one recorded outside.
CREATE TABLE audit_chain (
    audit_id INTEGER NOT NULL PRIMARY KEY,   -- admin_audit.id
    prev_id  INTEGER,                        -- the row before it in the chain (null: the first)
    hash     TEXT    NOT NULL                -- hex SHA-256 (see store::audit::link_hash)
);
CREATE TRIGGER audit_chain_no_update BEFORE UPDATE ON audit_chain
BEGIN SELECT RAISE(ABORT, 'audit_chain is append-only'); END;
CREATE TRIGGER audit_chain_no_delete BEFORE DELETE ON audit_chain
BEGIN SELECT RAISE(ABORT, 'audit_chain is append-only'); END;
