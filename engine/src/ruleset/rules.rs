//! A loaded ruleset answering the state machine's rule points.
//!
//! For each point the engine consults: a bound DECISION calls its Rhai function with the
//! typed context (as a map) and cites the binding's article; a bound PARAMETER feeds its value
//! to the engine's logic; `engine_default: true` applies the documented default and cites the
//! article; an unbound point uses the default and is *not regulated by this text*. A script
//! that fails gives the default with a citation saying so: the hand goes on, its state intact,
//! and the failure is in the log.

use super::error::{Problem, ProblemKind};
use super::load::{Resolved, Ruleset};
use super::script::Script;
use crate::hand::{Street, Structure};
use crate::rules::registry::RulePoint;
use crate::rules::EventDecision;
use crate::rules::{
    BlindPlan, BlindsContext, Citation, Decided, DefaultRules, DefaultedPoint, DefaultedPoints,
    FirstToActContext, MinRaiseContext, OddChipContext, PotLimitContext, RaiseCapContext,
    RakeContext, ReopenContext, Rules, RulesetRef, ShowdownOrderContext,
};
use crate::Chips;
use rhai::Dynamic;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

use super::memo::{DecisionMemo, HandMemo};

/// [`Rules`] backed by a loaded [`Ruleset`].
#[derive(Clone, Debug)]
pub struct RulesetRules {
    ruleset: Arc<Ruleset>,
    /// The engine-played points, resolved once and indexed by [`HookPoint`]: the state
    /// machine asks them on every action (`None`: the ruleset does not bind the point).
    hooks: Arc<[Option<Hook>; HOOK_POINTS.len()]>,
    /// The engine-played PARAMETERS, read once from the bindings (the state machine asks
    /// `betting.raise_cap` on every raise and the rake at every settlement).
    played: Arc<PlayedParameters>,
    /// Answers of the engine-played DECISIONS already given, by context.
    answers: Arc<HandAnswers>,
    /// Every PARAMETER value the ruleset (or an ancestor) binds, by point id: table-event
    /// decisions read them as `ctx.params["point.id"]`.
    params: Arc<ron::Value>,
    /// Table-event answers already given, by question (decisions are pure functions of their
    /// facts): a cash table asks the same few questions every hand.
    memo: Arc<DecisionMemo>,
    /// The state machine's frequent questions that no script decides here (their value is
    /// the default's; see [`Rules::defaulted`]).
    defaulted: DefaultedPoints,
}

/// How the ruleset binds one engine-played point (resolved at construction).
#[derive(Clone, Debug)]
struct Hook {
    citation: Citation,
    /// The layer whose scripts hold the decision, and its name.
    decision: Option<(usize, String)>,
}

/// The points the state machine consults as it plays, in [`HookPoint`] order.
const HOOK_POINTS: [&str; 6] = [
    "betting.min_raise",
    "allin.reopening",
    "betting.pot_limit_max",
    "showdown.odd_chip",
    "showdown.order",
    "betting.first_to_act",
];

/// An index into [`HOOK_POINTS`]: which engine-played point a decision is for.
#[derive(Clone, Copy)]
enum HookPoint {
    MinRaise = 0,
    Reopening = 1,
    PotLimitMax = 2,
    OddChip = 3,
    ShowdownOrder = 4,
    FirstToAct = 5,
}

/// `betting.raise_cap` as the ruleset binds it.
#[derive(Debug)]
enum RaiseCapBinding {
    /// Not bound, or bound in a way that leaves the engine's default uncited.
    Unbound,
    /// `engine_default: true`: the default, citing the article.
    EngineDefault(Citation),
    /// A number of raises after the opening bet, and when the cap is lifted.
    Raises(u32, Lifted, Citation),
    /// A value that is not a number: no cap, citing the article.
    NoCap(Citation),
}

/// When a limit raise cap is lifted (`lifted_when` in `betting.raise_cap`'s value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lifted {
    /// `players_in_hand<=2` (a bare number means this): once the hand is heads-up
    /// (pt-casino-2007 rules 47, 88).
    TwoInHand,
    /// `players_dealt_in<=2`: only in a hand dealt to two players; a hand dealt to more stays
    /// capped when two remain in it (br-adtp-2012 rule 40: capped even heads-up until the
    /// event's last two players).
    TwoDealtIn,
    /// `never`.
    Never,
}

