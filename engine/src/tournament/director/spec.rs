//! How a tournament is announced (the body of a request to create one, journaled as given):
//! the ruleset, the structure of levels, stacks, the buy-in and fee, seats per table, the
//! payout table where the ruleset has none, the entry windows, rebuys and the add-on.

use crate::table::TableError;
use crate::tournament::structure::{Break, Level, Modality, Structure};
use crate::tournament::{Cents, PayoutTable};
use crate::Chips;
use serde::{Deserialize, Serialize};

/// The structure of levels: a named default or the levels themselves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum StructureSpec {
    /// `"standard"` (20-minute levels), `"turbo"` (10), `"hyper"` (3): 20 levels from 25/50.
    Named(String),
    /// `{"levels": [{"small_blind", "big_blind", "ante", "minutes"}], "breaks": [...]}`.
    Levels {
        /// The levels.
        levels: Vec<Level>,
        /// The breaks.
        #[serde(default)]
        breaks: Vec<Break>,
    },
}

impl Default for StructureSpec {
    fn default() -> Self {
        StructureSpec::Named("standard".into())
    }
}

impl StructureSpec {
    /// The structure it names or gives.
    pub fn structure(&self) -> Result<Structure, TableError> {
        match self {
            StructureSpec::Levels { levels, breaks } => Ok(Structure {
                levels: levels.clone(),
                breaks: breaks.clone(),
            }),
            StructureSpec::Named(name) => {
                let minutes = match name.as_str() {
                    "standard" => 20,
                    "turbo" => 10,
                    "hyper" => 3,
                    other => {
                        return Err(TableError::Invalid(format!(
                            "`{other}` is not a named structure (standard, turbo, hyper) — or give {{\"levels\": [...]}}"
                        )))
                    }
                };
                const BLINDS: [Chips; 20] = [
                    50, 100, 150, 200, 300, 400, 600, 800, 1000, 1200, 1600, 2000, 3000, 4000,
                    6000, 8000, 10000, 12000, 16000, 20000,
                ];
                Ok(Structure {
                    levels: BLINDS
                        .iter()
                        .map(|&bb| Level {
                            small_blind: bb / 2,
                            big_blind: bb,
                            ante: 0,
                            big_blind_ante: false,
                            minutes,
                        })
                        .collect(),
                    breaks: Vec::new(),
                })
            }
        }
    }
}

fn nine() -> usize {
    9
}

fn stack() -> Chips {
    10_000
}

/// How a tournament is set up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentSpec {
    /// A tournament ruleset (or a house ruleset extending one); the version live at creation
    /// is the one the whole tournament is played under.
    pub ruleset: String,
    /// A name for people.
    #[serde(default)]
    pub name: Option<String>,
    /// The levels.
    #[serde(default)]
    pub structure: StructureSpec,
    /// The starting stack, in chips.
    #[serde(default = "stack")]
    pub starting_stack: Chips,
    /// The buy-in, fee included, in cents.
    pub buy_in: Cents,
    /// The fee, whole percent of the buy-in (default: the ruleset's announced fee, else 0
    /// where the text does not bound it).
    #[serde(default)]
    pub fee_percent: Option<u32>,
    /// The modality as far as the tables go.
    #[serde(default)]
    pub modality: Modality,
    /// Seats per table (2 to 10).
    #[serde(default = "nine")]
    pub seats_per_table: usize,
    /// The seed of every random draw (seats, buttons, moves, cards); chosen by the daemon
    /// when not given, and journaled.
    #[serde(default)]
    pub seed: Option<u64>,
    /// The payout table, in the format of a ruleset's `tournament.payout_table` value, for a
    /// ruleset that does not regulate it.
    #[serde(default)]
    pub payouts: Option<PayoutTable>,
    /// The last level (from 1) at which late registration and re-entry are open.
    #[serde(default)]
    pub late_registration_until_level: Option<u32>,
    /// Re-entries announced.
    #[serde(default)]
    pub re_entries: bool,
    /// Clock seconds each round counts; when absent the level clock follows the daemon's
    /// wall clock.
    #[serde(default)]
    pub seconds_per_round: Option<u64>,
    /// The rebuy price in cents (fee at `fee_percent`; a rebuy gives a starting stack), when
    /// rebuys are offered. Offering rebuys or an add-on makes the event a rebuy/add-on one
    /// (Solverde §3.1.2); otherwise it is a freeze-out (§3.1.1).
    #[serde(default)]
    pub rebuy: Option<Cents>,
    /// Most rebuys per player (absent: no limit announced).
    #[serde(default)]
    pub max_rebuys: Option<u32>,
    /// The add-on offered.
    #[serde(default)]
    pub add_on: Option<AddOnSpec>,
    /// The next round is dealt on the dealer's word (`Deal`) or a time input (`Clock`), not
    /// as soon as the last hand of the round ends: between the two, a claim on a hand just
    /// settled can still be heard and carried out (pt-tournament Art. 22º: before the next
    /// hand begins), as at a cash table. Absent or `false`: dealt at once.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deal_on_command: bool,
}

/// The add-on offered (the body's `add_on`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddOnSpec {
    /// Its price, in cents (fee at the event's `fee_percent`).
    pub price: Cents,
    /// The chips it gives.
    pub chips: Chips,
}
