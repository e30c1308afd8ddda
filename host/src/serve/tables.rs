//! The table runtime: a table of numbered seats that plays successive hands of the engine's
//! [`Hand`], carrying stacks from hand to hand, moving the button, dealing from a seeded deck,
//! and pinning each hand to the ruleset version it began with.
//!
//! Tournaments play their hands on it (the tournament runtime lays each hand out). The
//! daemon's cash tables are played by the engine's cash table instead ([`super::cash`]); this
//! runtime plays a daemon table only when a journal written before cash tables is replayed
//! ([`super::hosted`]). Every method either changes the table and returns `Ok`, or returns an
//! error and leaves the table exactly as it was.

use crate::live::Version;
use floor_engine::cards::{Card, Deck};
use floor_engine::events::{self, EventRuling, TableEvent};
use floor_engine::hand::{Action, Hand, HandConfig, Phase, Street};
use floor_engine::rules::{Finding, Ruling};
use floor_engine::Chips;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};

/// The most chips one seat may bring or a blind may be: the engine's bound, kept in one place
/// ([`floor_engine::bounds`]).
pub const MAX_CHIPS: Chips = floor_engine::bounds::MAX_CHIPS;

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
    /// Required to open a table over the API: the table is then played by the engine's cash
    /// table ([`super::cash`]) with every session rule of its ruleset. A table journaled by
    /// an older daemon has none and is restored as it was played, by [`Table`].
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
    pub mode: Option<floor_engine::cash::TableMode>,
    /// The game: `Holdem` (the default) or `Omaha`, no-limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<floor_engine::hand::Variant>,
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

/// A seated player.
#[derive(Clone, Debug)]
pub struct Seat {
    /// Their name.
    pub name: String,
    /// Chips before the hand in progress (the hand holds the live amount).
    pub stack: Chips,
    /// Their token: it lets them act for this seat and see this seat's cards.
    pub token: String,
}

/// The hand being (or last) played.
#[derive(Clone, Debug)]
struct Current {
    number: u64,
    hand: Hand,
    /// The seat (index) at each position of the hand.
    positions: Vec<usize>,
    deck: Deck,
    hash: String,
    voided: bool,
}

/// Who looks at a table: what they may see follows from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// Sees everything.
    Operator,
    /// Sees what the public sees, and the rulings.
    Auditor,
    /// Sees the public view and this seat's (index) own cards.
    Seat(usize),
    /// Sees no hole cards before showdown.
    Public,
}

/// A table.
#[derive(Clone, Debug)]
pub struct Table {
    /// Its id (`t1`...).
    pub id: String,
    /// Its setup.
    pub spec: TableSpec,
    seats: Vec<Option<Seat>>,
    button: Option<usize>,
    hands: u64,
    current: Option<Current>,
    /// Chips the house took as rake, over every hand.
    raked: Chips,
}

/// A table as a viewer may see it.
#[derive(Clone, Debug, Serialize)]
pub struct TableView {
    /// The table id.
    pub id: String,
    /// Its setup.
    pub spec: TableSpec,
    /// The button's seat number, once a hand was dealt.
    pub button: Option<usize>,
    /// Every seat, from 1.
    pub seats: Vec<SeatView>,
    /// The hand in progress or the last one.
    pub hand: Option<HandView>,
    /// Chips taken as rake (commission) at this table so far.
    pub raked: Chips,
    /// A cash table's session: its status under the minimum-player rule, its clock, each
    /// seat's rests and obligations, the waiting list (left out of a brief view and of a
    /// table journaled by an older daemon).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<floor_engine::cash::TableState>,
}

/// One seat as a viewer may see it.
#[derive(Clone, Debug, Serialize)]
pub struct SeatView {
    /// The seat number, from 1.
    pub seat: usize,
    /// The player's name (`None`: empty seat).
    pub player: Option<String>,
    /// Chips behind.
    pub stack: Chips,
    /// This round's bet.
    pub bet: Chips,
    /// Dealt into the hand in progress or last played.
    pub in_hand: bool,
    /// Folded in it.
    pub folded: bool,
    /// Hole cards, when this viewer may see them.
    pub cards: Option<Vec<String>>,
}

