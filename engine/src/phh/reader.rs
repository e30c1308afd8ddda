//! Reading PHH text straight into typed hands, in one pass over the bytes.
//!
//! Each `key = value` line is read by what its key is: the amounts of `starting_stacks`,
//! `antes`, … go straight into lists of exact decimals, each string of `actions` is read as
//! action notation where it lies in the text (borrowed, not copied), and only the fields the
//! typed hand does not interpret become [`Value`]s. No tree of the whole document is built.
//!
//! What a text is refused for does not depend on the order its lines are read in:
//! - a syntax error (anything [`Cursor`] refuses, a field or hand number given twice) anywhere
//!   in the file is reported first, at the first place it occurs;
//! - then, for a `.phh` file, a `[N]` header; for a `.phhs` file, a field before the first
//!   header;
//! - then the first hand that cannot be built, and in it the first problem in a fixed order
//!   (the variant, the required fields, the stacks, the other amounts, the actions, the scale,
//!   the optional fields), whatever order the fields are written in.
//!
//! So a problem with a hand's content is noted where it is met and reported only once the
//! whole text has been read; the order of checks is the one [`Builder::finish`] follows.

use super::amount::{Decimal, Scale, MAX_DECIMALS};
use super::error::{PhhError, PhhErrorKind as Kind, Pos};
use super::hand::{field_name, PhhHand, Stack};
use super::hand::{optional_type_problem, required_by_variant, resolve_shows, PlacedAction};
use super::notation::{self, Action, ActionLine};
use super::toml::{Cursor, Str};
use super::value::Value;
use std::borrow::Cow;

/// What kind of file the caller expects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Expect {
    /// One hand, no `[N]` headers.
    Phh,
    /// Hands under `[N]` headers.
    Phhs,
    /// Either, decided by whether the text has a header.
    Either,
}

/// Reads a whole text as `expect` says: one [`scan`], judged as a file
/// ([`super::chunk::FileReading`], which judges a file read in chunks the same way).
pub(crate) fn read(text: &str, expect: Expect) -> Result<Vec<PhhHand>, PhhError> {
    let scan = scan(text, 1, true);
    let mut file = super::chunk::FileReading::new(expect);
    file.add(&scan.outcome(true));
    match file.outcome() {
        Ok(()) => Ok(match scan.single {
            Some(Ok(hand)) => vec![hand],
            _ => scan.hands,
        }),
        Err(super::chunk::FileError::Phh(e)) => Err(e),
        Err(super::chunk::FileError::Duplicate { number, line }) => {
            let first = scan
                .headers
                .iter()
                .find(|&&(n, _)| n == number)
                .map_or(line, |&(_, l)| l);
            Err(super::chunk::duplicate_hand(number, line, first))
        }
    }
}

/// What reading a text (a whole file, or a chunk of a `.phhs` file that starts at a hand's
/// header) found, before it is judged as (part of) a file.
pub(crate) struct Scan {
    /// The hands built, up to the first that could not be built.
    pub hands: Vec<PhhHand>,
    /// Every hand header read, `(number, line)`, in order.
    pub headers: Vec<(usize, usize)>,
    /// The first field written before the first header, with where it is.
    pub prefix: Option<(String, Pos)>,
    /// The first hand that could not be built.
    pub content_error: Option<PhhError>,
    /// The first syntax error (reading stopped there).
    pub syntax_error: Option<PhhError>,
    /// For a text with no header at all: its one hand, as a `.phh` file holds it.
    pub single: Option<Result<PhhHand, PhhError>>,
}

/// Reads `text`, whose first line is line `first_line` of its file (a byte-order mark is
/// skipped at the start of a file only), noting every problem for the caller to judge.
pub(crate) fn scan(text: &str, first_line: usize, file_start: bool) -> Scan {
    let mut cursor = if file_start {
        Cursor::new(text)
    } else {
        Cursor::at_line(text, first_line)
    };
    let mut builder = Builder::default();
    let mut found = Scan {
        hands: Vec::new(),
        headers: Vec::new(),
        prefix: None,
        content_error: None,
        syntax_error: None,
        single: None,
    };
    let mut current: Option<(usize, usize)> = None;
    loop {
        match scan_line(&mut cursor, &mut builder, &mut found, &mut current) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                found.syntax_error = Some(e);
                return found;
            }
        }
    }
    match current {
        // No header: one hand, as a .phh file holds it.
        None => {
            found.prefix = builder.keys.first().map(|(k, p)| (k.to_string(), *p));
            found.single = Some(builder.finish(None, 1));
        }
        Some((number, line)) => end_hand(&mut builder, &mut found, number, line),
    }
    found
}

