//! What a tournament is told to do, and what it answers: the entry a registration got, a
//! purchase with where its money went, the ruling of a table event, a refusal the ruleset
//! made (journaled all the same), and every ruling the command made, for the journal.

use crate::events::{EventRuling, TableEvent};
use crate::table::Move;
use crate::tournament::Cents;
use crate::Chips;
use serde::{Deserialize, Serialize};

/// One command to a tournament. Players are numbered from 1 in order of registration;
/// tables by their number; seats from 1. Serialized as a daemon journals it
/// (`{"act": {"table": 1, "seat": 3, "action": "fold"}}`, `"start"`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Command {
    /// A player registers (before the start, or late).
    Register {
        /// The player's name.
        name: String,
    },
    /// A player out of the tournament buys a new entry.
    ReEnter {
        /// The player.
        player: usize,
    },
    /// A player still in buys a rebuy or the add-on: paid at once, its chips added to his
    /// stack between hands (at once on a break; at the start of his next hand, before its
    /// deal, when bought while his table's hand of the round is being played).
    Purchase {
        /// The player.
        player: usize,
        /// The add-on (`false`: a rebuy).
        add_on: bool,
    },
    /// Seats are drawn and the first round is dealt.
    Start,
    /// A betting action at a table.
    Act {
        /// The table's number.
        table: u32,
        /// The seat.
        seat: usize,
        /// The action.
        action: Move,
    },
    /// A table event (scenario vocabulary; `player` is the seat number).
    Event {
        /// The table's number.
        table: u32,
        /// The event.
        event: TableEvent,
    },
    /// Deals the next round when none is being played (after a break), or, where the next
    /// round is dealt on command, once every hand of the round is over (the dealer's "next
    /// hand": a claim on a hand just settled is no longer heard).
    Deal,
    /// Lets time pass on the level clock.
    Clock {
        /// Seconds.
        seconds: u64,
    },
    /// The hand in progress at a table is voided, its bets returned.
    Void {
        /// The table's number.
        table: u32,
        /// The rule point.
        point: String,
        /// The article (`None`: not regulated by this text).
        citation: Option<String>,
        /// Why.
        why: String,
    },
    /// The tournament is cancelled: hands in progress voided, every payment refunded.
    Cancel,
}

/// A ruling a command made, as the journal keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recorded {
    /// `tour1` for the tournament's own rulings, `tour1.3` for a hand at its table 3.
    pub table: String,
    /// The round (tournament rulings) or the table's hand number.
    pub hand: u64,
    /// The rule point.
    pub point: String,
    /// The ruleset id.
    pub ruleset: String,
    /// Its version.
    pub version: String,
    /// The citation.
    pub citation: String,
    /// The ruling in English.
    pub text: String,
}

/// What a command gave.
#[derive(Clone, Debug, Default)]
pub struct Done {
    /// The entry number a registration or re-entry got.
    pub entry: Option<u32>,
    /// The ruling of a table event.
    pub ruling: Option<EventRuling>,
    /// A late entry, re-entry, rebuy or add-on the ruleset refused: the command changed
    /// nothing but the ruling, which is journaled with it.
    pub refused: Option<Refusal>,
    /// A rebuy or add-on bought.
    pub purchase: Option<Purchase>,
    /// Every ruling the command made (the tournament's and its tables'), in order.
    pub rulings: Vec<Recorded>,
    /// Every hand the command dealt: the table's id (`tour1.3`) and the hand's number.
    pub dealt: Vec<(String, u64)>,
    /// Every hand the command ended (played out or void), in order, as its table records
    /// it — a hand may end and the next round be dealt at the same table in one command.
    pub ended: Vec<crate::table::PlayedHand>,
}

/// A rebuy or add-on bought: what it cost, where the money went, the chips it added.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Purchase {
    /// The player, from 1.
    pub player: usize,
    /// The entry whose stack grew.
    pub entry: u32,
    /// `rebuy` or `add_on`.
    pub stream: String,
    /// Paid, in cents.
    pub paid: Cents,
    /// The house's fee, in cents.
    pub fee: Cents,
    /// Into the prize pool, in cents.
    pub to_pool: Cents,
    /// Chips added to the stack.
    pub chips: Chips,
    /// The stack after it.
    pub stack: Chips,
    /// The rule point that allowed it.
    pub point: String,
    /// Its article (or *not regulated by this text*).
    pub citation: String,
    /// When the chips join the stack: `now` (between hands: `stack` includes them) or
    /// `next_hand` (bought while his table's hand is played: queued, `stack` is the stack
    /// he plays that hand with).
    pub applies: &'static str,
    /// For a queued purchase, the ruling on when it applies (`tournament.rebuy.declaration`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub when: Option<When>,
}

/// The ruling on when a queued purchase's chips join the stack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct When {
    /// The rule point (`tournament.rebuy.declaration`).
    pub point: String,
    /// Its article (pt-tournament Art. 27º), or *not regulated by this text*.
    pub citation: String,
    /// The ruling in English.
    pub text: String,
}

/// A late entry or re-entry refused by the runtime's announced windows, or a rebuy or add-on
/// refused by the money ledger, as the ruleset ruled (`tournament.late_registration`,
/// `tournament.reentry`, `tournament.modality.rebuy_addon`, `tournament.modality.freeze_out`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Refusal {
    /// The rule point.
    pub point: String,
    /// What was asked for (`late registration`, `re-entry`).
    pub what: String,
    /// Why not, in the ruling's words.
    pub why: String,
    /// The article, or *not regulated by this text*.
    pub citation: String,
}

impl Refusal {
    /// The refusal as one line: what, why, the article.
    pub fn message(&self) -> String {
        format!("{} refused: {} ({})", self.what, self.why, self.citation)
    }
}
