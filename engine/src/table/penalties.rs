//! Penalties served at the table: a penalty the floor gives becomes table state that lives
//! between hands, so that the cash table and the tournament's tables, which both deal through
//! [`Table::deal`], serve it the same way.
//!
//! The ruleset decides at every step and is cited: whether the offence draws a penalty (the
//! offence's own point, or `penalty.triggers`), which sanction its catalogue allows after the
//! player's earlier penalties, which the table remembers (`penalty.catalogue_and_escalation`),
//! when it starts (`penalty.timing`), how many hands an orbit costs
//! (`penalty.missed_hands_formula`, counted when the penalty starts, with the players then at
//! the table and those there at the offence), how it is served (`penalty.serving`: his cards
//! are dealt and killed, his blinds and antes staying in the pot), and what a disqualification
//! does to his chips (`penalty.disqualification_effects`). Where the text leaves the sanction
//! to the floor, the table waits for a `FloorRuling` naming it.
//!
//! Nothing here runs while a hand is played: the penalties are read once per deal, and not
//! at all at a table where nobody is penalised.

use super::{Occupant, Table, TableError};
use crate::events::{offence_point, offence_ruled, EventRuling, OffenceRuled, Sanction};
use crate::rules::{Citation, Rules};
use crate::Chips;
use ron::Value;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The most facts a penalty event may carry, and the longest offence name.
const MAX_FACTS: usize = 16;
const MAX_OFFENCE: usize = 64;

/// What the table remembers of penalties.
#[derive(Clone, Debug, Default)]
pub struct Penalties {
    /// Each player's earlier sanctions, by name, for escalation.
    pub(super) given: BTreeMap<String, Vec<Sanction>>,
    /// Each (player, offence) penalised, for the decisions that read `repeated`.
    pub(super) offences: Vec<(String, String)>,
    /// Penalties of hands or orbits, waiting to start or being served.
    pub(super) serving: Vec<Served>,
    /// Seats emptied when the hand in progress ends (disqualified, or sent from the table).
    pub(super) leaving: Vec<Leaving>,
    /// A penalty whose sanction the text leaves to the floor.
    pub(super) awaiting: Option<Pending>,
    /// Chips taken out of play by disqualifications.
    pub(super) removed: Chips,
    /// Players disqualified and removed, not yet reported to whoever keeps the entries (a
    /// tournament takes them out of the event).
    pub(super) disqualified: Vec<String>,
}

/// A penalty of hands or orbits.
#[derive(Clone, Debug)]
pub(super) struct Served {
    pub(super) seat: usize,
    pub(super) player: String,
    pub(super) offence: String,
    pub(super) sanction: Sanction,
    /// Players at the table when the offence was penalised.
    pub(super) players_at_offence: usize,
    /// Hands still to serve: `None` until the penalty starts and the hands are counted.
    pub(super) hands_left: Option<u32>,
}

/// A player to remove when the hand in progress ends.
#[derive(Clone, Debug)]
pub(super) struct Leaving {
    pub(super) seat: usize,
    pub(super) player: String,
    /// His chips are taken out of play (a disqualification); otherwise he takes them.
    pub(super) chips_removed: bool,
}

/// A penalty the text leaves to the floor, waiting for the sanction.
#[derive(Clone, Debug)]
pub(super) struct Pending {
    pub(super) seat: usize,
    pub(super) player: String,
    pub(super) offence: String,
    pub(super) point: String,
    pub(super) citation: Citation,
    pub(super) choices: Vec<String>,
}

/// A seat's penalty as the table view shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PenaltyView {
    /// The offence.
    pub offence: String,
    /// The sanction (`orbits 1`, `disqualification`...).
    pub sanction: String,
    /// Hands still to serve (`None`: counted when it starts, at the next deal).
    pub hands_left: Option<u32>,
    /// He leaves the table when the hand in progress ends.
    pub leaving: bool,
}

/// A penalty whose sanction the text leaves to the floor, as the table view shows it: the
/// question the console puts to the floor, answered by a `FloorRuling` naming one of
/// `choices` (`orbits N` and `hands N` with the count filled in, `orbits 1`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PenaltyQuestion {
    /// The penalised player's seat (from 1).
    pub seat: usize,
    /// The player.
    pub player: String,
    /// The offence.
    pub offence: String,
    /// The rule point the offence was ruled at.
    pub point: String,
    /// The sanctions the text allows (`warning`, `hands N`, `orbits N`, `disqualification`).
    pub choices: Vec<String>,
    /// The article that leaves the sanction to the floor.
    pub citation: Citation,
}

