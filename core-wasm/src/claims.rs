//! What one claim pays now: the ClaimDistributor pays a voucher only within its per-claim cap,
//! what is left of the UTC day's cap over all accounts and what is left of the account's own
//! daily cap, so the server signs that much and no more; the rest stays claimable for a later
//! claim (a voucher for more would revert until the owner raised the caps).

use serde::Serialize;

use crate::amount::Units;

const DAY_SECONDS: u64 = 86_400;

/// The distributor's limits and the day's tally, as read at one block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    pub max_per_claim: Units,
    pub max_per_day: Units,
    pub max_per_account_day: Units,
    /// The UTC day (`timestamp / 86400`) `paid_today` counts.
    pub day: u64,
    pub paid_today: Units,
    /// The UTC day the claiming account's own tally counts, and what it received that day.
    pub account_day: u64,
    pub account_paid: Units,
}

/// One claim's figures: `amount` now (the voucher's `cumulative` is `claimed + amount`), and
/// what stays claimable after it, held back by `limit` (the tightest cap; `None` when nothing
/// is held back).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Payable {
    pub amount: Units,
    pub cumulative: Units,
    pub rest: Units,
    pub limit: Option<Limit>,
}

/// The cap that held a claim back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    Claim,
    Day,
    AccountDay,
}

impl Limit {
    /// The translation key that says why nothing more pays now.
    pub fn key(self) -> &'static str {
        match self {
            Limit::Claim => "chain-claim-cap",
            Limit::Day => "chain-claim-daily-cap",
            Limit::AccountDay => "chain-claim-account-daily-cap",
        }
    }
}

/// What is still owed to a member who has `earned` in all and been paid `claimed` on chain.
pub fn owed(earned: Units, claimed: Units) -> Units {
    earned.saturating_sub(claimed)
}

/// Whether a claim whose voucher brings the wallet to `cumulative` can still pay once the
/// distributor has paid the wallet `paid_out`: one that brings it no further never will.
pub fn can_still_pay(cumulative: Units, paid_out: Units) -> bool {
    cumulative > paid_out
}

/// What a member who has `earned` in all and been paid `claimed` on chain can claim at
/// `now` (the block's seconds) under `caps`.
pub fn payable(earned: Units, claimed: Units, caps: &Caps, now: u64) -> Payable {
    let owed = owed(earned, claimed);
    let today = now / DAY_SECONDS;
    let counted = |day: u64, paid: Units| if day == today { paid } else { 0 };
    let left_today = caps
        .max_per_day
        .saturating_sub(counted(caps.day, caps.paid_today));
    let left_mine = caps
        .max_per_account_day
        .saturating_sub(counted(caps.account_day, caps.account_paid));
    // The tightest cap holds the rest back; on a tie, the account's own day names it (it is
    // what the member can do something about: wait a day).
    let (room, limit) = [
        (caps.max_per_claim, Limit::Claim),
        (left_today, Limit::Day),
        (left_mine, Limit::AccountDay),
    ]
    .into_iter()
    .rev()
    .min_by_key(|(room, _)| *room)
    .expect("three caps");
    let amount = owed.min(room);
    Payable {
        amount,
        cumulative: claimed + amount,
        rest: owed - amount,
        limit: (amount < owed).then_some(limit),
    }
}

/// What the distributor's owner has announced, as read at one block.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Announced {
    pub signer: String,
    pub max_per_claim: Units,
    pub max_per_day: Units,
    pub max_per_account_day: Units,
    /// A zero address while none is announced.
    pub pending_signer: String,
    pub signer_at: u64,
    pub pending_max_per_claim: Units,
    pub pending_max_per_day: Units,
    pub pending_max_per_account_day: Units,
    pub caps_at: u64,
    pub unpause_at: u64,
}

/// One owner change waiting for its time: what it changes, from what to what, and from when
/// (`at`, seconds) it may apply; `due` once that time has come at the block read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = PendingOwnerChange))]
#[serde(rename_all = "camelCase", tag = "change")]
pub enum Pending {
    Signer {
        from: String,
        to: String,
        at: u64,
        due: bool,
    },
    #[serde(rename_all = "camelCase")]
    Caps {
        #[serde(with = "crate::amount::text")]
        #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
        from_per_claim: Units,
        #[serde(with = "crate::amount::text")]
        #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
        from_per_day: Units,
        #[serde(with = "crate::amount::text")]
        #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
        from_per_account_day: Units,
        #[serde(with = "crate::amount::text")]
        #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
        to_per_claim: Units,
        #[serde(with = "crate::amount::text")]
        #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
        to_per_day: Units,
        #[serde(with = "crate::amount::text")]
        #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
        to_per_account_day: Units,
        at: u64,
        due: bool,
    },
    Unpause {
        at: u64,
        due: bool,
    },
}