/// A hand as a viewer may see it.
#[derive(Clone, Debug, Serialize)]
pub struct HandView {
    /// Its number at this table, from 1.
    pub number: u64,
    /// The ruleset id and version it is played under (pinned when it began).
    pub ruleset: String,
    /// That version's string.
    pub version: String,
    /// That version's content hash.
    pub hash: String,
    /// `DealingHole`, `Betting`, `DealingBoard`, `Showdown`, `Complete`.
    pub phase: Phase,
    /// The street.
    pub street: Street,
    /// Voided (all bets returned).
    pub voided: bool,
    /// The board.
    pub board: Vec<String>,
    /// Every chip in the middle.
    pub pot: Chips,
    /// The seat to act.
    pub to_act: Option<usize>,
    /// What the seat to act may do.
    pub to_call: Option<Chips>,
    /// The smallest raise-to amount, if raising is open.
    pub min_raise_to: Option<Chips>,
    /// The largest raise-to amount.
    pub max_raise_to: Option<Chips>,
    /// The rulings so far, each with rule point, ruleset and citation (`None`: left out of
    /// a brief view).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rulings: Option<Vec<String>>,
}

/// A ruling made at a table, for the journal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableRuling {
    /// The hand number.
    pub hand: u64,
    /// The ruling.
    pub ruling: Ruling,
}

impl Table {
    /// A new, empty table.
    pub fn new(id: String, spec: TableSpec) -> Result<Table, TableError> {
        if !(2..=10).contains(&spec.seats) {
            return Err(TableError::Invalid(format!(
                "a table has 2 to 10 seats, not {}",
                spec.seats
            )));
        }
        if spec.blinds.1 == 0
            || spec.blinds.0 > spec.blinds.1
            || spec.blinds.1 > MAX_CHIPS
            || spec.ante > MAX_CHIPS
        {
            return Err(TableError::Invalid(format!(
                "blinds {}/{}: the big blind must be positive, at least the small blind, and at most {MAX_CHIPS} (so must the ante)",
                spec.blinds.0, spec.blinds.1
            )));
        }
        Ok(Table {
            id,
            seats: vec![None; spec.seats],
            spec,
            button: None,
            hands: 0,
            current: None,
            raked: 0,
        })
    }

    fn index(&self, seat: usize) -> Result<usize, TableError> {
        if seat == 0 || seat > self.seats.len() {
            return Err(TableError::Invalid(format!(
                "table {} has seats 1 to {}, not {seat}",
                self.id,
                self.seats.len()
            )));
        }
        Ok(seat - 1)
    }

    /// Whether a hand is being played (dealt and not complete nor voided).
    pub fn in_hand(&self) -> bool {
        self.current
            .as_ref()
            .is_some_and(|c| !c.voided && !c.hand.is_complete())
    }

    /// The number of the hand in progress or last played (0: none yet).
    pub fn hand_number(&self) -> u64 {
        self.hands
    }

    /// How many rulings the current hand holds (to find the new ones after a change).
    pub fn rulings_count(&self) -> usize {
        self.current.as_ref().map_or(0, |c| c.hand.rulings().len())
    }

    /// The current hand's rulings from `from` on.
    pub fn rulings_since(&self, from: usize) -> Vec<TableRuling> {
        self.current.as_ref().map_or_else(Vec::new, |c| {
            c.hand.rulings()[from.min(c.hand.rulings().len())..]
                .iter()
                .map(|r| TableRuling {
                    hand: c.number,
                    ruling: r.clone(),
                })
                .collect()
        })
    }

    /// The seat (index) holding `token`, if any.
    pub fn seat_of_token(&self, token: &str) -> Option<usize> {
        self.seats.iter().position(|s| {
            s.as_ref()
                .is_some_and(|s| crate::serve::auth::same(&s.token, token))
        })
    }