/// Builds the hand just read, unless the file's outcome is already decided (a field
/// outside any hand, or a hand that could not be built).
fn end_hand(builder: &mut Builder, found: &mut Scan, number: usize, line: usize) {
    if found.prefix.is_none() && found.content_error.is_none() {
        match builder.finish(Some(number), line) {
            Ok(hand) => found.hands.push(hand),
            Err(e) => found.content_error = Some(e),
        }
    }
    builder.clear();
}

/// Reads one line of [`scan`]'s text: a header, a field or nothing; false at the end.
fn scan_line<'a>(
    cursor: &mut Cursor<'a>,
    builder: &mut Builder<'a>,
    found: &mut Scan,
    current: &mut Option<(usize, usize)>,
) -> Result<bool, PhhError> {
    cursor.skip_spaces();
    match cursor.peek_byte() {
        None => return Ok(false),
        Some(b'[') => {
            let (number, line) = cursor.header()?;
            found.headers.push((number, line));
            match *current {
                None => {
                    found.prefix = builder.keys.first().map(|(k, p)| (k.to_string(), *p));
                    builder.clear();
                }
                Some((n, l)) => end_hand(builder, found, n, l),
            }
            *current = Some((number, line));
        }
        Some(b) if b != b'#' && b != b'\n' && b != b'\r' => builder.entry(cursor)?,
        Some(_) => {}
    }
    cursor.end_of_line()?;
    Ok(true)
}

impl Scan {
    /// What the scan found, as a file's judge reads it (the hands themselves aside);
    /// `file_start` says whether the text starts its file.
    pub(crate) fn outcome(&self, file_start: bool) -> super::chunk::ChunkRead {
        super::chunk::ChunkRead {
            headers: self.headers.clone(),
            file_start,
            prefix: self.prefix.clone(),
            syntax_error: self.syntax_error.clone(),
            content_error: self.content_error.clone(),
            single_error: match &self.single {
                Some(Err(e)) => Some(e.clone()),
                _ => None,
            },
            hands: self.hands.len() + matches!(self.single, Some(Ok(_))) as usize,
        }
    }
}

pub(crate) fn outside_any_hand(key: &str, pos: Pos) -> PhhError {
    PhhError::at(
        Kind::Syntax,
        pos,
        format!(
            "`{key}` is outside any hand: in a .phhs file every field belongs under a `[N]` header"
        ),
    )
}

/// A number as read, before the hand's scale is known.
#[derive(Clone, Copy)]
enum Raw {
    Amount(Decimal),
    Inf,
}

/// A value of the wrong type where a typed field's value belongs: where, and what it is.
#[derive(Clone, Copy)]
struct Mistyped {
    pos: Pos,
    found: &'static str,
}

/// The per-player amount arrays, in the order [`Builder::finish`] checks them.
const LISTS: [&str; 5] = [
    "starting_stacks",
    "antes",
    "blinds_or_straddles",
    "finishing_stacks",
    "winnings",
];
const STACKS: usize = 0;
const ANTES: usize = 1;
const BLINDS: usize = 2;
const FINISHING: usize = 3;
const WINNINGS: usize = 4;

/// The single amounts, in the order [`Builder::finish`] checks them.
const SINGLES: [&str; 4] = ["bring_in", "small_bet", "big_bet", "min_bet"];

/// One per-player amount array as read.
#[derive(Default)]
struct NumberList {
    present: bool,
    pos: Pos,
    mistyped: Option<&'static str>,
    /// The entries read before the first bad one.
    items: Vec<(Raw, Pos)>,
    /// How many entries the array has.
    len: usize,
    /// The first entry that is not an amount.
    bad: Option<PhhError>,
}

