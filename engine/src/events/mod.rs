//! Table events beyond clean actions: what people actually do at a table — chips pushed
//! silently, words said before or instead of chips, and every other situation a rulebook rules
//! on (dealing and board irregularities, time, presence, penalties, conduct).
//!
//! Each event is decided at a rule point: the engine classifies it (which point applies), gathers
//! the facts its decision reads, asks the ruleset, and gets back an [`EventRuling`]: an
//! outcome, the action it amounts to (if any), the article, and a sentence a floor person
//! could read aloud. Events that amount to an action are then applied to the hand like any
//! clean action — and refused, leaving the hand unchanged, if the result would be illegal.

mod acted;
mod dealer_errors;
mod defaults;
mod interpret;
mod penalty;
mod presence_remedy;
mod remedy;
mod showdown_remedy;

pub use acted::{rules_on_manner, ActionAs, MANNER_POINTS};
pub use interpret::{check_amounts, classify, facts, Declaration, Verb};
pub use penalty::{offence_point, offence_ruled, OffenceRuled, Sanction, OFFENCE_POINTS};
pub use presence_remedy::PRESENCE_POINTS;
pub use remedy::{at_players_turn, choices, Remedy};
pub use showdown_remedy::{is_showdown_point, SHOWDOWN_POINTS};

use crate::rules::{Citation, RulesetRef};
use crate::Chips;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Something that happened at the table and needs a ruling.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum TableEvent {
    /// A player puts chips over the line (denominations as pushed), silently or with words.
    Chips {
        /// Who (from 0).
        player: usize,
        /// The chips, one entry per chip (`[1000, 500]`).
        chips: Vec<Chips>,
        /// What the player said, if anything.
        #[serde(default)]
        declared: Option<Declaration>,
        /// The chips were added to the player's own bet of this round, not yet collected
        /// (the texts rule on such additions separately).
        #[serde(default)]
        onto_previous_bet: bool,
        /// The player put in more than he meant to wager, expecting change back (he says so
        /// or asks for it): only the people at the table know it, and the texts rule on such
        /// chips at `action.overbet_for_change`. An amount said with them is the amount he
        /// announced.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        for_change: bool,
    },
    /// A player states an action without (yet) moving chips.
    Declare {
        /// Who (from 0).
        player: usize,
        /// What they said.
        declaration: Declaration,
    },
    /// Any other situation, named by its rule point, with the facts its decision reads
    /// (`floor explain POINT` lists them).
    Situation {
        /// The rule point that rules on it (a DECISION).
        point: String,
        /// The facts, by name.
        #[serde(default)]
        facts: BTreeMap<String, ron::Value>,
    },
    /// What a player did at the table, as the dealer saw it — in turn or not, legal or not:
    /// an action out of turn is ruled on (`action.out_of_turn`) and held for his turn or
    /// released, a fold when a check was possible is ruled on (`action.unusual_folds`), and an
    /// action in turn is played as any other.
    Played {
        /// Who (from 0 in a hand; a seat number at a table).
        player: usize,
        /// What he did.
        action: crate::hand::Action,
    },
    /// How the player to act made his action, where a text rules on the manner: the words he
    /// said first and the chips he put in, motion by motion, ruled on at `point`
    /// (`action.string_bets`, `betting.raise.fifty_percent_rule`, `action.binding_in_turn`...;
    /// see [`rules_on_manner`]). The table reads the rest from the hand; the ruling says what
    /// the action amounts to and it is put in (or, where the text leaves it to the floor, the
    /// hand waits for a `FloorRuling`).
    Acted {
        /// Who (from 0 in a hand; a seat number at a table).
        player: usize,
        /// The rule point that rules on how he acted.
        point: String,
        /// What he said before or while putting chips in, if anything.
        #[serde(default)]
        said: Option<Declaration>,
        /// The chips he put in, one list per motion (`[[25], [25]]`: two motions).
        #[serde(default)]
        motions: Vec<Vec<Chips>>,
        /// What only the people at the table saw (`crossed_line`, `prior_offences`...), by
        /// the point's fact names.
        #[serde(default)]
        facts: BTreeMap<String, ron::Value>,
    },
    /// The floor's ruling on a situation its text left to the floor: one of the remedies
    /// the table offered when it stopped (see [`Remedy::FloorDecides`]).
    FloorRuling {
        /// The remedy chosen, by its name (`misdeal`, `stands`...).
        choice: String,
    },
    /// The floor penalises the player in a seat for an offence (`exposing_cards`,
    /// `improper_folding`, `slow_play`, `dodging_blind`, or another ground the text lists at
    /// `penalty.triggers`). The ruleset rules whether the offence draws a penalty, which
    /// sanction its catalogue allows after the player's earlier penalties, and how it is
    /// served; the table then serves it across the following hands (see
    /// `crate::table::Penalties`). Given during a hand or between hands.
    PenaltyGiven {
        /// The seat number (from 1).
        player: usize,
        /// The offence, by name.
        offence: String,
        /// The sanction the floor gives (`warning`, `hands 2`, `orbits 1`,
        /// `disqualification`...), where the text leaves it to the floor; without it the
        /// table waits for a `FloorRuling` choosing one.
        #[serde(default)]
        sanction: Option<String>,
        /// What only the people at the table saw (`intentional`, `serious_or_repeated`...), by
        /// the offence point's fact names.
        #[serde(default)]
        facts: BTreeMap<String, ron::Value>,
    },
}