impl Lifted {
    fn lifts(self, ctx: &RaiseCapContext) -> bool {
        match self {
            Lifted::TwoInHand => ctx.players_in_hand <= 2,
            Lifted::TwoDealtIn => ctx.players_dealt_in <= 2,
            Lifted::Never => false,
        }
    }
}

/// `betting.raise_cap`'s value: a number of raises (lifted heads-up), a map
/// `{"raises": N, "lifted_when": "players_in_hand<=2" | "players_dealt_in<=2" | "never"}`,
/// or anything else for no cap.
fn raise_cap_binding(value: &ron::Value, citation: Citation) -> RaiseCapBinding {
    let number = |v: &ron::Value| match v {
        ron::Value::Number(n) => Some(n.into_f64() as u32),
        _ => None,
    };
    if let Some(n) = number(value) {
        return RaiseCapBinding::Raises(n, Lifted::TwoInHand, citation);
    }
    let ron::Value::Map(map) = value else {
        return RaiseCapBinding::NoCap(citation);
    };
    let field = |key: &str| map.get(&ron::Value::String(key.into()));
    let Some(raises) = field("raises").and_then(number) else {
        return RaiseCapBinding::NoCap(citation);
    };
    let lifted = match field("lifted_when") {
        Some(ron::Value::String(s)) if s == "players_dealt_in<=2" => Lifted::TwoDealtIn,
        Some(ron::Value::String(s)) if s == "never" => Lifted::Never,
        _ => Lifted::TwoInHand,
    };
    RaiseCapBinding::Raises(raises, lifted, citation)
}

/// `cash.rake.mode_and_bounds`'s value, read once (the fields the per-hand rake uses).
#[derive(Debug)]
struct RakeBinding {
    citation: Citation,
    /// The first `percent` number (0 when absent).
    percent: Chips,
    /// The first `cap` number (0: no cap).
    cap: Chips,
    no_flop_no_drop: bool,
    /// False when `mode` names a commission charged per session or per buy-in.
    per_hand: bool,
}

/// The engine-played parameters, resolved once per ruleset version.
#[derive(Debug)]
struct PlayedParameters {
    raise_cap: RaiseCapBinding,
    rake: Option<RakeBinding>,
}

impl PlayedParameters {
    fn read(ruleset: &Ruleset) -> PlayedParameters {
        let article = |citation: &str| Citation::Article(citation.into());
        let raise_cap = match ruleset.resolve("betting.raise_cap") {
            Some(r) => match &r.binding.value {
                Some(value) => raise_cap_binding(value, article(&r.binding.citation)),
                None if r.binding.engine_default => {
                    RaiseCapBinding::EngineDefault(article(&r.binding.citation))
                }
                None => RaiseCapBinding::Unbound,
            },
            None => RaiseCapBinding::Unbound,
        };
        let rake = ruleset
            .resolve("cash.rake.mode_and_bounds")
            .and_then(|r| Some((r.binding.value.as_ref()?, article(&r.binding.citation))))
            .map(|(value, citation)| RakeBinding::read(value, citation));
        PlayedParameters { raise_cap, rake }
    }
}

impl RakeBinding {
    fn read(value: &ron::Value, citation: Citation) -> RakeBinding {
        let entries = match value {
            ron::Value::Map(map) => map.iter().collect(),
            _ => Vec::new(),
        };
        let field = |name: &str| {
            entries.iter().find_map(|(k, v)| match (k, v) {
                (ron::Value::String(k), ron::Value::Number(n)) if k == name => {
                    Some(n.into_f64() as Chips)
                }
                _ => None,
            })
        };
        RakeBinding {
            percent: field("percent").unwrap_or(0),
            cap: field("cap").unwrap_or(0),
            no_flop_no_drop: entries.iter().any(|(k, v)| {
                matches!((k, v), (ron::Value::String(k), ron::Value::Bool(true)) if k == "no_flop_no_drop")
            }),
            // A commission charged per session or per buy-in is the cash table's
            // (crate::cash): nothing is taken from the pot.
            per_hand: entries.iter().all(|(k, v)| {
                !matches!((k, v), (ron::Value::String(k), ron::Value::String(m))
                    if k == "mode" && m != "per_hand")
            }),
            citation,
        }
    }
}

/// The engine-played decisions' answers already given, one memo per point whose context is
/// plain data (see [`HandMemo`]).
#[derive(Debug, Default)]
struct HandAnswers {
    min_raise: HandMemo<MinRaiseContext, Chips>,
    reopens: HandMemo<ReopenContext, bool>,
    pot_limit_max: HandMemo<PotLimitContext, Chips>,
    first_to_act: HandMemo<FirstToActContext, usize>,
}