impl NumberList {
    fn clear(&mut self) {
        self.present = false;
        self.mistyped = None;
        self.items.clear();
        self.len = 0;
        self.bad = None;
    }

    /// Reads the array (the cursor on the value) of the field `key`.
    fn read(&mut self, cursor: &mut Cursor, key: &str, inf_ok: bool) -> Result<(), PhhError> {
        self.clear();
        self.present = true;
        self.pos = cursor.pos();
        if cursor.peek_byte() != Some(b'[') {
            self.mistyped = Some(cursor.value(0)?.type_name());
            return Ok(());
        }
        cursor.array(0, |cursor, depth| {
            let pos = cursor.pos();
            let value = cursor.value(depth)?;
            self.len += 1;
            if self.bad.is_some() {
                return Ok(());
            }
            match value {
                Value::Inf { negative: false } if inf_ok => self.items.push((Raw::Inf, pos)),
                Value::Inf { .. } => {
                    self.bad = Some(PhhError::at(
                        Kind::Amount,
                        pos,
                        format!("infinity is not allowed in `{key}` (`inf` marks an unknown starting stack)"),
                    ))
                }
                value => match value.as_decimal() {
                    Some(d) => self.items.push((Raw::Amount(d), pos)),
                    None => {
                        self.bad = Some(PhhError::at(
                            Kind::WrongType,
                            pos,
                            format!(
                                "entries of `{key}` must be numbers, found {}",
                                value.type_name()
                            ),
                        ))
                    }
                },
            }
            Ok(())
        })?;
        Ok(())
    }

    /// The amounts, or the first problem: the type, the length (when `players` is known),
    /// an entry.
    fn checked(
        &self,
        key: &str,
        players: Option<usize>,
        inf_ok: bool,
    ) -> Result<&[(Raw, Pos)], PhhError> {
        if let Some(found) = self.mistyped {
            let expected = if inf_ok {
                "an array of amounts or `inf`"
            } else {
                "an array of amounts"
            };
            return Err(wrong_type(key, self.pos, expected, found));
        }
        if let Some(players) = players {
            check_length(key, self.pos, self.len, players)?;
        }
        match &self.bad {
            Some(e) => Err(e.clone()),
            None => Ok(&self.items),
        }
    }
}

/// `actions` as read.
struct Actions<'a> {
    pos: Pos,
    mistyped: Option<&'static str>,
    /// The cursor on the value, to read it again if the number of players was not known
    /// when it was read (`actions` written before `starting_stacks`).
    start: Cursor<'a>,
    /// The number of players the notation was checked against.
    players: Option<usize>,
    /// The first entry that is not a valid action.
    bad: Option<PhhError>,
}

/// The fields of one hand as they are read, and the hand built from them at its end.
///
/// One builder serves every hand of a file: its buffers keep their capacity.
#[derive(Default)]
struct Builder<'a> {
    /// Every field name with the place its line starts, in order.
    keys: Vec<(Cow<'a, str>, Pos)>,
    variant: Option<Result<Cow<'a, str>, Mistyped>>,
    lists: [NumberList; 5],
    singles: [Option<Result<(Raw, Pos), Mistyped>>; 4],
    actions: Option<Actions<'a>>,
    /// The actions read, when `actions.bad` is `None`.
    placed: Vec<PlacedAction>,
    /// The fields the hand does not type, with where their values start.
    fields: Vec<(String, Value, Pos)>,
}

impl<'a> Builder<'a> {
    fn clear(&mut self) {
        self.keys.clear();
        self.variant = None;
        for list in &mut self.lists {
            list.clear();
        }
        self.singles = [None; 4];
        self.actions = None;
        self.placed.clear();
        self.fields.clear();
    }

