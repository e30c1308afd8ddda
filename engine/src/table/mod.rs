//! The table that plays successive hands: numbered seats, the button, one hand after another
//! dealt from a deck shuffled with the caller's seed, stacks carried from hand to hand, each
//! hand pinned to the ruleset version it was dealt under, and the table events of the hand in
//! progress.
//!
//! Who is dealt in, where the button goes and what each player posts is not decided here but
//! by what drives the table: the session rules of a cash game ([`crate::cash::CashTable`]) or
//! the tournament runtime ([`crate::tournament::director`]). Both deal through
//! [`Table::deal`], play through [`Table::act`] and [`Table::event`], and read the table back
//! through [`Table::view`], so a hand is played, shown and voided the same way wherever it is
//! dealt.

mod after_hand;
mod board_errors;
mod correction;
mod dealer;
mod dealt;
mod heads_up;
mod held;
mod manner;
mod penalties;
mod penalty_moves;
mod penalty_serving;
mod played;
mod presence;
mod rulings;
mod short_deal;
mod showdown_rulings;
mod slow_play;
mod spec;
#[cfg(test)]
mod tests;
mod view;

pub use after_hand::{is_show_after_hand, AFTER_HAND_POINTS};
pub use correction::{is_correction, CORRECTION_POINTS};
pub use dealer::{BoardPlan, Dealer, DealerView, StreetDeal};
pub use dealt::{Dealt, End};
pub use heads_up::{heads_up_seats, HeadsUpSeats};
pub use held::HeldAction;
pub use penalties::{Penalties, PenaltyQuestion, PenaltyView};
pub use penalty_moves::CarriedPenalties;
pub use played::PlayedHand;
pub use rulings::FloorQuestion;
pub use spec::{Move, TableError, TableSpec, MAX_CHIPS};
pub use view::{HandView, HeldView, SeatView, TableView, Viewer};

use crate::cards::Deck;
use crate::events::{EventRuling, TableEvent};
use crate::hand::{Action, ActionError, Event, Hand, HandConfig};
use crate::rules::{Citation, Finding, Rules, Ruling};
use crate::Chips;
use std::sync::Arc;

/// What a table needs of whoever holds a seat: a name to show and a stack carried from hand
/// to hand. The cash table's seat ([`crate::cash::Seat`]) carries its session's flags too.
pub trait Occupant: Clone {
    /// The name shown at the seat.
    fn name(&self) -> &str;
    /// Chips behind, between hands.
    fn stack(&self) -> Chips;
    /// Sets the chips behind (a finished hand's stack, chips bought).
    fn set_stack(&mut self, chips: Chips);
    /// Resting between hands, not dealt in (a cash table's sitting out; a tournament's
    /// player never rests at the table).
    fn sitting_out(&self) -> bool {
        false
    }
}

/// A player who is only a name and a stack (a tournament's tables: the tournament keeps
/// everything else about him).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// The player's name.
    pub name: String,
    /// Chips behind, between hands.
    pub stack: Chips,
}

impl Occupant for Player {
    fn name(&self) -> &str {
        &self.name
    }
    fn stack(&self) -> Chips {
        self.stack
    }
    fn set_stack(&mut self, chips: Chips) {
        self.stack = chips;
    }
}

/// A ruleset version as a hand is pinned to it: the rules it consults and the identity of
/// the exact content (a host's content hash; empty where nobody needs to tell versions apart).
/// A hand keeps the version it was dealt under to its end, whatever is loaded meanwhile.
#[derive(Clone)]
pub struct RulesVersion {
    /// The rules.
    pub rules: Arc<dyn Rules>,
    /// The identity of the content the rules were loaded from.
    pub hash: Arc<str>,
}

impl RulesVersion {
    /// `rules` with no content identity (scenarios, tests).
    pub fn unnamed(rules: Arc<dyn Rules>) -> RulesVersion {
        RulesVersion {
            rules,
            hash: Arc::from(""),
        }
    }
}

/// A hand laid out by whoever drives the table, for [`Table::deal`].
pub struct Deal {
    /// Stacks, blinds and antes by position.
    pub config: HandConfig,
    /// The seat (index, from 0) at each position.
    pub positions: Vec<usize>,
    /// The button's seat (index).
    pub button: usize,
    /// The version the hand is pinned to.
    pub version: RulesVersion,
    /// The rules the hand's state machine consults (the version's, or a cash table's that
    /// leave the commission to the table).
    pub hand_rules: Arc<dyn Rules>,
    /// The shuffled deck.
    pub deck: Deck,
}

/// Why a hand could not be dealt.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DealError {
    /// The laid-out hand is not a valid hand (its configuration was refused).
    #[error("{0}")]
    Setup(String),
    /// The cards could not be dealt.
    #[error(transparent)]
    Cards(#[from] ActionError),
}

