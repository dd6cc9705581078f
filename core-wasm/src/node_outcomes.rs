//! What members who hold an activation node have earned from the platform so far, for the page
//! that sells the node: how many hold one, the quartiles of what they earned (nearest-rank: each
//! figure is one member's real amount, never an average of two), and how many earned less than
//! the node's price. Shown only from [`MIN_HOLDERS`] up: fewer would say what one person earned.
//!
//! What the page says of them is chosen here too ([`Said`]), so that every sentence stays true
//! whatever the figures: "half earned 0.00 or more; a quarter less than 0.00" was shown when no
//! holder had earned anything (nobody earns less than zero, and with ties "less than the first
//! quartile" is rarely a quarter). Each sentence is a bound that nearest-rank quartiles always
//! meet ("at least half earned the median or more") or an exact count.

use serde::Serialize;

use crate::amount::Units;

/// Fewest node holders the figures are shown for.
pub const MIN_HOLDERS: usize = 5;

/// The outcomes, in USDT base units.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = NodeOutcomes))]
#[serde(rename_all = "camelCase")]
pub struct Outcomes {
    pub holders: usize,
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    pub q1: Units,
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    pub median: Units,
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    pub q3: Units,
    /// Holders who earned less than the node's price.
    pub below_price: usize,
    /// Holders who have earned nothing yet.
    pub nothing: usize,
    /// What the page says of these figures, in order: each sentence true of them.
    pub said: Vec<Said>,
}

/// One sentence about the holders' earnings: its translation key with its figures (`count`
/// holders, an `amount` in USDT base units; 0 where the sentence has none).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = NodeOutcomeSaid))]
pub struct Said {
    pub key: &'static str,
    pub count: usize,
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    pub amount: Units,
}

/// Nobody has earned anything yet.
pub const NONE: &str = "node-outcomes-none";
/// `count` holders have earned nothing yet.
pub const NOTHING: &str = "node-outcomes-nothing";
/// At least half have earned `amount` (the median, > 0) or more.
pub const HALF_AT_LEAST: &str = "node-outcomes-half";
/// At least a quarter have earned `amount` (the third quartile, above the median) or more.
pub const QUARTER_AT_LEAST: &str = "node-outcomes-top-quarter";
/// At least a quarter have earned `amount` (the first quartile, > 0, below the median) or less.
pub const QUARTER_AT_MOST: &str = "node-outcomes-low-quarter";
/// `count` holders have earned less than the node's price.
pub const BELOW_PRICE: &str = "node-outcomes-below";
/// Every key [`Said`] carries (each needs a translation).
pub const KEYS: [&str; 6] = [
    NONE,
    NOTHING,
    HALF_AT_LEAST,
    QUARTER_AT_LEAST,
    QUARTER_AT_MOST,
    BELOW_PRICE,
];

fn said(key: &'static str, count: usize, amount: Units) -> Said {
    Said { key, count, amount }
}

/// The sentences for quartiles `q1 ≤ median ≤ q3` (nearest rank), `nothing` holders at zero and
/// `below` under the price, leaving out what would be empty ("0.00 or more") or repeat another.
fn sentences(
    q1: Units,
    median: Units,
    q3: Units,
    nothing: usize,
    holders: usize,
    below: usize,
) -> Vec<Said> {
    if nothing == holders {
        return vec![said(NONE, 0, 0)];
    }
    let mut out = Vec::new();
    if nothing > 0 {
        out.push(said(NOTHING, nothing, 0));
    }
    if median > 0 {
        out.push(said(HALF_AT_LEAST, 0, median));
    }
    if q3 > median {
        out.push(said(QUARTER_AT_LEAST, 0, q3));
    }
    if q1 > 0 && q1 < median {
        out.push(said(QUARTER_AT_MOST, 0, q1));
    }
    out.push(said(BELOW_PRICE, below, 0));
    out
}