    /// Reads one `key = value` line (the cursor at its start) into the hand.
    fn entry(&mut self, cursor: &mut Cursor<'a>) -> Result<(), PhhError> {
        let (key, pos) = cursor.entry_key()?;
        let value_pos = cursor.pos();
        match key.as_ref() {
            "variant" => {
                self.variant = Some(if matches!(cursor.peek_byte(), Some(b'\'' | b'"')) {
                    Ok(cursor.string()?.text)
                } else {
                    Err(Mistyped {
                        pos: value_pos,
                        found: cursor.value(0)?.type_name(),
                    })
                });
            }
            "actions" => self.read_actions(cursor)?,
            name => {
                if let Some(i) = LISTS.iter().position(|&k| k == name) {
                    self.lists[i].read(cursor, LISTS[i], i == STACKS)?;
                } else if let Some(i) = SINGLES.iter().position(|&k| k == name) {
                    let value = cursor.value(0)?;
                    self.singles[i] = Some(match value.as_decimal() {
                        Some(d) => Ok((Raw::Amount(d), value_pos)),
                        None => Err(Mistyped {
                            pos: value_pos,
                            found: value.type_name(),
                        }),
                    });
                } else {
                    let value = cursor.value(0)?;
                    self.fields.push((name.to_string(), value, value_pos));
                }
            }
        }
        if let Some((_, first)) = self.keys.iter().find(|(k, _)| *k == key) {
            return Err(PhhError::at(
                Kind::Duplicate,
                pos,
                format!(
                    "`{key}` is given twice in this hand (first on line {})",
                    first.line
                ),
            ));
        }
        self.keys.push((key, pos));
        Ok(())
    }

    /// The number of players as far as the hand has been read: the length of a
    /// `starting_stacks` array read before.
    fn players_so_far(&self) -> Option<usize> {
        let stacks = &self.lists[STACKS];
        (stacks.present && stacks.mistyped.is_none()).then_some(stacks.len)
    }

    fn read_actions(&mut self, cursor: &mut Cursor<'a>) -> Result<(), PhhError> {
        let mut slot = Actions {
            pos: cursor.pos(),
            mistyped: None,
            start: *cursor,
            players: self.players_so_far(),
            bad: None,
        };
        self.placed.clear();
        if cursor.peek_byte() == Some(b'[') {
            read_action_array(cursor, slot.players, &mut self.placed, &mut slot.bad)?;
        } else {
            slot.mistyped = Some(cursor.value(0)?.type_name());
        }
        self.actions = Some(slot);
        Ok(())
    }

