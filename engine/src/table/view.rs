//! What a viewer may see of a table: every seat with its player, stack and bet, and the hand
//! in progress (or the last one) with the board, the pot and who is to act — hole cards only
//! to the operator, to their own seat, and at a showdown to everyone for the hands still in.

use super::{Occupant, Table, TableSpec};
use crate::hand::{Phase, Street};
use crate::Chips;
use serde::Serialize;

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

impl Viewer {
    /// Whether this viewer sees the hole cards of seat `index` whatever the hand's state.
    fn sees_cards_of(self, index: usize) -> bool {
        match self {
            Viewer::Operator => true,
            Viewer::Seat(own) => own == index,
            Viewer::Auditor | Viewer::Public => false,
        }
    }
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
    /// A penalty whose sanction the text leaves to the floor: the table waits for a
    /// `FloorRuling` naming one of its choices (everyone at the table may see it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub awaiting_penalty: Option<super::PenaltyQuestion>,
    /// A cash table's session: its status under the minimum-player rule, its clock, each
    /// seat's rests and obligations, the waiting list (left out of a brief view and of a
    /// tournament's tables).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<crate::cash::TableState>,
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
    /// The penalty the player is serving or about to serve (everyone at the table sees it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub penalty: Option<super::PenaltyView>,
    /// Noted away: the player left his seat with a live hand in the hand in progress (the
    /// hand stays live). Written only when set, so views recorded before it keep their text.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub away: bool,
    /// Resting between hands (a cash table's sitting out): not dealt in. Written only when
    /// set.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub sitting_out: bool,
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
    /// The seats a ruling capped at calling for this betting round (a board card exposed
    /// too early).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub call_only: Vec<usize>,
    /// Actions taken out of turn that bind, held for each seat's turn: the seat, what he did
    /// and its amount (`raise 30`). Everyone at the table saw them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub held: Vec<HeldView>,
    /// The dealer's cards as everyone sees them: the stub and burns counted, exposed and
    /// set-aside cards face up.
    pub dealer: super::DealerView,
    /// The situation the hand waits on for the floor's ruling, with the choices.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub awaiting_floor: Option<super::FloorQuestion>,
    /// The rulings so far, each with rule point, ruleset and citation (`None`: left out of
    /// a brief view).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rulings: Option<Vec<String>>,
}

/// An action out of turn held for a seat's turn, as the table shows it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct HeldView {
    /// The seat (from 1).
    pub seat: usize,
    /// What he did (`raise 30`, `fold`).
    pub action: String,
}

impl<S: Occupant> Table<S> {
    /// The seats as `viewer` may see them: the players' hole cards only to the operator and
    /// their own seat, and at a showdown the hands still in to everyone.
    pub fn seat_views(&self, viewer: Viewer) -> Vec<SeatView> {
        let d = self.last();
        let showdown =
            d.is_some_and(|d| d.end == super::End::Complete && d.hand.players_in_hand() >= 2);
        (0..self.seats.len())
            .map(|i| {
                let seated = self.seats[i].as_ref();
                let position = d.and_then(|d| d.position_of(i));
                let mut view = SeatView {
                    seat: i + 1,
                    player: seated.map(|s| s.name().to_string()),
                    stack: seated.map_or(0, Occupant::stack),
                    bet: 0,
                    in_hand: position.is_some(),
                    folded: false,
                    cards: None,
                    penalty: self.penalties.of_seat(i),
                    away: false,
                    sitting_out: seated.is_some_and(Occupant::sitting_out),
                };
                if let (Some(d), Some(p)) = (d, position) {
                    if d.is_playing() {
                        view.stack = d.hand.stack_of(p);
                        view.bet = d.hand.bet_of(p);
                    }
                    view.folded = d.hand.has_folded(p);
                    view.away = d.is_playing() && d.away.contains(&p);
                    let visible = viewer.sees_cards_of(i) || (showdown && !view.folded);
                    if visible && seated.is_some() {
                        view.cards = Some(
                            d.hand
                                .hole_cards(p)
                                .iter()
                                .map(|k| k.map_or("??".to_string(), |k| k.to_string()))
                                .collect(),
                        );
                    }
                }
                view
            })
            .collect()
    }

    /// The penalty that waits for the floor to name its sanction, as the view shows it.
    pub fn penalty_question(&self) -> Option<super::PenaltyQuestion> {
        self.penalties.question()
    }

    /// The hand in progress or the last one, with `rulings` (the texts the caller keeps for
    /// the hand; `None` leaves them out of a brief view).
    pub fn hand_view(&self, rulings: Option<Vec<String>>) -> Option<HandView> {
        let d = self.last()?;
        let legal = if d.is_playing() { d.hand.legal() } else { None };
        let r = d.hand.rules().ruleset();
        Some(HandView {
            number: d.number,
            ruleset: r.id.to_string(),
            version: r.version.to_string(),
            hash: d.version.hash.to_string(),
            phase: d.hand.phase(),
            street: d.hand.street(),
            voided: d.is_void(),
            board: d.hand.board().iter().map(ToString::to_string).collect(),
            pot: if d.is_playing() {
                d.hand.pot_total()
            } else {
                0
            },
            to_act: legal.map(|l| d.positions[l.player] + 1),
            to_call: legal.map(|l| l.to_call),
            min_raise_to: legal.and_then(|l| l.min_raise_to),
            max_raise_to: legal.and_then(|l| l.max_raise_to),
            call_only: d
                .hand
                .capped_at_calling()
                .into_iter()
                .map(|p| d.positions[p] + 1)
                .collect(),
            held: d
                .held
                .iter()
                .map(|h| HeldView {
                    seat: d.positions[h.position] + 1,
                    action: if h.amount > 0 {
                        format!("{} {}", h.what, h.amount)
                    } else {
                        h.what.to_string()
                    },
                })
                .collect(),
            dealer: d.dealer.view(),
            awaiting_floor: d.awaiting.clone(),
            rulings,
        })
    }
}
