//! The rule-point registry: every place a rulebook decides something, with its id, kind,
//! meaning, inputs and documented default. Rulesets bind points by id; `floor check` refuses
//! ids that are not here; `floor explain` and `floor compare` read it.
//!
//! The catalogue itself is data ([`catalogue`]); the points the hand state machine consults
//! directly also have a typed context and result (see [`EngineHook`] and
//! [`crate::rules::Rules`]).

mod catalogue;

use serde::Serialize;

/// PARAMETERs are values a RON file holds; DECISIONs are procedures a Rhai function computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A value or table read from the ruleset's RON.
    Parameter,
    /// A procedure: context in, ruling out, written in Rhai.
    Decision,
}

/// The areas of the catalogue, in its order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Area {
    /// 1. Governance, language, devices, identity.
    Governance,
    /// 2. Table and seating.
    Table,
    /// 3. Button, blinds, antes.
    Blinds,
    /// 4. Dealing, deck, misdeals.
    Dealing,
    /// 5. Board irregularities.
    Board,
    /// 6. Betting structure and limits.
    Betting,
    /// 7. Action interpretation.
    Action,
    /// 8. All-in and reopening.
    AllIn,
    /// 9. Pots, side pots, showdown.
    Pots,
    /// 10. Time.
    Time,
    /// 11. Player presence.
    Presence,
    /// 12. Penalties and conduct.
    Penalties,
    /// 13. Tournament structure, modalities, prizes, ranking.
    Tournament,
    /// 14. Cash-game economics.
    Cash,
    /// 15. Online-only matters.
    Online,
    /// 16. Variants and hand evaluation.
    Variants,
}

impl Area {
    /// The area's title as the catalogue writes it.
    pub fn title(self) -> &'static str {
        match self {
            Area::Governance => "Governance, language, devices, identity",
            Area::Table => "Table and seating",
            Area::Blinds => "Button, blinds, antes",
            Area::Dealing => "Dealing, deck, misdeals",
            Area::Board => "Board irregularities",
            Area::Betting => "Betting structure and limits",
            Area::Action => "Action interpretation",
            Area::AllIn => "All-in and reopening",
            Area::Pots => "Pots, side pots, showdown",
            Area::Time => "Time",
            Area::Presence => "Player presence",
            Area::Penalties => "Penalties and conduct",
            Area::Tournament => "Tournament structure, modalities, prizes, ranking",
            Area::Cash => "Cash-game economics",
            Area::Online => "Online-only matters",
            Area::Variants => "Variants and hand evaluation",
        }
    }

    /// Whether the area is about running a tournament or a cash table rather than a hand
    /// (those points are registered now and given behaviour by the operations work).
    pub fn is_operations(self) -> bool {
        matches!(self, Area::Tournament | Area::Cash)
    }
}

/// One rule point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RulePoint {
    /// Stable dotted id, e.g. `showdown.odd_chip`.
    pub id: &'static str,
    /// PARAMETER or DECISION.
    pub kind: Kind,
    /// The catalogue area.
    pub area: Area,
    /// One line: what it decides.
    pub decides: &'static str,
    /// For a DECISION, the inputs its context carries; for a PARAMETER, the shape of its value.
    pub inputs: &'static str,
    /// Whether the catalogue records that at least two rulebooks rule differently.
    pub differs: bool,
    /// The catalogue's note on what differs (empty when nothing does).
    pub difference: &'static str,
}

/// How the state machine consults a point it calls directly: the typed context it passes and
/// the typed result it expects, by their Rust names (see [`crate::rules`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct EngineHook {
    /// The context type, e.g. `MinRaiseContext`.
    pub context: &'static str,
    /// The fields a Rhai decision receives in its `ctx` map.
    pub fields: &'static [(&'static str, &'static str)],
    /// The result type, e.g. `Chips`.
    pub result: &'static str,
    /// The engine's default, in words.
    pub default: &'static str,
}

impl RulePoint {
    /// The documented default: what the engine does when no ruleset binds the point.
    pub fn default_text(&self) -> &'static str {
        if let Some(hook) = self.engine_hook() {
            return hook.default;
        }
        match self.kind {
            Kind::Parameter => {
                "no value: the point is reported as not regulated by this text and nothing is enforced"
            }
            Kind::Decision => {
                "no automatic ruling: the event is recorded and referred to the floor, reported as not regulated by this text"
            }
        }
    }

    /// The typed hook, for the points the hand state machine consults itself.
    pub fn engine_hook(&self) -> Option<EngineHook> {
        engine_hook(self.id)
    }

    /// For a DECISION, how it is asked and must answer: its typed context and answer, the
    /// contexts a probe asks it with, the check of its answer.
    #[cfg(feature = "rulesets")]
    pub fn signature(&self) -> Option<&'static crate::rules::decision::Signature> {
        crate::rules::decision::signature(self.id)
    }
}

