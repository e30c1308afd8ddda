//! A fast reader for the layout PHH files are written in, for replaying large corpora.
//!
//! Writers (PokerKit, the phh-dataset conversions, floor) put every field on one line,
//! `key = value`, arrays on one line, strings without escapes. This reader takes exactly
//! that shape, hand by hand, into one [`PhhHand`] it reuses (its lists keep their buffers:
//! no allocation per field or per hand once they are large enough), and gives up — returns
//! [`Step::Bail`] — at anything else: a comment, a multi-line array, an escape, a `\r`, an
//! amount in exponent form, a field the hand gives twice, any content the general reader
//! ([`super::reader`]) would refuse. The caller then reads the same text with the general
//! reader, which gives every hand, or the error, exactly. So what this reader accepts, it
//! reads as the general reader does (its hands are the general reader's, less the untyped
//! fields, which a replay does not read: they are checked, not kept); the `fast_reader_*`
//! tests hold it to that.

use super::amount::{Decimal, Scale, MAX_DECIMALS};
use super::cards::{CardList, INLINE_CARDS};
use super::hand::{required_by_variant, PhhHand, Stack};
use super::notation::{self, Action, ActionLine};
use super::toml::is_datetime;
use crate::cards::Card;

/// What reading the next hand came to.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// A hand was read into the caller's [`PhhHand`].
    Hand,
    /// The text is read to its end.
    End,
    /// Something this reader does not take: read the text with the general reader.
    Bail,
}

/// The per-player amount lists, by index.
const STACKS: usize = 0;
const ANTES: usize = 1;
const BLINDS: usize = 2;
const FINISHING: usize = 3;
const WINNINGS: usize = 4;

/// Bits of the fields seen in a hand (duplicates are refused by the general reader).
mod seen {
    pub const VARIANT: u32 = 1;
    pub const LISTS: [u32; 5] = [2, 4, 8, 16, 32];
    pub const SINGLES: [u32; 4] = [64, 128, 256, 512];
    pub const ACTIONS: u32 = 1024;
}

/// A number as written, before the hand's scale is known.
#[derive(Clone, Copy)]
enum Raw {
    Amount(Small),
    Inf,
}

/// An amount in the plain form, `mantissa / 10^frac`, with at most 18 digits: what the
/// general reader holds as a [`Decimal`], in a word, with [`Decimal::decimals_needed`] and
/// [`Scale::to_chips`] worked out in 64-bit arithmetic (the same values: every such amount
/// fits, and a result that does not fit an `i64` is refused by both).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Small {
    mantissa: i64,
    frac: u32,
}

impl Small {
    /// The fewest decimal places that represent it exactly.
    #[inline]
    fn decimals_needed(self) -> u32 {
        let (mut m, mut f) = (self.mantissa, self.frac);
        while f > 0 && m % 10 == 0 {
            m /= 10;
            f -= 1;
        }
        f
    }

