//! The typed hand a replayer consumes, and how one is built from a parsed TOML section:
//! required fields checked, per-player arrays checked against the number of players, every
//! amount scaled to integer chips, actions read.

use super::amount::{Decimal, Scale, MAX_DECIMALS};
use super::error::{PhhError, PhhErrorKind as Kind, Pos};
use super::notation::{self, Action, ActionLine};
use super::toml::{Entry, Item, ItemKind, Section};
use super::value::Value;
use crate::cards::Card;

/// A starting stack: chips, or unknown (`inf` in the file), as records of real games often
/// omit the stacks of players who are not involved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stack {
    /// A known stack, in chips at the hand's scale.
    Chips(u64),
    /// Written as `inf`: the record does not know it.
    Unknown,
}

/// One hand of a PHH file, with its amounts in integer chips.
///
/// Every amount (stacks, antes, blinds, bets, action amounts, finishing stacks, winnings) is
/// `value × scale.factor()`, where [`PhhHand::scale`] is the smallest power of ten that makes
/// all of the hand's amounts whole: a `$126.30` stack in a hand of cent amounts is 12630
/// chips at scale 100. Per-player arrays list players in PHH order (first to act after the
/// button first, the button last). Fields the model does not type are kept in
/// [`PhhHand::fields`] so that writing the hand back loses nothing.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct PhhHand {
    /// The `[N]` header of the hand in a `.phhs` file; `None` for a `.phh` file.
    pub number: Option<usize>,
    /// The line the hand starts on (its header in a `.phhs` file, 1 in a `.phh` file), for
    /// reports about the whole hand.
    pub line: usize,
    /// The variant code: `NT` no-limit hold'em, `PO` pot-limit omaha, `FT` fixed-limit
    /// hold'em, … (kept as written; the replayer decides what it plays).
    pub variant: String,
    /// Each player's ante.
    pub antes: Vec<i64>,
    /// Each player's blind or straddle; empty when the file has none (stud games). A
    /// negative entry is a post: a player paying to play at once instead of waiting for the
    /// big blind, as PokerKit and the HandHQ conversions write it.
    pub blinds_or_straddles: Vec<i64>,
    /// The bring-in of stud games.
    pub bring_in: Option<i64>,
    /// The small bet of fixed-limit games.
    pub small_bet: Option<i64>,
    /// The big bet of fixed-limit games.
    pub big_bet: Option<i64>,
    /// The minimum bet of no-limit and pot-limit games.
    pub min_bet: Option<i64>,
    /// Each player's stack at the start of the hand.
    pub starting_stacks: Vec<Stack>,
    /// The actions, in order.
    pub actions: Vec<ActionLine>,
    /// Each player's stack at the end, when the record gives them.
    pub finishing_stacks: Option<Vec<i64>>,
    /// Each player's winnings (after rake), when the record gives them.
    pub winnings: Option<Vec<i64>>,
    /// Chips per unit of the file's amounts.
    pub scale: Scale,
    /// Every other field (`players`, `venue`, `time`, unknown ones…), in source order.
    /// Entries named like a typed field are ignored when writing.
    pub fields: Vec<(String, Value)>,
    /// The order the source wrote its fields in; writing follows it so a re-written file
    /// reads like the original (and its action lines stay put). Empty for hands built in
    /// code: fields are then written in the specification's order.
    pub field_order: Vec<String>,
}

impl PhhHand {
    /// The number of players: the length of `starting_stacks`.
    pub fn players(&self) -> usize {
        self.starting_stacks.len()
    }