/// Every registered rule point, in catalogue order.
pub fn all() -> &'static [RulePoint] {
    catalogue::POINTS
}

/// The point with this id, if registered.
pub fn get(id: &str) -> Option<&'static RulePoint> {
    catalogue::POINTS.iter().find(|p| p.id == id)
}

/// The typed hooks of the state machine, by rule-point id.
pub fn engine_hook(id: &str) -> Option<EngineHook> {
    const CHIPS: &str = "Chips";
    Some(match id {
        "betting.min_raise" => EngineHook {
            context: "MinRaiseContext",
            fields: &[
                ("last_full_raise", "the largest full bet or raise increment this round"),
                ("min_bet", "the table minimum (the big blind)"),
                ("current_bet", "the bet to call"),
                ("structure", "\"no_limit\", \"pot_limit\", \"half_pot_limit\" or \"fixed_limit\""),
            ],
            result: CHIPS,
            default: "the larger of the table minimum and the largest full bet or raise increment of the round",
        },
        "allin.reopening" => EngineHook {
            context: "ReopenContext",
            fields: &[
                ("raised_since_last_action", "what the bet rose by since the player last acted"),
                ("full_raise", "a full raise at that point"),
            ],
            result: "bool",
            default: "an all-in short of a full raise does not reopen the betting to players who already acted",
        },
        "betting.raise_cap" => EngineHook {
            context: "RaiseCapContext",
            fields: &[
                ("players_in_hand", "players who have not folded"),
                ("players_dealt_in", "players dealt into the hand"),
                ("structure", "the betting structure"),
            ],
            result: "PARAMETER: int (raises after the bet, lifted once the hand is heads-up), {raises: int, lifted_when: \"players_in_hand<=2\" | \"players_dealt_in<=2\" | \"never\"}, or () for no cap",
            default: "fixed limit: a bet and four raises, unlimited when only two players remain; no cap otherwise",
        },
        "betting.pot_limit_max" => EngineHook {
            context: "PotLimitContext",
            fields: &[
                ("pot", "everything in the middle, bets of this round included"),
                ("to_call", "what the player must call first"),
                ("current_bet", "the bet to call"),
                ("half", "true for the 2007 decree's half-pot limit"),
            ],
            result: CHIPS,
            default: "call plus the pot after the call (pot limit); half of that for the half-pot limit",
        },
        "showdown.odd_chip" => EngineHook {
            context: "OddChipContext",
            fields: &[
                ("winners", "tied winners' positions, clockwise from the first left of the button"),
                ("button", "the button's position"),
                ("players", "players dealt in"),
                ("small_blind", "who posted the small blind (the 2007 decree's \"mão\"), or ()"),
            ],
            result: "position",
            default: "the first tied winner clockwise from the button",
        },
        "showdown.order" => EngineHook {
            context: "ShowdownOrderContext",
            fields: &[
                ("in_hand", "players still in, clockwise from the first left of the button"),
                ("last_aggressor", "the last to bet or raise on the final round, or ()"),
                ("button", "the button's position"),
                ("small_blind", "who posted the small blind (the 2007 decree's \"mão\"), or ()"),
            ],
            result: "position",
            default: "the last aggressor of the final round shows first; with no bet, the first player left of the button",
        },
        "betting.first_to_act" => EngineHook {
            context: "FirstToActContext",
            fields: &[
                ("street", "\"flop\", \"turn\" or \"river\""),
                ("button", "the button's position"),
                ("players", "players dealt in"),
                ("small_blind", "who posted the small blind (the 2007 decree's \"mão\"), or ()"),
            ],
            result: "position",
            default: "after the first round, the first active player left of the button opens",
        },
        "cash.rake.mode_and_bounds" => EngineHook {
            context: "RakeContext",
            fields: &[
                ("pot", "the pot before commission"),
                ("flop_dealt", "whether a flop was dealt"),
            ],
            result: "PARAMETER: #{ percent: int, cap: int } (cap 0 = none)",
            default: "no commission",
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_has_every_point_once() {
        assert_eq!(all().len(), 195);
        let mut ids: Vec<&str> = all().iter().map(|p| p.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 195);
        assert_eq!(all().iter().filter(|p| p.differs).count(), 68);
    }

    #[test]
    fn every_engine_hook_is_a_registered_point() {
        for id in [
            "betting.min_raise",
            "allin.reopening",
            "betting.raise_cap",
            "betting.pot_limit_max",
            "showdown.odd_chip",
            "showdown.order",
            "betting.first_to_act",
            "cash.rake.mode_and_bounds",
        ] {
            assert!(get(id).is_some(), "{id} is not in the catalogue");
            assert!(engine_hook(id).is_some());
        }
    }
}