    /// Its chips at `decimals` decimal places, if whole and within an `i64`.
    #[inline]
    fn chips(self, decimals: u32) -> Option<i64> {
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
enum Amount {
    Small(Small),
    Decimal(Decimal),
}

impl Amount {
    fn decimals_needed(self) -> u32 {
        match self {
            Amount::Small(s) => s.decimals_needed(),
            Amount::Decimal(d) => d.decimals_needed(),
        }
    }

    fn chips(self, scale: Scale) -> Option<i64> {
        match self {
            Amount::Small(s) => s.chips(scale.decimals()),
            Amount::Decimal(d) => scale.to_chips(d),
        }
    }
}

/// A reader over one text (a chunk of a `.phhs` file starting at a hand's header), with
/// the scratch it reuses from hand to hand.
pub(crate) struct FastReader<'a> {
    bytes: &'a [u8],
    text: &'a str,
    at: usize,
    line: usize,
    lists: [Vec<Raw>; 5],
    singles: [Option<Small>; 4],
    /// Where each `cbr` amount goes (index in the hand's actions) and what it says.
    amounts: Vec<(usize, Amount)>,
    /// The other fields' names, for spotting one given twice.
    others: Vec<&'a str>,
    /// The lengths of `seats`, `players` and `time_banks`, which must equal the players.
    lengths: Vec<usize>,
    /// `(number, line)` of every hand's header read.
    pub(crate) headers: Vec<(usize, usize)>,
}

impl<'a> FastReader<'a> {
    /// A reader at the start of `text`, whose first line is line `first_line` of its file.
    pub(crate) fn new(text: &'a str, first_line: usize) -> FastReader<'a> {
        FastReader {
            bytes: text.as_bytes(),
            text,
            at: 0,
            line: first_line,
            lists: Default::default(),
            singles: [None; 4],
            amounts: Vec::new(),
            others: Vec::new(),
            lengths: Vec::new(),
            headers: Vec::new(),
        }
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    #[inline]
    fn skip_spaces(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.at += 1;
        }
    }

    /// Past blank lines; false at anything but a blank line, a header or the end.
    fn skip_blank_lines(&mut self) -> bool {
        loop {
            self.skip_spaces();
            match self.peek() {
                Some(b'\n') => {
                    self.at += 1;
                    self.line += 1;
                }
                None | Some(b'[') => return true,
                Some(_) => return false,
            }
        }
    }

    /// Reads the next hand into `hand`.
    pub(crate) fn next_hand(&mut self, hand: &mut PhhHand) -> Step {
        if !self.skip_blank_lines() {
            return Step::Bail;
        }
        if self.peek().is_none() {
            return Step::End;
        }
        let Some(number) = self.header() else {
            return Step::Bail;
        };
        let header_line = self.line;
        self.headers.push((number, header_line));
        if !self.end_of_line() {
            return Step::Bail;
        }
        match self.fields(hand) {
            Some(seen) if self.build(hand, seen, number, header_line) => Step::Hand,
            _ => Step::Bail,
        }
    }

    /// `[N]`: the hand's number.
    fn header(&mut self) -> Option<usize> {
        self.at += 1;
        let start = self.at;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.at += 1;
        }
        let digits = &self.text[start..self.at];
        if self.peek() != Some(b']') || digits.len() > 18 {
            return None;
        }
        self.at += 1;
        digits.parse::<usize>().ok().filter(|&n| n > 0)
    }

    /// After a value: spaces, then a newline (counted) or the end.
    #[inline]
    fn end_of_line(&mut self) -> bool {
        self.skip_spaces();
        match self.peek() {
            None => true,
            Some(b'\n') => {
                self.at += 1;
                self.line += 1;
                true
            }
            Some(_) => false,
        }
    }

    /// Reads the hand's `key = value` lines up to the next header or the end; returns the
    /// typed fields seen.
    fn fields(&mut self, hand: &mut PhhHand) -> Option<u32> {
        for list in &mut self.lists {
            list.clear();
        }
        self.singles = [None; 4];
        self.amounts.clear();
        self.others.clear();
        self.lengths.clear();
        hand.actions.clear();
        hand.variant.clear();
        let mut seen = 0u32;
        loop {
            // At the end, or the next hand's header: this hand is read.
            if self.skip_blank_lines() {
                return Some(seen);
            }
            let key = self.key()?;
            self.skip_spaces();
            if self.peek() != Some(b'=') {
                return None;
            }
            self.at += 1;
            self.skip_spaces();
            let bit = match key {
                "variant" => {
                    let text = self.string()?;
                    hand.variant.push_str(text);
                    seen::VARIANT
                }
                "starting_stacks" => self.list(STACKS, true)?,
                "antes" => self.list(ANTES, false)?,
                "blinds_or_straddles" => self.list(BLINDS, false)?,
                "finishing_stacks" => self.list(FINISHING, false)?,
                "winnings" => self.list(WINNINGS, false)?,
                "bring_in" => self.single(0)?,
                "small_bet" => self.single(1)?,
                "big_bet" => self.single(2)?,
                "min_bet" => self.single(3)?,
                "actions" => {
                    // The notation needs the players: `starting_stacks` must come first.
                    if seen & seen::LISTS[STACKS] == 0 {
                        return None;
                    }
                    self.actions(hand)?;
                    seen::ACTIONS
                }
                other => {
                    if self.others.contains(&other) {
                        return None;
                    }
                    self.others.push(other);
                    self.other(other)?;
                    0
                }
            };
            if seen & bit != 0 {
                return None;
            }
            seen |= bit;
            if !self.end_of_line() {
                return None;
            }
        }
    }

