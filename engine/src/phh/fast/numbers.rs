//! Amounts as the fast reader reads them: a plain number in a word ([`Small`]), the
//! per-player lists (with a tight loop for the commonest layout), the single amounts.

use super::{seen, FastReader, Raw, ANTES, BLINDS, ENDS_BARE, FINISHING, STACKS};
use crate::phh::amount::{Decimal, Scale};
use crate::phh::hand::{PhhHand, Stack};

/// An amount in the plain form, `mantissa / 10^frac`, with at most 18 digits: what the
/// general reader holds as a [`Decimal`], in a word, with [`Decimal::decimals_needed`] and
/// [`Scale::to_chips`] worked out in 64-bit arithmetic (the same values: every such amount
/// fits, and a result that does not fit an `i64` is refused by both).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Small {
    pub(super) mantissa: i64,
    pub(super) frac: u32,
}

impl Small {
    /// The fewest decimal places that represent it exactly.
    #[inline]
    pub(super) fn decimals_needed(self) -> u32 {
        let (mut m, mut f) = (self.mantissa, self.frac);
        while f > 0 && m % 10 == 0 {
            m /= 10;
            f -= 1;
        }
        f
    }

    /// Its chips at `decimals` decimal places, if whole and within an `i64`.
    #[inline]
    pub(super) fn chips(self, decimals: u32) -> Option<i64> {
        let (m, f) = (self.mantissa, self.frac);
        if decimals == f {
            return Some(m);
        }
        if decimals > f {
            return m.checked_mul(10i64.checked_pow(decimals - f)?);
        }
        let divisor = 10i64.checked_pow(f - decimals)?;
        (m % divisor == 0).then(|| m / divisor)
    }
}

/// A `cbr` amount before the hand's scale is known: a plain one, or one the general
/// notation read.
#[derive(Clone, Copy)]
pub(super) enum Amount {
    Small(Small),
    Decimal(Decimal),
}

impl Amount {
    pub(super) fn decimals_needed(self) -> u32 {
        match self {
            Amount::Small(s) => s.decimals_needed(),
            Amount::Decimal(d) => d.decimals_needed(),
        }
    }

    pub(super) fn chips(self, scale: Scale) -> Option<i64> {
        match self {
            Amount::Small(s) => s.chips(scale.decimals()),
            Amount::Decimal(d) => scale.to_chips(d),
        }
    }
}

