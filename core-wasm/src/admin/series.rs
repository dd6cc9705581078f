//! The admin charts' time series: the kept rows counted into calendar periods at the viewer's
//! offset, every period between the first and the last present (empty ones too), so a chart's
//! time axis is true. The period grows with the span so a chart never has more than about a
//! hundred bars: days up to a quarter, ISO weeks (Monday first) up to two years, months beyond.

use chrono::{Datelike, NaiveDate};
use serde::Serialize;

use super::DAY_MS;

/// How long one period of a series is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Grain {
    Day,
    Week,
    Month,
}

impl Grain {
    /// Spans of up to this many calendar days are drawn by day.
    pub const DAYS_UP_TO: i64 = 92;
    /// Spans of up to this many calendar days are drawn by week; longer ones by month.
    pub const WEEKS_UP_TO: i64 = 731;

    /// The grain for rows from epoch day `first` to epoch day `last` (inclusive).
    pub fn for_span(first: i64, last: i64) -> Grain {
        match last - first + 1 {
            n if n <= Self::DAYS_UP_TO => Grain::Day,
            n if n <= Self::WEEKS_UP_TO => Grain::Week,
            _ => Grain::Month,
        }
    }

    /// The period holding epoch day `day`, as a number that grows by one a period.
    fn period(self, day: i64) -> i64 {
        match self {
            Grain::Day => day,
            // 1970-01-01 was a Thursday: day + 3 counts from Monday 1969-12-29.
            Grain::Week => (day + 3).div_euclid(7),
            Grain::Month => {
                let date = epoch_day(day);
                i64::from(date.year()) * 12 + i64::from(date.month0())
            }
        }
    }

    /// The first calendar day of `period`.
    fn first_day(self, period: i64) -> NaiveDate {
        match self {
            Grain::Day => epoch_day(period),
            Grain::Week => epoch_day(period * 7 - 3),
            Grain::Month => NaiveDate::from_ymd_opt(
                period.div_euclid(12) as i32,
                period.rem_euclid(12) as u32 + 1,
                1,
            )
            .unwrap_or_default(),
        }
    }
}

fn epoch_day(day: i64) -> NaiveDate {
    NaiveDate::default() + chrono::Duration::days(day)
}

/// One period of a series: its first day (YYYY-MM-DD) and what the rows in it add up to.
#[derive(Debug, PartialEq, Serialize)]
pub struct Point<A> {
    pub start: String,
    #[serde(flatten)]
    pub values: A,
}

/// A chart's series: its grain and every period from the first kept row's to the last's.
#[derive(Debug, PartialEq, Serialize)]
pub struct Series<A> {
    pub grain: Grain,
    pub points: Vec<Point<A>>,
}

impl<A> Series<A> {
    /// The same periods with each one's values turned by `f`.
    pub fn map<B>(self, mut f: impl FnMut(A) -> B) -> Series<B> {
        Series {
            grain: self.grain,
            points: self
                .points
                .into_iter()
                .map(|p| Point {
                    start: p.start,
                    values: f(p.values),
                })
                .collect(),
        }
    }
}

