//! The kinds of value a decision's context holds, each with its bounds and the boundary
//! values a probe tries: the smallest, the next, the largest the engine allows; every case of
//! a word; an empty, a one-entry and a full list.
//!
//! A bound is part of the type so that a generated context is always one the engine could
//! really ask with: a script that loops over the players may be probed with 23 of them, never
//! with 10^12.

use crate::bounds::{MAX_CHIPS, MAX_HAND_CHIPS};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};

/// The boundary values of a kind of value, in order from the smallest: what a probe tries.
pub trait Boundary: Sized + Clone {
    /// The values tried (never empty).
    fn boundary() -> Vec<Self>;
}

impl Boundary for bool {
    fn boundary() -> Vec<bool> {
        vec![false, true]
    }
}

/// A whole number from `MIN` to `MAX` (both included), refused outside them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct Bounded<const MIN: u64, const MAX: u64>(pub u64);

impl<'de, const MIN: u64, const MAX: u64> Deserialize<'de> for Bounded<MIN, MAX> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let n = u64::deserialize(d)?;
        if (MIN..=MAX).contains(&n) {
            Ok(Bounded(n))
        } else {
            Err(D::Error::custom(format!("{n} is outside {MIN} to {MAX}")))
        }
    }
}

impl<const MIN: u64, const MAX: u64> Boundary for Bounded<MIN, MAX> {
    fn boundary() -> Vec<Self> {
        let mut values = vec![MIN, MIN.saturating_add(1).min(MAX), MAX];
        values.dedup();
        values.into_iter().map(Bounded).collect()
    }
}

/// Chips at a table or in tournament money: a stack, a buy-in, a blind, a prize.
pub type Amount = Bounded<0, MAX_CHIPS>;
/// Chips within a hand, where hand histories count in smaller units than tables.
pub type HandAmount = Bounded<0, MAX_HAND_CHIPS>;
/// A number of players or seats at one table.
pub type Players = Bounded<0, { crate::hand::MAX_PLAYERS as u64 }>;
/// A seat number at a table, from 1.
pub type SeatNumber = Bounded<1, { crate::hand::MAX_PLAYERS as u64 }>;
/// A number of players in a tournament (entrants, players left, places paid).
pub type Entrants = Bounded<0, 100_000>;
/// A player's number in a tournament.
pub type PlayerNumber = Bounded<0, 1_000_000>;
/// A table's number in a tournament, from 1.
pub type TableNumber = Bounded<1, 10_000>;
/// A number of tables.
pub type Tables = Bounded<0, 10_000>;
/// A small count: hands, rounds, motions, offences, cards, shuffles, payments.
pub type Count = Bounded<0, 1_000>;
/// A level of a tournament's structure, or a day of play, from 1.
pub type Level = Bounded<1, 1_000>;
/// Seconds (a day at most).
pub type Seconds = Bounded<0, 86_400>;
/// Minutes (a week at most).
pub type Minutes = Bounded<0, 10_080>;
/// Hours (a year at most).
pub type Hours = Bounded<0, 8_784>;
/// Cards on the board.
pub type BoardCards = Bounded<0, 5>;

/// A list of at most `MAX` entries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct List<T, const MAX: usize>(pub Vec<T>);

impl<'de, T: Deserialize<'de>, const MAX: usize> Deserialize<'de> for List<T, MAX> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let items = Vec::<T>::deserialize(d)?;
        if items.len() > MAX {
            return Err(D::Error::custom(format!(
                "a list of {} entries, above the bound of {MAX}",
                items.len()
            )));
        }
        Ok(List(items))
    }
}

impl<T: Boundary, const MAX: usize> Boundary for List<T, MAX> {
    /// Empty, one entry (the smallest), and full (the largest, `MAX` times).
    fn boundary() -> Vec<Self> {
        let values = T::boundary();
        let (first, last) = (values[0].clone(), values[values.len() - 1].clone());
        vec![List(Vec::new()), List(vec![first]), List(vec![last; MAX])]
    }
}

/// Chips pushed, one entry per chip: at most [`crate::bounds::MAX_CHIPS_PUSHED`] of them,
/// their total within [`MAX_HAND_CHIPS`] (as a `Chips` event's are).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct ChipList(pub Vec<HandAmount>);

impl<'de> Deserialize<'de> for ChipList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let List(chips) = List::<HandAmount, { crate::bounds::MAX_CHIPS_PUSHED }>::deserialize(d)?;
        let amounts: Vec<u64> = chips.iter().map(|c| c.0).collect();
        crate::bounds::sum("the chips", &amounts, MAX_HAND_CHIPS)
            .map_err(|e| D::Error::custom(e.to_string()))?;
        Ok(ChipList(chips))
    }
}