    /// Seats a player with `stack` chips.
    pub fn seat(
        &mut self,
        seat: usize,
        name: &str,
        stack: Chips,
        token: &str,
    ) -> Result<(), TableError> {
        let i = self.index(seat)?;
        if name.trim().is_empty() {
            return Err(TableError::Invalid("a player needs a name".into()));
        }
        if stack == 0 || stack > MAX_CHIPS {
            return Err(TableError::Invalid(format!(
                "a player sits with 1 to {MAX_CHIPS} chips, not {stack}"
            )));
        }
        if let Some(s) = &self.seats[i] {
            return Err(TableError::Refused(format!(
                "seat {seat} is taken by {}",
                s.name
            )));
        }
        self.seats[i] = Some(Seat {
            name: name.to_string(),
            stack,
            token: token.to_string(),
        });
        Ok(())
    }

    /// Removes a player (not while they are dealt into a hand in progress). Returns their
    /// chips.
    pub fn unseat(&mut self, seat: usize) -> Result<Chips, TableError> {
        let i = self.index(seat)?;
        if self.in_hand()
            && self
                .current
                .as_ref()
                .is_some_and(|c| c.positions.contains(&i))
        {
            return Err(TableError::Refused(format!(
                "seat {seat} is in the hand in progress; remove the player after it"
            )));
        }
        match self.seats[i].take() {
            Some(s) => Ok(s.stack),
            None => Err(TableError::Refused(format!("seat {seat} is empty"))),
        }
    }

    /// Deals the next hand under `version`, shuffling with `seed`: the button moves to the
    /// next seated player with chips, blinds go where the ruleset places them, and hole
    /// cards are dealt.
    pub fn start_hand(&mut self, version: &Version, seed: u64) -> Result<u64, TableError> {
        if self.in_hand() {
            return Err(TableError::Refused(
                "a hand is in progress at this table".into(),
            ));
        }
        if version.ruleset.id() != self.spec.ruleset {
            return Err(TableError::Invalid(format!(
                "table {} plays {}, not {}",
                self.id,
                self.spec.ruleset,
                version.ruleset.id()
            )));
        }
        let ready: Vec<usize> = (0..self.seats.len())
            .filter(|&i| self.seats[i].as_ref().is_some_and(|s| s.stack > 0))
            .collect();
        if ready.len() < 2 {
            return Err(TableError::Refused(
                "a hand needs two seated players with chips".into(),
            ));
        }
        let button = match self.button {
            None => ready[0],
            Some(b) => ready.iter().copied().find(|&i| i > b).unwrap_or(ready[0]),
        };
        let position = ready.iter().position(|&i| i == button).unwrap_or(0);
        let stacks: Vec<Chips> = ready
            .iter()
            .map(|&i| self.seats[i].as_ref().map_or(0, |s| s.stack))
            .collect();
        let (mut config, _) = HandConfig::at_table(
            stacks,
            position,
            self.spec.blinds.0,
            self.spec.blinds.1,
            version.rules.as_ref(),
        );
        config.antes = vec![self.spec.ante; ready.len()];
        self.deal(version, seed, config, ready, button)
    }

    /// A table of a tournament (`id` like `tour1.2`): the tournament runtime decides who sits
    /// where and lays out each hand ([`Table::set_seats`], [`Table::start_planned_hand`]);
    /// the hand is then played exactly as at a cash table.
    pub fn for_tournament(id: String, ruleset: String, seats: usize) -> Table {
        Table {
            id,
            seats: vec![None; seats.max(2)],
            spec: TableSpec {
                ruleset,
                blinds: (0, 0),
                ante: 0,
                seats: seats.max(2),
                buy_in: None,
                rebuy: None,
                minimum_entry: None,
                table_maximum: None,
                mode: None,
                variant: None,
            },
            button: None,
            hands: 0,
            current: None,
            raked: 0,
        }
    }

