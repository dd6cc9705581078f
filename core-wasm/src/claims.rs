//! What one claim pays now: the ClaimDistributor pays a voucher only within its per-claim cap,
//! the room its cap over all accounts leaves now and the room the account's own cap leaves now
//! (both rolling: what a claim takes comes back at the cap's rate over 24 hours), so the server
//! signs that much and no more; the rest stays claimable for a later claim. A voucher for more
//! would revert whole on chain: paying in parts is the server's, not the contract's.

use serde::Serialize;

use crate::amount::Units;

/// The distributor's limits as read at one block: the per-claim cap, the two rolling caps and
/// the room they leave at that block (`room()` and `accountRoom(account)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    pub max_per_claim: Units,
    pub max_per_day: Units,
    /// What all claims together may take now.
    pub room: Units,
    pub max_per_account_day: Units,
    /// What the claiming account may receive now.
    pub account_room: Units,
}

/// A claim a rolling cap holds back waits until at least 1/`LEAST_BACK` of that cap has come
/// back (a quarter of an hour's worth) rather than paying the dust that comes back each second.
pub const LEAST_BACK: Units = 100;

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

/// What the distributor has paid a wallet, given the cumulative totals its payments carried:
/// each payment states the wallet's total so far, so the highest is what it was paid in all.
pub fn paid_out(cumulatives: impl IntoIterator<Item = Units>) -> Units {
    cumulatives.into_iter().max().unwrap_or(0)
}

/// Whether a claim whose voucher brings the wallet to `cumulative` can still pay once the
/// distributor has paid the wallet `paid_out`: one that brings it no further never will.
pub fn can_still_pay(cumulative: Units, paid_out: Units) -> bool {
    cumulative > paid_out
}

/// What a member who has `earned` in all and been paid `claimed` on chain can claim now under
/// `caps`.
pub fn payable(earned: Units, claimed: Units, caps: &Caps) -> Payable {
    let owed = owed(earned, claimed);
    // The tightest cap holds the rest back; on a tie, the account's own cap names it (it is
    // what the member can do something about: wait for it to come back).
    let (room, limit) = [
        (caps.max_per_claim, Limit::Claim),
        (caps.room, Limit::Day),
        (caps.account_room, Limit::AccountDay),
    ]
    .into_iter()
    .rev()
    .min_by_key(|(room, _)| *room)
    .expect("three caps");
    let mut amount = owed.min(room);
    let cap = match limit {
        Limit::Claim => 0,
        Limit::Day => caps.max_per_day,
        Limit::AccountDay => caps.max_per_account_day,
    };
    if amount < owed && amount < cap / LEAST_BACK {
        amount = 0;
    }
    Payable {
        amount,
        cumulative: claimed + amount,
        rest: owed - amount,
        limit: (amount < owed).then_some(limit),
    }
}

/// When an announced signer change could apply at the earliest if claims stay as they are:
/// its own time (`signer_at`) and a whole `delay` after claims' open stretch began
/// (`open_since`); `None` while claims are closed (paused, or a cap under its floor), since it
/// then waits for them to open first. Without the outgoing signer's consent, that is.
pub fn signer_earliest(signer_at: u64, open_since: u64, delay: u64) -> Option<u64> {
    (open_since != 0).then(|| signer_at.max(open_since.saturating_add(delay)))
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
    /// When claims' open stretch began (`openSince()`); 0 while claims are closed.
    pub open_since: u64,
    /// The distributor's delay, seconds.
    pub delay: u64,
    /// How long a change stays applicable after its time (`GRACE_PERIOD`), seconds.
    pub grace: u64,
}

/// One owner change waiting for its time: what it changes, from what to what, from when (`at`,
/// seconds) it may apply and when it lapses (`lapsesAt`, then it must be announced again); a new
/// signer also waits for a whole delay of open claims (`earliest`: when that would be if claims
/// stay open, null while they are closed). `due` once it can be applied at the block read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = PendingOwnerChange))]
#[serde(rename_all = "camelCase", tag = "change")]
pub enum Pending {
    #[serde(rename_all = "camelCase")]
    Signer {
        from: String,
        to: String,
        at: u64,
        earliest: Option<u64>,
        lapses_at: u64,
        due: bool,
        lapsed: bool,
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
        lapses_at: u64,
        due: bool,
        lapsed: bool,
    },
    #[serde(rename_all = "camelCase")]
    Unpause {
        at: u64,
        lapses_at: u64,
        due: bool,
        lapsed: bool,
    },
}

