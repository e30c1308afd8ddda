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
//!
//! The reading is split by what it reads: this module walks the lines, keys, strings and
//! arrays; [`numbers`] the amounts and the per-player lists; [`actions`] the `actions`
//! notation and its cards, and [`quick`] its commonest entries a word at a time; [`other`]
//! the fields a replay does not type; [`build`] turns what was read into the hand's chips,
//! with the general reader's checks; [`stream`] hands a hand's actions to a replayer as they
//! are read, where that gives what reading the hand whole gives, and reads the hand again
//! otherwise.

mod actions;
mod build;
mod numbers;
mod other;
mod quick;
mod stream;
#[cfg(test)]
mod tests;

use super::hand::PhhHand;
use super::notation::{Action, ActionLine};
use numbers::{Amount, Small};
use quick::CardTable;
use std::mem::ManuallyDrop;
pub(crate) use stream::{HandSink, NoSink};

/// What reading the next hand came to.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// A hand was read into the caller's [`PhhHand`].
    Hand,
    /// A hand was read into the caller's [`PhhHand`], all but its actions, which were
    /// handed to the reader's [`HandSink`] as they were read (its `actions` are empty).
    Streamed,
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
    /// Set by no field: what a variant requires that this reader does not type.
    pub const NEVER: u32 = 1 << 31;
}

/// A number as written, before the hand's scale is known.
#[derive(Clone, Copy)]
enum Raw {
    Amount(Small),
    Inf,
}

/// A reader over one text (a chunk of a `.phhs` file starting at a hand's header), with
/// the scratch it reuses from hand to hand.
///
/// It reads bytes, not a `str`: a chunk is not checked to be UTF-8 before it is read (that
/// was a pass over every byte). Every byte it takes outside a string is an ASCII byte it
/// matched, and a string it keeps is checked when read; at anything else it gives up, and
/// the general reader, which checks the whole chunk, decides. So a chunk it reads to its end
/// is UTF-8.
pub(crate) struct FastReader<'a> {
    bytes: &'a [u8],
    at: usize,
    line: usize,
    /// The per-player lists not in the commonest layout, as written (see `whole`).
    lists: [Vec<Raw>; 5],
    /// The per-player lists (bit `1 << which`) read by [`Self::integers`] straight into
    /// the hand's chips at scale 1, where [`Self::build`] leaves them (rescaled if the
    /// hand's scale is not 1): their entry of `lists` is empty. Most hands of a corpus
    /// have every list here, and no copy is made of them.
    whole: u8,
    /// The length of each per-player list read (`lens[STACKS]` is the players).
    lens: [usize; 5],
    singles: [Option<Small>; 4],
    /// Where each `cbr` amount goes (index in the hand's actions) and what it says.
    amounts: Vec<(usize, Amount)>,
    /// The other fields' names, for spotting one given twice.
    others: Vec<&'a [u8]>,
    /// The lengths of `seats`, `players` and `time_banks`, which must equal the players.
    lengths: Vec<usize>,
    /// `(number, line)` of every hand's header read.
    pub(crate) headers: Vec<(usize, usize)>,
    /// The hand's actions as this reader left them (where its list's buffer is, and how
    /// long it is), when every entry was read in place by [`actions::quoted_action`]: cards
    /// held inline, no commentary, so that no entry owns memory and the next hand lets
    /// them go without dropping each (see [`clear_actions`]).
    plain_actions: Option<(*const ActionLine, usize)>,
    /// Whether an amount of the hand read so far is written with decimals: without one,
    /// every amount is whole at scale 1 and the hand's scale needs no search.
    fractions: bool,
    /// Whether the hand's actions went to the sink as they were read (see [`stream`]).
    streamed: bool,
    /// Whether the hand must be read again without a sink: its actions went to the sink,
    /// or began to, but the hand turns out not to be one whose actions can (see [`stream`]).
    restart: bool,
    /// The cards by their letters' table entries, for [`quick::word_action`].
    cards: CardTable,
    /// Where each streamed entry's action is written for the sink (see [`stream`]). A field
    /// of the reader, not a local: the compiler then writes each shape's action into it
    /// field by field, where a local was carried in registers and packed byte by byte. Never
    /// dropped: what is written there holds its cards inline and owns no memory, and a drop
    /// is a test of the action's kind for nothing.
    slot: ManuallyDrop<Action>,
    /// The last variant read, when it was a quoted two-letter code (`'NT'`), as the word
    /// its four bytes make; 0 (which no quoted code makes) when it was not, or before one
    /// is read. See [`Self::same_variant`].
    variant_word: u32,
    /// The last variant read and the bits of the fields it requires (see [`build`]).
    required: Option<(String, u32)>,
    /// The same for the two-letter code `variant_word` (its word, then the bits), so that a
    /// hand of that code finds them without comparing strings.
    required_by_word: (u32, u32),
}

