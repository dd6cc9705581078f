-- Uploaded images (avatars, content images) live in the database, not in one
-- machine's data folder: every instance serves them, and `lvlx db copy` and backups carry them.
CREATE TABLE uploads (
    name       TEXT    NOT NULL PRIMARY KEY,     -- 'avatars/12.png', 'content/hero-en-3f2a….png'
    body       BLOB    NOT NULL,                 -- the PNG the server wrote
    etag       TEXT    NOT NULL,                 -- quoted SHA-256 prefix of the body
    created_at INTEGER NOT NULL
);