/// The distributor's announced changes at a block whose time is `now`, soonest first.
pub fn pending(a: &Announced, now: u64) -> Vec<Pending> {
    let mut list = Vec::new();
    if a.signer_at != 0 {
        list.push(Pending::Signer {
            from: a.signer.clone(),
            to: a.pending_signer.clone(),
            at: a.signer_at,
            due: now >= a.signer_at,
        });
    }
    if a.caps_at != 0 {
        list.push(Pending::Caps {
            from_per_claim: a.max_per_claim,
            from_per_day: a.max_per_day,
            from_per_account_day: a.max_per_account_day,
            to_per_claim: a.pending_max_per_claim,
            to_per_day: a.pending_max_per_day,
            to_per_account_day: a.pending_max_per_account_day,
            at: a.caps_at,
            due: now >= a.caps_at,
        });
    }
    if a.unpause_at != 0 {
        list.push(Pending::Unpause {
            at: a.unpause_at,
            due: now >= a.unpause_at,
        });
    }
    list.sort_by_key(|p| match p {
        Pending::Signer { at, .. } | Pending::Caps { at, .. } | Pending::Unpause { at, .. } => *at,
    });
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    const CAPS: Caps = Caps {
        max_per_claim: 100,
        max_per_day: 250,
        max_per_account_day: 1_000,
        day: 20_000,
        paid_today: 200,
        account_day: 20_000,
        account_paid: 0,
    };
    const TODAY: u64 = 20_000 * DAY_SECONDS + 5;

    #[test]
    fn a_claim_pays_within_both_caps_and_leaves_the_rest() {
        // Owed 300: 100 per claim, but only 50 left today.
        let p = payable(1_000, 700, &CAPS, TODAY);
        assert_eq!((p.amount, p.cumulative, p.rest), (50, 750, 250));
        assert_eq!(p.limit, Some(Limit::Day));
        // Tomorrow the day's tally starts again: the per-claim cap binds.
        let p = payable(1_000, 700, &CAPS, TODAY + DAY_SECONDS);
        assert_eq!((p.amount, p.cumulative, p.rest), (100, 800, 200));
        assert_eq!(p.limit, Some(Limit::Claim));
        // Under both caps: everything.
        let p = payable(730, 700, &CAPS, TODAY + DAY_SECONDS);
        assert_eq!(
            (p.amount, p.cumulative, p.rest, p.limit),
            (30, 730, 0, None)
        );
    }

    #[test]
    fn an_account_s_own_day_binds_beside_everyone_s() {
        // The account received 960 today: 40 more, though the day has 50 left for everyone.
        let mine = Caps {
            max_per_account_day: 1_000,
            account_paid: 960,
            ..CAPS
        };
        let p = payable(1_000, 700, &mine, TODAY);
        assert_eq!(
            (p.amount, p.rest, p.limit),
            (40, 260, Some(Limit::AccountDay))
        );
        // Its tally from yesterday does not count today.
        let yesterday = Caps {
            account_day: 19_999,
            ..mine
        };
        assert_eq!(payable(1_000, 700, &yesterday, TODAY).amount, 50);
        // A lowered account cap below what it received: nothing, not an underflow.
        let lowered = Caps {
            max_per_account_day: 10,
            ..mine
        };
        assert_eq!(payable(1_000, 700, &lowered, TODAY).amount, 0);
    }

    #[test]
    fn nothing_pays_when_the_day_is_spent_or_nothing_is_owed() {
        let spent = Caps {
            paid_today: 250,
            ..CAPS
        };
        assert_eq!(payable(1_000, 0, &spent, TODAY).amount, 0);
        assert_eq!(payable(1_000, 0, &spent, TODAY).rest, 1_000);
        // A lowered daily cap below what was paid: nothing, not an underflow.
        let lowered = Caps {
            max_per_day: 10,
            ..CAPS
        };
        assert_eq!(payable(1_000, 0, &lowered, TODAY).amount, 0);
        // Paid on chain beyond what the server counted (an index behind): nothing owed.
        assert_eq!(payable(500, 600, &CAPS, TODAY).amount, 0);
    }

    #[test]
    fn announced_changes_are_listed_soonest_first_and_due_at_their_time() {
        let a = Announced {
            signer: "0xA".into(),
            pending_signer: "0xB".into(),
            signer_at: 500,
            max_per_claim: 1,
            max_per_day: 2,
            pending_max_per_claim: 10,
            pending_max_per_day: 20,
            caps_at: 300,
            ..Announced::default()
        };
        let list = pending(&a, 400);
        assert_eq!(list.len(), 2);
        assert!(matches!(
            list[0],
            Pending::Caps {
                due: true,
                at: 300,
                ..
            }
        ));
        assert!(matches!(&list[1], Pending::Signer { due: false, to, .. } if to == "0xB"));
        let json = serde_json::to_value(&list[0]).unwrap();
        assert_eq!(json["change"], "caps");
        assert_eq!(json["toPerDay"], "20");
        assert!(pending(&Announced::default(), 0).is_empty());
    }
}