    /// A field the model does not type, by name (`players`, `venue`, …).
    pub fn field(&self, key: &str) -> Option<&Value> {
        self.fields.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// `ante_trimming_status`, which defaults to `false` when absent.
    pub fn ante_trimming_status(&self) -> bool {
        matches!(self.field("ante_trimming_status"), Some(Value::Bool(true)))
    }

    /// Whether two hands record the same game, ignoring where things were written (lines
    /// and field order), which change when a hand is re-written in another layout.
    pub fn same_record(&self, other: &PhhHand) -> bool {
        self.without_layout() == other.without_layout()
    }

    fn without_layout(&self) -> PhhHand {
        let mut hand = self.clone();
        hand.line = 0;
        hand.field_order.clear();
        for action in &mut hand.actions {
            action.line = 0;
        }
        hand
    }
}

/// The fields [`PhhHand`] types; every other field goes to [`PhhHand::fields`].
pub(crate) const TYPED_FIELDS: [&str; 11] = [
    "variant",
    "antes",
    "blinds_or_straddles",
    "bring_in",
    "small_bet",
    "big_bet",
    "min_bet",
    "starting_stacks",
    "actions",
    "finishing_stacks",
    "winnings",
];

/// Betting fields each variant of the PHH specification requires (beyond `antes`,
/// `starting_stacks` and `actions`, which all need). Other variant codes require none.
fn required_by_variant(variant: &str) -> &'static [&'static str] {
    match variant {
        "FT" | "FO/8" | "F2L3D" | "FB" => &["blinds_or_straddles", "small_bet", "big_bet"],
        "NT" | "NS" | "PO" | "N2L1D" => &["blinds_or_straddles", "min_bet"],
        "F7S" | "F7S/8" | "FR" => &["bring_in", "small_bet", "big_bet"],
        _ => &[],
    }
}

/// A number as read, before the hand's scale is known.
#[derive(Clone, Copy)]
enum Raw {
    Amount(Decimal),
    Inf,
}

/// Builds a hand from the entries of one section, `start_line` being where it begins.
pub(crate) fn from_section(
    section: &Section,
    number: Option<usize>,
    start_line: usize,
) -> Result<PhhHand, PhhError> {
    let get = |key: &str| section.entries.iter().find(|e| e.key == key);
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
    let require = |key: &str| get(key).ok_or_else(|| missing(key, String::new()));

    let variant_entry = require("variant")?;
    let variant = match &variant_entry.value.kind {
        ItemKind::Scalar(Value::String(s)) => s.clone(),
        _ => {
            return Err(wrong_type(
                variant_entry,
                &variant_entry.value,
                "a string such as 'NT'",
            ))
        }
    };
    for key in ["starting_stacks", "antes", "actions"] {
        require(key)?;
    }
    for key in required_by_variant(&variant) {
        require(key).map_err(|_| missing(key, format!(" (variant `{variant}` needs it)")))?;
    }

    let stacks_entry = require("starting_stacks")?;
    let stacks_raw = number_list(stacks_entry, None, true)?;
    let players = stacks_raw.len();
    if players == 0 {
        return Err(PhhError::at(
            Kind::WrongLength,
            stacks_entry.value.pos,
            "`starting_stacks` is empty: a hand needs at least one player",
        ));
    }
    let antes_raw = number_list(require("antes")?, Some(players), false)?;
    let blinds_raw = get("blinds_or_straddles")
        .map(|e| number_list(e, Some(players), false))
        .transpose()?;
    let finishing_raw = get("finishing_stacks")
        .map(|e| number_list(e, Some(players), false))
        .transpose()?;
    let winnings_raw = get("winnings")
        .map(|e| number_list(e, Some(players), false))
        .transpose()?;
    let single = |key: &str| get(key).map(single_number).transpose();
    let (bring_in, small_bet, big_bet, min_bet) = (
        single("bring_in")?,
        single("small_bet")?,
        single("big_bet")?,
        single("min_bet")?,
    );
    let mut actions = read_actions(require("actions")?, players)?;

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
        Some(&stacks_raw),
        Some(&antes_raw),
        blinds_raw.as_ref(),
        finishing_raw.as_ref(),
        winnings_raw.as_ref(),
    ];
    for &(raw, pos) in lists.into_iter().flatten().flatten() {
        note(raw, pos)?;
    }
    for &(raw, pos) in [&bring_in, &small_bet, &big_bet, &min_bet]
        .into_iter()
        .flatten()
    {
        note(raw, pos)?;
    }
    for action in &actions {
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

    for action in &mut actions {
        if let (Some((d, _)), Action::CompleteBetRaiseTo { amount, .. }) =
            (action.parsed.amount, &mut action.parsed.action)
        {
            *amount = chips((Raw::Amount(d), action.amount_pos))?;
        }
    }
    let actions = resolve_shows(actions, players)?;

    let fields = other_fields(section, players)?;

    Ok(PhhHand {
        number,
        line: start_line,
        variant,
        antes: chip_list(&antes_raw)?,
        blinds_or_straddles: blinds_raw
            .as_deref()
            .map(chip_list)
            .transpose()?
            .unwrap_or_default(),
        bring_in: bring_in.map(chips).transpose()?,
        small_bet: small_bet.map(chips).transpose()?,
        big_bet: big_bet.map(chips).transpose()?,
        min_bet: min_bet.map(chips).transpose()?,
        starting_stacks,
        actions,
        finishing_stacks: finishing_raw.as_deref().map(chip_list).transpose()?,
        winnings: winnings_raw.as_deref().map(chip_list).transpose()?,
        scale,
        fields,
        field_order: section.entries.iter().map(|e| e.key.clone()).collect(),
    })
}