impl RulesetRules {
    /// Rules from a loaded ruleset.
    pub fn new(ruleset: Arc<Ruleset>) -> RulesetRules {
        let hooks = HOOK_POINTS.map(|point| {
            let resolved = ruleset.resolve(point)?;
            let layer = ruleset
                .layers()
                .iter()
                .position(|l| std::ptr::eq(l, resolved.layer))
                .unwrap_or(0);
            Some(Hook {
                citation: Citation::Article(resolved.binding.citation.as_str().into()),
                decision: resolved.binding.decision.clone().map(|d| (layer, d)),
            })
        });
        // A point bound without a decision (a citation alone) keeps the default's value.
        let decided_here = |point: HookPoint| {
            hooks[point as usize]
                .as_ref()
                .is_some_and(|hook| hook.decision.is_some())
        };
        let defaulted = [
            (HookPoint::MinRaise, DefaultedPoint::MinRaise),
            (HookPoint::Reopening, DefaultedPoint::Reopening),
            (HookPoint::FirstToAct, DefaultedPoint::FirstToAct),
            (HookPoint::PotLimitMax, DefaultedPoint::PotLimitMax),
        ]
        .into_iter()
        .filter(|&(hook, _)| !decided_here(hook))
        .fold(DefaultedPoints::NONE, |set, (_, point)| set.with(point));
        let played = PlayedParameters::read(&ruleset);
        let defaulted = match played.raise_cap {
            RaiseCapBinding::Unbound | RaiseCapBinding::EngineDefault(_) => {
                defaulted.with(DefaultedPoint::RaiseCap)
            }
            RaiseCapBinding::Raises(..) | RaiseCapBinding::NoCap(_) => defaulted,
        };
        let mut params = ron::Map::new();
        for point in crate::rules::registry::all() {
            if let Some(value) = ruleset
                .resolve(point.id)
                .and_then(|r| r.binding.value.clone())
            {
                params.insert(ron::Value::String(point.id.to_string()), value);
            }
        }
        RulesetRules {
            ruleset,
            hooks: Arc::new(hooks),
            played: Arc::new(played),
            answers: Arc::default(),
            params: Arc::new(ron::Value::Map(params)),
            memo: Arc::default(),
            defaulted,
        }
    }

    /// The ruleset.
    pub fn ruleset_data(&self) -> &Arc<Ruleset> {
        &self.ruleset
    }

    /// Decides `point`: by script, by the default with the article, or by the default alone.
    /// With `memo`, a script's answer is remembered by context (see [`HandMemo`]).
    fn decide<C: Serialize + Clone + Eq + std::hash::Hash, T: Clone>(
        &self,
        point: HookPoint,
        ctx: &C,
        convert: impl Fn(&Dynamic) -> Option<T>,
        default: impl FnOnce() -> Decided<T>,
        memo: Option<&HandMemo<C, T>>,
    ) -> Decided<T> {
        let Some(hook) = &self.hooks[point as usize] else {
            return default();
        };
        let Some((layer, name)) = &hook.decision else {
            return Decided {
                value: default().value,
                citation: hook.citation.clone(),
            };
        };
        match memo {
            Some(memo) => memo.answer(ctx, || {
                self.run_decision(hook, *layer, name, ctx, convert, default)
            }),
            None => self.run_decision(hook, *layer, name, ctx, convert, default),
        }
    }

    /// Runs a bound decision's script on `ctx`; a failure gives the default, saying why.
    fn run_decision<C: Serialize, T>(
        &self,
        hook: &Hook,
        layer: usize,
        name: &str,
        ctx: &C,
        convert: impl Fn(&Dynamic) -> Option<T>,
        default: impl FnOnce() -> Decided<T>,
    ) -> Decided<T> {
        let result = self.ruleset.layers()[layer]
            .script_for(name)
            .ok_or_else(|| format!("no script defines `{name}`"))
            .and_then(|script| {
                let ctx = rhai::serde::to_dynamic(ctx).map_err(|e| e.to_string())?;
                script.call(name, ctx).map_err(|e| e.to_string())
            });
        match result {
            Ok(value) => match convert(&value) {
                Some(v) => Decided {
                    value: v,
                    citation: hook.citation.clone(),
                },
                None => failed(
                    default(),
                    format!(
                        "`{name}` returned {}, not the expected type",
                        value.type_name()
                    ),
                ),
            },
            Err(message) => failed(default(), message),
        }
    }

