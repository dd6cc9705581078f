-- Owner actions proposed to the owners' Safe (SQLite's 0018 in PostgreSQL's words).
CREATE TABLE owner_proposals (
    id           BIGSERIAL PRIMARY KEY,
    contract     TEXT   NOT NULL,
    target       TEXT   NOT NULL,
    data         TEXT   NOT NULL,
    safe         TEXT   NOT NULL,
    nonce        BIGINT NOT NULL,
    safe_tx_hash TEXT   NOT NULL UNIQUE,
    proposed_by  BIGINT NOT NULL REFERENCES users(id),
    proposed_at  BIGINT NOT NULL,
    executed_tx  TEXT,
    executed_at  BIGINT
);
CREATE TABLE owner_signatures (
    proposal_id BIGINT NOT NULL REFERENCES owner_proposals(id),
    signer      TEXT   NOT NULL,
    signature   TEXT   NOT NULL,
    signed_at   BIGINT NOT NULL,
    PRIMARY KEY (proposal_id, signer)
);