    /// A bare key.
    fn key(&mut self) -> Option<&'a str> {
        let start = self.at;
        while self.peek().is_some_and(|b| KEY_BYTE[b as usize]) {
            self.at += 1;
        }
        (self.at > start).then(|| &self.text[start..self.at])
    }

    /// A string without escapes on one line: its text.
    fn string(&mut self) -> Option<&'a str> {
        let quote = self.peek().filter(|&q| q == b'\'' || q == b'"')?;
        let start = self.at + 1;
        // Strings are short (an action, a name): a plain loop beats a vectorised search.
        let mut end = start;
        loop {
            match self.bytes.get(end) {
                None => return None,
                Some(&b) if b == quote || b == b'\n' || (b == b'\\' && quote == b'"') => break,
                Some(_) => end += 1,
            }
        }
        let len = end - start;
        if self.bytes[start + len] != quote {
            return None;
        }
        // Not the start of a multi-line string (`'''`, `"""`).
        if len == 0 && self.bytes.get(start + 1) == Some(&quote) {
            return None;
        }
        self.at = start + len + 1;
        Some(&self.text[start..start + len])
    }

    /// An unquoted token, up to what ends one (as the general reader's cursor has it).
    fn bare(&mut self) -> &'a str {
        let start = self.at;
        while self.peek().is_some_and(|b| !ENDS_BARE[b as usize]) {
            self.at += 1;
        }
        &self.text[start..self.at]
    }

    /// A number in the plain form `[+-]digits[.digits]` (at most 18 digits), as the
    /// general reader's shortcut reads it, and whether it was written as an integer.
    fn number(&mut self) -> Option<(Small, bool)> {
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

    /// A per-player list of amounts on one line (`inf` allowed in `starting_stacks`).
    fn list(&mut self, which: usize, inf_ok: bool) -> Option<u32> {
        let mut items = std::mem::take(&mut self.lists[which]);
        if self.integers(&mut items) {
            self.lists[which] = items;
            return Some(seen::LISTS[which]);
        }
        let read = self.array(|reader| {
            if inf_ok && matches!(reader.peek(), Some(b'i' | b'+')) {
                let token = reader.bare();
                if token == "inf" || token == "+inf" {
                    items.push(Raw::Inf);
                    return Some(());
                }
                items.push(Raw::Amount(plain_number(token)?.0));
                return Some(());
            }
            items.push(Raw::Amount(reader.number()?.0));
            Some(())
        });
        self.lists[which] = items;
        read?;
        Some(seen::LISTS[which])
    }

    /// A list in the commonest layout, `[12, 0, 345]`: plain integers (at most 18 digits)
    /// separated by `, `, read in one tight loop; what [`Self::array`] and
    /// [`Self::number`] read of it. False, with nothing read or kept, at anything else
    /// (signs, decimals, `inf`, other spacing, an empty list), which they then read.
    #[inline]
    fn integers(&mut self, items: &mut Vec<Raw>) -> bool {
        let (bytes, kept) = (self.bytes, items.len());
        let mut at = self.at;
        if bytes.get(at) != Some(&b'[') {
            return false;
        }
        at += 1;
        loop {
            let (mut mantissa, mut digits) = (0i64, 0u32);
            while let Some(&b @ b'0'..=b'9') = bytes.get(at) {
                mantissa = mantissa * 10 + i64::from(b - b'0');
                digits += 1;
                at += 1;
                if digits > 18 {
                    items.truncate(kept);
                    return false;
                }
            }
            if digits == 0 {
                items.truncate(kept);
                return false;
            }
            items.push(Raw::Amount(Small { mantissa, frac: 0 }));
            match bytes.get(at..at + 3) {
                Some([b',', b' ', b'0'..=b'9']) => at += 2,
                Some([b']', ..]) => break,
                // The last element of the text: `]` is its last byte.
                None if bytes.get(at) == Some(&b']') => break,
                _ => {
                    items.truncate(kept);
                    return false;
                }
            }
        }
        self.at = at + 1;
        true
    }

    /// One amount.
    fn single(&mut self, which: usize) -> Option<u32> {
        self.singles[which] = Some(self.number()?.0);
        Some(seen::SINGLES[which])
    }

    /// `[a, b, …]` on one line, each element read by `each`; returns how many.
    fn array(&mut self, mut each: impl FnMut(&mut Self) -> Option<()>) -> Option<usize> {
        if self.peek() != Some(b'[') {
            return None;
        }
        self.at += 1;
        self.skip_spaces();
        let mut count = 0;
        if self.peek() == Some(b']') {
            self.at += 1;
            return Some(0);
        }
        loop {
            each(self)?;
            count += 1;
            // The usual separator, `, `, then the next element.
            if self.bytes.get(self.at..self.at + 2) == Some(b", ")
                && !matches!(self.bytes.get(self.at + 2), Some(b' ' | b'\t' | b']'))
            {
                self.at += 2;
                continue;
            }
            self.skip_spaces();
            match self.peek()? {
                b',' => {
                    self.at += 1;
                    self.skip_spaces();
                    // A trailing comma is valid TOML; it is left to the general reader.
                    if self.peek() == Some(b']') {
                        return None;
                    }
                }
                b']' => {
                    self.at += 1;
                    return Some(count);
                }
                _ => return None,
            }
        }
    }

    /// `actions`: each string's notation, straight into the hand's actions.
    fn actions(&mut self, hand: &mut PhhHand) -> Option<()> {
        let players = self.lists[STACKS].len();
        let line = super::notation::source_line(self.line);
        let mut amounts = std::mem::take(&mut self.amounts);
        let read = self.array(|reader| {
            let index = hand.actions.len();
            // The usual notations, read where they lie, up to their closing quote.
            if reader.peek() == Some(b'\'') {
                if let Some((action, amount, end)) =
                    quoted_action(reader.bytes, reader.at + 1, players)
                {
                    if let Some(amount) = amount {
                        amounts.push((index, Amount::Small(amount)));
                    }
                    hand.actions.push(ActionLine {
                        action,
                        commentary: None,
                        line,
                    });
                    reader.at = end + 1;
                    return Some(());
                }
            }
            let text = reader.string()?;
            let action = match quick_action(text.as_bytes(), players) {
                Some((action, amount)) => {
                    if let Some(amount) = amount {
                        amounts.push((index, Amount::Small(amount)));
                    }
                    ActionLine {
                        action,
                        commentary: None,
                        line,
                    }
                }
                None => {
                    let parsed = notation::parse(text, Some(players)).ok()?;
                    if parsed.shows_dealt.is_some() {
                        return None;
                    }
                    if let Some((amount, _)) = parsed.amount {
                        amounts.push((index, Amount::Decimal(amount)));
                    }
                    ActionLine {
                        action: parsed.action,
                        commentary: parsed.commentary.map(String::into_boxed_str),
                        line,
                    }
                }
            };
            hand.actions.push(action);
            Some(())
        });
        self.amounts = amounts;
        read.map(|_| ())
    }

    /// A field the hand does not type: checked as the general reader checks it (its type,
    /// and for `seats`, `players` and `time_banks` its length), not kept.
    fn other(&mut self, key: &str) -> Option<()> {
        match key {
            "author"
            | "event"
            | "url"
            | "venue"
            | "address"
            | "city"
            | "region"
            | "postal_code"
            | "country"
            | "time_zone"
            | "time_zone_abbreviation"
            | "currency"
            | "currency_symbol" => self.string().map(|_| ()),
            "time" => {
                let token = self.bare();
                (token.contains(':') && !token.contains('-') && is_datetime(token)).then_some(())
            }
            "day" | "month" | "year" | "level" | "seat_count" => {
                self.number().filter(|&(_, integer)| integer).map(|_| ())
            }
            "hand" | "table" => {
                if matches!(self.peek(), Some(b'\'' | b'"')) {
                    self.string().map(|_| ())
                } else {
                    self.number().filter(|&(_, integer)| integer).map(|_| ())
                }
            }
            "seats" => {
                let n = self.array(|r| r.number().filter(|&(_, i)| i).map(|_| ()))?;
                self.lengths.push(n);
                Some(())
            }
            "players" => {
                let n = self.array(|r| r.string().map(|_| ()))?;
                self.lengths.push(n);
                Some(())
            }
            "time_banks" => {
                let n = self.array(|r| r.number().map(|_| ()))?;
                self.lengths.push(n);
                Some(())
            }
            "ante_trimming_status" => matches!(self.bare(), "true" | "false").then_some(()),
            "time_limit" => self.number().map(|_| ()),
            "total_pot_amount" | "rake" => self.number().map(|_| ()),
            // Any other field may hold any value: a plain scalar, or an array of them.
            _ => match self.peek()? {
                b'[' => self.array(|r| r.scalar()).map(|_| ()),
                _ => self.scalar(),
            },
        }
    }

    /// A string, a plain number or a boolean.
    fn scalar(&mut self) -> Option<()> {
        match self.peek()? {
            b'\'' | b'"' => self.string().map(|_| ()),
            b't' | b'f' => matches!(self.bare(), "true" | "false").then_some(()),
            _ => self.number().map(|_| ()),
        }
    }

    /// Checks what the general reader checks once a hand is read, in the same order, and
    /// fills `hand` with the amounts in chips; false where the general reader would refuse
    /// the hand (or where this reader does not follow it).
    fn build(&mut self, hand: &mut PhhHand, seen: u32, number: usize, line: usize) -> bool {
        if seen & seen::VARIANT == 0
            || seen & seen::LISTS[STACKS] == 0
            || seen & seen::LISTS[ANTES] == 0
            || seen & seen::ACTIONS == 0
        {
            return false;
        }
        let has = |key: &str| -> bool {
            match key {
                "blinds_or_straddles" => seen & seen::LISTS[BLINDS] != 0,
                "bring_in" => seen & seen::SINGLES[0] != 0,
                "small_bet" => seen & seen::SINGLES[1] != 0,
                "big_bet" => seen & seen::SINGLES[2] != 0,
                "min_bet" => seen & seen::SINGLES[3] != 0,
                _ => false,
            }
        };
        if !required_by_variant(&hand.variant).iter().all(|k| has(k)) {
            return false;
        }
        let players = self.lists[STACKS].len();
        if players == 0 {
            return false;
        }
        for which in [ANTES, BLINDS, FINISHING, WINNINGS] {
            let present = seen & seen::LISTS[which] != 0;
            if present && self.lists[which].len() != players {
                return false;
            }
        }
        if self.lengths.iter().any(|&n| n != players) {
            return false;
        }
        // The scale: the most decimal places any amount needs.
        let mut decimals = 0;
        let all = self.lists.iter().flatten().filter_map(|raw| match raw {
            Raw::Amount(d) => Some(d),
            Raw::Inf => None,
        });
        for d in all.chain(self.singles.iter().flatten()) {
            decimals = decimals.max(d.decimals_needed());
        }
        for (_, amount) in &self.amounts {
            decimals = decimals.max(amount.decimals_needed());
        }
        if decimals > MAX_DECIMALS {
            return false;
        }
        let scale = Scale::from_decimals(decimals).unwrap_or(Scale::ONE);
        let chips = |raw: &Raw| match raw {
            Raw::Amount(d) => d.chips(decimals),
            Raw::Inf => None,
        };
        hand.starting_stacks.clear();
        for raw in &self.lists[STACKS] {
            let stack = match raw {
                Raw::Inf => Stack::Unknown,
                Raw::Amount(_) => match chips(raw).map(u64::try_from) {
                    Some(Ok(c)) => Stack::Chips(c),
                    _ => return false,
                },
            };
            hand.starting_stacks.push(stack);
        }
        for &(index, amount) in &self.amounts {
            let Some(value) = amount.chips(scale) else {
                return false;
            };
            if let Action::CompleteBetRaiseTo { amount, .. } = &mut hand.actions[index].action {
                *amount = value;
            }
        }
        let fill = |list: &[Raw], out: &mut Vec<i64>| -> bool {
            out.clear();
            for raw in list {
                match chips(raw) {
                    Some(c) => out.push(c),
                    None => return false,
                }
            }
            true
        };
        if !fill(&self.lists[ANTES], &mut hand.antes)
            || !fill(&self.lists[BLINDS], &mut hand.blinds_or_straddles)
        {
            return false;
        }
        for (which, slot) in [
            (FINISHING, &mut hand.finishing_stacks),
            (WINNINGS, &mut hand.winnings),
        ] {
            if seen & seen::LISTS[which] == 0 {
                *slot = None;
            } else if !fill(&self.lists[which], slot.get_or_insert_with(Vec::new)) {
                return false;
            }
        }
        let mut singles = [None; 4];
        for (value, raw) in singles.iter_mut().zip(&self.singles) {
            if let Some(d) = raw {
                match d.chips(decimals) {
                    Some(c) => *value = Some(c),
                    None => return false,
                }
            }
        }
        [hand.bring_in, hand.small_bet, hand.big_bet, hand.min_bet] = singles;
        hand.number = Some(number);
        hand.line = line;
        hand.scale = scale;
        hand.fields.clear();
        hand.field_order.clear();
        true
    }
}