    fn parameter(&self, point: &str) -> Option<(ron::Value, Citation)> {
        let resolved = self.ruleset.resolve(point)?;
        let value = resolved.binding.value.clone()?;
        Some((
            value,
            Citation::Article(resolved.binding.citation.as_str().into()),
        ))
    }
}

fn failed<T>(default: Decided<T>, message: String) -> Decided<T> {
    Decided {
        value: default.value,
        citation: Citation::ScriptFailed(message.into()),
    }
}

fn run<C: Serialize>(resolved: &Resolved<'_>, name: &str, ctx: &C) -> Result<Dynamic, String> {
    let script = resolved
        .layer
        .script_for(name)
        .ok_or_else(|| format!("no script defines `{name}`"))?;
    let ctx = rhai::serde::to_dynamic(ctx).map_err(|e| e.to_string())?;
    script.call(name, ctx).map_err(|e| e.to_string())
}

/// Reads a decision's result: a map with `outcome`, optional `text` and `citation` (a more
/// precise article than the binding's), and any further fields; or a bare string outcome.
fn event_decision(value: Dynamic, article: Citation, binding_citation: &str) -> EventDecision {
    if let Some(outcome) = value.clone().try_cast::<rhai::ImmutableString>() {
        return EventDecision {
            outcome: outcome.to_string(),
            fields: BTreeMap::new(),
            text: outcome.to_string(),
            citation: article,
        };
    }
    let Some(map) = value.try_cast::<rhai::Map>() else {
        return EventDecision {
            outcome: "refer_to_floor".into(),
            fields: BTreeMap::new(),
            text: "the decision returned neither a map nor a string".into(),
            citation: Citation::ScriptFailed("wrong return type".into()),
        };
    };
    let mut fields = BTreeMap::new();
    let mut outcome = String::from("refer_to_floor");
    let mut text = String::new();
    let mut citation = article;
    for (key, v) in map {
        let v = v.to_string();
        match key.as_str() {
            "outcome" => outcome = v,
            "text" => text = v,
            "citation" if v != binding_citation => citation = Citation::Article(v.into()),
            _ => {
                fields.insert(key.to_string(), v);
            }
        }
    }
    if text.is_empty() {
        text = outcome.clone();
    }
    EventDecision {
        outcome,
        fields,
        text,
        citation,
    }
}

fn as_chips(value: &Dynamic) -> Option<Chips> {
    value.as_int().ok().and_then(|v| Chips::try_from(v).ok())
}

fn as_position(value: &Dynamic) -> Option<usize> {
    value.as_int().ok().and_then(|v| usize::try_from(v).ok())
}

impl Rules for RulesetRules {
    fn ruleset(&self) -> &RulesetRef {
        self.ruleset.reference()
    }

    fn defaulted(&self) -> DefaultedPoints {
        self.defaulted
    }

    fn parameter(&self, point: &str) -> Option<Decided<ron::Value>> {
        RulesetRules::parameter(self, point).map(|(value, citation)| Decided { value, citation })
    }

    fn table_event(&self, point: &str, facts: &BTreeMap<String, ron::Value>) -> EventDecision {
        let (outcome, fields, text) = crate::events::default_ruling(point, facts);
        let default = EventDecision {
            outcome,
            fields,
            text,
            citation: Citation::NotRegulated,
        };
        let Some(resolved) = self.ruleset.resolve(point) else {
            return default;
        };
        let article = Citation::Article(resolved.binding.citation.as_str().into());
        let Some(name) = &resolved.binding.decision else {
            if resolved.binding.engine_default {
                return EventDecision {
                    citation: article,
                    ..default
                };
            }
            // The text rules but gives nothing the engine can execute: say what it says.
            return EventDecision {
                outcome: "as_the_text_says".into(),
                fields: BTreeMap::new(),
                text: resolved.binding.ruling.clone().unwrap_or_default(),
                citation: article,
            };
        };
        // The script runs once per distinct question (see `memo`).
        self.memo.answer(point, facts, || {
            let mut ctx = facts.clone();
            ctx.insert("params".into(), (*self.params).clone());
            match run(&resolved, name, &ctx) {
                Err(message) => EventDecision {
                    citation: Citation::ScriptFailed(message.into()),
                    ..default
                },
                Ok(value) => event_decision(value, article, &resolved.binding.citation),
            }
        })
    }

