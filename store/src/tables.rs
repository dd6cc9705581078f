//! Every table of the schema, once, parents before children: its money columns (base-unit
//! text: the copy sums them on both sides) and, for what the chain decides, the rows that are
//! its state (the digest hashes them; `lvlx books verify` compares them line by line, and a
//! reorganisation must take them back). A table the migrations make and this list does not name
//! fails `storage.rs` the_copy_moves_every_table_the_migrations_make.

/// One table.
pub struct Table {
    pub name: &'static str,
    /// Money columns (base-unit text).
    pub money: &'static [&'static str],
    /// What the chain decides of it, if anything.
    pub chain: Option<ChainState>,
}

/// A table's part of the chain-derived state: a section name (`books-section-…` in the
/// locales) and a query answering its rows in a fixed order. Server-side times and row ids are
/// left out; chain times are in.
pub struct ChainState {
    pub section: &'static str,
    pub rows: &'static str,
}

const fn table(name: &'static str, money: &'static [&'static str]) -> Table {
    Table {
        name,
        money,
        chain: None,
    }
}

const fn from_chain(
    name: &'static str,
    money: &'static [&'static str],
    section: &'static str,
    rows: &'static str,
) -> Table {
    Table {
        name,
        money,
        chain: Some(ChainState { section, rows }),
    }
}

pub const ALL: &[Table] = &[
    from_chain(
        "users",
        &["lvlx_balance", "add_rewards", "network_usdt", "own_usdt"],
        "members",
        "SELECT id, lvlx_balance, add_rewards, network_usdt, own_usdt, rank, activation_node
         FROM users ORDER BY id",
    ),
    table("sessions", &[]),
    table("registrations", &[]),
    table("codes", &[]),
    table("sign_in_failures", &[]),
    table("captcha_used", &[]),
    from_chain(
        "ico_transactions",
        &["amount", "usdt_paid"],
        "purchases",
        "SELECT tx_hash, log_index, user_id, wallet, token, amount, usdt_paid, referrer, block, created_at
         FROM ico_transactions WHERE block IS NOT NULL ORDER BY tx_hash, log_index",
    ),
    from_chain(
        "ico_daily",
        &["amount"],
        "days",
        "SELECT day, token, count, amount FROM ico_daily ORDER BY day, token",
    ),
    table("content_blocks", &[]),
    table("uploads", &[]),
    table("sealed_secrets", &[]),
    table("secret_audit", &[]),
    table("wallet_nonces", &[]),
    table("chain_cursor", &[]),
    table("chain_blocks", &[]),
    from_chain(
        "stake_positions",
        &["amount", "reward", "withdrawn"],
        "positions",
        "SELECT pool, position, user_id, wallet, kind, amount, reward, start_date, release_date,
           withdrawn, closed_at, tx_hash, log_index FROM stake_positions ORDER BY pool, position",
    ),
    from_chain(
        "chain_events",
        &["amount"],
        "events",
        "SELECT tx_hash, log_index, contract, event, amount, at, block, position FROM chain_events
         ORDER BY tx_hash, log_index",
    ),
    from_chain(
        "nft_purchases",
        &["usdt_paid"],
        "nft purchases",
        "SELECT tx_hash, log_index, user_id, wallet, nft_id, quantity, usdt_paid, created_at, block
         FROM nft_purchases ORDER BY tx_hash, log_index",
    ),
    from_chain(
        "activation_nodes",
        &["usdt_paid"],
        "nodes",
        "SELECT wallet, user_id, usdt_paid, block, log_index, created_at, tx_hash
         FROM activation_nodes ORDER BY tx_hash, log_index",
    ),
    from_chain(
        "commissions",
        &["amount"],
        "commissions",
        "SELECT t.tx_hash, t.log_index, m.level, m.user_id, m.buyer_id, m.amount, m.created_at
         FROM commissions m JOIN ico_transactions t ON t.id = m.purchase_id
         ORDER BY t.tx_hash, t.log_index, m.level",
    ),
    from_chain(
        "settled_purchases",
        &["usdt"],
        "settled",
        "SELECT t.tx_hash, t.log_index, s.buyer_id, s.usdt FROM settled_purchases s
         JOIN ico_transactions t ON t.id = s.purchase_id ORDER BY t.tx_hash, t.log_index",
    ),
    table("ranks", &["threshold", "bonus"]),
    table("rank_versions", &["threshold", "bonus"]),
    table("admin_audit", &[]),
    table("audit_chain", &[]),
    from_chain(
        "rank_bonuses",
        &["amount", "volume"],
        "rank bonuses",
        "SELECT user_id, rank_id, amount FROM rank_bonuses ORDER BY user_id, rank_id",
    ),
    from_chain(
        "claims",
        &["amount", "cumulative"],
        "claims",
        "SELECT id, status, paid_at, tx_hash, log_index FROM claims ORDER BY id",
    ),
    from_chain(
        "claim_payments",
        &["amount", "cumulative"],
        "payments",
        "SELECT tx_hash, log_index, wallet, amount, cumulative, created_at, block
         FROM claim_payments ORDER BY tx_hash, log_index",
    ),
    table("chain_reversals", &["amount"]),
    table("kyc_events", &[]),
    table("video_meta", &[]),
    table("onramp_sessions", &[]),
    table("table_versions", &[]),
    table("books_checks", &[]),
    table("owner_proposals", &[]),
    table("owner_signatures", &[]),
];

/// Tables whose migration writes rows (the default ranks and their first version, the table
/// versions): a copy replaces those with the source's.
pub const SEEDED: &[&str] = &["ranks", "rank_versions", "table_versions"];

/// Tables the copy leaves behind on purpose: per-minute request counts, void a minute later.
pub const NOT_COPIED: &[&str] = &["rate_limits"];
