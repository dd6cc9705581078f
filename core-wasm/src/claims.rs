//! What one claim pays now: the ClaimDistributor pays a voucher only within its per-claim cap and
//! what is left of the UTC day's cap, so the server signs that much and no more; the rest stays
//! claimable for a later claim (a voucher for more would revert until the owner raised the caps).

use crate::amount::Units;

const DAY_SECONDS: u64 = 86_400;

/// The distributor's limits and the day's tally, as read at one block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    pub max_per_claim: Units,
    pub max_per_day: Units,
    /// The UTC day (`timestamp / 86400`) `paid_today` counts.
    pub day: u64,
    pub paid_today: Units,
}

/// One claim's figures: `amount` now (the voucher's `cumulative` is `claimed + amount`), and
/// what stays claimable after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Payable {
    pub amount: Units,
    pub cumulative: Units,
    pub rest: Units,
}

/// What a member who has `earned` in all and been paid `claimed` on chain can claim at
/// `now` (the block's seconds) under `caps`.
pub fn payable(earned: Units, claimed: Units, caps: &Caps, now: u64) -> Payable {
    let owed = earned.saturating_sub(claimed);
    let paid = if caps.day == now / DAY_SECONDS {
        caps.paid_today
    } else {
        0
    };
    let left_today = caps.max_per_day.saturating_sub(paid);
    let amount = owed.min(caps.max_per_claim).min(left_today);
    Payable {
        amount,
        cumulative: claimed + amount,
        rest: owed - amount,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CAPS: Caps = Caps {
        max_per_claim: 100,
        max_per_day: 250,
        day: 20_000,
        paid_today: 200,
    };
    const TODAY: u64 = 20_000 * DAY_SECONDS + 5;

    #[test]
    fn a_claim_pays_within_both_caps_and_leaves_the_rest() {
        // Owed 300: 100 per claim, but only 50 left today.
        let p = payable(1_000, 700, &CAPS, TODAY);
        assert_eq!((p.amount, p.cumulative, p.rest), (50, 750, 250));
        // Tomorrow the day's tally starts again: the per-claim cap binds.
        let p = payable(1_000, 700, &CAPS, TODAY + DAY_SECONDS);
        assert_eq!((p.amount, p.cumulative, p.rest), (100, 800, 200));
        // Under both caps: everything.
        let p = payable(730, 700, &CAPS, TODAY + DAY_SECONDS);
        assert_eq!((p.amount, p.cumulative, p.rest), (30, 730, 0));
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
}