/// The fields [`PhhHand`] does not type, checked against the types the specification gives
/// the optional ones (and per-player arrays against the number of players).
fn other_fields(section: &Section, players: usize) -> Result<Vec<(String, Value)>, PhhError> {
    let mut fields = Vec::new();
    for entry in section
        .entries
        .iter()
        .filter(|e| !TYPED_FIELDS.contains(&e.key.as_str()))
    {
        let value = entry.value.to_value();
        if let Some(expected) = optional_type_problem(&entry.key, &value) {
            return Err(wrong_type(entry, &entry.value, expected));
        }
        if matches!(entry.key.as_str(), "seats" | "players" | "time_banks") {
            if let ItemKind::Array(items) = &entry.value.kind {
                check_length(entry, items.len(), players)?;
            }
        }
        fields.push((entry.key.clone(), value));
    }
    Ok(fields)
}

fn wrong_type(entry: &Entry, item: &Item, expected: &str) -> PhhError {
    PhhError::at(
        Kind::WrongType,
        item.pos,
        format!(
            "`{}` must be {expected}, found {}",
            entry.key,
            item.to_value().type_name()
        ),
    )
}

fn check_length(entry: &Entry, len: usize, players: usize) -> Result<(), PhhError> {
    if len == players {
        return Ok(());
    }
    Err(PhhError::at(
        Kind::WrongLength,
        entry.value.pos,
        format!(
            "array `{}` has {len} entr{} but there are {players} players (one per entry of `starting_stacks`)",
            entry.key,
            if len == 1 { "y" } else { "ies" }
        ),
    ))
}

/// An array of amounts (and `inf` where allowed), checked to have one entry per player.
fn number_list(
    entry: &Entry,
    players: Option<usize>,
    inf_ok: bool,
) -> Result<Vec<(Raw, Pos)>, PhhError> {
    let ItemKind::Array(items) = &entry.value.kind else {
        let expected = if inf_ok {
            "an array of amounts or `inf`"
        } else {
            "an array of amounts"
        };
        return Err(wrong_type(entry, &entry.value, expected));
    };
    if let Some(players) = players {
        check_length(entry, items.len(), players)?;
    }
    let not_a_number = |item: &Item| {
        PhhError::at(
            Kind::WrongType,
            item.pos,
            format!(
                "entries of `{}` must be numbers, found {}",
                entry.key,
                item.to_value().type_name()
            ),
        )
    };
    items
        .iter()
        .map(|item| match &item.kind {
            ItemKind::Scalar(Value::Inf { negative: false }) if inf_ok => Ok((Raw::Inf, item.pos)),
            ItemKind::Scalar(Value::Inf { .. }) => Err(PhhError::at(
                Kind::Amount,
                item.pos,
                format!(
                    "infinity is not allowed in `{}` (`inf` marks an unknown starting stack)",
                    entry.key
                ),
            )),
            ItemKind::Scalar(v) => v
                .as_decimal()
                .map(|d| (Raw::Amount(d), item.pos))
                .ok_or_else(|| not_a_number(item)),
            ItemKind::Array(_) => Err(not_a_number(item)),
        })
        .collect()
}

fn single_number(entry: &Entry) -> Result<(Raw, Pos), PhhError> {
    match &entry.value.kind {
        ItemKind::Scalar(v) => match v.as_decimal() {
            Some(d) => Ok((Raw::Amount(d), entry.value.pos)),
            None => Err(wrong_type(entry, &entry.value, "a number")),
        },
        ItemKind::Array(_) => Err(wrong_type(entry, &entry.value, "a number")),
    }
}

/// An action read from the file, with the places errors about it point at.
struct PlacedAction {
    parsed: notation::Parsed,
    /// The line of its string.
    line: usize,
    /// Where its amount is written (or, without one, where the string starts).
    amount_pos: Pos,
    /// Where the `-` of an `sm -` is.
    dash: Option<Pos>,
}

