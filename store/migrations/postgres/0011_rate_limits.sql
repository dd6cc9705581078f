-- Per-IP request limits counted in the store (SQLite's 0011 in PostgreSQL's words).
CREATE TABLE rate_limits (
    bucket TEXT   NOT NULL,
    key    TEXT   NOT NULL,
    minute BIGINT NOT NULL,
    count  BIGINT NOT NULL,
    PRIMARY KEY (bucket, key, minute)
);
CREATE INDEX rate_limits_minute ON rate_limits(minute);