/// Counts date-ordered `rows` (indexes into `times`, UTC milliseconds) into periods at the
/// viewer's `offset_minutes`; `add` gathers one row into its period's `A`.
pub(crate) fn per_period<A: Default>(
    times: &[i64],
    rows: impl DoubleEndedIterator<Item = u32> + Clone,
    offset_minutes: i32,
    mut add: impl FnMut(&mut A, usize),
) -> Series<A> {
    let offset_ms = i64::from(offset_minutes) * 60_000;
    let day = |row: u32| (times[row as usize] + offset_ms).div_euclid(DAY_MS);
    let (Some(first), Some(last)) = (rows.clone().next(), rows.clone().next_back()) else {
        return Series {
            grain: Grain::Day,
            points: Vec::new(),
        };
    };
    let grain = Grain::for_span(day(first), day(last));
    let origin = grain.period(day(first));
    let count = (grain.period(day(last)) - origin + 1) as usize;
    let mut gathered: Vec<A> = (0..count).map(|_| A::default()).collect();
    for row in rows {
        let at = (grain.period(day(row)) - origin) as usize;
        add(&mut gathered[at], row as usize);
    }
    Series {
        grain,
        points: gathered
            .into_iter()
            .enumerate()
            .map(|(i, values)| Point {
                start: crate::date::format_day(grain.first_day(origin + i as i64)),
                values,
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T0: i64 = 1_767_225_600_000; // 2026-01-01T00:00:00Z, a Thursday

    fn counts(times: &[i64], offset: i32) -> Series<u64> {
        per_period(times, 0..times.len() as u32, offset, |n: &mut u64, _| {
            *n += 1
        })
    }

    fn starts(series: &Series<u64>) -> Vec<(&str, u64)> {
        series
            .points
            .iter()
            .map(|p| (p.start.as_str(), p.values))
            .collect()
    }

    #[test]
    fn empty_days_between_rows_are_present() {
        let s = counts(&[T0, T0 + 1000, T0 + 3 * DAY_MS], 0);
        assert_eq!(s.grain, Grain::Day);
        assert_eq!(
            starts(&s),
            [
                ("2026-01-01", 2),
                ("2026-01-02", 0),
                ("2026-01-03", 0),
                ("2026-01-04", 1)
            ]
        );
    }

    #[test]
    fn the_viewers_offset_moves_rows_across_midnight() {
        let late = T0 - 60_000; // 2025-12-31T23:59Z
        assert_eq!(starts(&counts(&[late], 0)), [("2025-12-31", 1)]);
        assert_eq!(starts(&counts(&[late], 60)), [("2026-01-01", 1)]);
    }

    #[test]
    fn the_grain_grows_with_the_span() {
        assert_eq!(Grain::for_span(0, 91), Grain::Day);
        assert_eq!(Grain::for_span(0, 92), Grain::Week);
        assert_eq!(Grain::for_span(0, 730), Grain::Week);
        assert_eq!(Grain::for_span(0, 731), Grain::Month);
    }

    #[test]
    fn weeks_start_on_monday() {
        // Thursday 2026-01-01 … Monday 2026-04-06: 96 days, by week.
        let s = counts(&[T0, T0 + 4 * DAY_MS, T0 + 95 * DAY_MS], 0);
        assert_eq!(s.grain, Grain::Week);
        let first = &s.points[0];
        assert_eq!((first.start.as_str(), first.values), ("2025-12-29", 1));
        assert_eq!(
            (s.points[1].start.as_str(), s.points[1].values),
            ("2026-01-05", 1)
        );
        assert_eq!(
            s.points.last().map(|p| p.start.as_str()),
            Some("2026-04-06")
        );
        assert_eq!(s.points.iter().map(|p| p.values).sum::<u64>(), 3);
        assert!(s.points.windows(2).all(|w| {
            let a = NaiveDate::parse_from_str(&w[0].start, "%Y-%m-%d").unwrap();
            let b = NaiveDate::parse_from_str(&w[1].start, "%Y-%m-%d").unwrap();
            b - a == chrono::Duration::days(7) && a.weekday() == chrono::Weekday::Mon
        }));
    }

    #[test]
    fn months_cover_long_spans_across_years() {
        let s = counts(&[T0 - 400 * DAY_MS, T0, T0 + 400 * DAY_MS], 0);
        assert_eq!(s.grain, Grain::Month);
        assert_eq!(
            s.points.first().map(|p| p.start.as_str()),
            Some("2024-11-01")
        );
        assert_eq!(
            s.points.last().map(|p| p.start.as_str()),
            Some("2027-02-01")
        );
        assert_eq!(s.points.len(), 28);
        assert_eq!(s.points.iter().map(|p| p.values).sum::<u64>(), 3);
    }

    #[test]
    fn before_1970_counts_too() {
        let s = counts(&[-DAY_MS, 0], 0);
        assert_eq!(starts(&s), [("1969-12-31", 1), ("1970-01-01", 1)]);
    }
}