impl FastReader<'_> {
    /// A number in the plain form `[+-]digits[.digits]` (at most 18 digits), as the
    /// general reader's shortcut reads it, and whether it was written as an integer.
    pub(super) fn number(&mut self) -> Option<(Small, bool)> {
        // Read in place, as `plain_number` reads the token `bare` would give: the digits,
        // then a byte that ends a token.
        let bytes = self.bytes;
        let mut at = self.at;
        let negative = match bytes.get(at) {
            Some(b'-') => {
                at += 1;
                true
            }
            Some(b'+') => {
                at += 1;
                false
            }
            _ => false,
        };
        let (mut mantissa, mut digits, mut frac): (i64, u32, Option<u32>) = (0, 0, None);
        loop {
            match bytes.get(at) {
                Some(&b @ b'0'..=b'9') => {
                    if digits == 18 {
                        return None;
                    }
                    mantissa = mantissa * 10 + i64::from(b - b'0');
                    digits += 1;
                    if let Some(f) = &mut frac {
                        *f += 1;
                    }
                }
                Some(b'.') if frac.is_none() && digits > 0 => {
                    if !bytes.get(at + 1).is_some_and(u8::is_ascii_digit) {
                        return None;
                    }
                    frac = Some(0);
                }
                None => break,
                Some(&b) if ENDS_BARE[b as usize] => break,
                Some(_) => return None,
            }
            at += 1;
        }
        if digits == 0 {
            return None;
        }
        self.at = at;
        Some((
            Small {
                mantissa: if negative { -mantissa } else { mantissa },
                frac: frac.unwrap_or(0),
            },
            frac.is_none(),
        ))
    }

    /// A per-player list of amounts on one line (`inf` allowed in `starting_stacks`): in
    /// the commonest layout straight into the hand's chips at scale 1 (see `whole`), else
    /// as written into `lists`, for [`Self::build`] to convert.
    pub(super) fn list(&mut self, hand: &mut PhhHand, which: usize) -> Option<u32> {
        let read = match which {
            STACKS => self.integers(&mut hand.starting_stacks, |chips| {
                // At most 18 digits: within an `i64`, and not negative.
                Stack::Chips(chips as u64)
            }),
            _ => {
                let out = match which {
                    ANTES => &mut hand.antes,
                    BLINDS => &mut hand.blinds_or_straddles,
                    FINISHING => hand.finishing_stacks.get_or_insert_with(Vec::new),
                    _ => hand.winnings.get_or_insert_with(Vec::new),
                };
                self.integers(out, |chips| chips)
            }
        };
        if let Some(len) = read {
            self.whole |= 1 << which;
            self.lens[which] = len;
            return Some(seen::LISTS[which]);
        }
        let mut items = std::mem::take(&mut self.lists[which]);
        let inf_ok = which == STACKS;
        let read = self.array(|reader| {
            if inf_ok && matches!(reader.peek(), Some(b'i' | b'+')) {
                let token = reader.bare();
                if token == "inf" || token == "+inf" {
                    items.push(Raw::Inf);
                    return Some(());
                }
                let amount = plain_number(token)?.0;
                reader.fractions |= amount.frac != 0;
                items.push(Raw::Amount(amount));
                return Some(());
            }
            let amount = reader.number()?.0;
            reader.fractions |= amount.frac != 0;
            items.push(Raw::Amount(amount));
            Some(())
        });
        self.lens[which] = items.len();
        self.lists[which] = items;
        read?;
        Some(seen::LISTS[which])
    }

    /// A list in the commonest layout, `[12, 0, 345]`: plain integers (at most 18 digits)
    /// separated by `, `, read in one tight loop into `out` (emptied first), each made
    /// into an entry by `entry`; what [`Self::array`] and [`Self::number`] read of it, and
    /// how many. `None`, with nothing read and `out` empty, at anything else (signs,
    /// decimals, `inf`, other spacing, an empty list), which they then read.
    #[inline]
    pub(super) fn integers<T>(
        &mut self,
        out: &mut Vec<T>,
        entry: impl Fn(i64) -> T,
    ) -> Option<usize> {
        let bytes = self.bytes;
        out.clear();
        if bytes.get(self.at) != Some(&b'[') {
            return None;
        }
        let mut at = self.at + 1;
        loop {
            // `at` is where an element's digits should start: read from the eight bytes
            // there when they hold it and what follows it, else byte by byte.
            if let Some(word) = bytes.get(at..).and_then(|rest| rest.first_chunk::<8>()) {
                if let Some((value, len, after)) = word_element(word) {
                    if after == LIST_SEPARATOR {
                        out.push(entry(value));
                        at += len + 2;
                        continue;
                    }
                    if after as u8 == b']' {
                        out.push(entry(value));
                        self.at = at + len + 1;
                        return Some(out.len());
                    }
                }
            }
            match byte_element(bytes, at) {
                Some((value, next, last)) => {
                    out.push(entry(value));
                    if last {
                        self.at = next;
                        return Some(out.len());
                    }
                    at = next;
                }
                None => {
                    out.clear();
                    return None;
                }
            }
        }
    }

    /// One amount.
    pub(super) fn single(&mut self, which: usize) -> Option<u32> {
        // One digit at the end of its line (`min_bet = 2`): what [`Self::number`] reads of
        // it, without its general steps.
        let amount = match self.bytes.get(self.at..) {
            Some(&[digit @ b'0'..=b'9', b'\n', ..]) => {
                self.at += 1;
                Small {
                    mantissa: i64::from(digit - b'0'),
                    frac: 0,
                }
            }
            _ => self.number()?.0,
        };
        self.fractions |= amount.frac != 0;
        self.singles[which] = Some(amount);
        Some(seen::SINGLES[which])
    }
}

/// The run of ASCII digits at `at`: its value and its length. Past 18 digits the value
/// wraps (every caller refuses so many).
///
/// A number that ends within eight bytes is read as one word: its digits found with one
/// mask and their value worked out with three multiplications, where a loop takes a
/// compare, a multiplication and a branch a digit, and the branch that ends the loop,
/// whose place changes from one amount to the next, is often mispredicted.
#[inline(always)]
pub(super) fn digits(bytes: &[u8], at: usize) -> (i64, usize) {
    if let Some(chunk) = bytes.get(at..).and_then(|rest| rest.first_chunk::<8>()) {
        // Each digit's byte becomes its value (0..=9); any other byte becomes one above 9.
        let values = u64::from_le_bytes(*chunk) ^ ZEROS;
        let others = not_digits(values);
        if others != 0 {
            let len = (others.trailing_zeros() / 8) as usize;
            if len == 0 {
                return (0, 0);
            }
            // The digits moved to the word's top bytes, zeros (leading zeros) before them.
            return (eight_digits(values << (64 - 8 * len)) as i64, len);
        }
    }
    let (mut value, mut len) = (0i64, 0);
    while let Some(&b @ b'0'..=b'9') = bytes.get(at + len) {
        value = value.wrapping_mul(10).wrapping_add(i64::from(b - b'0'));
        len += 1;
    }
    (value, len)
}

/// `, ` as the two bytes after an element of an integer list hold it (see [`word_element`]).
const LIST_SEPARATOR: u16 = u16::from_le_bytes(*b", ");

/// The digits at the start of eight bytes of an integer list (see [`FastReader::integers`]):
/// their value, their count (at most six, so that `, ` after them is in the word) and the
/// two bytes after them as a little-endian `u16`; `None` for no digit, or more than six
/// ([`byte_element`] then reads the element). The digits are read by [`digits`], whose
/// documentation says why a word at a time.
#[inline(always)]
fn word_element(word: &[u8; 8]) -> Option<(i64, usize, u16)> {
    let (value, len) = digits(word, 0);
    if !(1..=6).contains(&len) {
        return None;
    }
    Some((value, len, (u64::from_le_bytes(*word) >> (8 * len)) as u16))
}