/// What an event comes to: the ruling, and the action to apply (if any).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EventRuling {
    /// The rule point that decided.
    pub point: String,
    /// The ruleset in force.
    pub ruleset: RulesetRef,
    /// The authority (or *not regulated by this text*).
    pub citation: Citation,
    /// The outcome in one word or phrase (`call`, `raise`, `misdeal`, `refer_to_floor`...).
    pub outcome: String,
    /// Further results by name (`to`, `returned`, ...), as the decision gave them.
    pub fields: BTreeMap<String, String>,
    /// The ruling in plain English.
    pub text: String,
}

impl EventRuling {
    /// The action a betting outcome amounts to, if the outcome is one.
    pub fn action(&self) -> Option<crate::hand::Action> {
        use crate::hand::Action;
        let to = || self.fields.get("to").and_then(|v| v.parse::<Chips>().ok());
        Some(match self.outcome.as_str() {
            "call" => Action::Call,
            "check" => Action::Check,
            "fold" => Action::Fold,
            "all_in" | "all-in" => Action::AllIn,
            "raise" | "bet" => Action::BetOrRaiseTo(to()?),
            _ => return None,
        })
    }
}

/// When `ruling`'s decision failed, the ruling that says so (its outcome `decision_failed`,
/// its citation the failure's): recorded before `ruling` wherever table events are recorded.
pub fn failure_of(ruling: &EventRuling) -> Option<EventRuling> {
    matches!(ruling.citation, Citation::ScriptFailed(_)).then(|| EventRuling {
        point: ruling.point.clone(),
        ruleset: ruling.ruleset.clone(),
        citation: ruling.citation.clone(),
        outcome: "decision_failed".into(),
        fields: BTreeMap::new(),
        text: crate::rules::Finding::DecisionFailed.to_string(),
    })
}

/// Narrower chips points, each with the general point it is a case of. A text that makes no
/// separate rule for the narrower case rules on it as the general one: an undercall far below
/// the bet is still an insufficient call, so a rulebook whose only rule on short calls is its
/// insufficient-call rule (br-adtp-2012 rule 48) reaches that rule, not the engine's default.
/// An amount said with no bet to face is an amount said without the word "raise", so a text
/// whose only rule on amounts said is the one for amounts facing a bet rules on it there.
const NARROWER_POINTS: &[(&str, &str)] = &[
    ("action.undercall_far_below_bet", "action.insufficient_call"),
    (
        "action.amount_only_declaration",
        "action.amount_without_raise_word",
    ),
];

/// Whether chips pushed are ruled as put in for change: the player expected change, and he
/// said no action word (a word said makes them a declaration, ruled where declarations are).
/// `Some` carries the amount he announced with them, if any.
fn for_change_point(for_change: bool, declared: Option<&Declaration>) -> Option<Option<Chips>> {
    match declared {
        _ if !for_change => None,
        Some(d) if d.verb.is_some() || !d.readings.is_empty() => None,
        d => Some(d.and_then(|d| d.amount)),
    }
}

/// Decides events the ruleset does not bind: the engine's documented defaults.
pub use defaults::default_ruling;

