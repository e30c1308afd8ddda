//! Rule point × ruleset comparison, the matrix regulators read. A PARAMETER cell shows its
//! value; a DECISION the engine plays is compared by running each ruleset on a small battery
//! of probe situations; every other cell shows what the text says. Every cell carries its
//! citation, and unregulated cells say so.

use super::difference::{classify, Difference, Pair};
use super::load::Ruleset;
use super::rules::RulesetRules;
use super::sentence::sentence;
use crate::hand::{Street, Structure};
use crate::rules::registry::{self, Kind};
use crate::rules::{
    Decided, FirstToActContext, MinRaiseContext, OddChipContext, PotLimitContext, Rules,
    ShowdownOrderContext,
};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The whole comparison (its JSON is a stable interface: see docs/CLI.md).
#[derive(Clone, Debug, Serialize)]
pub struct Matrix {
    /// The rulesets compared, in column order.
    pub rulesets: Vec<String>,
    /// One row per rule point, in catalogue order.
    pub rule_points: Vec<Row>,
}

/// One rule point across the rulesets.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// The rule point id.
    pub id: String,
    /// `parameter` or `decision`.
    pub kind: Kind,
    /// The catalogue area.
    pub area: &'static str,
    /// Whether any two rulesets differ (`difference` is not `same`).
    pub differs: bool,
    /// The strongest difference between any two rulesets.
    pub difference: Difference,
    /// Every pair of rulesets that differ, with the kind of difference and, for an outcome,
    /// the situations where the results part.
    pub pairs: Vec<Pair>,
    /// Cells keyed by ruleset id.
    pub cells: BTreeMap<String, Cell>,
}

impl Row {
    /// Whether some pair of rulesets differs in one of `kinds`.
    pub fn has_any(&self, kinds: &[Difference]) -> bool {
        self.pairs.iter().any(|p| kinds.contains(&p.difference))
    }
}

/// A result measured on one situation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// The situation: a probe of the engine, or a bundled scenario.
    pub situation: String,
    /// What the ruleset decided there.
    pub result: String,
}

/// One ruleset's ruling on one point.
#[derive(Clone, Debug, Serialize)]
pub struct Cell {
    /// Whether the ruleset (or an ancestor) addresses the point.
    pub regulated: bool,
    /// The ruling in the text's words ("not regulated by this text" when unregulated).
    pub ruling: String,
    /// The article (empty when unregulated).
    pub citation: String,
    /// The ancestor the binding comes from, when inherited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inherited_from: Option<String>,
    /// Where the text is ambiguous: the reading the ruleset chose.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reading: Option<String>,
    /// A PARAMETER's value, as compact JSON-like text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// The value as a phrase, for text and HTML.
    #[serde(skip)]
    pub value_text: Option<String>,
    /// Results measured on probes and scenarios, where the engine plays the point.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub outcomes: Vec<Outcome>,
    /// What the text says (compared for wording).
    #[serde(skip)]
    pub text: String,
}

/// Outcomes of table-event decisions measured on the bundled scenarios: by rule point, then
/// ruleset id, the results in scenario order.
pub type Probes = BTreeMap<String, BTreeMap<String, Vec<Outcome>>>;

/// Compares `rulesets` on every registered rule point.
pub fn compare(rulesets: &[Arc<Ruleset>]) -> Matrix {
    compare_with(rulesets, &Probes::new())
}

/// Compares `rulesets`, with decisions on table events measured on `probes` too.
pub fn compare_with(rulesets: &[Arc<Ruleset>], probes: &Probes) -> Matrix {
    let rules: Vec<RulesetRules> = rulesets
        .iter()
        .map(|r| RulesetRules::new(r.clone()))
        .collect();
    let ids: Vec<String> = rulesets.iter().map(|r| r.id().to_string()).collect();
    let rule_points = registry::all()
        .iter()
        .map(|point| {
            let cells: BTreeMap<String, Cell> = rulesets
                .iter()
                .zip(&rules)
                .map(|(ruleset, rules)| {
                    let mut c = cell(ruleset, rules, point.id);
                    let probed = probes.get(point.id).and_then(|p| p.get(ruleset.id()));
                    if let (true, Some(outcomes)) = (c.regulated, probed) {
                        c.outcomes.extend(outcomes.iter().cloned());
                    }
                    (ruleset.id().to_string(), c)
                })
                .collect();
            let pairs = pairs(&ids, &cells);
            let difference = pairs
                .iter()
                .map(|p| p.difference)
                .max()
                .unwrap_or(Difference::Same);
            Row {
                id: point.id.to_string(),
                kind: point.kind,
                area: point.area.title(),
                differs: difference != Difference::Same,
                difference,
                pairs,
                cells,
            }
        })
        .collect();
    Matrix {
        rulesets: ids,
        rule_points,
    }
}

