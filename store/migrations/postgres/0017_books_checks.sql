-- Every check of the books against the chain (SQLite's 0017 in PostgreSQL's words).
CREATE TABLE books_checks (
    id          BIGSERIAL PRIMARY KEY,
    at          BIGINT NOT NULL,
    block       BIGINT NOT NULL,
    final_block BIGINT NOT NULL,
    lines       BIGINT NOT NULL,
    differences BIGINT NOT NULL,
    report      TEXT   NOT NULL
);
