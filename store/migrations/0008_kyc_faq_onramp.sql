-- Identity verification (KYC), the FAQ's video metadata, card on-ramp sessions.

-- docs/product/help.md#kyc: none | pending | approved | rejected. `kyc_reference` is the opaque id
-- the platform hands the provider (Persona's reference-id) so its events name the account without
-- exposing ours; `kyc_inquiry` the provider's own applicant (inquiry) id once it names one;
-- `kyc_updated_at` the time of the event or admin change that set the status (ms), so a late
-- older event never overrides a newer status.
ALTER TABLE users ADD COLUMN kyc_status TEXT NOT NULL DEFAULT 'none'
    CHECK (kyc_status IN ('none', 'pending', 'approved', 'rejected'));
ALTER TABLE users ADD COLUMN kyc_reference TEXT;
ALTER TABLE users ADD COLUMN kyc_inquiry TEXT;
ALTER TABLE users ADD COLUMN kyc_updated_at INTEGER NOT NULL DEFAULT 0;
CREATE UNIQUE INDEX users_kyc_reference ON users(kyc_reference) WHERE kyc_reference IS NOT NULL;

-- Every provider event accepted, once per event id (a redelivery changes nothing).
CREATE TABLE kyc_events (
    event_id    TEXT    PRIMARY KEY,
    user_id     INTEGER REFERENCES users(id),
    name        TEXT    NOT NULL,
    occurred_at INTEGER NOT NULL,
    received_at INTEGER NOT NULL,
    applied     INTEGER NOT NULL               -- 1 when it changed the account's status
) WITHOUT ROWID;

-- The video provider's metadata of the FAQ's videos, kept for a day.
CREATE TABLE video_meta (
    video_id   TEXT    PRIMARY KEY,
    title      TEXT    NOT NULL,
    duration   TEXT    NOT NULL,               -- ISO 8601, as the provider answers it (PT4M13S)
    thumbnail  TEXT    NOT NULL,
    fetched_at INTEGER NOT NULL
) WITHOUT ROWID;

-- Card on-ramp sessions created for members (the provider's id; what it was created for).
CREATE TABLE onramp_sessions (
    id         TEXT    PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users(id),
    wallet     TEXT    NOT NULL,
    created_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX onramp_sessions_user ON onramp_sessions(user_id, created_at);