impl<'a> FastReader<'a> {
    /// A reader at the start of `bytes`, whose first line is line `first_line` of its file.
    pub(crate) fn new(bytes: &'a [u8], first_line: usize) -> FastReader<'a> {
        FastReader {
            bytes,
            at: 0,
            line: first_line,
            lists: Default::default(),
            whole: 0,
            lens: [0; 5],
            singles: [None; 4],
            amounts: Vec::new(),
            others: Vec::new(),
            lengths: Vec::new(),
            headers: Vec::new(),
            plain_actions: None,
            fractions: false,
            streamed: false,
            restart: false,
            cards: CardTable::new(),
            slot: ManuallyDrop::new(Action::NoOp),
            variant_word: 0,
            required: None,
            required_by_word: (0, 0),
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

    /// Past blank lines; false at anything but a blank line, a header or the end. (One
    /// look at each byte: a key's first letter, the usual case, is seen at once.)
    #[inline]
    fn skip_blank_lines(&mut self) -> bool {
        loop {
            match self.peek() {
                Some(b' ' | b'\t') => self.at += 1,
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
    #[cfg(test)]
    pub(crate) fn next_hand(&mut self, hand: &mut PhhHand) -> Step {
        self.next_hand_to(hand, &mut NoSink)
    }

    /// Reads the next hand into `hand`, its actions handed to `sink` as they are read when
    /// the sink takes them ([`Step::Streamed`]).
    pub(crate) fn next_hand_to<S: HandSink>(&mut self, hand: &mut PhhHand, sink: &mut S) -> Step {
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
        let start = (self.at, self.line);
        let mut read = self.fields(hand, sink, S::TAKES_ACTIONS);
        if self.restart {
            std::hint::cold_path();
            // Read again, every action into the hand's list.
            (self.at, self.line) = start;
            read = self.fields(hand, sink, false);
        }
        match read {
            Some(seen) if self.build(hand, seen, number, header_line) => {
                if self.streamed {
                    Step::Streamed
                } else {
                    Step::Hand
                }
            }
            _ => Step::Bail,
        }
    }

    /// `[N]`: the hand's number.
    fn header(&mut self) -> Option<usize> {
        self.at += 1;
        let (number, len) = numbers::digits(self.bytes, self.at);
        self.at += len;
        if self.peek() != Some(b']') || len == 0 || len > 18 {
            return None;
        }
        self.at += 1;
        // At most 18 digits: a positive `i64`.
        let number = number as usize;
        (number > 0).then_some(number)
    }

    /// After a value: spaces, then a newline (counted) or the end.
    #[inline]
    fn end_of_line(&mut self) -> bool {
        // One look at each byte: the newline, the usual case, is seen at once.
        loop {
            match self.peek() {
                Some(b'\n') => {
                    self.at += 1;
                    self.line += 1;
                    return true;
                }
                Some(b' ' | b'\t') => self.at += 1,
                None => return true,
                Some(_) => return false,
            }
        }
    }

    /// Reads the hand's `key = value` lines up to the next header or the end; returns the
    /// typed fields seen. With `stream`, the actions go to `sink` if it takes them.
    fn fields<S: HandSink>(
        &mut self,
        hand: &mut PhhHand,
        sink: &mut S,
        stream: bool,
    ) -> Option<u32> {
        for list in &mut self.lists {
            list.clear();
        }
        self.whole = 0;
        self.singles = [None; 4];
        self.amounts.clear();
        self.others.clear();
        self.lengths.clear();
        self.fractions = false;
        self.streamed = false;
        self.restart = false;
        let plain = self.plain_actions.take() == Some((hand.actions.as_ptr(), hand.actions.len()));
        clear_actions(&mut hand.actions, plain);
        // `hand.variant` is left as it is: [`Self::variant`] sets it whole, and it is read
        // only once the hand's `variant` is (a corpus is one variant: it is kept, not
        // written again, hand after hand).
        let mut seen = 0u32;
        // The branches a usual record never takes are marked `cold_path`: the compiler then
        // lays the usual path out straight, as a profile-guided build does from its counts
        // (about 2% of the replay's time; docs/BENCHMARKS.md).
        loop {
            // At the end, or the next hand's header: this hand is read.
            if self.skip_blank_lines() {
                // Actions replayed at scale 1 belong to a hand whose scale is 1.
                if self.streamed && self.fractions {
                    self.restart = true;
                    return None;
                }
                return Some(seen);
            }
            let field = match known_key(&self.bytes[self.at..]) {
                Some((field, len)) => {
                    self.at += len;
                    field
                }
                None => {
                    std::hint::cold_path();
                    Field::of(self.key_and_equals()?)
                }
            };
            self.skip_spaces();
            let bit = match field {
                Field::Variant => {
                    if !self.same_variant(hand) {
                        std::hint::cold_path();
                        self.variant(hand)?;
                    }
                    seen::VARIANT
                }
                Field::List(which) => self.list(hand, which)?,
                Field::Single(which) => self.single(which)?,
                Field::Actions => {
                    // The notation needs the players: `starting_stacks` must come first.
                    if seen & seen::LISTS[STACKS] == 0 {
                        return None;
                    }
                    if stream
                        && seen & seen::ACTIONS == 0
                        && self.can_stream(seen)
                        && self.fill_setup(hand)
                        && sink.start(hand)
                    {
                        self.streamed = true;
                        self.stream_actions(sink)?;
                    } else {
                        std::hint::cold_path();
                        self.actions(hand)?;
                    }
                    seen::ACTIONS
                }
                Field::Other(other) => {
                    std::hint::cold_path();
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

    /// A bare key, then `=` with any spacing around it (the spaces after it are the
    /// caller's): the key's bytes.
    fn key_and_equals(&mut self) -> Option<&'a [u8]> {
        let key = self.key()?;
        // The usual ` = ` at once; any other spacing, byte by byte.
        if let Some([b' ', b'=', b' ', ..]) = self.bytes.get(self.at..) {
            self.at += 3;
        } else {
            self.skip_spaces();
            if self.peek() != Some(b'=') {
                return None;
            }
            self.at += 1;
        }
        Some(key)
    }

    /// Whether `variant`'s value is the two-letter code read last (`variant_word`), which
    /// the hand holds already (a corpus is one variant): then read, with one comparison.
    #[inline(always)]
    fn same_variant(&mut self, hand: &PhhHand) -> bool {
        let Some(quoted) = self.bytes.get(self.at..).and_then(|r| r.first_chunk::<4>()) else {
            return false;
        };
        let same = self.variant_word != 0
            && u32::from_le_bytes(*quoted) == self.variant_word
            && hand.variant.as_bytes() == &quoted[1..3];
        if same {
            self.at += 4;
        }
        same
    }

    /// `variant`'s string, into the hand. The two-letter codes of every corpus (`'NT'`)
    /// are taken as they lie: what [`Self::string`] reads of them, without its scan.
    fn variant(&mut self, hand: &mut PhhHand) -> Option<()> {
        if let Some(&quoted @ [b'\'', a, b, b'\'']) =
            self.bytes.get(self.at..).and_then(|r| r.first_chunk::<4>())
        {
            if a.is_ascii_alphanumeric() && b.is_ascii_alphanumeric() {
                if hand.variant.as_bytes() != [a, b] {
                    hand.variant.clear();
                    hand.variant.push(char::from(a));
                    hand.variant.push(char::from(b));
                }
                self.variant_word = u32::from_le_bytes(quoted);
                self.at += 4;
                return Some(());
            }
        }
        self.variant_word = 0;
        let text = self.string()?;
        hand.variant.clear();
        hand.variant.push_str(text);
        Some(())
    }

    /// A bare key (ASCII: [`KEY_BYTE`]), as bytes.
    fn key(&mut self) -> Option<&'a [u8]> {
        let start = self.at;
        while self.peek().is_some_and(|b| KEY_BYTE[b as usize]) {
            self.at += 1;
        }
        (self.at > start).then(|| &self.bytes[start..self.at])
    }

    /// A string without escapes on one line: its text, which must be UTF-8 (only the
    /// strings read are checked, not the whole chunk: see [`FastReader`]).
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
        let text = std::str::from_utf8(&self.bytes[start..start + len]).ok()?;
        self.at = start + len + 1;
        Some(text)
    }

    /// An unquoted token, up to what ends one (as the general reader's cursor has it). Its
    /// bytes are ASCII ([`ENDS_BARE`] ends a token at any other byte), so it is always a
    /// `str`; the empty token stands for the impossible other case, and is refused by every
    /// caller.
    fn bare(&mut self) -> &'a str {
        let start = self.at;
        while self.peek().is_some_and(|b| !ENDS_BARE[b as usize]) {
            self.at += 1;
        }
        std::str::from_utf8(&self.bytes[start..self.at]).unwrap_or("")
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
            // The usual separator, `, `, then the next element (one pattern: a length check
            // and three bytes). At the text's end it is left to the general steps below.
            if let Some([b',', b' ', next, ..]) = self.bytes.get(self.at..) {
                if !matches!(next, b' ' | b'\t' | b']') {
                    self.at += 2;
                    continue;
                }
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
}

/// A field of a hand, by its key.
#[derive(Clone, Copy)]
enum Field<'a> {
    Variant,
    /// A per-player list ([`STACKS`], [`ANTES`], …).
    List(usize),
    /// A single amount (`bring_in`, `small_bet`, `big_bet`, `min_bet`, in that order).
    Single(usize),
    Actions,
    /// A field a replay does not type, by its key.
    Other(&'a [u8]),
}

impl<'a> Field<'a> {
    fn of(key: &'a [u8]) -> Field<'a> {
        match key {
            b"variant" => Field::Variant,
            b"starting_stacks" => Field::List(STACKS),
            b"antes" => Field::List(ANTES),
            b"blinds_or_straddles" => Field::List(BLINDS),
            b"finishing_stacks" => Field::List(FINISHING),
            b"winnings" => Field::List(WINNINGS),
            b"bring_in" => Field::Single(0),
            b"small_bet" => Field::Single(1),
            b"big_bet" => Field::Single(2),
            b"min_bet" => Field::Single(3),
            b"actions" => Field::Actions,
            other => Field::Other(other),
        }
    }
}

/// The fields writers put in a no-limit hold'em record, each followed by the usual ` = `,
/// at the start of `rest`: the field and the bytes its key and separator take. Picked by
/// the first letter and matched with its separator in one comparison, where reading the
/// key byte by byte and then matching it was a large part of reading a hand. `None` for
/// anything else, which [`FastReader::key_and_equals`] reads (the key ends where it does
/// here: a space is not a key's byte).
#[inline(always)]
fn known_key(rest: &[u8]) -> Option<(Field<'static>, usize)> {
    #[inline(always)]
    fn lead(
        rest: &[u8],
        text: &'static [u8],
        field: Field<'static>,
    ) -> Option<(Field<'static>, usize)> {
        rest.starts_with(text).then_some((field, text.len()))
    }
    match *rest {
        [b'v', ..] => lead(rest, b"variant = ", Field::Variant),
        [b'a', b'n', ..] => lead(rest, b"antes = ", Field::List(ANTES)),
        [b'a', ..] => lead(rest, b"actions = ", Field::Actions),
        [b'b', b'l', ..] => lead(rest, b"blinds_or_straddles = ", Field::List(BLINDS)),
        [b's', b't', ..] => lead(rest, b"starting_stacks = ", Field::List(STACKS)),
        [b'f', ..] => lead(rest, b"finishing_stacks = ", Field::List(FINISHING)),
        [b'w', ..] => lead(rest, b"winnings = ", Field::List(WINNINGS)),
        [b'm', ..] => lead(rest, b"min_bet = ", Field::Single(3)),
        _ => None,
    }
}

/// Empties a hand's `actions` for the next hand. When `plain` (every entry was read by
/// [`actions::quoted_action`], so none owns memory: see [`FastReader`]'s `plain_actions`),
/// the entries are let go without the walk `Vec::clear` makes to drop each one — a walk over
/// every action of a corpus, which was a measurable part of reading it.
#[inline]
fn clear_actions(actions: &mut Vec<ActionLine>, plain: bool) {
    if plain {
        // SAFETY: a length of zero is always within the capacity, and no entry is read
        // again. The entries are not dropped: none owns memory (each was read in place,
        // its cards inline and without commentary), so nothing is leaked either.
        unsafe { actions.set_len(0) }
    } else {
        actions.clear();
    }
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