/// The common notations, written with single spaces and no commentary (`d dh p1 AhKd`,
/// `d db 2c7d9h`, `p3 f`, `p3 cc`, `p3 cbr 18.50`, `p3 sm AhKd`, `p3 sm`), read without the
/// general notation parser: the action and a `cbr` amount as written. `None` for anything
/// else, which [`notation::parse`] reads.
#[inline]
fn quick_action(text: &[u8], players: usize) -> Option<(Action, Option<Small>)> {
    match text {
        [b'd', b' ', b'd', b'h', b' ', rest @ ..] => {
            let (player, cards) = player_then(rest, players)?;
            Some((
                Action::DealHole {
                    player,
                    cards: hole_cards(cards?)?,
                },
                None,
            ))
        }
        [b'd', b' ', b'd', b'b', b' ', cards @ ..] => {
            let cards = hole_cards(cards)?
                .iter()
                .copied()
                .collect::<Option<CardList<Card>>>()?;
            Some((Action::DealBoard { cards }, None))
        }
        [b'p', ..] => {
            let (player, rest) = player_then(text, players)?;
            match rest {
                None => None,
                Some(b"f") => Some((Action::Fold { player }, None)),
                Some(b"cc") => Some((Action::CheckCall { player }, None)),
                Some(b"sm") => Some((
                    Action::ShowMuck {
                        player,
                        cards: None,
                    },
                    None,
                )),
                Some([b's', b'm', b' ', cards @ ..]) if cards != b"-" => Some((
                    Action::ShowMuck {
                        player,
                        cards: Some(hole_cards(cards)?),
                    },
                    None,
                )),
                Some([b'c', b'b', b'r', b' ', amount @ ..]) => {
                    let amount = plain_amount(amount)?;
                    Some((
                        Action::CompleteBetRaiseTo { player, amount: 0 },
                        Some(amount),
                    ))
                }
                Some(_) => None,
            }
        }
        _ => None,
    }
}