    /// Builds the hand from what was read, reporting the first problem in a fixed order.
    /// `number` is the hand's `[N]` (none for a `.phh` file), `start_line` where it begins.
    fn finish(&mut self, number: Option<usize>, start_line: usize) -> Result<PhhHand, PhhError> {
        let missing = |key: &str, why: String| {
            let hand = number
                .map(|n| format!(" in hand [{n}]"))
                .unwrap_or_default();
            PhhError::on_line(
                Kind::MissingField,
                start_line,
                format!("missing required field `{key}`{hand}{why}"),
            )
        };
        let has = |key: &str| self.keys.iter().any(|(k, _)| k == key);

        let variant = match &self.variant {
            None => return Err(missing("variant", String::new())),
            Some(Err(m)) => {
                return Err(wrong_type(
                    "variant",
                    m.pos,
                    "a string such as 'NT'",
                    m.found,
                ))
            }
            Some(Ok(v)) => v.to_string(),
        };
        for key in ["starting_stacks", "antes", "actions"] {
            if !has(key) {
                return Err(missing(key, String::new()));
            }
        }
        for key in required_by_variant(&variant) {
            if !has(key) {
                return Err(missing(key, format!(" (variant `{variant}` needs it)")));
            }
        }

        let stacks_raw = self.lists[STACKS].checked(LISTS[STACKS], None, true)?;
        let players = stacks_raw.len();
        if players == 0 {
            return Err(PhhError::at(
                Kind::WrongLength,
                self.lists[STACKS].pos,
                "`starting_stacks` is empty: a hand needs at least one player",
            ));
        }
        let optional_list = |i: usize| -> Result<Option<&[(Raw, Pos)]>, PhhError> {
            let list = &self.lists[i];
            if !list.present {
                return Ok(None);
            }
            list.checked(LISTS[i], Some(players), false).map(Some)
        };
        let antes_raw = self.lists[ANTES].checked(LISTS[ANTES], Some(players), false)?;
        let blinds_raw = optional_list(BLINDS)?;
        let finishing_raw = optional_list(FINISHING)?;
        let winnings_raw = optional_list(WINNINGS)?;
        let mut singles = [None; 4];
        for (i, single) in self.singles.iter().enumerate() {
            singles[i] = match single {
                None => None,
                Some(Ok(raw)) => Some(*raw),
                Some(Err(m)) => return Err(wrong_type(SINGLES[i], m.pos, "a number", m.found)),
            };
        }

        let Some(slot) = &self.actions else {
            return Err(missing("actions", String::new()));
        };
        if let Some(found) = slot.mistyped {
            return Err(wrong_type(
                "actions",
                slot.pos,
                "an array of action strings",
                found,
            ));
        }
        let mut placed = std::mem::take(&mut self.placed);
        if slot.players != Some(players) {
            // Read before `starting_stacks`: read again, now that the players are known.
            let (mut cursor, mut bad) = (slot.start, None);
            placed.clear();
            read_action_array(&mut cursor, Some(players), &mut placed, &mut bad)?;
            if let Some(e) = bad {
                return Err(e);
            }
        } else if let Some(e) = &slot.bad {
            return Err(e.clone());
        }

        // The scale: the most decimal places any amount needs.
        let mut decimals = 0;
        let mut note = |raw: Raw, pos: Pos| -> Result<(), PhhError> {
            if let Raw::Amount(d) = raw {
                let needed = d.decimals_needed();
                if needed > MAX_DECIMALS {
                    return Err(PhhError::at(
                        Kind::Amount,
                        pos,
                        format!("`{d}` has {needed} decimal places; amounts may have at most {MAX_DECIMALS}"),
                    ));
                }
                decimals = decimals.max(needed);
            }
            Ok(())
        };
        let lists = [
            Some(stacks_raw),
            Some(antes_raw),
            blinds_raw,
            finishing_raw,
            winnings_raw,
        ];
        for &(raw, pos) in lists.into_iter().flatten().flatten() {
            note(raw, pos)?;
        }
        for &(raw, pos) in singles.iter().flatten() {
            note(raw, pos)?;
        }
        for action in &placed {
            if let Some((d, _)) = action.parsed.amount {
                note(Raw::Amount(d), action.amount_pos)?;
            }
        }
        let scale = Scale::from_decimals(decimals).unwrap_or(Scale::ONE);

        let chips = |(raw, pos): (Raw, Pos)| -> Result<i64, PhhError> {
            match raw {
                Raw::Amount(d) => scale.to_chips(d).ok_or_else(|| {
                    PhhError::at(
                        Kind::Amount,
                        pos,
                        format!("`{d}` is too large to count in chips at scale {scale}"),
                    )
                }),
                Raw::Inf => Err(PhhError::at(
                    Kind::Amount,
                    pos,
                    "`inf` is only allowed in `starting_stacks` (for an unknown stack)",
                )),
            }
        };
        let chip_list = |raw: &[(Raw, Pos)]| {
            raw.iter()
                .map(|&r| chips(r))
                .collect::<Result<Vec<i64>, _>>()
        };
        let starting_stacks = stacks_raw
            .iter()
            .map(|&(raw, pos)| match raw {
                Raw::Inf => Ok(Stack::Unknown),
                Raw::Amount(_) => {
                    let c = chips((raw, pos))?;
                    u64::try_from(c).map(Stack::Chips).map_err(|_| {
                        PhhError::at(Kind::Amount, pos, "a starting stack cannot be negative")
                    })
                }
            })
            .collect::<Result<Vec<Stack>, _>>()?;

        for action in &mut placed {
            if let (Some((d, _)), Action::CompleteBetRaiseTo { amount, .. }) =
                (action.parsed.amount, &mut action.parsed.action)
            {
                *amount = chips((Raw::Amount(d), action.amount_pos))?;
            }
        }
        // `sm -` needs the cards dealt before it; without one each action stands alone.
        let actions = if placed.iter().any(|p| p.dash.is_some()) {
            resolve_shows(placed.drain(..), players)
        } else {
            Ok(placed
                .drain(..)
                .map(|p| ActionLine {
                    action: p.parsed.action,
                    commentary: p.parsed.commentary.map(String::into_boxed_str),
                    line: super::notation::source_line(p.line),
                })
                .collect())
        };
        self.placed = placed;
        let actions = actions?;

        for (key, value, pos) in &self.fields {
            if let Some(expected) = optional_type_problem(key, value) {
                return Err(wrong_type(key, *pos, expected, value.type_name()));
            }
            if matches!(key.as_str(), "seats" | "players" | "time_banks") {
                if let Value::Array(items) = value {
                    check_length(key, *pos, items.len(), players)?;
                }
            }
        }

        let antes = chip_list(antes_raw)?;
        let blinds_or_straddles = blinds_raw.map(chip_list).transpose()?.unwrap_or_default();
        let [bring_in, small_bet, big_bet, min_bet] = singles;
        let (bring_in, small_bet, big_bet, min_bet) = (
            bring_in.map(chips).transpose()?,
            small_bet.map(chips).transpose()?,
            big_bet.map(chips).transpose()?,
            min_bet.map(chips).transpose()?,
        );
        let finishing_stacks = finishing_raw.map(chip_list).transpose()?;
        let winnings = winnings_raw.map(chip_list).transpose()?;
        Ok(PhhHand {
            number,
            line: start_line,
            variant,
            antes,
            blinds_or_straddles,
            bring_in,
            small_bet,
            big_bet,
            min_bet,
            starting_stacks,
            actions,
            finishing_stacks,
            winnings,
            scale,
            fields: self
                .fields
                .drain(..)
                .map(|(key, value, _)| (key, value))
                .collect(),
            field_order: self.keys.iter().map(|(k, _)| field_name(k)).collect(),
        })
    }
}

