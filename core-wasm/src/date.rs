//! Time rules (docs/product/money.md#dates-and-time). Timestamps are UTC milliseconds; the caller
//! passes "now" and the viewer's UTC offset, so nothing here reads a clock.

use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveTime, Utc, Weekday};

/// Timestamps below this are seconds, not milliseconds (docs/product.md#constants).
pub const SECONDS_BELOW: i64 = 100_000_000_000;

/// Hour (UTC) of the weekly payout date.
pub const WEEKLY_HOUR_UTC: u32 = 14;

/// Seconds become milliseconds; milliseconds stay.
pub fn normalize_timestamp(t: i64) -> i64 {
    if t.abs() < SECONDS_BELOW {
        t.saturating_mul(1000)
    } else {
        t
    }
}

/// The calendar date (YYYY-MM-DD) of a timestamp for a viewer whose local time is UTC plus
/// `offset_minutes` (east positive; JavaScript's `getTimezoneOffset()` is the negation).
pub fn calendar_date(ms: i64, offset_minutes: i32) -> Option<String> {
    let local = DateTime::<Utc>::from_timestamp_millis(normalize_timestamp(ms))?
        + Duration::minutes(i64::from(offset_minutes));
    Some(format_day(local.date_naive()))
}

/// Formats a date as YYYY-MM-DD.
pub fn format_day(day: NaiveDate) -> String {
    format!("{:04}-{:02}-{:02}", day.year(), day.month(), day.day())
}

/// Parses a strict YYYY-MM-DD date (a real calendar date, 4-2-2 digits).
pub fn parse_day(text: &str) -> Option<NaiveDate> {
    let b = text.as_bytes();
    let shaped = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    if !shaped {
        return None;
    }
    NaiveDate::from_ymd_opt(
        text[..4].parse().ok()?,
        text[5..7].parse().ok()?,
        text[8..].parse().ok()?,
    )
}

/// Whether a language writes the day before the month (es, pt: 31/12/2026) or after it
/// (en: 12/31/2026). The year is always last and always four digits.
fn day_first(language: &str) -> bool {
    language != "en"
}

/// A YYYY-MM-DD date as a person of `language` writes it in a date field: DD/MM/YYYY or
/// MM/DD/YYYY. `None` for a malformed date.
pub fn format_local_day(day: &str, language: &str) -> Option<String> {
    let d = parse_day(day)?;
    let (a, b) = if day_first(language) {
        (d.day(), d.month())
    } else {
        (d.month(), d.day())
    };
    Some(format!("{a:02}/{b:02}/{:04}", d.year()))
}

/// A date typed in `language`'s order (day and month of one or two digits, a four-digit year;
/// `/`, `.` or `-` between them, spaces ignored) as YYYY-MM-DD; `None` unless it is a real
/// calendar date written completely.
pub fn parse_local_day(text: &str, language: &str) -> Option<String> {
    let parts: Vec<&str> = text.split(['/', '.', '-']).map(str::trim).collect();
    let [a, b, year] = parts[..] else {
        return None;
    };
    let digits = |s: &str, len: std::ops::RangeInclusive<usize>| {
        len.contains(&s.len()) && s.bytes().all(|c| c.is_ascii_digit())
    };
    if !digits(a, 1..=2) || !digits(b, 1..=2) || !digits(year, 4..=4) {
        return None;
    }
    let (day, month) = if day_first(language) { (a, b) } else { (b, a) };
    let date = NaiveDate::from_ymd_opt(year.parse().ok()?, month.parse().ok()?, day.parse().ok()?)?;
    Some(format_day(date))
}

/// Inclusive range test on calendar dates. An absent bound is open; a malformed one is an error.
pub fn day_in_range(day: &str, start: Option<&str>, end: Option<&str>) -> Option<bool> {
    let day = parse_day(day)?;
    let after_start = match start {
        Some(s) => day >= parse_day(s)?,
        None => true,
    };
    let before_end = match end {
        Some(e) => day <= parse_day(e)?,
        None => true,
    };
    Some(after_start && before_end)
}

/// Why an inclusive range of calendar dates (either end open) cannot filter anything: the
/// translation key of a malformed date or of an end before the start; None when it can. Every
/// date filter applies a range only when this says None, and keeps its last good range meanwhile.
pub fn range_error(start: Option<&str>, end: Option<&str>) -> Option<&'static str> {
    let parse = |text: Option<&str>| text.map(parse_day);
    match (parse(start), parse(end)) {
        (Some(None), _) | (_, Some(None)) => Some("error-date-malformed"),
        (Some(Some(s)), Some(Some(e))) if e < s => Some("error-date-range"),
        _ => None,
    }
}

/// Inclusive range test of a timestamp, on the viewer's calendar dates.
pub fn timestamp_in_range(
    ms: i64,
    offset_minutes: i32,
    start: Option<&str>,
    end: Option<&str>,
) -> Option<bool> {
    day_in_range(&calendar_date(ms, offset_minutes)?, start, end)
}

/// The next `weekday` (0 = Sunday … 6 = Saturday, as JavaScript's `getDay`) at 14:00 UTC
/// strictly after `now_ms`: today's 14:00 if it is that weekday and 14:00 has not come yet,
/// otherwise the following occurrence.
pub fn next_weekly(now_ms: i64, weekday: u32) -> Option<i64> {
    if weekday > 6 {
        return None;
    }
    // chrono counts from Monday = 0.
    let target = Weekday::try_from(u8::try_from((weekday + 6) % 7).ok()?).ok()?;
    let now = DateTime::<Utc>::from_timestamp_millis(now_ms)?;
    let today = now.date_naive();
    let ahead = (7 + target.num_days_from_monday() - today.weekday().num_days_from_monday()) % 7;
    let hour = NaiveTime::from_hms_opt(WEEKLY_HOUR_UTC, 0, 0)?;
    let mut at = (today + Duration::days(i64::from(ahead)))
        .and_time(hour)
        .and_utc();
    if at <= now {
        at += Duration::days(7);
    }
    Some(at.timestamp_millis())
}