/// Rules on `event` at the hand's table and, when the ruling amounts to an action, applies it.
/// The ruling is recorded in the hand's log either way; an illegal resulting action is
/// refused with the reason and the hand is left unchanged.
pub fn handle(
    hand: &mut crate::hand::Hand,
    event: &TableEvent,
) -> Result<EventRuling, crate::hand::ActionError> {
    // The point a text without a rule of its own on chips put in for change rules by.
    let mut general: Option<&'static str> = None;
    let (mut point, facts, player) = match event {
        TableEvent::Chips {
            player,
            chips,
            declared,
            onto_previous_bet,
            for_change,
        } => {
            check_amounts(chips, declared.as_ref())?;
            let mut f = facts(hand, *player, chips, declared.as_ref());
            f.insert(
                "onto_previous_bet".into(),
                ron::Value::Bool(*onto_previous_bet),
            );
            let point = if *onto_previous_bet && declared.is_none() {
                "action.uncollected_previous_bet"
            } else {
                classify(hand, *player, chips, declared.as_ref())
            };
            match for_change_point(*for_change, declared.as_ref()) {
                Some(announced) => {
                    if let Some(a) = announced {
                        f.insert("announced".into(), ron::Value::Number(ron::Number::U64(a)));
                    }
                    general = Some(point);
                    ("action.overbet_for_change".to_string(), f, Some(*player))
                }
                None => (point.to_string(), f, Some(*player)),
            }
        }
        TableEvent::Declare {
            player,
            declaration,
        } => {
            check_amounts(&[], Some(declaration))?;
            (
                classify(hand, *player, &[], Some(declaration)).to_string(),
                facts(hand, *player, &[], Some(declaration)),
                Some(*player),
            )
        }
        TableEvent::FloorRuling { .. } => return Err(crate::hand::ActionError::NoFloorQuestion),
        TableEvent::Played { .. } | TableEvent::Acted { .. } | TableEvent::PenaltyGiven { .. } => {
            return Err(crate::hand::ActionError::PlayedAwayFromTable)
        }
        TableEvent::Situation { point, facts } => {
            // The facts a caller gives must fit the point's context: known, of their kind,
            // within their bounds. Refused, never ruled on, otherwise. (The signatures come
            // with the rulebooks; a build without them has no scripts to feed.)
            #[cfg(feature = "rulesets")]
            if let Some(signature) = crate::rules::decision::signature(point) {
                signature
                    .fits(facts)
                    .map_err(|why| crate::hand::ActionError::Facts {
                        point: point.clone(),
                        why,
                    })?;
            }
            (point.clone(), with_hand_facts(hand, facts.clone()), None)
        }
    };
    let rules = hand.rules().clone();
    let mut decision = rules.table_event(&point, &facts);
    // A narrower point the text leaves without a rule of its own is decided by the general
    // point it is a case of, when the text rules on that one.
    if matches!(decision.citation, Citation::NotRegulated) {
        let general = general.or_else(|| {
            NARROWER_POINTS
                .iter()
                .find(|(p, _)| *p == point)
                .map(|&(_, g)| g)
        });
        if let Some(general) = general {
            let general_decision = rules.table_event(general, &facts);
            if !matches!(general_decision.citation, Citation::NotRegulated) {
                point = general.to_string();
                decision = general_decision;
            }
        }
    }
    let ruling = EventRuling {
        point: point.clone(),
        ruleset: rules.ruleset().clone(),
        citation: decision.citation,
        outcome: decision.outcome,
        fields: decision.fields,
        text: decision.text,
    };
    if let (Some(player), Some(action)) = (player, ruling.action()) {
        hand.act(player, action)?;
    }
    let point_id = crate::rules::registry::get(&point).map_or("table.event", |p| p.id);
    // A decision that failed is a ruling of its own, before the one its fallback gave.
    if let Some(failure) =
        crate::rules::Ruling::failure(point_id, &ruling.ruleset, &ruling.citation)
    {
        hand.record_ruling(failure);
    }
    hand.record_ruling(crate::rules::Ruling {
        point: point_id,
        ruleset: ruling.ruleset.clone(),
        citation: ruling.citation.clone(),
        finding: crate::rules::Finding::Text(ruling.text.clone()),
    });
    Ok(ruling)
}