/// A notation [`quick_action`] reads, written in a literal string whose content starts at
/// `at`, read in place up to its closing quote: the action, a `cbr` amount, and where the
/// quote is. `None` for anything else (the string is then read whole and its notation
/// parsed), so what this reads is what [`quick_action`] reads of the same content.
#[inline]
fn quoted_action(
    bytes: &[u8],
    at: usize,
    players: usize,
) -> Option<(Action, Option<Small>, usize)> {
    // Matched on the bytes where they lie (slice patterns: a length check and a few byte
    // compares), the verb picked by its first letter: this runs for every action of a
    // corpus, and trying each verb's prefix in turn was a large part of the reading.
    match bytes.get(at..)? {
        [b'd', b' ', b'd', b'h', b' ', rest @ ..] => {
            let (player, n) = player_at(rest, players)?;
            let rest = rest.get(n..)?.strip_prefix(b" ")?;
            let (cards, len) = cards_to_quote(rest)?;
            let end = at + 5 + n + 1 + len;
            Some((Action::DealHole { player, cards }, None, end))
        }
        [b'd', b' ', b'd', b'b', b' ', rest @ ..] => {
            let (cards, len) = cards_to_quote(rest)?;
            let cards = cards.iter().copied().collect::<Option<CardList<Card>>>()?;
            Some((Action::DealBoard { cards }, None, at + 5 + len))
        }
        b @ [b'p', ..] => {
            let (player, n) = player_at(b, players)?;
            // `end` is where the closing quote is.
            let (action, amount, end) = match &b[n..] {
                [b' ', b'f', b'\'', ..] => (Action::Fold { player }, None, at + n + 2),
                [b' ', b'c', b'c', b'\'', ..] => (Action::CheckCall { player }, None, at + n + 3),
                [b' ', b's', b'm', b'\'', ..] => {
                    let action = Action::ShowMuck {
                        player,
                        cards: None,
                    };
                    (action, None, at + n + 3)
                }
                [b' ', b's', b'm', b' ', shown @ ..] => {
                    let (cards, len) = cards_to_quote(shown)?;
                    let action = Action::ShowMuck {
                        player,
                        cards: Some(cards),
                    };
                    (action, None, at + n + 4 + len)
                }
                [b' ', b'c', b'b', b'r', b' ', amount @ ..] => {
                    let len = amount.iter().position(|&b| b == b'\'')?;
                    let value = plain_amount(&amount[..len])?;
                    let action = Action::CompleteBetRaiseTo { player, amount: 0 };
                    (action, Some(value), at + n + 5 + len)
                }
                _ => return None,
            };
            Some((action, amount, end))
        }
        _ => None,
    }
}

