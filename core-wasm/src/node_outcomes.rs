//! What members who hold an activation node have earned from the platform so far, for the page
//! that sells the node: how many hold one, the quartiles of what they earned (nearest-rank: each
//! figure is one member's real amount, never an average of two), and how many earned less than
//! the node's price. Shown only from [`MIN_HOLDERS`] up: fewer would say what one person earned.

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
    Some(Outcomes {
        holders: n,
        q1: rank(1, 4),
        median: rank(1, 2),
        q3: rank(3, 4),
        below_price: earned.partition_point(|&e| e < price),
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

    #[test]
    fn too_few_holders_say_nothing() {
        assert_eq!(outcomes(vec![1, 2, 3, 4], 1), None);
        assert_eq!(outcomes(Vec::new(), 1), None);
    }
}