/// Adds what the hand itself knows to a situation's facts, unless the event already says:
/// the `street` (`preflop`...), the `board` size, and the voluntary `actions` taken so far
/// (`check`, `call`, `bet`, `raise`, `fold`), from which rulesets judge substantial action.
fn with_hand_facts(
    hand: &crate::hand::Hand,
    mut facts: BTreeMap<String, ron::Value>,
) -> BTreeMap<String, ron::Value> {
    use crate::hand::{ActionKind, Event};
    // A hand nobody was dealt into (a situation ruled away from any table) knows nothing.
    if !hand
        .events()
        .iter()
        .any(|e| matches!(e, Event::HoleDealt { .. }))
    {
        return facts;
    }
    let actions: Vec<ron::Value> = hand
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::Acted { kind, .. } => Some(ron::Value::String(
                match kind {
                    ActionKind::Fold => "fold",
                    ActionKind::Check => "check",
                    ActionKind::Call => "call",
                    ActionKind::Bet => "bet",
                    ActionKind::Raise => "raise",
                }
                .to_string(),
            )),
            _ => None,
        })
        .collect();
    let street = match hand.board().len() {
        0 => "preflop",
        3 => "flop",
        4 => "turn",
        _ => "river",
    };
    facts
        .entry("street".into())
        .or_insert_with(|| ron::Value::String(street.into()));
    facts
        .entry("board".into())
        .or_insert_with(|| ron::Value::Number(ron::Number::U64(hand.board().len() as u64)));
    facts
        .entry("actions".into())
        .or_insert_with(|| ron::Value::Seq(actions));
    facts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::{Action, ActionError, Hand, HandConfig};
    use crate::rules::DefaultRules;
    use std::sync::Arc;

    /// Three players, blinds 1/2; player 1 raises to 4: player 2 (from 0) is to act,
    /// facing 4.
    fn facing_four() -> Hand {
        let config = HandConfig::holdem(vec![1000, 1000, 1000], 2, 1, 2);
        let mut hand = Hand::new(config, Arc::new(DefaultRules)).expect("a valid hand");
        for p in 0..3 {
            hand.deal_hole(p, &[None, None]).expect("hole cards");
        }
        let first = hand.actor().expect("someone to act");
        hand.act(first, Action::BetOrRaiseTo(4)).expect("a raise");
        hand
    }

    /// [`facing_four`] called round and the flop dealt: nobody has bet on the flop.
    fn on_the_flop() -> Hand {
        let mut hand = facing_four();
        while let Some(p) = hand.actor() {
            hand.act(p, Action::CheckOrCall).expect("a call");
        }
        let flop = crate::cards::parse_cards("7c2d9h").expect("three cards");
        hand.deal_board(&flop).expect("the flop");
        hand
    }

    fn said(player: usize, amount: Chips) -> TableEvent {
        TableEvent::Declare {
            player,
            declaration: Declaration {
                verb: None,
                amount: Some(amount),
                readings: Vec::new(),
            },
        }
    }

    #[test]
    fn a_bare_amount_with_no_bet_to_face_is_ruled_as_a_bare_amount_and_bet() {
        let mut hand = on_the_flop();
        let first = hand.actor().expect("someone to act");
        let ruling = handle(&mut hand, &said(first, 30)).expect("ruled");
        assert_eq!(ruling.point, "action.amount_only_declaration");
        assert_eq!(ruling.outcome, "bet");
        assert!(matches!(ruling.citation, Citation::NotRegulated));
        assert_eq!(hand.bet_of(first), 30);
        // Facing that bet, an amount said without "raise" is the other point.
        let next = hand.actor().expect("someone to act");
        let ruling = handle(&mut hand, &said(next, 40)).expect("ruled");
        assert_eq!(ruling.point, "action.amount_without_raise_word");
        assert_eq!(hand.bet_of(next), 30);
    }

    #[test]
    fn chips_put_in_for_change_are_ruled_at_their_own_point_and_carried_out() {
        let mut hand = on_the_flop();
        let first = hand.actor().expect("someone to act");
        hand.act(first, Action::BetOrRaiseTo(10)).expect("a bet");
        let next = hand.actor().expect("someone to act");
        let push = |for_change, declared| TableEvent::Chips {
            player: next,
            chips: vec![20, 1],
            declared,
            onto_previous_bet: false,
            for_change,
        };
        // A word said with them makes them a declaration, ruled where declarations are.
        let raise = Declaration {
            verb: Some(Verb::Raise),
            amount: None,
            readings: Vec::new(),
        };
        assert_eq!(
            classify(&hand, next, &[20, 1], Some(&raise)),
            "action.verbal_vs_chips"
        );
        assert_eq!(for_change_point(true, Some(&raise)), None);
        assert_eq!(for_change_point(false, None), None);
        let ruling = handle(&mut hand, &push(true, None)).expect("ruled");
        assert_eq!(ruling.point, "action.overbet_for_change");
        // Unbound, they are chips pushed like any others: 21 against 10 keeps 11 over the
        // call, at least half a raise of 10, so a raise to 21.
        assert_eq!(ruling.outcome, "raise");
        assert_eq!(hand.bet_of(next), 21);
        assert_eq!(hand.stack_of(next), 1000 - 4 - 21);
    }

    #[test]
    fn security_finding_14_an_overflowing_chips_list_is_refused_not_ruled_on() {
        let mut hand = facing_four();
        let player = hand.actor().expect("someone to act");
        let (events, rulings) = (hand.events().len(), hand.rulings().len());
        let wraps = TableEvent::Chips {
            player,
            chips: vec![u64::MAX, 3],
            declared: None,
            onto_previous_bet: false,
            for_change: false,
        };
        let refused = handle(&mut hand, &wraps).expect_err("a wrapping total is refused");
        assert!(
            matches!(&refused, ActionError::Amount(e) if e.amount == u64::MAX),
            "{refused:?}"
        );
        assert_eq!(
            refused.to_string(),
            format!(
                "the chips pushed {} is above the bound of {} chips",
                u64::MAX,
                crate::bounds::MAX_HAND_CHIPS
            )
        );
        assert_eq!(
            (hand.events().len(), hand.rulings().len()),
            (events, rulings)
        );
        // A list longer than the bound is refused too, whatever its total.
        let long = TableEvent::Chips {
            player,
            chips: vec![1; crate::bounds::MAX_CHIPS_PUSHED + 1],
            declared: None,
            onto_previous_bet: false,
            for_change: false,
        };
        assert!(matches!(
            handle(&mut hand, &long),
            Err(ActionError::TooManyChips { .. })
        ));
        // So is a said amount above the hand bound.
        let said = TableEvent::Declare {
            player,
            declaration: Declaration {
                verb: Some(Verb::Raise),
                amount: Some(u64::MAX),
                readings: Vec::new(),
            },
        };
        assert!(matches!(
            handle(&mut hand, &said),
            Err(ActionError::Amount(_))
        ));
        // The same push within the bound is ruled on as usual.
        let fine = TableEvent::Chips {
            player,
            chips: vec![1, 1],
            declared: None,
            onto_previous_bet: false,
            for_change: false,
        };
        let ruling = handle(&mut hand, &fine).expect("ruled");
        assert_eq!(ruling.point, "action.insufficient_call");
    }

    #[test]
    fn security_finding_7_a_situation_whose_facts_pass_their_bounds_is_refused() {
        let mut hand = facing_four();
        let rulings = hand.rulings().len();
        let situation = |facts: &[(&str, ron::Value)]| TableEvent::Situation {
            point: "table.min_players".into(),
            facts: facts
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        };
        let huge = ron::Value::Number(ron::Number::U64(u64::MAX));
        let refused = handle(&mut hand, &situation(&[("players", huge)])).expect_err("refused");
        assert!(
            refused
                .to_string()
                .starts_with("the facts of `table.min_players` do not fit its context: "),
            "{refused}"
        );
        let hundred = ron::Value::Number(ron::Number::U64(100));
        let refused = handle(&mut hand, &situation(&[("players", hundred)])).expect_err("refused");
        assert!(
            refused.to_string().ends_with("100 is outside 0 to 23"),
            "{refused}"
        );
        let unknown = situation(&[("seated", ron::Value::Bool(true))]);
        let refused = handle(&mut hand, &unknown).expect_err("refused");
        assert!(
            refused.to_string().contains("unknown field `seated`"),
            "{refused}"
        );
        assert_eq!(hand.rulings().len(), rulings, "nothing was ruled");
        let three = ron::Value::Number(ron::Number::U64(3));
        let ruling = handle(&mut hand, &situation(&[("players", three)])).expect("ruled");
        assert_eq!(ruling.point, "table.min_players");
    }
}