/// `pN` at the start of `text` (1 ≤ N ≤ players, no leading zero): the index and the bytes
/// it takes.
#[inline]
fn player_at(text: &[u8], players: usize) -> Option<(u8, usize)> {
    if text.first() != Some(&b'p') {
        return None;
    }
    let mut n = 0usize;
    let mut len = 0;
    while let Some(&d @ b'0'..=b'9') = text.get(1 + len) {
        if len == 3 || (len == 0 && d == b'0') {
            return None;
        }
        n = n * 10 + usize::from(d - b'0');
        len += 1;
    }
    if len == 0 || n > players || n > 256 {
        return None;
    }
    Some(((n - 1) as u8, 1 + len))
}

/// Cards up to a closing quote (at most [`INLINE_CARDS`], at least one), as [`hole_cards`]
/// reads them: the cards and the bytes they take.
#[inline]
fn cards_to_quote(text: &[u8]) -> Option<(CardList<Option<Card>>, usize)> {
    let mut cards = [None; INLINE_CARDS];
    let mut count = 0;
    loop {
        if text.get(count * 2) == Some(&b'\'') {
            break;
        }
        match text.get(count * 2..count * 2 + 2)? {
            b"??" => {}
            &[rank, suit] => *cards.get_mut(count)? = Some(card(rank, suit)?),
            _ => return None,
        }
        count += 1;
        if count > INLINE_CARDS {
            return None;
        }
    }
    (count > 0).then(|| (CardList::inline(cards, count), count * 2))
}

