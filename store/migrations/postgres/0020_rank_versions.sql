-- The rank table by the chain block from which each version applies (SQLite's 0020).
CREATE TABLE rank_versions (
    from_block BIGINT NOT NULL,
    id         BIGINT NOT NULL,
    name       TEXT   NOT NULL,
    threshold  TEXT   NOT NULL,
    bonus      TEXT   NOT NULL,
    PRIMARY KEY (from_block, id)
);
INSERT INTO rank_versions (from_block, id, name, threshold, bonus)
    SELECT 0, id, name, threshold, bonus FROM ranks;
