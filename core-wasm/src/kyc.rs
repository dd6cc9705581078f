//! Identity verification (KYC, docs/product/help.md#kyc): an account's status, how a provider's
//! event moves it, and the claim rule that depends on it. The provider is Persona (its inquiry
//! events): its webhook's signature and event are read in [`webhook`], what the event means here.

pub mod webhook;

use serde::{Deserialize, Serialize};

use crate::amount::Units;

/// none → pending → approved | rejected; an admin may set any status (with a reason).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum KycStatus {
    #[default]
    None,
    Pending,
    Approved,
    Rejected,
}

impl KycStatus {
    pub const ALL: [KycStatus; 4] = [
        KycStatus::None,
        KycStatus::Pending,
        KycStatus::Approved,
        KycStatus::Rejected,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            KycStatus::None => "none",
            KycStatus::Pending => "pending",
            KycStatus::Approved => "approved",
            KycStatus::Rejected => "rejected",
        }
    }

    pub fn parse(text: &str) -> Option<KycStatus> {
        KycStatus::ALL.into_iter().find(|s| s.as_str() == text)
    }

    /// The translation key of the status as a member reads it.
    pub fn key(self) -> &'static str {
        match self {
            KycStatus::None => "kyc-status-none",
            KycStatus::Pending => "kyc-status-pending",
            KycStatus::Approved => "kyc-status-approved",
            KycStatus::Rejected => "kyc-status-rejected",
        }
    }
}

/// The status a Persona inquiry event puts the account in, or `None` for an event that does not
/// change it (reports, documents, accounts …). Persona's inquiry lifecycle: created → started
/// → completed → approved | declined (or failed, expired, marked for review).
pub fn status_after_event(event: &str) -> Option<KycStatus> {
    Some(match event {
        "inquiry.created"
        | "inquiry.started"
        | "inquiry.completed"
        | "inquiry.marked-for-review" => KycStatus::Pending,
        "inquiry.approved" => KycStatus::Approved,
        "inquiry.declined" | "inquiry.failed" => KycStatus::Rejected,
        // An abandoned inquiry leaves nothing verified: the member starts again.
        "inquiry.expired" => KycStatus::None,
        _ => return None,
    })
}

/// Why a claim is refused for identity reasons.
pub const KYC_REQUIRED: &str = "error-kyc-required";

/// Claims above `threshold` (LVLX base units; `None` = no threshold) need an approved identity.
/// `claimed` is everything the member will have claimed with this claim (the voucher's
/// cumulative), so a large amount cannot pass in pieces each under the threshold.
pub fn claim_allowed(claimed: Units, threshold: Option<Units>, status: KycStatus) -> bool {
    match threshold {
        Some(limit) if claimed > limit => status == KycStatus::Approved,
        _ => true,
    }
}

/// How much more a member who has claimed `claimed` in all may claim before the identity rule
/// stops them: `None` when it never does (no threshold, or an approved identity). A claim is
/// cut to this room rather than refused, so a member always receives what they may.
pub fn claim_room(claimed: Units, threshold: Option<Units>, status: KycStatus) -> Option<Units> {
    match threshold {
        Some(limit) if status != KycStatus::Approved => Some(limit.saturating_sub(claimed)),
        _ => None,
    }
}

/// What is claimable, said in two parts: what a claim may pay now under the identity rule, and
/// what waits until the member's identity is verified. Every page that shows a claimable amount
/// shows these two (docs/product/help.md#kyc).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ClaimSplit {
    /// LVLX a claim may pay now as far as the identity rule goes (the claim contract's caps may
    /// still pay it in parts).
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    pub available: Units,
    /// LVLX held until the member's identity is verified.
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    pub held: Units,
}

/// [`ClaimSplit`] of `claimable` for a member whose wallet the distributor has paid `claimed`
/// in all: the part within [`claim_room`] is available, the rest is held for an identity.
/// `available + held == claimable` always.
pub fn claim_split(
    claimable: Units,
    claimed: Units,
    threshold: Option<Units>,
    status: KycStatus,
) -> ClaimSplit {
    let available = match claim_room(claimed, threshold, status) {
        Some(room) => claimable.min(room),
        None => claimable,
    };
    ClaimSplit {
        available,
        held: claimable - available,
    }
}

/// Every key this module hands to a person.
pub const KEYS: [&str; 5] = [
    KYC_REQUIRED,
    "kyc-status-none",
    "kyc-status-pending",
    "kyc-status-approved",
    "kyc-status-rejected",
];

/// The longest reason an admin gives for a decision on a member (identity, a block).
pub const REASON_MAX: usize = 500;