impl Boundary for ChipList {
    /// None, one chip, and a full list whose total is the hand bound.
    fn boundary() -> Vec<Self> {
        let n = crate::bounds::MAX_CHIPS_PUSHED;
        vec![
            ChipList(Vec::new()),
            ChipList(vec![Bounded(1)]),
            ChipList(vec![Bounded(MAX_HAND_CHIPS / n as u64); n]),
        ]
    }
}

/// A card as the texts write it: rank then suit (`As`, `Td`, `2c`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct CardName(pub String);

impl<'de> Deserialize<'de> for CardName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse::<crate::cards::Card>().map_err(|_| {
            D::Error::custom(format!("`{text}` is not a card (rank then suit: `As`)"))
        })?;
        Ok(CardName(text))
    }
}

impl Boundary for CardName {
    fn boundary() -> Vec<Self> {
        vec![CardName("2c".into()), CardName("As".into())]
    }
}

/// A time of day, `HH:MM:SS`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct ClockTime(pub String);

impl<'de> Deserialize<'de> for ClockTime {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        let parts: Vec<&str> = text.split(':').collect();
        let fits = parts.len() == 3
            && parts
                .iter()
                .zip([24, 60, 60])
                .all(|(p, max)| p.len() == 2 && p.parse::<u32>().is_ok_and(|n| n < max));
        if !fits {
            return Err(D::Error::custom(format!(
                "`{text}` is not a time of day HH:MM:SS"
            )));
        }
        Ok(ClockTime(text))
    }
}

impl Boundary for ClockTime {
    fn boundary() -> Vec<Self> {
        vec![ClockTime("00:00:00".into()), ClockTime("23:59:59".into())]
    }
}

/// Free text a fact carries (a statement said at the table), at most 256 characters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Text(pub String);

/// The most characters of a [`Text`] fact.
pub const MAX_TEXT: usize = 256;

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        if text.chars().count() > MAX_TEXT {
            return Err(D::Error::custom(format!(
                "a text of {} characters, above the bound of {MAX_TEXT}",
                text.chars().count()
            )));
        }
        Ok(Text(text))
    }
}

impl Boundary for Text {
    fn boundary() -> Vec<Self> {
        vec![Text(String::new()), Text("x".repeat(MAX_TEXT))]
    }
}

/// Declares a closed set of words a fact may take, written as the rulebooks' scripts compare
/// them: each case with its exact spelling. Serialized and read as the bare word.
macro_rules! words {
    ($(
        $(#[$doc:meta])*
        $name:ident { $( $(#[$vdoc:meta])* $variant:ident = $word:literal ),+ $(,)? }
    )*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vdoc])* $variant, )+
        }

        impl $name {
            /// Every case, in order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The word as written.
            pub fn word(self) -> &'static str {
                match self { $($name::$variant => $word),+ }
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.word())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let word = String::deserialize(d)?;
                $name::ALL
                    .iter()
                    .copied()
                    .find(|w| w.word() == word)
                    .ok_or_else(|| {
                        let known: Vec<&str> = $name::ALL.iter().map(|w| w.word()).collect();
                        <D::Error as serde::de::Error>::custom(format!(
                            "`{word}` is not one of {}",
                            known.join(", ")
                        ))
                    })
            }
        }

        impl $crate::rules::decision::values::Boundary for $name {
            fn boundary() -> Vec<Self> {
                $name::ALL.to_vec()
            }
        }

        impl schemars::JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }

            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({
                    "type": "string",
                    "enum": [$($word),+],
                })
            }
        }
    )*};
}
pub(crate) use words;

words! {
    /// A betting round.
    Street { Preflop = "preflop", Flop = "flop", Turn = "turn", River = "river" }
    /// A voluntary action, as a hand's facts list them.
    ActionWord { Check = "check", Call = "call", Bet = "bet", Raise = "raise", Fold = "fold" }
    /// An action a player took or declared, all-in included.
    Declared {
        Check = "check", Call = "call", Bet = "bet", Raise = "raise", Fold = "fold",
        AllIn = "all_in",
    }
    /// A betting structure, as table events name it.
    StructureWord {
        NoLimit = "no_limit", PotLimit = "pot_limit", HalfPotLimit = "half_pot_limit",
        FixedLimit = "fixed_limit", Limit = "limit",
    }
    /// A game family.
    GameWord { Holdem = "holdem", Omaha = "omaha", Synthetic = "synthetic", Flop = "flop",
        Stud = "stud", Razz = "razz", Mixed = "mixed" }
    /// How a player comes to a table in a tournament.
    EntryCategory {
        Alternate = "alternate", BrokenTable = "broken_table", DayTwoEntry = "day_two_entry",
        LateRegistrant = "late_registrant", New = "new", Reentry = "reentry",
    }
    /// A table format.
    Format {
        FullRing = "full_ring", TenHanded = "10-handed", SevenHanded = "seven-handed",
        SixHanded = "six-handed", SixMax = "6-max", HeadsUp = "heads_up", Turbo = "turbo",
        Flop = "flop", Stud = "stud",
    }
}
