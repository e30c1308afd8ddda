//! Exact decimal amounts and the power-of-ten scale that turns them into integer chips.
//!
//! PHH files write money as TOML integers or floats (`126.30`, `0.50`). The engine counts
//! integer chips only, and a float would turn `0.1 + 0.2` into `0.30000000000000004`, so
//! amounts are read digit by digit into a [`Decimal`] and never pass through `f64`. A hand's
//! [`Scale`] is the smallest power of ten that makes every one of its amounts integral.

use std::fmt;

/// The most decimal places a [`Scale`] can have: 10^18 is the largest power of ten in a `u64`.
pub const MAX_DECIMALS: u32 = 18;

/// An exact decimal number as written: `mantissa / 10^frac_digits`.
///
/// The digits are kept as written (`126.30` is `12630 / 10^2`, not `1263 / 10^1`) so that a
/// value the reader does not interpret is written back unchanged; compare amounts through
/// [`Scale::to_chips`] rather than with `==`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Decimal {
    mantissa: i128,
    frac_digits: u32,
}

/// The most fraction digits a [`Decimal`] keeps; far beyond any currency, small enough for
/// `i128` arithmetic never to overflow on the way to chips.
const MAX_FRAC_DIGITS: u32 = 36;

impl Decimal {
    /// `mantissa / 10^frac_digits`, or `None` when `frac_digits` exceeds 36.
    pub fn new(mantissa: i128, frac_digits: u32) -> Option<Decimal> {
        (frac_digits <= MAX_FRAC_DIGITS).then_some(Decimal {
            mantissa,
            frac_digits,
        })
    }

    /// The digits without the decimal point, with the sign.
    pub fn mantissa(&self) -> i128 {
        self.mantissa
    }

    /// How many digits follow the decimal point as written.
    pub fn frac_digits(&self) -> u32 {
        self.frac_digits
    }

    /// Whether the value is negative.
    pub fn is_negative(&self) -> bool {
        self.mantissa < 0
    }

    /// The fewest decimal places that represent this value exactly (`126.30` needs 1): the
    /// smallest [`Scale`] at which it is a whole number of chips.
    pub fn decimals_needed(&self) -> u32 {
        let (mut m, mut f) = (self.mantissa, self.frac_digits);
        while f > 0 && m % 10 == 0 {
            m /= 10;
            f -= 1;
        }
        f
    }

    /// Reads a plain decimal, `[+-]digits[.digits]` (`18`, `126.30`, `.5`, `5.`), the form
    /// action amounts take. No exponent, no underscores.
    pub fn parse(text: &str) -> Option<Decimal> {
        let (negative, body) = split_sign(text);
        let (int, frac) = body.split_once('.').unwrap_or((body, ""));
        if int.is_empty() && frac.is_empty() {
            return None;
        }
        if !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
            return None;
        }
        from_digits(negative, int, frac, 0)
    }

    /// Reads a TOML integer or float (`1_000`, `-0.5`, `1e6`, `2.5E-3`) exactly. The error
    /// says what is wrong in a few words.
    pub(crate) fn parse_toml(text: &str) -> Result<Decimal, &'static str> {
        let (negative, body) = split_sign(text);
        let (mantissa, exponent) = match body.find(['e', 'E']) {
            Some(i) => (&body[..i], Some(&body[i + 1..])),
            None => (body, None),
        };
        let (int, frac) = match mantissa.split_once('.') {
            Some((i, f)) if i.is_empty() || f.is_empty() => {
                return Err("a decimal point needs digits on both sides")
            }
            Some((i, f)) => (i, f),
            None => (mantissa, ""),
        };
        let int =
            strip_underscores(int).ok_or("misplaced `_` or a character that is not a digit")?;
        let frac =
            strip_underscores(frac).ok_or("misplaced `_` or a character that is not a digit")?;
        if int.is_empty() {
            return Err("no digits");
        }
        let exponent = match exponent {
            None => 0,
            Some(e) => {
                let (neg, digits) = split_sign(e);
                let digits = strip_underscores(digits).ok_or("a malformed exponent")?;
                if digits.is_empty() {
                    return Err("a malformed exponent");
                }
                let value: i64 = digits.parse().map_err(|_| "an exponent out of range")?;
                if value > i64::from(MAX_FRAC_DIGITS) {
                    return Err("an exponent out of range");
                }
                if neg {
                    -value
                } else {
                    value
                }
            }
        };
        from_digits(negative, &int, &frac, exponent).ok_or("a number out of range")
    }
}

fn split_sign(text: &str) -> (bool, &str) {
    match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    }
}

/// Removes TOML's digit separators, which must each sit between two digits.
fn strip_underscores(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'0'..=b'9' => out.push(b as char),
            b'_' if i > 0
                && bytes[i - 1].is_ascii_digit()
                && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) => {}
            _ => return None,
        }
    }
    Some(out)
}

