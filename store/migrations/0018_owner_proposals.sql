-- Owner actions proposed to the owners' Safe. A proposal is a Safe transaction (a
-- call of `data` on `target`, at the Safe's `nonce`) whose EIP-712 hash the owners sign in
-- their wallets; the server keeps the signatures (never a key) until enough are there.
CREATE TABLE owner_proposals (
    id           INTEGER PRIMARY KEY,
    contract     TEXT    NOT NULL,   -- the core's contract name (IcoSale, ClaimDistributor, …)
    target       TEXT    NOT NULL,   -- its address (EIP-55)
    data         TEXT    NOT NULL,   -- the call (0x hex)
    safe         TEXT    NOT NULL,   -- the Safe that owns the target (EIP-55)
    nonce        INTEGER NOT NULL,   -- the Safe's transaction counter the proposal takes
    safe_tx_hash TEXT    NOT NULL UNIQUE,
    proposed_by  INTEGER NOT NULL REFERENCES users(id),
    proposed_at  INTEGER NOT NULL,   -- ms
    executed_tx  TEXT,               -- the execTransaction that ran it, once its receipt showed it
    executed_at  INTEGER             -- ms
);
CREATE TABLE owner_signatures (
    proposal_id INTEGER NOT NULL REFERENCES owner_proposals(id),
    signer      TEXT    NOT NULL,    -- the Safe owner the signature recovers to (EIP-55)
    signature   TEXT    NOT NULL,    -- 65 bytes, 0x hex (eth_signTypedData_v4)
    signed_at   INTEGER NOT NULL,    -- ms
    PRIMARY KEY (proposal_id, signer)
);
