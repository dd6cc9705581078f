//! Every translation key the core can hand to a person: field rules, wallet-linking failures,
//! explained reverts, purchase plans, the errors of amounts and tables, and what the node page
//! says of holders' earnings. The server's translation test checks each against every locale.

use crate::validation::Invalid;

pub fn all() -> Vec<&'static str> {
    let mut keys: Vec<&'static str> = Invalid::ALL.iter().map(|i| i.key()).collect();
    keys.extend(["error-wallet-link-expired", "error-wallet-link-failed"]);
    keys.extend(crate::chain::REVERT_KEYS);
    keys.extend(crate::staking::StakingError::KEYS);
    keys.extend(crate::sale::PlanError::KEYS);
    keys.extend(crate::network::NetworkError::KEYS);
    keys.extend(crate::kyc::KEYS);
    keys.extend(crate::node_outcomes::KEYS);
    keys.extend(crate::chain::proposals::KEYS);
    keys.extend([
        "buy-amount-too-large",
        "error-date-malformed",
        "error-date-range",
        "error-table-unreadable",
        "error-internal",
    ]);
    keys.sort_unstable();
    keys.dedup();
    keys
}