/// Every pair of rulesets, in column order, that differs on a point.
fn pairs(ids: &[String], cells: &BTreeMap<String, Cell>) -> Vec<Pair> {
    let mut out = Vec::new();
    for (i, a) in ids.iter().enumerate() {
        for b in &ids[i + 1..] {
            let (Some(ca), Some(cb)) = (cells.get(a), cells.get(b)) else {
                continue;
            };
            let (difference, on) = classify(ca, cb);
            if difference != Difference::Same {
                out.push(Pair {
                    a: a.clone(),
                    b: b.clone(),
                    difference,
                    on,
                });
            }
        }
    }
    out
}

fn cell(ruleset: &Ruleset, rules: &RulesetRules, point: &str) -> Cell {
    let Some(resolved) = ruleset.resolve(point) else {
        return Cell {
            regulated: false,
            ruling: "not regulated by this text".into(),
            citation: String::new(),
            inherited_from: None,
            reading: None,
            value: None,
            value_text: None,
            outcomes: Vec::new(),
            text: String::new(),
        };
    };
    let text = resolved.binding.ruling.clone().unwrap_or_default();
    Cell {
        regulated: true,
        ruling: text.clone(),
        citation: resolved.binding.citation.clone(),
        inherited_from: resolved.inherited.then(|| resolved.layer.file.id.clone()),
        reading: resolved.binding.reading.clone(),
        value: resolved.binding.value.as_ref().map(render),
        value_text: resolved.binding.value.as_ref().map(sentence),
        outcomes: probe_battery(rules, point).unwrap_or_default(),
        text,
    }
}

/// Runs a ruleset on the probe situations of an engine-played DECISION, each result named
/// by its situation; `None` for points the engine does not play.
pub fn probe_battery(rules: &RulesetRules, point: &str) -> Option<Vec<Outcome>> {
    fn show<T: std::fmt::Debug>(situation: String, d: Decided<T>) -> Outcome {
        Outcome {
            situation,
            result: format!("{:?}", d.value),
        }
    }
    let outcomes: Vec<Outcome> = match point {
        "betting.min_raise" => [(200, 600, 600), (200, 200, 200), (100, 1_100, 700)]
            .iter()
            .map(|&(min_bet, current_bet, last_full_increment)| {
                show(
                    format!("no-limit flop, minimum bet {min_bet}, bet to {current_bet}, last full raise {last_full_increment}"),
                    rules.min_raise(&MinRaiseContext {
                        structure: Structure::NoLimit,
                        street: Street::Flop,
                        min_bet,
                        current_bet,
                        last_full_increment,
                    }),
                )
            })
            .collect(),
        "allin.reopening" => [
            (Structure::NoLimit, 300, 600),
            (
                Structure::FixedLimit {
                    small_bet: 200,
                    big_bet: 400,
                },
                100,
                200,
            ),
            (
                Structure::FixedLimit {
                    small_bet: 200,
                    big_bet: 400,
                },
                50,
                200,
            ),
        ]
        .iter()
        .map(|&(structure, raised, full)| {
            show(
                format!("{}, a short all-in of {raised} against a full raise of {full}", structure_name(structure)),
                rules.reopens(&crate::rules::ReopenContext {
                    structure,
                    raised_since_last_action: raised,
                    full_raise: full,
                    raises_this_round: 1,
                    short_all_ins_this_round: 1,
                    players_not_all_in: 3,
                }),
            )
        })
        .collect(),
        "betting.pot_limit_max" => [
            (Structure::PotLimit, 300, 100, 100),
            (Structure::HalfPotLimit, 300, 100, 100),
        ]
        .iter()
        .map(|&(structure, pot, to_call, current_bet)| {
            show(
                format!("{}, pot {pot}, {to_call} to call", structure_name(structure)),
                rules.pot_limit_max(&PotLimitContext {
                    structure,
                    pot,
                    to_call,
                    current_bet,
                }),
            )
        })
        .collect(),
        "showdown.odd_chip" => [(&[1usize, 3][..], 0usize, 4usize), (&[0, 2][..], 1, 3)]
            .iter()
            .map(|&(winners, button, players)| {
                show(
                    format!("{players} players, button seat {button}, winners at seats {winners:?}"),
                    rules.odd_chip(&OddChipContext {
                        small_blind: Some(1),
                        winners,
                        button,
                        players,
                        hole_cards: &[],
                    }),
                )
            })
            .collect(),
        "showdown.order" => [(Some(2usize)), None]
            .iter()
            .map(|&last_aggressor| {
                let situation = match last_aggressor {
                    Some(seat) => format!("seats 1, 2, 3 at showdown, last aggressor seat {seat}"),
                    None => "seats 1, 2, 3 at showdown, no bet on the river".to_string(),
                };
                show(
                    situation,
                    rules.showdown_order(&ShowdownOrderContext {
                        small_blind: Some(1),
                        in_hand: &[1, 2, 3],
                        last_aggressor,
                        button: 0,
                    }),
                )
            })
            .collect(),
        "betting.first_to_act" => [Street::Flop, Street::River]
            .iter()
            .map(|&street| {
                show(
                    format!("{street:?}, 4 players, button seat 0"),
                    rules.first_to_act(&FirstToActContext {
                        small_blind: Some(1),
                        street,
                        button: 0,
                        players: 4,
                    }),
                )
            })
            .collect(),
        _ => return cash_probes(rules, point),
    };
    Some(outcomes)
}