/// `pN` at the start of `text` (1 ≤ N ≤ players), then, after one space, the rest (which
/// the caller matches whole: a second space leaves it unmatched).
#[inline]
fn player_then(text: &[u8], players: usize) -> Option<(u8, Option<&[u8]>)> {
    let digits = text.get(1..)?;
    let len = digits.iter().take_while(|b| b.is_ascii_digit()).count();
    if len == 0 || len > 3 || digits[0] == b'0' {
        return None;
    }
    let n = digits[..len]
        .iter()
        .fold(0usize, |n, &d| n * 10 + usize::from(d - b'0'));
    if n > players || n > 256 {
        return None;
    }
    let rest = match &digits[len..] {
        [] => None,
        [b' ', rest @ ..] if !rest.is_empty() => Some(rest),
        _ => return None,
    };
    Some(((n - 1) as u8, rest))
}

/// Concatenated cards, `??` for an unknown one, as [`Card`]'s parser reads them (at most
/// [`INLINE_CARDS`]: longer lists are the general notation's).
#[inline]
fn hole_cards(text: &[u8]) -> Option<CardList<Option<Card>>> {
    let len = text.len() / 2;
    if text.is_empty() || !text.len().is_multiple_of(2) || len > INLINE_CARDS {
        return None;
    }
    let mut cards = [None; INLINE_CARDS];
    for (slot, pair) in cards.iter_mut().zip(text.chunks_exact(2)) {
        *slot = match pair {
            b"??" => None,
            &[rank, suit] => Some(card(rank, suit)?),
            _ => return None,
        };
    }
    Some(CardList::inline(cards, len))
}

