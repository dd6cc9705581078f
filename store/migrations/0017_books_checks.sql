-- Every check of the books against the chain (`lvlx books verify`, the daily run,
-- an admin's "check now"): when, as of which block, how many lines, and what differed.
CREATE TABLE books_checks (
    id          INTEGER PRIMARY KEY,
    at          INTEGER NOT NULL,   -- ms, when the check ended
    block       INTEGER NOT NULL,   -- the chain as of this block
    final_block INTEGER NOT NULL,
    lines       INTEGER NOT NULL,
    differences INTEGER NOT NULL,   -- lines named as differing, over every section
    report      TEXT    NOT NULL    -- the report (JSON), or the error that stopped the check
);
