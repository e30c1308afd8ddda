//! What players and the dealer do in a hand, and the record the hand keeps of it.

use crate::cards::Card;
use crate::Chips;
use serde::Serialize;

/// A few cards carried by an event, stored inline (an event never holds more than five), so
/// that recording a deal or a show allocates nothing. Reads as a slice.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct EventCards<T: Copy + Default> {
    cards: [T; 5],
    len: u8,
}

impl<T: Copy + Default> EventCards<T> {
    /// Copies up to five cards (the state machine never records more).
    #[inline(always)]
    pub fn new(cards: &[T]) -> Self {
        // One fixed copy per count: a loop over the slice would be compiled into a call to
        // copy a slice of unknown length, costly for a handful of bytes.
        let d = T::default();
        let (cards, len) = match *cards {
            [] => ([d; 5], 0),
            [a] => ([a, d, d, d, d], 1),
            [a, b] => ([a, b, d, d, d], 2),
            [a, b, c] => ([a, b, c, d, d], 3),
            [a, b, c, e] => ([a, b, c, e, d], 4),
            [a, b, c, e, f, ..] => ([a, b, c, e, f], 5),
        };
        EventCards { cards, len }
    }
}

impl<T: Copy + Default> EventCards<T> {
    /// The first `len` (at most four) of four cards, the rest being `T::default()` as
    /// [`EventCards::new`] leaves them: a deal's cards, moved as one word rather than copied
    /// card by card.
    pub(crate) fn first(cards: [T; 4], len: usize) -> Self {
        let [a, b, c, d] = cards;
        EventCards {
            cards: [a, b, c, d, T::default()],
            len: len.min(4) as u8,
        }
    }
}

impl<T: Copy + Default> std::ops::Deref for EventCards<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.cards[..self.len as usize]
    }
}

impl<T: Copy + Default + std::fmt::Debug> std::fmt::Debug for EventCards<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Copy + Default + Serialize> Serialize for EventCards<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

/// A betting round.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize,
)]
#[cfg_attr(feature = "rulesets", derive(schemars::JsonSchema))]
pub enum Street {
    /// Before the flop (hole cards only).
    Preflop,
    /// After the three-card flop.
    Flop,
    /// After the fourth board card.
    Turn,
    /// After the fifth board card.
    River,
}

impl Street {
    /// The next street, or `None` after the river.
    pub fn next(self) -> Option<Street> {
        match self {
            Street::Preflop => Some(Street::Flop),
            Street::Flop => Some(Street::Turn),
            Street::Turn => Some(Street::River),
            Street::River => None,
        }
    }

    /// How many board cards are dealt to open this street.
    pub fn board_cards_dealt(self) -> usize {
        match self {
            Street::Preflop => 0,
            Street::Flop => 3,
            Street::Turn | Street::River => 1,
        }
    }

    /// The street's English name.
    pub fn name(self) -> &'static str {
        match self {
            Street::Preflop => "pre-flop",
            Street::Flop => "flop",
            Street::Turn => "turn",
            Street::River => "river",
        }
    }
}

/// A player's betting action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub enum Action {
    /// Give up the hand.
    Fold,
    /// Pass when nothing is owed.
    Check,
    /// Match the current bet (or put in the whole stack if it is smaller).
    Call,
    /// Check if nothing is owed, otherwise call (the PHH `cc` notation).
    CheckOrCall,
    /// Bet, or raise, so that this round's total bet becomes the amount.
    BetOrRaiseTo(Chips),
    /// Put in every chip: a bet or raise when that exceeds the current bet, otherwise a call.
    AllIn,
}

/// Why a player's hand ended in a pot or out of it, as recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Event {
    /// A forced bet was posted.
    Posted {
        /// Who posted.
        player: usize,
        /// What kind of forced bet.
        kind: PostKind,
        /// How much went in (less than asked when the stack was short).
        amount: Chips,
    },
    /// Hole cards dealt (`None` for a card unknown to the record).
    HoleDealt {
        /// The receiving player.
        player: usize,
        /// The cards.
        cards: EventCards<Option<Card>>,
    },
    /// Board cards dealt.
    BoardDealt {
        /// The street they open.
        street: Street,
        /// The cards.
        cards: EventCards<Card>,
    },
    /// A betting action was accepted.
    Acted {
        /// Who acted.
        player: usize,
        /// What the action amounted to.
        kind: ActionKind,
        /// The player's total bet in the round afterwards.
        to: Chips,
        /// Whether the player has no chips left afterwards.
        all_in: bool,
    },
    /// The part of a bet nobody called went back to its owner.
    UncalledReturned {
        /// The bettor.
        player: usize,
        /// The amount returned.
        amount: Chips,
    },
    /// A player showed cards at showdown.
    Showed {
        /// Who showed.
        player: usize,
        /// The cards shown (`None` where the record does not know them).
        cards: EventCards<Option<Card>>,
    },
    /// A player mucked (threw the hand away unshown) at showdown.
    Mucked {
        /// Who mucked.
        player: usize,
    },
    /// A pot (or a share of one) was awarded.
    Awarded {
        /// 0 for the main pot, 1.. for side pots.
        pot: usize,
        /// The winner.
        player: usize,
        /// Chips won from this pot.
        amount: Chips,
        /// The winning hand's description, when the pot went to showdown.
        hand: Option<&'static str>,
    },
    /// The commission taken from a pot.
    Raked {
        /// The pot.
        pot: usize,
        /// The commission.
        amount: Chips,
    },
}

impl Event {
    /// Whether the event says where chips went when the hand was settled (a pot awarded, an
    /// uncalled bet returned, a commission taken): the events an [`EventLog::Settlement`]
    /// keeps.
    #[inline]
    pub fn settles(&self) -> bool {
        matches!(
            self,
            Event::Awarded { .. } | Event::UncalledReturned { .. } | Event::Raked { .. }
        )
    }
}

/// Which events a hand keeps in its log ([`crate::hand::Hand::events`]). Rulings are always
/// recorded, whatever the log keeps; only the story of the play is chosen here.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EventLog {
    /// Every event: the hand's whole story, for a table, a journal, an export.
    #[default]
    Every,
    /// Only the events that settle the hand ([`Event::settles`]). A replay that checks a
    /// record's results reads no other (the finishing stacks are the hand's, the winnings
    /// are what was awarded and returned), and a large corpus replays faster when the
    /// deals, posts and actions it never reads are not written down.
    Settlement,
}

/// Kinds of forced bets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum PostKind {
    /// An ante (dead money).
    Ante,
    /// A blind or straddle (live).
    Blind,
    /// A live post by a newly seated player.
    Post,
}

/// What an accepted betting action amounted to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ActionKind {
    /// Folded.
    Fold,
    /// Checked.
    Check,
    /// Called.
    Call,
    /// Opened the betting.
    Bet,
    /// Raised.
    Raise,
}