/// Reads `actions`: each string's notation, with errors pointing inside the string.
fn read_actions(entry: &Entry, players: usize) -> Result<Vec<PlacedAction>, PhhError> {
    let ItemKind::Array(items) = &entry.value.kind else {
        return Err(wrong_type(
            entry,
            &entry.value,
            "an array of action strings",
        ));
    };
    items
        .iter()
        .map(|item| {
            let ItemKind::Scalar(Value::String(text)) = &item.kind else {
                return Err(PhhError::at(
                    Kind::WrongType,
                    item.pos,
                    format!(
                        "`actions` entries must be strings such as 'p1 f', found {}",
                        item.to_value().type_name()
                    ),
                ));
            };
            // Columns inside the string are exact unless it was written with escapes.
            let place = |offset: usize| match item.content_col {
                Some(col) => Pos {
                    line: item.pos.line,
                    col: col + offset,
                },
                None => item.pos,
            };
            let parsed = notation::parse(text, Some(players)).map_err(|e| {
                PhhError::at(
                    Kind::Notation,
                    place(e.offset),
                    format!("`{}`: {}", text.trim(), e.message),
                )
            })?;
            Ok(PlacedAction {
                amount_pos: parsed.amount.map_or(item.pos, |(_, offset)| place(offset)),
                dash: parsed.shows_dealt.map(place),
                line: item.pos.line,
                parsed,
            })
        })
        .collect()
}

/// Fills in `sm -` with the cards dealt to the player (less any discarded), and makes the
/// final [`ActionLine`]s.
fn resolve_shows(actions: Vec<PlacedAction>, players: usize) -> Result<Vec<ActionLine>, PhhError> {
    let mut held: Vec<Vec<Option<Card>>> = vec![Vec::new(); players];
    let mut out = Vec::with_capacity(actions.len());
    for placed in actions {
        let mut action = placed.parsed.action;
        match &mut action {
            Action::DealHole { player, cards } => {
                if let Some(h) = held.get_mut(*player) {
                    h.extend(cards.iter().copied());
                }
            }
            Action::StandPatDiscard { player, cards } => {
                if let Some(h) = held.get_mut(*player) {
                    for card in cards.iter() {
                        if let Some(i) = h.iter().position(|c| c == card) {
                            h.remove(i);
                        }
                    }
                }
            }
            Action::ShowMuck {
                player,
                cards: Some(cards),
            } => {
                if let Some(pos) = placed.dash {
                    let dealt = held.get(*player).filter(|h| !h.is_empty()).ok_or_else(|| {
                        PhhError::at(
                            Kind::Notation,
                            pos,
                            format!(
                                "`p{} sm -` shows the cards dealt to p{0}, but no `d dh p{0} …` comes before it",
                                *player + 1
                            ),
                        )
                    })?;
                    *cards = dealt.as_slice().into();
                }
            }
            _ => {}
        }
        out.push(ActionLine {
            action,
            commentary: placed.parsed.commentary,
            line: placed.line,
        });
    }
    Ok(out)
}

/// The type the specification gives an optional field, as a description, if `value` does
/// not have it. Unknown fields may hold anything.
fn optional_type_problem(key: &str, value: &Value) -> Option<&'static str> {
    let number = |v: &Value| {
        matches!(
            v,
            Value::Integer(_) | Value::Float(_) | Value::Inf { negative: false }
        )
    };
    let all = |pred: &dyn Fn(&Value) -> bool| {
        value.as_array().is_some_and(|items| items.iter().all(pred))
    };
    let (ok, expected) = match key {
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
        | "currency_symbol" => (matches!(value, Value::String(_)), "a string"),
        "time" => (
            matches!(value, Value::DateTime(_)),
            "a time such as 16:46:03",
        ),
        "day" | "month" | "year" | "level" | "seat_count" => {
            (matches!(value, Value::Integer(_)), "an integer")
        }
        "hand" | "table" => (
            matches!(value, Value::String(_) | Value::Integer(_)),
            "a string or an integer",
        ),
        "seats" => (
            all(&|v| matches!(v, Value::Integer(_))),
            "an array of integers",
        ),
        "players" => (
            all(&|v| matches!(v, Value::String(_))),
            "an array of strings",
        ),
        "ante_trimming_status" => (matches!(value, Value::Bool(_)), "`true` or `false`"),
        "time_limit" => (number(value), "a number or `inf`"),
        "time_banks" => (all(&number), "an array of numbers"),
        _ => (true, ""),
    };
    (!ok).then_some(expected)
}