/// Each byte of `values` (a word of text XOR [`ZEROS`]) that was not a digit, as its top
/// bit: a digit's byte is its value (0..=9), any other above 9, and a byte above 9 either
/// has its top bit set already, or gets it from adding 0x76. A carry out of a byte comes
/// only from one that is not a digit's, and only reaches the bytes after it, which the
/// callers do not read as digits.
#[inline(always)]
fn not_digits(values: u64) -> u64 {
    (values.wrapping_add(0x7676_7676_7676_7676) | values) & 0x8080_8080_8080_8080
}

/// Each ASCII digit's byte XOR this is its value.
const ZEROS: u64 = 0x3030_3030_3030_3030;

/// An element of an integer list at `at`, byte by byte: the digits (at most 18), then `, `
/// or `]`: its value, where the next element starts (past `, `) or the list ends (past
/// `]`), and whether it was the last. `None` at anything else. Cold: most lists' elements
/// are read a word at a time, and the word path is laid out straight past this call.
#[cold]
#[inline(never)]
fn byte_element(bytes: &[u8], mut at: usize) -> Option<(i64, usize, bool)> {
    // The digits first, their count checked after: no count kept per digit. Past 18 digits
    // the sum may wrap, but it is then refused.
    let (start, mut mantissa) = (at, 0i64);
    while let Some(&b @ b'0'..=b'9') = bytes.get(at) {
        mantissa = mantissa.wrapping_mul(10).wrapping_add(i64::from(b - b'0'));
        at += 1;
    }
    let digits = at - start;
    if digits == 0 || digits > 18 {
        return None;
    }
    match bytes.get(at..at + 2) {
        Some(b", ") => Some((mantissa, at + 2, false)),
        _ if bytes.get(at) == Some(&b']') => Some((mantissa, at + 1, true)),
        _ => None,
    }
}

/// The number eight digit values make, the first (the most significant) in the word's lowest
/// byte: pairs, then fours, then all eight, each step one multiplication (the well-known
/// method of simdjson's `parse_eight_digits_unrolled`).
#[inline(always)]
fn eight_digits(values: u64) -> u64 {
    const MASK: u64 = 0x0000_00FF_0000_00FF;
    const MUL1: u64 = 100 + (1_000_000 << 32);
    const MUL2: u64 = 1 + (10_000 << 32);
    let pairs = values.wrapping_mul(10).wrapping_add(values >> 8);
    let all = (pairs & MASK)
        .wrapping_mul(MUL1)
        .wrapping_add(((pairs >> 16) & MASK).wrapping_mul(MUL2));
    (all >> 32) & 0xFFFF_FFFF
}

/// A `cbr` amount in the plain form `digits[.digits]` (at most 18 digits), as
/// [`Decimal::parse`] reads it.
#[inline]
pub(super) fn plain_amount(text: &[u8]) -> Option<Small> {
    if text.is_empty() || text.len() > 19 {
        return None;
    }
    let (mut mantissa, mut digits, mut frac): (i64, u32, Option<u32>) = (0, 0, None);
    for (i, &b) in text.iter().enumerate() {
        match b {
            b'0'..=b'9' if digits < 18 => {
                mantissa = mantissa * 10 + i64::from(b - b'0');
                digits += 1;
                if let Some(f) = &mut frac {
                    *f += 1;
                }
            }
            b'.' if frac.is_none() && i > 0 && i + 1 < text.len() => frac = Some(0),
            _ => return None,
        }
    }
    Some(Small {
        mantissa,
        frac: frac.unwrap_or(0),
    })
}

/// A token in the plain number form `[+-]digits[.digits]` (at most 18 digits), as the
/// general reader's shortcut reads it, and whether it was written as an integer.
pub(super) fn plain_number(token: &str) -> Option<(Small, bool)> {
    let bytes = token.as_bytes();
    let (negative, body) = match bytes.first()? {
        b'-' => (true, &bytes[1..]),
        b'+' => (false, &bytes[1..]),
        _ => (false, bytes),
    };
    if body.is_empty() || body.len() > 19 {
        return None;
    }
    let (mut mantissa, mut digits, mut frac): (i64, u32, Option<u32>) = (0, 0, None);
    for (i, &b) in body.iter().enumerate() {
        match b {
            b'0'..=b'9' if digits < 18 => {
                mantissa = mantissa * 10 + i64::from(b - b'0');
                digits += 1;
                if let Some(f) = &mut frac {
                    *f += 1;
                }
            }
            b'.' if frac.is_none() && i > 0 && i + 1 < body.len() => frac = Some(0),
            _ => return None,
        }
    }
    if negative {
        mantissa = -mantissa;
    }
    Some((
        Small {
            mantissa,
            frac: frac.unwrap_or(0),
        },
        frac.is_none(),
    ))
}
