-- Lookups in any letter case are written `lower(x) = lower(?)`, which SQLite and
-- PostgreSQL both read (COLLATE NOCASE is SQLite's alone); these indexes answer them.
DROP INDEX stake_positions_wallet;
DROP INDEX claim_payments_wallet;
CREATE INDEX users_referral_code_lower ON users(lower(referral_code));
CREATE INDEX users_wallet_lower ON users(lower(wallet));
CREATE INDEX ico_unlinked_wallet ON ico_transactions(lower(wallet)) WHERE user_id IS NULL;
CREATE INDEX activation_nodes_unlinked ON activation_nodes(lower(wallet)) WHERE user_id IS NULL;
CREATE INDEX stake_positions_wallet ON stake_positions(lower(wallet)) WHERE user_id IS NULL;
CREATE INDEX nft_purchases_unlinked ON nft_purchases(lower(wallet)) WHERE user_id IS NULL;
CREATE INDEX claim_payments_wallet ON claim_payments(lower(wallet));
CREATE INDEX claims_wallet ON claims(lower(wallet), status);