    /// Replaces who sits where (between hands: the tournament moved players, someone busted
    /// or entered). Refused while a hand is in progress.
    pub fn set_seats(&mut self, seats: Vec<Option<Seat>>) -> Result<(), TableError> {
        if self.in_hand() {
            return Err(TableError::Refused(
                "a hand is in progress at this table".into(),
            ));
        }
        self.spec.seats = seats.len();
        self.seats = seats;
        Ok(())
    }

    /// Seats a player in an empty seat while a hand may be in progress (a late entry in a
    /// tournament): he is not dealt into it.
    pub fn seat_between(&mut self, index: usize, seat: Seat) -> Result<(), TableError> {
        match self.seats.get_mut(index) {
            Some(s @ None) => {
                *s = Some(seat);
                Ok(())
            }
            _ => Err(TableError::Refused(format!(
                "seat {} of table {} is not free",
                index + 1,
                self.id
            ))),
        }
    }

    /// Adds chips a player bought (a tournament rebuy or add-on) to the stack in seat `index`
    /// (from 0). Only between hands: refused while a hand is in progress at this table.
    pub fn add_to_stack(&mut self, index: usize, chips: Chips) -> Result<(), TableError> {
        if self.in_hand() {
            return Err(TableError::Refused(format!(
                "table {}: chips are added between hands",
                self.id
            )));
        }
        match self.seats.get_mut(index) {
            Some(Some(s)) => {
                s.stack += chips;
                Ok(())
            }
            _ => Err(TableError::Refused(format!(
                "seat {} of table {} is empty",
                index + 1,
                self.id
            ))),
        }
    }

    /// Deals a hand the caller laid out: `config` gives stacks, blinds and antes by position,
    /// `positions` the seat (index) at each position, `button` the button's seat (index).
    pub fn start_planned_hand(
        &mut self,
        version: &Version,
        seed: u64,
        config: HandConfig,
        positions: Vec<usize>,
        button: usize,
    ) -> Result<u64, TableError> {
        if self.in_hand() {
            return Err(TableError::Refused(
                "a hand is in progress at this table".into(),
            ));
        }
        if positions.len() != config.stacks.len()
            || positions.iter().any(|&i| {
                self.seats
                    .get(i)
                    .is_none_or(|s| s.as_ref().is_none_or(|s| s.stack == 0))
            })
        {
            return Err(TableError::Invalid(format!(
                "table {}: a hand laid out for seats that are not seated",
                self.id
            )));
        }
        self.deal(version, seed, config, positions, button)
    }

    /// How the current hand ended: `None` while it is played (or none was dealt),
    /// `Some(None)` void, `Some(Some(stacks))` complete, with the stacks by position.
    pub fn hand_outcome(&self) -> Option<Option<Vec<Chips>>> {
        let c = self.current.as_ref()?;
        if c.voided {
            Some(None)
        } else if c.hand.is_complete() {
            Some(Some(c.hand.stacks()))
        } else {
            None
        }
    }