    fn min_raise(&self, ctx: &MinRaiseContext) -> Decided<Chips> {
        self.decide(
            HookPoint::MinRaise,
            ctx,
            as_chips,
            || DefaultRules.min_raise(ctx),
            Some(&self.answers.min_raise),
        )
    }

    fn reopens(&self, ctx: &ReopenContext) -> Decided<bool> {
        self.decide(
            HookPoint::Reopening,
            ctx,
            |v| v.as_bool().ok(),
            || DefaultRules.reopens(ctx),
            Some(&self.answers.reopens),
        )
    }

    fn raise_cap(&self, ctx: &RaiseCapContext) -> Decided<Option<u32>> {
        match &self.played.raise_cap {
            RaiseCapBinding::Raises(raises, lifted, citation) => Decided {
                // The value counts raises after the opening bet (the big blind before the
                // flop); the engine counts voluntary bets and raises. The binding says when
                // the cap is lifted.
                value: (!lifted.lifts(ctx)).then(|| {
                    if ctx.street == Street::Preflop {
                        *raises
                    } else {
                        raises + 1
                    }
                }),
                citation: citation.clone(),
            },
            RaiseCapBinding::NoCap(citation) => Decided {
                value: None,
                citation: citation.clone(),
            },
            RaiseCapBinding::EngineDefault(citation) => Decided {
                value: DefaultRules.raise_cap(ctx).value,
                citation: citation.clone(),
            },
            RaiseCapBinding::Unbound => DefaultRules.raise_cap(ctx),
        }
    }

    fn pot_limit_max(&self, ctx: &PotLimitContext) -> Decided<Chips> {
        self.decide(
            HookPoint::PotLimitMax,
            ctx,
            as_chips,
            || DefaultRules.pot_limit_max(ctx),
            Some(&self.answers.pot_limit_max),
        )
    }

    fn odd_chip(&self, ctx: &OddChipContext) -> Decided<usize> {
        let decided = self.decide(
            HookPoint::OddChip,
            ctx,
            as_position,
            || DefaultRules.odd_chip(ctx),
            None,
        );
        // A script may only hand the chip to one of the winners.
        if ctx.winners.contains(&decided.value) {
            decided
        } else {
            failed(
                DefaultRules.odd_chip(ctx),
                format!(
                    "the odd chip was given to player {}, who is not a winner",
                    decided.value + 1
                ),
            )
        }
    }

    fn showdown_order(&self, ctx: &ShowdownOrderContext) -> Decided<usize> {
        self.decide(
            HookPoint::ShowdownOrder,
            ctx,
            as_position,
            || DefaultRules.showdown_order(ctx),
            None,
        )
    }

    fn first_to_act(&self, ctx: &FirstToActContext) -> Decided<usize> {
        self.decide(
            HookPoint::FirstToAct,
            ctx,
            as_position,
            || DefaultRules.first_to_act(ctx),
            Some(&self.answers.first_to_act),
        )
    }

    fn game(&self, name: &str) -> Result<(), String> {
        let Some((ron::Value::Map(games), citation)) = self.parameter("variant.offered_games")
        else {
            return DefaultRules.game(name);
        };
        let status = games.iter().find_map(|(k, v)| match (k, v) {
            (ron::Value::String(k), ron::Value::String(v)) if k == name => Some(v.clone()),
            _ => None,
        });
        match status.as_deref() {
            Some("played") => DefaultRules.game(name),
            Some(why) => Err(format!("{name}: {why} ({citation})")),
            None => Err(format!(
                "{name} is not among the games {} covers ({citation})",
                self.ruleset.id()
            )),
        }
    }

    fn blinds(&self, ctx: &BlindsContext) -> Decided<BlindPlan> {
        let default = DefaultRules.blinds(ctx);
        let Some(resolved) = self.ruleset.resolve("blinds.positions_and_amounts") else {
            return default;
        };
        let citation = Citation::Article(resolved.binding.citation.as_str().into());
        // A text that only sets the amounts (by level structure) places the blinds as usual.
        let Some(ron::Value::Map(map)) = &resolved.binding.value else {
            return Decided {
                value: default.value,
                citation,
            };
        };
        let hand_holder = map.iter().any(|(k, v)| {
            matches!((k, v), (ron::Value::String(k), ron::Value::String(v))
                if k == "small_blind" && v == "hand_holder")
        });
        let n = ctx.players.max(1);
        Decided {
            value: if hand_holder {
                // The marker holder posts the small blind himself (pt-casino-2007 rule 81).
                BlindPlan {
                    small_blind: Some(ctx.button % n),
                    big_blind: (ctx.button + 1) % n,
                }
            } else {
                default.value
            },
            citation,
        }
    }

