-- Wallet linking (docs/product/chain.md#wallet-linking): the nonces the server issues for
-- Sign-In-With-Ethereum messages. Each is good for 10 minutes and for one attempt.
CREATE TABLE wallet_nonces (
    nonce      TEXT    PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users(id),
    issued_at  INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at    INTEGER
);
CREATE INDEX wallet_nonces_user ON wallet_nonces(user_id, used_at);