/// A table of numbered seats that plays one hand after another.
///
/// `Clone` so that a daemon can apply a command to a copy and keep the copy only once the
/// command is journaled.
#[derive(Clone)]
pub struct Table<S> {
    pub(crate) seats: Vec<Option<S>>,
    /// The seat (index) holding the button.
    pub(crate) button: Option<usize>,
    pub(crate) hands: u64,
    /// The hand in progress or, between hands, the last one (until the next deal).
    pub(crate) dealt: Option<Dealt<S>>,
    /// Chips the hands themselves raked, over every hand.
    raked: Chips,
    /// The dealer calls each showdown hand by hand: the showdown waits for each live hand
    /// to be reported shown or ruled dead, instead of settling with tabled hands speaking.
    called_showdown: bool,
    /// Penalties given at this table: remembered for escalation, served across its hands.
    pub(crate) penalties: Penalties,
}

impl<S: Occupant> Table<S> {
    /// An empty table of `seats` seats.
    pub fn new(seats: usize) -> Table<S> {
        Table {
            seats: (0..seats).map(|_| None).collect(),
            button: None,
            hands: 0,
            dealt: None,
            raked: 0,
            called_showdown: false,
            penalties: Penalties::default(),
        }
    }

    /// Whether the dealer calls each showdown hand by hand (see
    /// `showdown_rulings`): the showdown then waits for the hands to be reported shown or
    /// ruled dead. Off, a showdown settles at once, every hand still in tabled.
    pub fn call_showdowns(&mut self, on: bool) {
        self.called_showdown = on;
    }

    /// Every seat, from the first (index 0).
    pub fn seats(&self) -> &[Option<S>] {
        &self.seats
    }

    /// Whoever holds seat `index` (from 0).
    pub fn occupant(&self, index: usize) -> Option<&S> {
        self.seats.get(index)?.as_ref()
    }

    /// The seat (index) holding the button, once a hand was dealt.
    pub fn button(&self) -> Option<usize> {
        self.button
    }

    /// Hands dealt so far (the number of the last one).
    pub fn hands_dealt(&self) -> u64 {
        self.hands
    }

    /// Chips the hands raked, over every hand.
    pub fn raked(&self) -> Chips {
        self.raked
    }

    /// The hand in progress.
    pub fn live(&self) -> Option<&Dealt<S>> {
        self.dealt.as_ref().filter(|d| d.end == End::Playing)
    }

    /// The hand in progress, to play on.
    pub(crate) fn playing_mut(&mut self) -> Option<&mut Dealt<S>> {
        self.dealt.as_mut().filter(|d| d.end == End::Playing)
    }

    /// The hand in progress or, between hands, the last one dealt.
    pub fn last(&self) -> Option<&Dealt<S>> {
        self.dealt.as_ref()
    }

    /// Whether a hand is being played (dealt, and neither complete nor void).
    pub fn in_hand(&self) -> bool {
        self.live().is_some()
    }

    /// How the last hand ended: `None` while it is played (or none was dealt), `Some(None)`
    /// void, `Some(Some(stacks))` complete, with the stacks by position.
    pub fn outcome(&self) -> Option<Option<Vec<Chips>>> {
        let d = self.dealt.as_ref()?;
        match d.end {
            End::Playing => None,
            End::Void => Some(None),
            End::Complete => Some(Some(d.hand.stacks())),
        }
    }

    /// Every chip at the table: the seats' stacks (during a hand, what the players dealt in
    /// hold in it, bets included) plus what the hands raked. A player dealt in who left his
    /// seat during the hand took what he had behind; what he put in is still in the pot.
    pub fn chips(&self) -> Chips {
        let seated: Chips = self.seats.iter().flatten().map(Occupant::stack).sum();
        let Some(live) = self.live() else {
            return seated + self.raked;
        };
        let dealt: Chips = live
            .positions
            .iter()
            .filter_map(|&i| self.seats[i].as_ref().map(Occupant::stack))
            .sum();
        let gone: Chips = live
            .positions
            .iter()
            .enumerate()
            .filter(|(_, &i)| self.seats[i].is_none())
            .map(|(p, _)| live.hand.stack_of(p))
            .sum();
        seated - dealt + live.hand.chips_in_play() - gone + self.raked
    }

    /// The seat number (from 1) `seat` as an index, or why not.
    pub fn index(&self, id: &str, seat: usize) -> Result<usize, TableError> {
        if seat == 0 || seat > self.seats.len() {
            return Err(TableError::Invalid(format!(
                "table {id} has seats 1 to {}, not {seat}",
                self.seats.len()
            )));
        }
        Ok(seat - 1)
    }