/// A betting structure in words, for a probe's situation.
fn structure_name(structure: Structure) -> String {
    match structure {
        Structure::NoLimit => "no-limit".into(),
        Structure::PotLimit => "pot-limit".into(),
        Structure::HalfPotLimit => "half-pot-limit".into(),
        Structure::FixedLimit { small_bet, big_bet } => format!("limit {small_bet}/{big_bet}"),
    }
}

/// The cash table's own DECISIONS (commission, buy-ins, rebuys, online failures and session
/// ends), asked on a small battery of situations each with the facts the cash table gives
/// them (see `crate::cash`): the outcome, with the amount when the decision names one. The
/// table's other points (minimum players, rests, missed blinds...) are measured on the
/// bundled scenarios like every table event.
fn cash_probes(rules: &RulesetRules, point: &str) -> Option<Vec<Outcome>> {
    use ron::Value;
    let n = |v: i64| Value::Number(ron::Number::new(v));
    let b = Value::Bool;
    let s = |t: &str| Value::String(t.into());
    let battery: Vec<Vec<(&str, Value)>> = match point {
        "cash.rake.no_flop_no_drop" => vec![
            vec![("flop_dealt", b(false)), ("voluntary_bet", b(false))],
            vec![("flop_dealt", b(false)), ("voluntary_bet", b(true))],
            vec![("flop_dealt", b(true)), ("voluntary_bet", b(true))],
        ],
        "cash.rake.split_payments" => vec![vec![("payments", n(2)), ("all_in", b(true))]],
        "cash.buy_in.joining_mid_game" => vec![vec![
            ("game_started", b(true)),
            ("players", n(4)),
            ("initial_buy_in", n(1000)),
            ("average_stack", n(1250)),
            ("minimum_entry", n(500)),
        ]],
        "cash.rebuy_below_minimum" => vec![
            vec![("stack", n(5)), ("table_minimum", n(10))],
            vec![("stack", n(50)), ("table_minimum", n(10))],
        ],
        "online.communication_failure" => {
            vec![
                vec![("origin", s("operator"))],
                vec![("origin", s("player"))],
            ]
        }
        "online.session_termination" => vec![
            vec![("cause", s("no_bets")), ("hands_without_bet", n(6))],
            vec![
                ("cause", s("no_bets")),
                ("hands_without_bet", n(7)),
                ("invited", b(true)),
            ],
            vec![
                ("cause", s("stack_below_minimum")),
                ("invited", b(true)),
                ("warned", b(true)),
            ],
        ],
        _ => return None,
    };
    let outcomes = battery
        .into_iter()
        .map(|facts| {
            let situation = facts
                .iter()
                .map(|(k, v)| format!("{} {}", k.replace('_', " "), render(v)))
                .collect::<Vec<_>>()
                .join(", ");
            let facts: BTreeMap<String, Value> =
                facts.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
            let d = rules.table_event(point, &facts);
            let result = match d.fields.get("amount") {
                Some(v) => format!("{} {v}", d.outcome),
                None => d.outcome,
            };
            Outcome { situation, result }
        })
        .collect();
    Some(outcomes)
}

/// A PARAMETER's value as compact JSON-like text (`{"percent": 5, "cap": 0}`).
pub fn render(value: &ron::Value) -> String {
    match value {
        ron::Value::Bool(b) => b.to_string(),
        ron::Value::Char(c) => format!("{c:?}"),
        ron::Value::String(s) => format!("{s:?}"),
        ron::Value::Number(n) => {
            let f = n.into_f64();
            if f.fract() == 0.0 && f.abs() < 1e15 {
                format!("{}", f as i64)
            } else {
                f.to_string()
            }
        }
        ron::Value::Option(None) | ron::Value::Unit => "()".into(),
        ron::Value::Option(Some(v)) => render(v),
        ron::Value::Seq(items) => format!(
            "[{}]",
            items.iter().map(render).collect::<Vec<_>>().join(", ")
        ),
        ron::Value::Map(map) => format!(
            "{{{}}}",
            map.iter()
                .map(|(k, v)| format!("{}: {}", render(k), render(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => format!("{other:?}"),
    }
}
