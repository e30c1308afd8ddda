//! How a table is set up, the betting actions it takes, and what it refuses — in the words
//! of the API that carries them.

use crate::hand::Action;
use crate::Chips;
use serde::{Deserialize, Serialize};

/// The most chips one seat may bring or a blind may be: the engine's bound, kept in one place
/// ([`crate::bounds`]).
pub const MAX_CHIPS: Chips = crate::bounds::MAX_CHIPS;

/// How a table is set up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSpec {
    /// The ruleset its hands are played under (the version live when each hand starts).
    pub ruleset: String,
    /// Small and big blind, in chips.
    pub blinds: (Chips, Chips),
    /// An ante from every player dealt in.
    #[serde(default)]
    pub ante: Chips,
    /// How many seats (2 to 10; as the ruleset allows for a cash table).
    pub seats: usize,
    /// The fixed initial buy-in, "cave inicial" (pt-casino-2007 rule 75, pt-online rule 8).
    /// Required for a cash table ([`crate::cash::CashGame`]); a tournament's tables have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buy_in: Option<Chips>,
    /// The fixed rebuy amount (rule 75, pt-online rule 14); none: any amount.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rebuy: Option<Chips>,
    /// The least a player may join with (pt-casino-2007 rule 78); none: no floor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum_entry: Option<Chips>,
    /// The table maximum bet, the base of a per-session commission (pt-casino-2007 rule 7(b)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table_maximum: Option<Chips>,
    /// Continuous play or a session with pre-registration (pt-casino-2007 rule 74, pt-online
    /// rule 6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<crate::cash::TableMode>,
    /// The game: `Holdem` (the default) or `Omaha`, no-limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<crate::hand::Variant>,
    /// The dealer calls each showdown hand by hand: the showdown waits for each live hand to
    /// be reported (`showdown.proper_show`, `showdown.premature_muck_by_bettor`...) and the
    /// pots go to the best live hand. Off (the default), every hand still in is tabled.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub called_showdown: bool,
}

/// Why a table refused something. Nothing changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// A malformed request (a seat that does not exist, a bad amount).
    #[error("{0}")]
    Invalid(String),
    /// Not possible in the table's present state (a hand in progress, a seat taken, an
    /// action out of turn or not legal now).
    #[error("{0}")]
    Refused(String),
}

/// A betting action as the API takes it: JSON (`"fold"`, `{"raise_to": 600}`) or the PHH
/// verbs (`"f"`, `"cc"`, `"cbr 600"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Move {
    /// Give up the hand.
    Fold,
    /// Pass with nothing owed.
    Check,
    /// Match the current bet.
    Call,
    /// Check or call (PHH `cc`).
    CheckOrCall,
    /// Bet or raise to this round total.
    RaiseTo(Chips),
    /// Every chip.
    AllIn,
}

impl Move {
    /// Reads the PHH verbs (`f`, `cc`, `cbr 600`) or the words `fold`, `check`, `call`,
    /// `allin`, `bet 600`, `raise 600` (a raise amount is the round total).
    pub fn parse(text: &str) -> Result<Move, TableError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let amount = |w: Option<&&str>| {
            w.and_then(|a| a.parse::<Chips>().ok())
                .filter(|&a| a > 0)
                .ok_or_else(|| {
                    TableError::Invalid(format!(
                        "`{text}`: a bet or raise needs a positive whole number of chips"
                    ))
                })
        };
        Ok(match words.first().copied() {
            Some("f" | "fold") if words.len() == 1 => Move::Fold,
            Some("check") if words.len() == 1 => Move::Check,
            Some("call") if words.len() == 1 => Move::Call,
            Some("cc") if words.len() == 1 => Move::CheckOrCall,
            Some("allin" | "all-in" | "all_in") if words.len() == 1 => Move::AllIn,
            Some("cbr" | "bet" | "raise") if words.len() == 2 => Move::RaiseTo(amount(words.get(1))?),
            _ => {
                return Err(TableError::Invalid(format!(
                    "`{text}` is not an action: use f, cc, cbr AMOUNT (or fold, check, call, bet AMOUNT, raise AMOUNT, allin)"
                )))
            }
        })
    }

    /// The engine's action.
    pub fn action(self) -> Action {
        match self {
            Move::Fold => Action::Fold,
            Move::Check => Action::Check,
            Move::Call => Action::Call,
            Move::CheckOrCall => Action::CheckOrCall,
            Move::RaiseTo(to) => Action::BetOrRaiseTo(to),
            Move::AllIn => Action::AllIn,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_are_read_as_phh_verbs_words_or_json() {
        assert_eq!(Move::parse("cbr 600"), Ok(Move::RaiseTo(600)));
        assert_eq!(Move::parse("raise 600"), Ok(Move::RaiseTo(600)));
        assert_eq!(Move::parse("cc"), Ok(Move::CheckOrCall));
        assert_eq!(Move::parse("f"), Ok(Move::Fold));
        assert!(Move::parse("cbr -3").is_err());
        assert!(Move::parse("cbr 0").is_err());
        assert!(Move::parse("dance").is_err());
        let json: Move = serde_json::from_str(r#"{"raise_to": 6}"#).expect("json");
        assert_eq!(json, Move::RaiseTo(6));
    }
}