/// Whether `reason` (trimmed) is one an admin may give: 1–500 characters, plain text
/// (`display::is_plain`), as the append-only audit will show it.
pub fn valid_reason(reason: &str) -> bool {
    let reason = reason.trim();
    !reason.is_empty() && reason.chars().count() <= REASON_MAX && crate::display::is_plain(reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_round_trip_and_unknown_text_is_refused() {
        for s in KycStatus::ALL {
            assert_eq!(KycStatus::parse(s.as_str()), Some(s));
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
        assert_eq!(KycStatus::parse("Approved"), None);
        assert_eq!(KycStatus::parse(""), None);
    }

    #[test]
    fn persona_inquiry_events_move_the_status() {
        assert_eq!(
            status_after_event("inquiry.started"),
            Some(KycStatus::Pending)
        );
        assert_eq!(
            status_after_event("inquiry.completed"),
            Some(KycStatus::Pending)
        );
        assert_eq!(
            status_after_event("inquiry.approved"),
            Some(KycStatus::Approved)
        );
        assert_eq!(
            status_after_event("inquiry.declined"),
            Some(KycStatus::Rejected)
        );
        assert_eq!(
            status_after_event("inquiry.failed"),
            Some(KycStatus::Rejected)
        );
        assert_eq!(status_after_event("inquiry.expired"), Some(KycStatus::None));
        assert_eq!(status_after_event("report/watchlist.ready"), None);
        assert_eq!(status_after_event("inquiry.approved "), None);
    }

    #[test]
    fn claims_above_the_threshold_need_an_approved_identity() {
        let limit = Some(1_000);
        assert!(
            claim_allowed(1_000, limit, KycStatus::None),
            "at the threshold"
        );
        assert!(!claim_allowed(1_001, limit, KycStatus::None));
        assert!(!claim_allowed(1_001, limit, KycStatus::Pending));
        assert!(!claim_allowed(1_001, limit, KycStatus::Rejected));
        assert!(claim_allowed(1_001, limit, KycStatus::Approved));
        assert!(
            claim_allowed(u128::MAX, None, KycStatus::None),
            "no threshold"
        );
    }

    #[test]
    fn the_room_left_is_what_a_claim_may_still_bring_under_the_rule() {
        let limit = Some(1_000);
        assert_eq!(claim_room(0, limit, KycStatus::None), Some(1_000));
        assert_eq!(claim_room(400, limit, KycStatus::Pending), Some(600));
        assert_eq!(claim_room(1_500, limit, KycStatus::Rejected), Some(0));
        assert_eq!(claim_room(1_500, limit, KycStatus::Approved), None);
        assert_eq!(claim_room(1_500, None, KycStatus::None), None);
        // The room and the rule agree: claiming exactly the room is allowed, one more is not.
        for (before, status) in [(0, KycStatus::None), (999, KycStatus::Pending)] {
            let room = claim_room(before, limit, status).unwrap();
            assert!(claim_allowed(before + room, limit, status));
            assert!(!claim_allowed(before + room + 1, limit, status));
        }
    }

    #[test]
    fn the_claimable_amount_splits_into_available_now_and_held_for_an_identity() {
        let limit = Some(10_000);
        // The walk: 99,200 earned, 10,000 claimed without an identity: all the rest waits.
        let walk = claim_split(89_200, 10_000, limit, KycStatus::None);
        assert_eq!(
            walk,
            ClaimSplit {
                available: 0,
                held: 89_200
            }
        );
        // Approved: everything is available.
        let approved = claim_split(89_200, 10_000, limit, KycStatus::Approved);
        assert_eq!(
            approved,
            ClaimSplit {
                available: 89_200,
                held: 0
            }
        );
        // Nothing claimed yet: the threshold's worth now, the rest held.
        assert_eq!(
            claim_split(99_200, 0, limit, KycStatus::Pending),
            ClaimSplit {
                available: 10_000,
                held: 89_200
            }
        );
        // Under the room: nothing held. No threshold: nothing held.
        assert_eq!(
            claim_split(400, 500, limit, KycStatus::Rejected),
            ClaimSplit {
                available: 400,
                held: 0
            }
        );
        assert_eq!(
            claim_split(u128::MAX, 0, None, KycStatus::None),
            ClaimSplit {
                available: u128::MAX,
                held: 0
            }
        );
        // The split agrees with the rule and always adds up.
        for (claimable, claimed, status) in [
            (0, 0, KycStatus::None),
            (10_001, 0, KycStatus::None),
            (5, 9_999, KycStatus::Rejected),
            (7, 20_000, KycStatus::Pending),
        ] {
            let s = claim_split(claimable, claimed, limit, status);
            assert_eq!(s.available + s.held, claimable);
            if s.available > 0 {
                assert!(claim_allowed(claimed + s.available, limit, status));
            }
            if s.held > 0 {
                assert!(!claim_allowed(claimed + s.available + 1, limit, status));
            }
        }
        assert_eq!(
            serde_json::to_value(walk).unwrap(),
            serde_json::json!({"available": "0", "held": "89200"})
        );
    }
}