/// The distributor's announced changes at a block whose time is `now`, soonest first.
pub fn pending(a: &Announced, now: u64) -> Vec<Pending> {
    let lapses = |at: u64| at.saturating_add(a.grace);
    let mut list = Vec::new();
    if a.signer_at != 0 {
        let earliest = signer_earliest(a.signer_at, a.open_since, a.delay);
        list.push(Pending::Signer {
            from: a.signer.clone(),
            to: a.pending_signer.clone(),
            at: a.signer_at,
            earliest,
            lapses_at: lapses(a.signer_at),
            due: earliest.is_some_and(|e| now >= e) && now < lapses(a.signer_at),
            lapsed: now >= lapses(a.signer_at),
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
            lapses_at: lapses(a.caps_at),
            due: now >= a.caps_at && now < lapses(a.caps_at),
            lapsed: now >= lapses(a.caps_at),
        });
    }
    if a.unpause_at != 0 {
        list.push(Pending::Unpause {
            at: a.unpause_at,
            lapses_at: lapses(a.unpause_at),
            due: now >= a.unpause_at && now < lapses(a.unpause_at),
            lapsed: now >= lapses(a.unpause_at),
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
        room: 50,
        max_per_account_day: 1_000,
        account_room: 1_000,
    };

    #[test]
    fn a_claim_pays_within_every_cap_and_leaves_the_rest() {
        // Owed 300: 100 per claim, but only 50 left now for everyone.
        let p = payable(1_000, 700, &CAPS);
        assert_eq!((p.amount, p.cumulative, p.rest), (50, 750, 250));
        assert_eq!(p.limit, Some(Limit::Day));
        // Once everyone's room has come back, the per-claim cap binds.
        let back = Caps { room: 250, ..CAPS };
        let p = payable(1_000, 700, &back);
        assert_eq!((p.amount, p.cumulative, p.rest), (100, 800, 200));
        assert_eq!(p.limit, Some(Limit::Claim));
        // Under every cap: everything.
        let p = payable(730, 700, &back);
        assert_eq!(
            (p.amount, p.cumulative, p.rest, p.limit),
            (30, 730, 0, None)
        );
    }

    #[test]
    fn an_account_s_own_room_binds_beside_everyone_s_and_names_a_tie() {
        let mine = Caps {
            account_room: 40,
            ..CAPS
        };
        let p = payable(1_000, 700, &mine);
        assert_eq!(
            (p.amount, p.rest, p.limit),
            (40, 260, Some(Limit::AccountDay))
        );
        let tie = Caps {
            account_room: 50,
            ..CAPS
        };
        assert_eq!(payable(1_000, 700, &tie).limit, Some(Limit::AccountDay));
    }

    #[test]
    fn a_held_back_claim_waits_for_a_hundredth_of_its_cap_to_come_back() {
        // 1 of everyone's 250 has come back: below 1 %, nothing now (the cap is named).
        let dust = Caps { room: 1, ..CAPS };
        let p = payable(1_000, 700, &dust);
        assert_eq!((p.amount, p.rest, p.limit), (0, 300, Some(Limit::Day)));
        // 1 % is enough, and so is dust that pays everything owed.
        assert_eq!(payable(1_000, 700, &Caps { room: 2, ..CAPS }).amount, 2);
        assert_eq!(payable(701, 700, &dust).amount, 1);
    }

    #[test]
    fn nothing_pays_when_the_room_is_spent_or_nothing_is_owed() {
        let spent = Caps { room: 0, ..CAPS };
        assert_eq!(payable(1_000, 0, &spent).amount, 0);
        assert_eq!(payable(1_000, 0, &spent).rest, 1_000);
        assert_eq!(payable(1_000, 0, &spent).limit, Some(Limit::Day));
        // Paid on chain beyond what the server counted (an index behind): nothing owed.
        let p = payable(500, 600, &CAPS);
        assert_eq!((p.amount, p.limit), (0, None));
    }

    #[test]
    fn a_new_signer_waits_its_time_and_a_whole_delay_of_open_claims() {
        // Claims open long before the announcement: its own time.
        assert_eq!(signer_earliest(1_000, 10, 100), Some(1_000));
        // Claims opened (or a cap was lowered) after it: a whole delay from then.
        assert_eq!(signer_earliest(1_000, 950, 100), Some(1_050));
        // Claims closed: not until they open.
        assert_eq!(signer_earliest(1_000, 0, 100), None);
    }

    #[test]
    fn announced_changes_are_listed_soonest_first_due_at_their_time_and_lapse() {
        let a = Announced {
            signer: "0xA".into(),
            pending_signer: "0xB".into(),
            signer_at: 500,
            max_per_claim: 1,
            max_per_day: 2,
            pending_max_per_claim: 10,
            pending_max_per_day: 20,
            caps_at: 300,
            open_since: 450,
            delay: 100,
            grace: 1_000,
            ..Announced::default()
        };
        let list = pending(&a, 520);
        assert_eq!(list.len(), 2);
        assert!(matches!(
            list[0],
            Pending::Caps {
                due: true,
                at: 300,
                lapses_at: 1_300,
                ..
            }
        ));
        // Its time has come, but claims opened at 450: not before 550.
        assert!(matches!(
            &list[1],
            Pending::Signer { due: false, earliest: Some(550), to, .. } if to == "0xB"
        ));
        assert!(matches!(
            pending(&a, 550)[1],
            Pending::Signer { due: true, .. }
        ));
        // Closed claims: no earliest, never due.
        let closed = Announced {
            open_since: 0,
            ..a.clone()
        };
        assert!(matches!(
            pending(&closed, 900)[1],
            Pending::Signer {
                due: false,
                earliest: None,
                ..
            }
        ));
        // Past its grace: lapsed, not due.
        assert!(matches!(
            pending(&a, 1_300)[0],
            Pending::Caps {
                due: false,
                lapsed: true,
                ..
            }
        ));
        let json = serde_json::to_value(&list[1]).unwrap();
        assert_eq!(json["change"], "signer");
        assert_eq!(json["lapsesAt"], 1_500);
        assert_eq!(json["earliest"], 550);
        let json = serde_json::to_value(&list[0]).unwrap();
        assert_eq!(json["toPerDay"], "20");
        assert!(pending(&Announced::default(), 0).is_empty());
    }
}