/// The value of each rank letter (either case) in `0..13`, 255 for other bytes.
const RANK_OF: [u8; 256] = {
    let mut table = [255u8; 256];
    let mut i = 0;
    while i < 13 {
        let letter = crate::cards::RANKS[i];
        table[letter as usize] = i as u8;
        table[letter.to_ascii_lowercase() as usize] = i as u8;
        i += 1;
    }
    table
};

/// The value of each suit letter (either case) in `0..4`, 255 for other bytes.
const SUIT_OF: [u8; 256] = {
    let mut table = [255u8; 256];
    let mut i = 0;
    while i < 4 {
        let letter = crate::cards::SUITS[i];
        table[letter as usize] = i as u8;
        table[letter.to_ascii_uppercase() as usize] = i as u8;
        i += 1;
    }
    table
};

/// A card from its rank and suit letters (either case, as [`Card`]'s parser takes them).
#[inline]
fn card(rank: u8, suit: u8) -> Option<Card> {
    let (rank, suit) = (RANK_OF[rank as usize], SUIT_OF[suit as usize]);
    if rank == 255 || suit == 255 {
        return None;
    }
    Card::from_index(rank * 4 + suit)
}

/// The bytes that end an unquoted token, as the general reader's cursor has them (and every
/// non-ASCII byte, left to the general reader).
const ENDS_BARE: [bool; 256] = {
    let mut table = [false; 256];
    let ends = b"\t\n\x0b\x0c\r ,[]{}#=\"'";
    let mut i = 0;
    while i < ends.len() {
        table[ends[i] as usize] = true;
        i += 1;
    }
    let mut b = 128;
    while b < 256 {
        table[b] = true;
        b += 1;
    }
    table
};

/// The bytes of a bare key.
const KEY_BYTE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || c == b'_' || c == b'-';
        b += 1;
    }
    table
};

/// A `cbr` amount in the plain form `digits[.digits]` (at most 18 digits), as
/// [`Decimal::parse`] reads it.
#[inline]
fn plain_amount(text: &[u8]) -> Option<Small> {
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
fn plain_number(token: &str) -> Option<(Small, bool)> {
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

#[cfg(test)]
#[path = "fast_tests.rs"]
mod tests;