/// Reads the array of `actions` (the cursor on its `[`): each string's notation, with errors
/// pointing inside the string; the first problem goes to `bad` (and nothing more is kept),
/// while the rest of the array is still read for its syntax.
fn read_action_array<'a>(
    cursor: &mut Cursor<'a>,
    players: Option<usize>,
    placed: &mut Vec<PlacedAction>,
    bad: &mut Option<PhhError>,
) -> Result<(), PhhError> {
    cursor.array(0, |cursor, depth| {
        if matches!(cursor.peek_byte(), Some(b'\'' | b'"')) {
            let string = cursor.string()?;
            if bad.is_none() {
                match place_action(&string, players) {
                    Ok(action) => placed.push(action),
                    Err(e) => *bad = Some(e),
                }
            }
        } else {
            let pos = cursor.pos();
            let found = cursor.value(depth)?.type_name();
            if bad.is_none() {
                *bad = Some(PhhError::at(
                    Kind::WrongType,
                    pos,
                    format!("`actions` entries must be strings such as 'p1 f', found {found}"),
                ));
            }
        }
        Ok(())
    })?;
    Ok(())
}

/// One action string read as notation, errors placed inside the string.
fn place_action(string: &Str, players: Option<usize>) -> Result<PlacedAction, PhhError> {
    // Columns inside the string are exact unless it was written with escapes.
    let place = |offset: usize| match string.content_col {
        Some(col) => Pos {
            line: string.pos.line,
            col: col + offset,
        },
        None => string.pos,
    };
    let text: &str = &string.text;
    let parsed = notation::parse(text, players).map_err(|e| {
        PhhError::at(
            Kind::Notation,
            place(e.offset),
            format!("`{}`: {}", text.trim(), e.message),
        )
    })?;
    Ok(PlacedAction {
        amount_pos: parsed
            .amount
            .map_or(string.pos, |(_, offset)| place(offset)),
        dash: parsed.shows_dealt.map(place),
        line: string.pos.line,
        parsed,
    })
}

fn wrong_type(key: &str, pos: Pos, expected: &str, found: &str) -> PhhError {
    PhhError::at(
        Kind::WrongType,
        pos,
        format!("`{key}` must be {expected}, found {found}"),
    )
}

fn check_length(key: &str, pos: Pos, len: usize, players: usize) -> Result<(), PhhError> {
    if len == players {
        return Ok(());
    }
    Err(PhhError::at(
        Kind::WrongLength,
        pos,
        format!(
            "array `{key}` has {len} entr{} but there are {players} players (one per entry of `starting_stacks`)",
            if len == 1 { "y" } else { "ies" }
        ),
    ))
}