    /// `button.dead_button`: the binding's boolean `value` (the engine's default where the
    /// ruleset does not bind it or binds no boolean).
    fn dead_button(&self) -> Decided<bool> {
        match self.parameter("button.dead_button") {
            Some((ron::Value::Bool(dead), citation)) => Decided {
                value: dead,
                citation,
            },
            _ => DefaultRules.dead_button(),
        }
    }

    fn rake(&self, ctx: &RakeContext) -> Decided<Chips> {
        let Some(rake) = &self.played.rake else {
            return DefaultRules.rake(ctx);
        };
        let citation = rake.citation.clone();
        if (rake.no_flop_no_drop && !ctx.flop_dealt) || !rake.per_hand {
            return Decided { value: 0, citation };
        }
        let mut value = ctx.pot * rake.percent / 100;
        if rake.cap > 0 {
            value = value.min(rake.cap);
        }
        Decided { value, citation }
    }
}

/// Calls decision `name` of `point` on a typical situation and checks what comes back, so
/// that `floor check` catches failing scripts and wrong return types before any table does.
pub(super) fn probe(point: &RulePoint, name: &str, script: &Script) -> Option<Problem> {
    let (ctx, expected): (Result<Dynamic, String>, &str) = match point.id {
        "betting.min_raise" => (
            to_map(&MinRaiseContext {
                structure: Structure::NoLimit,
                street: Street::Flop,
                min_bet: 200,
                current_bet: 600,
                last_full_increment: 600,
            }),
            "int",
        ),
        "allin.reopening" => (
            to_map(&ReopenContext {
                structure: Structure::FixedLimit {
                    small_bet: 200,
                    big_bet: 400,
                },
                raised_since_last_action: 300,
                full_raise: 600,
            }),
            "bool",
        ),
        "betting.pot_limit_max" => (
            to_map(&PotLimitContext {
                structure: Structure::PotLimit,
                pot: 300,
                to_call: 100,
                current_bet: 100,
            }),
            "int",
        ),
        "showdown.odd_chip" => (
            to_map(&OddChipContext {
                small_blind: Some(1),
                winners: &[1, 3],
                button: 0,
                players: 4,
            }),
            "int",
        ),
        "showdown.order" => (
            to_map(&ShowdownOrderContext {
                small_blind: Some(1),
                in_hand: &[1, 2, 3],
                last_aggressor: Some(2),
                button: 0,
            }),
            "int",
        ),
        "betting.first_to_act" => (
            to_map(&FirstToActContext {
                small_blind: Some(1),
                street: Street::Flop,
                button: 0,
                players: 4,
            }),
            "int",
        ),
        _ => return None,
    };
    let at = || script.locate_fn(name);
    let ctx = match ctx {
        Ok(ctx) => ctx,
        Err(e) => return Some(Problem::new(ProblemKind::ScriptFailure, at(), e)),
    };
    match script.call(name, ctx) {
        Err(error) => Some(Problem::new(
            ProblemKind::ScriptFailure,
            if error.location.line == 0 {
                script.locate_fn(name)
            } else {
                error.location
            },
            format!(
                "`{name}` (for `{}`) fails on a probe: {}",
                point.id, error.message
            ),
        )),
        Ok(value) => {
            let ok = match expected {
                "int" => value.as_int().is_ok_and(|v| v >= 0),
                "bool" => value.as_bool().is_ok(),
                _ => true,
            };
            (!ok).then(|| {
                Problem::new(
                    ProblemKind::WrongReturnType,
                    at(),
                    format!(
                        "`{name}` (for `{}`) must return {} but returned {} ({value})",
                        point.id,
                        if expected == "int" {
                            "a non-negative int"
                        } else {
                            expected
                        },
                        value.type_name()
                    ),
                )
            })
        }
    }
}

fn to_map<C: Serialize>(ctx: &C) -> Result<Dynamic, String> {
    rhai::serde::to_dynamic(ctx).map_err(|e| e.to_string())
}