impl Penalties {
    /// The penalty that waits for the floor to name its sanction, as a question.
    pub fn question(&self) -> Option<PenaltyQuestion> {
        self.awaiting.as_ref().map(|p| PenaltyQuestion {
            seat: p.seat + 1,
            player: p.player.clone(),
            offence: p.offence.clone(),
            point: p.point.clone(),
            choices: p.choices.clone(),
            citation: p.citation.clone(),
        })
    }

    /// The penalty seat `index` is serving or about to serve, if any.
    pub fn of_seat(&self, index: usize) -> Option<PenaltyView> {
        if let Some(l) = self.leaving.iter().find(|l| l.seat == index) {
            return Some(PenaltyView {
                offence: String::new(),
                sanction: if l.chips_removed {
                    "disqualification".into()
                } else {
                    "leave_table".into()
                },
                hands_left: None,
                leaving: true,
            });
        }
        let s = self.serving.iter().find(|s| s.seat == index)?;
        Some(PenaltyView {
            offence: s.offence.clone(),
            sanction: s.sanction.to_string(),
            hands_left: s.hands_left,
            leaving: false,
        })
    }

    /// Chips taken out of play by disqualifications.
    pub fn removed(&self) -> Chips {
        self.removed
    }

    /// Whether a penalty waits for the floor to name its sanction.
    pub fn waits_for_floor(&self) -> bool {
        self.awaiting.is_some()
    }

    /// The sanctions `player` was given at this table, oldest first.
    pub fn given_to(&self, player: &str) -> &[Sanction] {
        self.given.get(player).map_or(&[], Vec::as_slice)
    }
}

fn refused(why: String) -> TableError {
    TableError::Refused(why)
}

/// The rule points whose decision reads `repeated` from the table's record of penalties (the
/// offence points, and the clock called under a text that answers slowness with a sanction).
fn reads_repeated(point: &str) -> bool {
    matches!(
        point,
        "conduct.exposing_cards" | "time.slow_play_sanction" | "time.call_clock"
    )
}

impl<S: Occupant> Table<S> {
    /// What the table remembers of penalties.
    pub fn penalties(&self) -> &Penalties {
        &self.penalties
    }

    /// The rules a penalty is ruled by: those of the hand in progress or the last one dealt.
    pub(super) fn penalty_rules(&self) -> Result<Arc<dyn Rules>, TableError> {
        self.dealt
            .as_ref()
            .map(|d| d.version.rules.clone())
            .ok_or_else(|| {
                refused("no hand was dealt at this table yet: a penalty is ruled by the ruleset its hands are dealt under".into())
            })
    }

    /// The floor penalises the player in seat `seat` (from 1) for `offence`; see
    /// [`crate::events::TableEvent::PenaltyGiven`]. The table is unchanged when refused.
    pub fn penalise(
        &mut self,
        seat: usize,
        offence: &str,
        sanction: Option<&str>,
        given: &BTreeMap<String, Value>,
    ) -> Result<EventRuling, TableError> {
        if offence.is_empty() || offence.len() > MAX_OFFENCE || given.len() > MAX_FACTS {
            return Err(refused(format!(
                "a penalty names its offence (at most {MAX_OFFENCE} characters) and at most {MAX_FACTS} facts"
            )));
        }
        if let Some(p) = &self.penalties.awaiting {
            return Err(refused(format!(
                "the penalty of seat {} waits for the floor's sanction (one of {})",
                p.seat + 1,
                p.choices.join(", ")
            )));
        }
        let index = self.index("table", seat)?;
        let player = self
            .occupant(index)
            .map(|o| o.name().to_string())
            .ok_or_else(|| refused(format!("seat {seat} is empty")))?;
        let rules = self.penalty_rules()?;
        let point = offence_point(offence);
        let facts = self.offence_facts(point, index, &player, offence, given)?;
        let decided = rules.table_event(point, &facts);
        let mut ruling = EventRuling {
            point: point.to_string(),
            ruleset: rules.ruleset().clone(),
            citation: decided.citation.clone(),
            outcome: decided.outcome.clone(),
            fields: decided.fields.clone(),
            text: decided.text.clone(),
        };
        let ruled = if decided.outcome == "decision_failed" {
            OffenceRuled::NoPenalty
        } else if point == "penalty.triggers" || point == "conduct.proper_folding" {
            self.triggered(rules.as_ref(), offence, &mut ruling)
        } else {
            offence_ruled(&decided.outcome, &decided.fields)
        };
        let floors = sanction.map(Sanction::parse).transpose().map_err(refused)?;
        let chosen = match ruled {
            OffenceRuled::NoPenalty => {
                ruling.fields.insert("penalty".into(), "none".into());
                return Ok(ruling);
            }
            OffenceRuled::Sanction(s) => {
                if let Some(f) = floors.filter(|f| *f != s) {
                    return Err(refused(format!(
                        "{point}: the text decides the sanction ({s}, {}), not {f}",
                        ruling.citation
                    )));
                }
                s
            }
            OffenceRuled::Penalty => {
                match self.catalogue(rules.as_ref(), &player, given, floors, &mut ruling)? {
                    Some(s) => s,
                    None => {
                        let choices = ruling
                            .fields
                            .get("choices")
                            .map(|c| c.split(", ").map(str::to_string).collect())
                            .unwrap_or_default();
                        self.penalties.awaiting = Some(Pending {
                            seat: index,
                            player,
                            offence: offence.to_string(),
                            point: point.to_string(),
                            citation: ruling.citation.clone(),
                            choices,
                        });
                        ruling
                            .fields
                            .insert("remedy".into(), "floor_decides".into());
                        return Ok(ruling);
                    }
                }
            }
        };
        self.give(rules.as_ref(), index, &player, offence, chosen, &mut ruling);
        Ok(ruling)
    }