    /// Deals the hand `deal` lays out: hole cards one at a time round the table from the
    /// first position, as every text deals them (see [`Dealer`]). The
    /// board is dealt as it falls due by [`Table::progress`], which the caller runs next.
    /// The button moves to `deal.button`; the last hand is forgotten. Returns the hand's
    /// number.
    pub fn deal(&mut self, deal: Deal) -> Result<u64, DealError> {
        if self.in_hand() {
            return Err(DealError::Setup(
                "a hand is in progress at this table".into(),
            ));
        }
        let start_stacks = deal.config.stacks.clone();
        let mut hand =
            Hand::new(deal.config, deal.hand_rules).map_err(|e| DealError::Setup(e.to_string()))?;
        let mut dealer = Dealer::new(deal.deck);
        dealer.deal_hole(&mut hand)?;
        let before = deal
            .positions
            .iter()
            .filter_map(|&i| self.seats[i].clone())
            .collect();
        let previous_button = self.button.replace(deal.button);
        self.hands += 1;
        self.dealt = Some(Dealt {
            number: self.hands,
            hand,
            version: deal.version,
            positions: deal.positions,
            dealer,
            start_stacks,
            button: deal.button,
            previous_button,
            before,
            reported: 0,
            end: End::Playing,
            awaiting: None,
            redeals: 0,
            held: Vec::new(),
            away: Vec::new(),
        });
        // Penalised players' cards are killed as dealt; whoever deals runs `progress` next,
        // which settles a hand that leaves nobody to act.
        self.serve_at_deal();
        Ok(self.hands)
    }

    /// The hand in progress, to change, or why there is none.
    fn playing(&mut self) -> Result<&mut Dealt<S>, TableError> {
        match self.dealt.as_mut() {
            Some(d) if d.end == End::Playing => Ok(d),
            _ => Err(TableError::Refused(
                "no hand is in progress at this table".into(),
            )),
        }
    }

    /// The player in seat `index` acts in the hand in progress; the board is dealt as it
    /// falls due and a showdown settled (tabled hands speak). Returns whether the action
    /// ended the hand. Refused out of turn, for a seat not dealt in, or when the hand
    /// refuses the action; the table is then unchanged.
    pub fn act(&mut self, index: usize, action: Action) -> Result<bool, TableError> {
        let seat = index + 1;
        let d = self.playing()?;
        d.refuse_if_waiting()?;
        let p = d.position_or_refuse(index)?;
        if let Some(actor) = d.hand.actor() {
            if actor != p {
                return Err(TableError::Refused(format!(
                    "it is seat {}'s turn, not seat {seat}'s",
                    d.positions[actor] + 1
                )));
            }
        }
        d.act_in_turn(p, action)?;
        self.progress()
            .map_err(|e| TableError::Refused(e.to_string()))
    }

    /// A table event of the scenario vocabulary in the hand in progress, `player` (in `Chips`
    /// and `Declare`) being a seat number (from 1). The ruling is made by the rules the hand
    /// was dealt under; when it amounts to an action, the action is applied and the table
    /// deals or settles what follows.
    pub fn event(&mut self, id: &str, event: &TableEvent) -> Result<EventRuling, TableError> {
        if !self.in_hand() && is_correction(event) {
            return self.correct(id, event);
        }
        if !self.in_hand() && is_show_after_hand(event) {
            return self.show_after_hand(id, event);
        }
        if let TableEvent::PenaltyGiven {
            player,
            offence,
            sanction,
            facts,
        } = event
        {
            return self.penalise(*player, offence, sanction.as_deref(), facts);
        }
        if let TableEvent::FloorRuling { choice } = event {
            if self.penalties.waits_for_floor() {
                return self.floor_sanction(choice);
            }
        }
        let mut event = event.clone();
        if let TableEvent::Chips { player, .. }
        | TableEvent::Declare { player, .. }
        | TableEvent::Played { player, .. }
        | TableEvent::Acted { player, .. } = &mut event
        {
            let index = self.index(id, *player)?;
            *player = self.playing()?.position_or_refuse(index)?;
        }
        let ruling = self.rule_in_hand(&event)?;
        self.progress()
            .map_err(|e| TableError::Refused(e.to_string()))?;
        self.settle_leaving();
        Ok(ruling)
    }

    /// Deals what is due, finishes a showdown; at the end of the hand carries each player's
    /// stack back to his seat. Returns whether the hand ended in this call.
    pub fn progress(&mut self) -> Result<bool, ActionError> {
        let called = self.called_showdown;
        let Some(d) = self.dealt.as_mut().filter(|d| d.end == End::Playing) else {
            return Ok(false);
        };
        loop {
            if d.hand.phase() == crate::hand::Phase::Showdown {
                if called {
                    return Ok(false);
                }
                d.hand.finish_showdown()?;
            }
            if d.hand.is_complete() || !d.dealer.deal_board(&mut d.hand)? {
                break;
            }
        }
        if !d.hand.is_complete() {
            return Ok(false);
        }
        d.end = End::Complete;
        self.raked += d
            .hand
            .events()
            .iter()
            .map(|e| match e {
                Event::Raked { amount, .. } => *amount,
                _ => 0,
            })
            .sum::<Chips>();
        let stacks = d.hand.stacks();
        for (p, &i) in d.positions.iter().enumerate() {
            if let Some(s) = self.seats[i].as_mut() {
                s.set_stack(stacks[p]);
            }
        }
        self.settle_leaving();
        Ok(true)
    }

