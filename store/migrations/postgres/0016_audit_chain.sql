-- The admin audit chained by hash (SQLite's 0016 in PostgreSQL's words).
CREATE TABLE audit_chain (
    audit_id BIGINT NOT NULL PRIMARY KEY,
    prev_id  BIGINT,
    hash     TEXT   NOT NULL
);
CREATE TRIGGER audit_chain_append_only BEFORE UPDATE OR DELETE ON audit_chain
    FOR EACH ROW EXECUTE FUNCTION append_only();
