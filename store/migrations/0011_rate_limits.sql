-- Per-IP request limits counted in the store, so several instances on one database
-- enforce one limit, not one each. A row per (limit, address, minute); old minutes are dropped.
CREATE TABLE rate_limits (
    bucket TEXT    NOT NULL,                 -- which limit ('auth', 'code')
    key    TEXT    NOT NULL,                 -- the client's IP address
    minute INTEGER NOT NULL,                 -- minutes since 1970-01-01 (UTC)
    count  INTEGER NOT NULL,
    PRIMARY KEY (bucket, key, minute)
) WITHOUT ROWID;
CREATE INDEX rate_limits_minute ON rate_limits(minute);