    /// The rulings the hand made since the last call (its own and those recorded with it),
    /// for whoever reports them in order.
    pub fn fresh_rulings(&mut self) -> Vec<Ruling> {
        let Some(d) = self.dealt.as_mut() else {
            return Vec::new();
        };
        let all = d.hand.rulings();
        let fresh = all[d.reported.min(all.len())..].to_vec();
        d.reported = all.len();
        fresh
    }

    /// Voids the hand in progress: every bet goes back (the seats keep the stacks they had
    /// when it was dealt). Returns the chips that were in the middle. What the void does to
    /// the seats beyond that (a cash table restores them as they were) is the caller's.
    pub fn void(&mut self) -> Result<Chips, TableError> {
        let d = self.playing()?;
        d.end = End::Void;
        let returned = d.hand.pot_total();
        self.settle_leaving();
        Ok(returned)
    }

    /// Voids the hand in progress as ruled at `point` (`citation`, or not regulated by this
    /// text), recording with the hand why it is void and what went back.
    pub fn void_ruled(
        &mut self,
        point: &'static str,
        citation: Citation,
        why: &str,
    ) -> Result<Chips, TableError> {
        let d = self.playing()?;
        let returned = d.hand.pot_total();
        let ruling = Ruling {
            point,
            ruleset: d.hand.rules().ruleset().clone(),
            citation,
            finding: Finding::Text(format!(
                "hand {} is void: {why}; every bet is returned ({returned} chips)",
                d.number
            )),
        };
        d.hand.record_ruling(ruling);
        self.void()
    }

    /// Replaces who sits where (between hands: a tournament moved players, someone busted or
    /// entered). Refused while a hand is in progress.
    pub fn set_seats(&mut self, seats: Vec<Option<S>>) -> Result<(), TableError> {
        if self.in_hand() {
            return Err(TableError::Refused(
                "a hand is in progress at this table".into(),
            ));
        }
        self.seats = seats;
        Ok(())
    }

    /// Seats a player in an empty seat, even during a hand (a tournament's late entry): he
    /// is not dealt into it.
    pub fn seat_between(&mut self, id: &str, index: usize, occupant: S) -> Result<(), TableError> {
        match self.seats.get_mut(index) {
            Some(s @ None) => {
                *s = Some(occupant);
                Ok(())
            }
            _ => Err(TableError::Refused(format!(
                "seat {} of table {id} is not free",
                index + 1
            ))),
        }
    }

    /// Adds chips a player bought to the stack in seat `index`. Only between hands.
    pub fn add_to_stack(&mut self, id: &str, index: usize, chips: Chips) -> Result<(), TableError> {
        if self.in_hand() {
            return Err(TableError::Refused(format!(
                "table {id}: chips are added between hands"
            )));
        }
        match self.seats.get_mut(index) {
            Some(Some(s)) => {
                let stack = s.stack() + chips;
                s.set_stack(stack);
                Ok(())
            }
            _ => Err(TableError::Refused(format!(
                "seat {} of table {id} is empty",
                index + 1
            ))),
        }
    }
}

/// A hand cut short by a failure of the gaming system (a daemon stopped before it finished),
/// as the table's ruleset rules on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interrupted {
    /// The rule point: `online.communication_failure`.
    pub point: &'static str,
    /// Its article under the ruleset, or `None`: not regulated by this text.
    pub citation: Option<String>,
    /// Why the hand is void, in words.
    pub why: &'static str,
}

/// How `rules` rule on a hand interrupted by a failure of the gaming system:
/// `online.communication_failure` asked with the origin `system` (pt-online rules 72–73: the
/// hand is void and every bet returned). Without rules (the version the hand was pinned to
/// is gone) the point is recorded as not regulated by this text.
pub fn interrupted(rules: Option<&dyn Rules>) -> Interrupted {
    let point = "online.communication_failure";
    let mut facts = std::collections::BTreeMap::new();
    facts.insert("origin".to_string(), ron::Value::String("system".into()));
    let citation = rules.and_then(|r| {
        r.table_event(point, &facts)
            .citation
            .article()
            .map(str::to_string)
    });
    Interrupted {
        point,
        citation,
        why: "the daemon stopped before the hand finished (a failure of the gaming system)",
    }
}