    /// The facts an offence point reads: the caller's, with what the table knows (whether
    /// action is pending on the player's hand, whether he was penalised for it before).
    pub(super) fn offence_facts(
        &self,
        point: &str,
        index: usize,
        player: &str,
        offence: &str,
        given: &BTreeMap<String, Value>,
    ) -> Result<BTreeMap<String, Value>, TableError> {
        let mut facts = given.clone();
        if point == "conduct.exposing_cards" {
            let pending = self.live().is_some_and(|d| {
                d.position_of(index)
                    .is_some_and(|p| !d.hand.has_folded(p) && d.hand.actor().is_some())
            });
            agree(&mut facts, "action_pending", pending, point)?;
        }
        if reads_repeated(point) {
            let before = self.penalised_for(player, offence);
            agree(&mut facts, "repeated", before, point)?;
        }
        Ok(facts)
    }

    /// Whether `player` was penalised for `offence` before at this table.
    fn penalised_for(&self, player: &str, offence: &str) -> bool {
        self.penalties
            .offences
            .iter()
            .any(|(p, o)| p == player && o == offence)
    }

    /// Whether the text lists `offence` among its grounds for a penalty
    /// (`penalty.triggers`' value: the offences by name).
    fn triggered(
        &self,
        rules: &dyn Rules,
        offence: &str,
        ruling: &mut EventRuling,
    ) -> OffenceRuled {
        let Some(triggers) = rules.parameter("penalty.triggers") else {
            ruling.text = format!(
                "{}; penalty.triggers: not regulated by this text, so no penalty is given",
                ruling.text
            );
            return OffenceRuled::NoPenalty;
        };
        let listed = match &triggers.value {
            Value::Map(m) => m.get(&Value::String("offences".into())).is_some_and(
                |v| matches!(v, Value::Seq(s) if s.contains(&Value::String(offence.into()))),
            ),
            _ => false,
        };
        if listed {
            ruling.outcome = "penalty".into();
            ruling.text = format!(
                "{}; {offence} is a ground for a penalty ({})",
                ruling.text, triggers.citation
            );
            OffenceRuled::Penalty
        } else {
            ruling.outcome = "no_penalty".into();
            ruling.text = format!(
                "{}; {offence} is not among the grounds for a penalty this text lists ({})",
                ruling.text, triggers.citation
            );
            OffenceRuled::NoPenalty
        }
    }
}

/// Puts the table's own `value` of `name` in `facts`, refusing a caller's that contradicts it.
fn agree(
    facts: &mut BTreeMap<String, Value>,
    name: &str,
    value: bool,
    point: &str,
) -> Result<(), TableError> {
    match facts.get(name) {
        Some(Value::Bool(b)) if *b != value => Err(refused(format!(
            "{point}: `{name}` is {value} at this table, not {b}"
        ))),
        _ => {
            facts.insert(name.into(), Value::Bool(value));
            Ok(())
        }
    }
}