/// The outcomes of `earned` (each holder's earnings, USDT base units, any order) against the
/// node's `price`; `None` under [`MIN_HOLDERS`].
pub fn outcomes(mut earned: Vec<Units>, price: Units) -> Option<Outcomes> {
    let n = earned.len();
    if n < MIN_HOLDERS {
        return None;
    }
    earned.sort_unstable();
    // Nearest rank: the smallest value with at least p·n values at or below it.
    let rank = |num: usize, den: usize| earned[(num * n).div_ceil(den).max(1) - 1];
    let (q1, median, q3) = (rank(1, 4), rank(1, 2), rank(3, 4));
    let below_price = earned.partition_point(|&e| e < price);
    let nothing = earned.partition_point(|&e| e == 0);
    Some(Outcomes {
        holders: n,
        q1,
        median,
        q3,
        below_price,
        nothing,
        said: sentences(q1, median, q3, nothing, n, below_price),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The nearest-rank method's own worked example (Wikipedia, "Percentile", nearest-rank
    /// method: 15, 20, 35, 40, 50 → 30th percentile 20, 40th 20, 50th 35, 100th 50), and the
    /// quartiles numpy gives with `method="inverted_cdf"` (its name for nearest rank).
    #[test]
    fn quartiles_are_members_real_amounts_by_nearest_rank() {
        let o = outcomes(vec![50, 15, 40, 20, 35], 30).unwrap();
        assert_eq!((o.q1, o.median, o.q3), (20, 35, 40));
        assert_eq!((o.holders, o.below_price), (5, 2));
        // numpy.percentile([3, 6, 7, 8, 8, 10, 13, 15, 16, 20], [25, 50, 75],
        // method="inverted_cdf") == [7, 8, 15]
        let o = outcomes(vec![3, 6, 7, 8, 8, 10, 13, 15, 16, 20], 8).unwrap();
        assert_eq!((o.q1, o.median, o.q3), (7, 8, 15));
        assert_eq!(o.below_price, 3, "earned less than the price, not at it");
    }

    /// Whether `s` is true of `earned` against `price`, checked by counting, not by quartiles.
    fn holds(s: &Said, earned: &[Units], price: Units) -> bool {
        let n = earned.len();
        let at_least = |a: Units| earned.iter().filter(|&&e| e >= a).count();
        let at_most = |a: Units| earned.iter().filter(|&&e| e <= a).count();
        let one_holders = earned.contains(&s.amount);
        match s.key {
            NONE => earned.iter().all(|&e| e == 0),
            NOTHING => s.count == at_most(0) && s.count > 0,
            HALF_AT_LEAST => s.amount > 0 && one_holders && 2 * at_least(s.amount) >= n,
            QUARTER_AT_LEAST => s.amount > 0 && one_holders && 4 * at_least(s.amount) >= n,
            QUARTER_AT_MOST => s.amount > 0 && one_holders && 4 * at_most(s.amount) >= n,
            BELOW_PRICE => s.count == earned.iter().filter(|&&e| e < price).count(),
            _ => false,
        }
    }

    fn keys(o: &Outcomes) -> Vec<&'static str> {
        o.said.iter().map(|s| s.key).collect()
    }

    /// Every holder at zero (the demo's first days): one sentence, "nobody has earned anything
    /// yet", never "half earned 0.00 or more; a quarter less than 0.00".
    #[test]
    fn all_at_zero_says_nobody_earned_yet() {
        let o = outcomes(vec![0; 7], 50_000_000).unwrap();
        assert_eq!((o.nothing, o.below_price), (7, 7));
        assert_eq!(keys(&o), [NONE]);
    }

    /// One holder earned, the rest nothing: the count at zero and the price line, no quartile
    /// (each is 0).
    #[test]
    fn one_earner_among_zeros_is_counted_not_ranked() {
        let o = outcomes(vec![0, 0, 0, 0, 80_000_000], 50_000_000).unwrap();
        assert_eq!(keys(&o), [NOTHING, BELOW_PRICE]);
        assert_eq!((o.said[0].count, o.said[1].count), (4, 4));
    }

    /// Every holder at one amount: "at least half earned it or more", nothing about quarters
    /// (they would repeat it).
    #[test]
    fn ties_say_each_figure_once() {
        let o = outcomes(vec![30_000_000; 5], 50_000_000).unwrap();
        assert_eq!(keys(&o), [HALF_AT_LEAST, BELOW_PRICE]);
        assert_eq!(o.said[0].amount, 30_000_000);
        let o = outcomes(vec![0, 0, 10, 10, 10, 40, 90, 90], 20).unwrap();
        assert_eq!(
            keys(&o),
            [NOTHING, HALF_AT_LEAST, QUARTER_AT_LEAST, BELOW_PRICE]
        );
    }

    /// Whatever the figures (few holders, one holder, zeros, ties, spread), every sentence is
    /// true when checked by counting, and "nobody earned" never sits beside another.
    #[test]
    fn every_sentence_holds_at_every_shape() {
        let mut shapes: Vec<Vec<Units>> = vec![
            vec![0; 5],
            vec![0, 0, 0, 0, 1],
            vec![1; 5],
            vec![0, 1, 1, 1, 1],
            vec![0, 0, 0, 7, 7, 7],
            vec![50, 15, 40, 20, 35],
            vec![3, 6, 7, 8, 8, 10, 13, 15, 16, 20],
            vec![u128::from(u64::MAX); 9],
        ];
        // Random shapes (xorshift): small sets with many ties and zeros, and larger spreads.
        let mut x = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..2_000 {
            let n = 5 + (next() % 40) as usize;
            let spread = [2, 5, 100, 1_000_000_000][(next() % 4) as usize];
            shapes.push((0..n).map(|_| u128::from(next() % spread)).collect());
        }
        for earned in shapes {
            for price in [0, 1, 4, 60, 50_000_000] {
                let o = outcomes(earned.clone(), price).unwrap();
                assert!(!o.said.is_empty(), "{earned:?}");
                for s in &o.said {
                    assert!(holds(s, &earned, price), "{s:?} of {earned:?} at {price}");
                }
                assert!(
                    !keys(&o).contains(&NONE) || o.said.len() == 1,
                    "{earned:?}: {:?}",
                    keys(&o)
                );
            }
        }
    }

    #[test]
    fn too_few_holders_say_nothing() {
        assert_eq!(outcomes(vec![1, 2, 3, 4], 1), None);
        assert_eq!(outcomes(vec![0, 0, 0, 0], 1), None);
        assert_eq!(
            outcomes(vec![7], 1),
            None,
            "one holder: their amount is theirs alone"
        );
        assert_eq!(outcomes(Vec::new(), 1), None);
    }
}
