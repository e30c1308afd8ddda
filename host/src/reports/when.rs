//! Times as the journal records them — milliseconds since the Unix epoch, UTC — read from and
//! written as calendar dates and times (`2026-11-26`, `2026-11-26T22:00:00Z`).
//!
//! Two conversions of days to civil dates (H. Hinnant's public-domain algorithms) rather than
//! a date crate: the reports need UTC only, no time zones, no formatting language, and the
//! workspace holds no date crate to share.

/// Milliseconds in a day.
pub const DAY_MS: i64 = 86_400_000;

/// The civil date (year, month, day) of `days` since 1970-01-01.
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Days since 1970-01-01 of the civil date `y-m-d`.
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// A journal time split into its UTC date and time of day: (year, month, day, hh, mm, ss).
pub fn split(at_ms: i64) -> (i64, u32, u32, u32, u32, u32) {
    let (y, m, d) = civil_from_days(at_ms.div_euclid(DAY_MS));
    let secs = at_ms.rem_euclid(DAY_MS) / 1000;
    (
        y,
        m,
        d,
        (secs / 3600) as u32,
        (secs / 60 % 60) as u32,
        (secs % 60) as u32,
    )
}

/// `2026-11-26T22:00:00Z`.
pub fn format(at_ms: i64) -> String {
    let (y, mo, d, h, mi, s) = split(at_ms);
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
}

/// Reads a time: milliseconds since the Unix epoch (as the journal records them), a UTC date
/// (`2026-11-26`, its midnight) or a UTC date and time (`2026-11-26T22:00`,
/// `2026-11-26T22:00:05Z`). `Err` says what is accepted.
pub fn parse(text: &str) -> Result<i64, String> {
    let text = text.trim();
    if let Ok(ms) = text.parse::<i64>() {
        return Ok(ms);
    }
    let bad = || {
        format!(
            "`{text}` is not a time: write milliseconds since 1970 (as the journal records them), \
             a UTC date (2026-11-26) or a UTC date and time (2026-11-26T22:00:00Z)"
        )
    };
    let body = text.strip_suffix('Z').unwrap_or(text);
    let (date, time) = match body.split_once(['T', ' ']) {
        Some((d, t)) => (d, Some(t)),
        None => (body, None),
    };
    let days = parse_date(date).ok_or_else(bad)?;
    let mut ms = days * DAY_MS;
    if let Some(time) = time {
        let parts: Vec<&str> = time.split(':').collect();
        if !(2..=3).contains(&parts.len()) {
            return Err(bad());
        }
        let field = |i: usize, max: i64| -> Option<i64> {
            let v: i64 = parts.get(i).map_or(Some(0), |p| {
                (p.len() == 2).then(|| p.parse().ok()).flatten()
            })?;
            (0..max).contains(&v).then_some(v)
        };
        let (h, m, s) = (
            field(0, 24).ok_or_else(bad)?,
            field(1, 60).ok_or_else(bad)?,
            field(2, 60).ok_or_else(bad)?,
        );
        ms += (h * 3600 + m * 60 + s) * 1000;
    }
    Ok(ms)
}

/// Days since 1970 of `YYYY-MM-DD`, if it is a real date.
pub fn parse_date(text: &str) -> Option<i64> {
    let mut parts = text.split('-');
    let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || y.len() != 4 || m.len() != 2 || d.len() != 2 {
        return None;
    }
    let (y, m, d): (i64, u32, u32) = (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
    let days = days_from_civil(y, m, d);
    // A day that does not exist (02-30) comes back as another date.
    (civil_from_days(days) == (y, m, d)).then_some(days)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_round_trip_and_times_read_as_written() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        for days in [-800_000, -1, 0, 59, 19_782, 20_453, 3_000_000] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
        let at = parse("2026-11-26T22:00:05Z").unwrap();
        assert_eq!(format(at), "2026-11-26T22:00:05Z");
        assert_eq!(
            parse("2026-11-26").unwrap() + 22 * 3_600_000,
            parse("2026-11-26T22:00").unwrap()
        );
        assert_eq!(parse("1764194405000").unwrap(), 1_764_194_405_000);
        for bad in [
            "2026-02-30",
            "2026-11-26T25:00",
            "yesterday",
            "2026-11-26T22",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
