-- Uploaded images in the database (SQLite's 0015 in PostgreSQL's words).
CREATE TABLE uploads (
    name       TEXT   NOT NULL PRIMARY KEY,
    body       BYTEA  NOT NULL,
    etag       TEXT   NOT NULL,
    created_at BIGINT NOT NULL
);