/// Builds `±int.frac × 10^exponent` from ASCII digit strings, or `None` when out of range.
fn from_digits(negative: bool, int: &str, frac: &str, exponent: i64) -> Option<Decimal> {
    let digits = int.trim_start_matches('0').len() + frac.len();
    if digits > 36 {
        return None;
    }
    let mut mantissa: i128 = 0;
    for b in int.bytes().chain(frac.bytes()) {
        mantissa = mantissa
            .checked_mul(10)?
            .checked_add(i128::from(b - b'0'))?;
    }
    let mut frac_digits = i64::try_from(frac.len()).ok()? - exponent;
    while frac_digits < 0 {
        mantissa = mantissa.checked_mul(10)?;
        frac_digits += 1;
    }
    if negative {
        mantissa = -mantissa;
    }
    Decimal::new(mantissa, u32::try_from(frac_digits).ok()?)
}

impl fmt::Display for Decimal {
    /// Writes the value with its digits as stored: `126.30`, `-0.5`, `18`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.mantissa < 0 { "-" } else { "" };
        let digits = self.mantissa.unsigned_abs().to_string();
        let frac = self.frac_digits as usize;
        if frac == 0 {
            return write!(f, "{sign}{digits}");
        }
        let padded = format!("{digits:0>width$}", width = frac + 1);
        let (int, fraction) = padded.split_at(padded.len() - frac);
        write!(f, "{sign}{int}.{fraction}")
    }
}

/// How many chips make one unit of a hand's amounts: `10^decimals`, at most 10^18.
///
/// A hand read from `126.30`-style amounts gets scale 100 and holds 12630 chips; writing it
/// back divides by the scale again. Only powers of ten are representable, so writing is
/// always exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Scale {
    decimals: u32,
}

impl Scale {
    /// One chip per unit: amounts are integers as written.
    pub const ONE: Scale = Scale { decimals: 0 };

    /// The scale `10^decimals`, or `None` beyond [`MAX_DECIMALS`].
    pub fn from_decimals(decimals: u32) -> Option<Scale> {
        (decimals <= MAX_DECIMALS).then_some(Scale { decimals })
    }

    /// The number of decimal places: 2 for scale 100.
    pub fn decimals(self) -> u32 {
        self.decimals
    }

    /// The number of chips per unit: 100 for two decimal places.
    pub fn factor(self) -> u64 {
        10u64.pow(self.decimals)
    }

    /// The amount in chips at this scale, or `None` when it is not a whole number of chips
    /// or does not fit an `i64`.
    pub fn to_chips(self, amount: Decimal) -> Option<i64> {
        let (m, f) = (amount.mantissa, amount.frac_digits);
        if self.decimals == f {
            return i64::try_from(m).ok();
        }
        let value = if self.decimals > f {
            m.checked_mul(10i128.checked_pow(self.decimals - f)?)?
        } else {
            let divisor = 10i128.checked_pow(f - self.decimals)?;
            if m % divisor != 0 {
                return None;
            }
            m / divisor
        };
        i64::try_from(value).ok()
    }

    /// The chips as an exact decimal in the hand's units: 12630 at scale 100 is `126.30`;
    /// whole units have no decimal point (60000 at scale 100 is `600`).
    pub fn to_decimal(self, chips: impl Into<i128>) -> Decimal {
        let factor = i128::from(self.factor());
        let chips: i128 = chips.into();
        if chips % factor == 0 {
            Decimal {
                mantissa: chips / factor,
                frac_digits: 0,
            }
        } else {
            Decimal {
                mantissa: chips,
                frac_digits: self.decimals,
            }
        }
    }

    /// [`Scale::to_decimal`] as text, the form PHH files write amounts in.
    pub fn format(self, chips: impl Into<i128>) -> String {
        self.to_decimal(chips).to_string()
    }
}

impl fmt::Display for Scale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.factor())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_decimals_exactly_and_scales_them() {
        let d = Decimal::parse("126.30").unwrap();
        assert_eq!(
            (d.mantissa(), d.frac_digits(), d.decimals_needed()),
            (12630, 2, 1)
        );
        assert_eq!(d.to_string(), "126.30");
        let scale = Scale::from_decimals(2).unwrap();
        assert_eq!(scale.to_chips(d), Some(12630));
        assert_eq!(Scale::ONE.to_chips(d), None);
        assert_eq!(scale.format(12630), "126.30");
        assert_eq!(scale.format(60000), "600");
        assert_eq!(scale.format(-50), "-0.50");
        assert_eq!(scale.format(5), "0.05");
        assert_eq!(Decimal::parse_toml("1_000").unwrap().to_string(), "1000");
        assert_eq!(Decimal::parse_toml("2.5e-3").unwrap().to_string(), "0.0025");
        assert_eq!(Decimal::parse_toml("1e3").unwrap().to_string(), "1000");
        assert!(Decimal::parse_toml("1__0").is_err());
        assert!(Decimal::parse_toml("1e999").is_err());
        assert!(Decimal::parse("1.2.3").is_none());
        assert!(Decimal::parse("").is_none());
        assert!(Decimal::parse("99999999999999999999999999999999999999999").is_none());
    }
}