    fn deal(
        &mut self,
        version: &Version,
        seed: u64,
        config: HandConfig,
        positions: Vec<usize>,
        button: usize,
    ) -> Result<u64, TableError> {
        let mut hand = Hand::new(config, version.rules.clone())
            .map_err(|e| TableError::Refused(e.to_string()))?;
        let mut deck = Deck::shuffled(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
        let per = hand.config().variant.hole_cards();
        for p in 0..positions.len() {
            let cards: Vec<Option<Card>> = (0..per).map(|_| deck.deal()).collect();
            hand.deal_hole(p, &cards)
                .map_err(|e| TableError::Refused(format!("dealing: {e}")))?;
        }
        self.button = Some(button);
        self.hands += 1;
        self.current = Some(Current {
            number: self.hands,
            hand,
            positions,
            deck,
            hash: version.hash.clone(),
            voided: false,
        });
        self.advance();
        Ok(self.hands)
    }

    fn live(&mut self) -> Result<&mut Current, TableError> {
        match self.current.as_mut() {
            Some(c) if !c.voided && !c.hand.is_complete() => Ok(c),
            _ => Err(TableError::Refused(
                "no hand is in progress at this table".into(),
            )),
        }
    }

    fn position(c: &Current, seat_index: usize) -> Result<usize, TableError> {
        c.positions
            .iter()
            .position(|&i| i == seat_index)
            .ok_or_else(|| {
                TableError::Refused(format!(
                    "seat {} is not dealt into hand {}",
                    seat_index + 1,
                    c.number
                ))
            })
    }

    /// A betting action by the player in `seat`.
    pub fn act(&mut self, seat: usize, mv: Move) -> Result<(), TableError> {
        let i = self.index(seat)?;
        let c = self.live()?;
        let p = Table::position(c, i)?;
        if let Some(actor) = c.hand.actor() {
            if actor != p {
                return Err(TableError::Refused(format!(
                    "it is seat {}'s turn, not seat {seat}'s",
                    c.positions[actor] + 1
                )));
            }
        }
        c.hand
            .act(p, mv.action())
            .map_err(|e| TableError::Refused(format!("seat {seat}: {e}")))?;
        self.advance();
        Ok(())
    }

    /// A table event (the scenario vocabulary). `player` in `Chips` and `Declare` is the
    /// seat number; the ruling is made by the hand's ruleset version and, when it amounts
    /// to an action, the action is applied.
    pub fn event(&mut self, event: &TableEvent) -> Result<EventRuling, TableError> {
        let mut event = event.clone();
        let seat = match &mut event {
            TableEvent::Chips { player, .. } | TableEvent::Declare { player, .. } => Some(player),
            TableEvent::Situation { .. } => None,
        };
        let index = match &seat {
            Some(s) => Some(self.index(**s)?),
            None => None,
        };
        let c = self.live()?;
        if let (Some(player), Some(i)) = (seat, index) {
            *player = Table::position(c, i)?;
        }
        let ruling = events::handle(&mut c.hand, &event)
            .map_err(|e| TableError::Refused(format!("the ruling's action is refused: {e}")))?;
        self.advance();
        Ok(ruling)
    }

    /// Voids the hand in progress: every bet goes back to its owner (the stacks become what
    /// they were when the hand began) and `ruling` is recorded with the hand.
    pub fn void(
        &mut self,
        point: &'static str,
        citation: floor_engine::rules::Citation,
        why: &str,
    ) -> Result<Chips, TableError> {
        let c = self.live()?;
        let returned = c.hand.pot_total();
        let ruling = Ruling {
            point,
            ruleset: c.hand.rules().ruleset().clone(),
            citation,
            finding: Finding::Text(format!(
                "hand {} is void: {why}; every bet is returned ({returned} chips)",
                c.number
            )),
        };
        c.hand.record_ruling(ruling);
        c.voided = true;
        Ok(returned)
    }

    /// Deals the board when it is due and settles a showdown (tabled hands speak); at the end
    /// of the hand the stacks go back to the seats.
    fn advance(&mut self) {
        let Some(c) = self.current.as_mut() else {
            return;
        };
        loop {
            if let Some(n) = c.hand.board_cards_due() {
                let cards: Vec<Card> = (0..n).filter_map(|_| c.deck.deal()).collect();
                if c.hand.deal_board(&cards).is_err() {
                    break;
                }
            } else if c.hand.phase() == Phase::Showdown {
                if c.hand.finish_showdown().is_err() {
                    break;
                }
            } else {
                break;
            }
        }
        if c.hand.is_complete() {
            self.raked += c
                .hand
                .events()
                .iter()
                .map(|e| match e {
                    floor_engine::hand::Event::Raked { amount, .. } => *amount,
                    _ => 0,
                })
                .sum::<Chips>();
            let stacks = c.hand.stacks();
            for (p, &i) in c.positions.iter().enumerate() {
                if let Some(s) = self.seats[i].as_mut() {
                    s.stack = stacks[p];
                }
            }
        }
    }

    /// The ruleset version hash the current (or last) hand is pinned to.
    pub fn hand_hash(&self) -> Option<&str> {
        self.current.as_ref().map(|c| c.hash.as_str())
    }

    /// Every chip at the table: seated stacks (during a hand, the hand's chips in play) plus
    /// the rake the house took. Conserved by everything but seating and unseating.
    pub fn chips(&self) -> Chips {
        let seated: Chips =
            self.seats.iter().flatten().map(|s| s.stack).sum::<Chips>() + self.raked;
        match &self.current {
            Some(c) if !c.voided && !c.hand.is_complete() => {
                let dealt: Chips = c
                    .positions
                    .iter()
                    .filter_map(|&i| self.seats[i].as_ref().map(|s| s.stack))
                    .sum();
                seated - dealt + c.hand.chips_in_play()
            }
            _ => seated,
        }
    }

    /// The table as `viewer` may see it: other players' hole cards only at a showdown.
    pub fn view(&self, viewer: Viewer) -> TableView {
        self.view_with(viewer, true)
    }

    /// [`Table::view`], with the hand's rulings only when `rulings` (a brief view leaves them
    /// out: building and sending their texts was a good part of an action's cost).
    pub fn view_with(&self, viewer: Viewer, rulings: bool) -> TableView {
        let c = self.current.as_ref();
        let live = c.filter(|c| !c.voided);
        let showdown = live.is_some_and(|c| c.hand.is_complete() && c.hand.players_in_hand() >= 2);
        let seats = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let position = c.and_then(|c| c.positions.iter().position(|&x| x == i));
                let mut view = SeatView {
                    seat: i + 1,
                    player: s.as_ref().map(|s| s.name.clone()),
                    stack: s.as_ref().map_or(0, |s| s.stack),
                    bet: 0,
                    in_hand: position.is_some(),
                    folded: false,
                    cards: None,
                };
                if let (Some(c), Some(p)) = (c, position) {
                    if let Some(l) = live {
                        view.stack = l.hand.stack_of(p);
                        view.bet = if l.hand.is_complete() {
                            0
                        } else {
                            l.hand.bet_of(p)
                        };
                    }
                    view.folded = c.hand.has_folded(p);
                    let visible = match viewer {
                        Viewer::Operator => true,
                        Viewer::Seat(own) => own == i,
                        Viewer::Auditor | Viewer::Public => false,
                    } || (showdown && !view.folded);
                    if visible {
                        view.cards = Some(
                            c.hand
                                .hole_cards(p)
                                .iter()
                                .map(|k| k.map_or("??".to_string(), |k| k.to_string()))
                                .collect(),
                        );
                    }
                }
                view
            })
            .collect();
        let hand = c.map(|c| {
            let legal = if c.voided { None } else { c.hand.legal() };
            let r = c.hand.rules().ruleset();
            HandView {
                number: c.number,
                ruleset: r.id.to_string(),
                version: r.version.to_string(),
                hash: c.hash.clone(),
                phase: c.hand.phase(),
                street: c.hand.street(),
                voided: c.voided,
                board: c.hand.board().iter().map(ToString::to_string).collect(),
                pot: if c.voided { 0 } else { c.hand.pot_total() },
                to_act: legal.map(|l| c.positions[l.player] + 1),
                to_call: legal.map(|l| l.to_call),
                min_raise_to: legal.and_then(|l| l.min_raise_to),
                max_raise_to: legal.and_then(|l| l.max_raise_to),
                rulings: rulings
                    .then(|| c.hand.rulings().iter().map(ToString::to_string).collect()),
            }
        });
        TableView {
            id: self.id.clone(),
            spec: self.spec.clone(),
            button: self.button.map(|b| b + 1),
            seats,
            hand,
            raked: self.raked,
            session: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::Store;
    use floor_engine::rules::Citation;
    use floor_engine::ruleset::Sandbox;

    fn version(id: &str) -> Version {
        Version::load(&Store::Embedded, id, &Sandbox::new()).expect("bundled ruleset loads")
    }

    fn table(players: usize, stack: Chips) -> Table {
        let mut t = Table::new(
            "t1".into(),
            TableSpec {
                ruleset: "pt-online".into(),
                blinds: (1, 2),
                ante: 0,
                seats: 6,
                buy_in: None,
                rebuy: None,
                minimum_entry: None,
                table_maximum: None,
                mode: None,
                variant: None,
            },
        )
        .expect("table");
        for s in 1..=players {
            t.seat(s, &format!("p{s}"), stack, &format!("token{s}"))
                .expect("seat");
        }
        t
    }

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

    #[test]
    fn a_refused_action_leaves_the_table_exactly_as_it_was() {
        let v = version("pt-online");
        let mut t = table(3, 100);
        t.start_hand(&v, 7).expect("deal");
        let before = format!("{:?}", t.view(Viewer::Operator));
        let actor = t
            .view(Viewer::Operator)
            .hand
            .and_then(|h| h.to_act)
            .expect("actor");
        let other = if actor == 1 { 2 } else { 1 };
        assert!(matches!(
            t.act(other, Move::Fold),
            Err(TableError::Refused(_))
        ));
        assert!(matches!(
            t.act(actor, Move::RaiseTo(1)),
            Err(TableError::Refused(_))
        ));
        assert!(matches!(t.act(9, Move::Fold), Err(TableError::Invalid(_))));
        assert!(matches!(t.start_hand(&v, 8), Err(TableError::Refused(_))));
        assert!(matches!(t.unseat(actor), Err(TableError::Refused(_))));
        assert_eq!(format!("{:?}", t.view(Viewer::Operator)), before);
    }

    #[test]
    fn chips_are_conserved_hand_after_hand_and_the_button_moves_round_the_table() {
        let v = version("pt-online");
        let mut t = table(4, 100);
        let mut buttons = Vec::new();
        for seed in 0..40u64 {
            if t.start_hand(&v, seed).is_err() {
                break; // fewer than two players with chips
            }
            buttons.push(t.view(Viewer::Public).button.expect("button"));
            let mut turn = 0u64;
            while t.in_hand() {
                assert_eq!(t.chips(), 400);
                let hand = t.view(Viewer::Operator).hand.expect("hand");
                let seat = hand.to_act.expect("someone to act");
                // Raise now and then, otherwise check or call.
                let mv = match (turn + seed) % 5 {
                    0 => hand.min_raise_to.map_or(Move::CheckOrCall, Move::RaiseTo),
                    _ => Move::CheckOrCall,
                };
                t.act(seat, mv).expect("a legal action");
                turn += 1;
            }
            assert_eq!(t.chips(), 400, "after hand {}", seed + 1);
        }
        assert!(buttons.len() >= 2);
        assert_ne!(buttons[0], buttons[1], "the button moved");
    }

    #[test]
    fn a_voided_hand_returns_every_bet_and_records_the_ruling() {
        let v = version("pt-online");
        let mut t = table(2, 100);
        t.start_hand(&v, 3).expect("deal");
        let seat = t
            .view(Viewer::Operator)
            .hand
            .and_then(|h| h.to_act)
            .expect("actor");
        t.act(seat, Move::RaiseTo(10)).expect("raise");
        let returned = t
            .void(
                "online.communication_failure",
                Citation::Article("rules 72, 73".into()),
                "the system failed",
            )
            .expect("void");
        assert_eq!(returned, 12);
        let view = t.view(Viewer::Public);
        assert!(!t.in_hand());
        assert_eq!(view.seats[0].stack + view.seats[1].stack, 200);
        assert_eq!((view.seats[0].stack, view.seats[1].stack), (100, 100));
        let hand = view.hand.expect("hand");
        assert!(hand.voided);
        assert!(hand
            .rulings
            .as_ref()
            .and_then(|r| r.last())
            .is_some_and(|r| r.contains("rules 72, 73")));
    }
}
