-- Sessions (revocable; absolute life), one-time email codes, pending registrations, failed
-- logins (account lock), used captcha challenges (single use), and the avatar flag.

CREATE TABLE sessions (
    id          TEXT    PRIMARY KEY,            -- 128-bit random hex, the token's sid
    user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,               -- absolute end, whatever the refreshes
    revoked_at  INTEGER
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE registrations (
    id            TEXT    PRIMARY KEY,          -- also the code attempt id
    email         TEXT    NOT NULL,
    names         TEXT    NOT NULL,
    lastnames     TEXT    NOT NULL,
    phone         TEXT    NOT NULL,
    password_hash TEXT    NOT NULL,
    referrer_id   INTEGER NOT NULL REFERENCES users(id),
    language      TEXT    NOT NULL,
    created_at    INTEGER NOT NULL
);

CREATE TABLE codes (
    id           TEXT    PRIMARY KEY,           -- the attempt the code is bound to
    purpose      TEXT    NOT NULL CHECK (purpose IN ('login', 'register', 'recover')),
    email        TEXT    NOT NULL,
    user_id      INTEGER REFERENCES users(id) ON DELETE CASCADE,
    code_hash    TEXT    NOT NULL,              -- HMAC of attempt id and code, never the code
    tries        INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL,
    used_at      INTEGER,
    reset_hash   TEXT                            -- recover: hash of the issued reset token
);
CREATE INDEX codes_email_created ON codes(email, created_at);

CREATE TABLE login_failures (
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    at      INTEGER NOT NULL
);
CREATE INDEX login_failures_user_at ON login_failures(user_id, at);

CREATE TABLE captcha_used (
    challenge_hash TEXT    PRIMARY KEY,
    expires_at     INTEGER NOT NULL
);

ALTER TABLE users ADD COLUMN has_avatar INTEGER NOT NULL DEFAULT 0;
