-- Accounts. Amounts never live here; ids are integers, referral codes 32 hex characters.
CREATE TABLE users (
    id            INTEGER PRIMARY KEY,
    email         TEXT    NOT NULL UNIQUE,
    names         TEXT    NOT NULL,
    lastnames     TEXT    NOT NULL,
    phone         TEXT    NOT NULL DEFAULT '',
    role          TEXT    NOT NULL DEFAULT '1',
    status        TEXT    NOT NULL DEFAULT 'active',
    language      TEXT    NOT NULL DEFAULT 'en',
    password_hash TEXT    NOT NULL,
    referral_code TEXT    NOT NULL UNIQUE,
    referrer_id   INTEGER REFERENCES users(id),
    wallet        TEXT    UNIQUE,
    activation_node INTEGER NOT NULL DEFAULT 0,
    created_at    INTEGER NOT NULL -- UTC milliseconds
);
CREATE INDEX users_created_at ON users(created_at);
CREATE INDEX users_referrer ON users(referrer_id);
