//! The typed hand a replayer consumes, and the rules of the format that building one needs
//! (which fields a variant requires, the types of the optional fields, `sm -`); the reader
//! that builds it is [`super::reader`].

use super::amount::Scale;
use super::error::{PhhError, PhhErrorKind as Kind, Pos};
use super::notation::{self, Action, ActionLine};
use super::value::Value;
use crate::cards::Card;
use std::borrow::Cow;

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
    pub field_order: Vec<Cow<'static, str>>,
}

/// The fields the PHH specification names beside the [`TYPED_FIELDS`], so that a record's
/// field order holds every name the specification gives without a heap block each (a corpus
/// holds thousands of records, and every block it does not need is memory a replay walks
/// past).
const OTHER_SPEC_FIELDS: &[&str] = &[
    "ante_trimming_status",
    "author",
    "event",
    "url",
    "venue",
    "address",
    "city",
    "region",
    "postal_code",
    "country",
    "time",
    "time_zone",
    "time_zone_abbreviation",
    "day",
    "month",
    "year",
    "hand",
    "level",
    "seats",
    "seat_count",
    "table",
    "players",
    "currency",
    "currency_symbol",
    "time_limit",
    "time_banks",
    "total_pot_amount",
    "rake",
];

/// A field's name as [`PhhHand::field_order`] keeps it: borrowed when the specification
/// names it, owned otherwise.
pub(crate) fn field_name(key: &str) -> Cow<'static, str> {
    match TYPED_FIELDS
        .iter()
        .chain(OTHER_SPEC_FIELDS)
        .find(|&&known| known == key)
    {
        Some(&known) => Cow::Borrowed(known),
        None => Cow::Owned(key.to_string()),
    }
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
pub(crate) fn required_by_variant(variant: &str) -> &'static [&'static str] {
    match variant {
        "FT" | "FO/8" | "F2L3D" | "FB" => &["blinds_or_straddles", "small_bet", "big_bet"],
        "NT" | "NS" | "PO" | "N2L1D" => &["blinds_or_straddles", "min_bet"],
        "F7S" | "F7S/8" | "FR" => &["bring_in", "small_bet", "big_bet"],
        _ => &[],
    }
}

/// An action read from the file, with the places errors about it point at.
pub(crate) struct PlacedAction {
    pub parsed: notation::Parsed,
    /// The line of its string.
    pub line: usize,
    /// Where its amount is written (or, without one, where the string starts).
    pub amount_pos: Pos,
    /// Where the `-` of an `sm -` is.
    pub dash: Option<Pos>,
}

/// Fills in `sm -` with the cards dealt to the player (less any discarded), and makes the
/// final [`ActionLine`]s.
pub(crate) fn resolve_shows(
    actions: impl ExactSizeIterator<Item = PlacedAction>,
    players: usize,
) -> Result<Vec<ActionLine>, PhhError> {
    let mut held: Vec<Vec<Option<Card>>> = vec![Vec::new(); players];
    let mut out = Vec::with_capacity(actions.len());
    for placed in actions {
        let mut action = placed.parsed.action;
        match &mut action {
            Action::DealHole { player, cards } => {
                if let Some(h) = held.get_mut(usize::from(*player)) {
                    h.extend(cards.iter().copied());
                }
            }
            Action::StandPatDiscard { player, cards } => {
                if let Some(h) = held.get_mut(usize::from(*player)) {
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
                    let dealt = held.get(usize::from(*player)).filter(|h| !h.is_empty()).ok_or_else(|| {
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
            commentary: placed.parsed.commentary.map(String::into_boxed_str),
            line: super::notation::source_line(placed.line),
        });
    }
    Ok(out)
}

/// The type the specification gives an optional field, as a description, if `value` does
/// not have it. Unknown fields may hold anything.
pub(crate) fn optional_type_problem(key: &str, value: &Value) -> Option<&'static str> {
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
