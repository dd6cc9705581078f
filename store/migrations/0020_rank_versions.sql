-- The rank table as each admin change left it, and the chain block from which it applies: a
-- purchase settles by the table in force at its block, so the chain read again (a reorg, `lvlx
-- books verify`) credits the same bonuses whatever was changed since. Version 0 is the table as
-- it stood when this schema came.
CREATE TABLE rank_versions (
    from_block INTEGER NOT NULL,
    id         INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    threshold  TEXT    NOT NULL,
    bonus      TEXT    NOT NULL,
    PRIMARY KEY (from_block, id)
);
INSERT INTO rank_versions (from_block, id, name, threshold, bonus)
    SELECT 0, id, name, threshold, bonus FROM ranks;
