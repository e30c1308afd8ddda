//! A loaded ruleset answering the state machine's rule points.
//!
//! For each point the engine consults: a bound DECISION calls its Rhai function with the
//! typed context (as a map) and cites the binding's article; a bound PARAMETER feeds its value
//! to the engine's logic; `engine_default: true` applies the documented default and cites the
//! article; an unbound point uses the default and is *not regulated by this text*.
//!
//! A decision's answer is checked against its point's answer type
//! ([`Signature::check`](crate::rules::decision::Signature::check)), exactly as `floor check`
//! checks it. A decision that fails — an error, a loop, an answer of the wrong type — falls
//! back as its binding declares (`fallback`: the engine's default, or the parent ruleset's
//! ruling), and the answer's citation is [`Citation::ScriptFailed`], naming the decision, the
//! script's file:line:col and what applied instead: the table records it as a ruling (see
//! [`crate::rules::Rules`]). The hand goes on, its state intact.

use super::error::Location;
use super::load::{Resolved, Ruleset};
use super::probe::located;
use super::schema::Fallback;
use crate::hand::{Street, Structure};
use crate::rules::decision::Signature;
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

use super::memo::{Asked, DecisionMemo, HandMemo};
use super::plugged::{Answered, Plugged};
use crate::rules::plugin::{NoPlugins, PluginAnswer, PluginDesk, PluginQuestion};

/// The host's desk for `plugin` bindings, shared by every clone of the rules.
#[derive(Clone)]
struct Desk(Arc<dyn PluginDesk>);

impl std::fmt::Debug for Desk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Desk")
    }
}

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
    /// Who answers the points bound to a `plugin` ([`NoPlugins`] unless the host gives one).
    desk: Desk,
}

/// How the ruleset binds one engine-played point (resolved at construction).
#[derive(Clone, Debug)]
struct Hook {
    citation: Citation,
    /// The binding's article, as written.
    article: Box<str>,
    /// The plugin the binding selects, when it has no `decision`.
    plugin: Option<Plugged>,
    /// The layer whose scripts hold the decision, and its name.
    decision: Option<(usize, String)>,
    /// The point's signature: the check of the decision's answer.
    signature: Option<&'static Signature>,
    /// Where a failed decision falls back: the parent's binding (`fallback: Parent`), or
    /// the engine's default (`None`).
    parent: Option<Box<Hook>>,
    /// The betting structures the text's rule covers (`None`: every one).
    structures: Option<Vec<String>>,
}

impl Hook {
    /// Whether the binding asks something (a decision or a plugin) rather than reading the
    /// default.
    fn asks(&self) -> bool {
        self.decision.is_some() || self.plugin.is_some()
    }

    /// How the layers from `first` on bind `point`.
    fn resolve(ruleset: &Ruleset, point: &str, first: usize) -> Option<Hook> {
        let resolved = ruleset.resolve_from(point, first)?;
        let layer = ruleset.layer_index(resolved.layer);
        let parent = match resolved.binding.fallback {
            Fallback::Parent => Hook::resolve(ruleset, point, layer + 1).map(Box::new),
            Fallback::EngineDefault => None,
        };
        Some(Hook {
            citation: Citation::Article(resolved.binding.citation.as_str().into()),
            article: resolved.binding.citation.as_str().into(),
            plugin: Plugged::of(resolved.binding),
            decision: resolved.binding.decision.clone().map(|d| (layer, d)),
            signature: resolved.point.signature(),
            parent,
            structures: resolved.binding.structures.clone(),
        })
    }
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
        let hooks = HOOK_POINTS.map(|point| Hook::resolve(&ruleset, point, 0));
        // A point bound without a decision (a citation alone) keeps the default's value.
        let decided_here = |point: HookPoint| {
            hooks[point as usize]
                .as_ref()
                .is_some_and(|hook| hook.asks())
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
        let params = ruleset.parameters();
        RulesetRules {
            ruleset,
            hooks: Arc::new(hooks),
            played: Arc::new(played),
            answers: Arc::default(),
            params: Arc::new(params),
            memo: Arc::default(),
            defaulted,
            desk: Desk(Arc::new(NoPlugins)),
        }
    }

    /// These rules with `desk` answering the points bound to a `plugin`: the host's, which
    /// calls (or, replaying, reads back) the plugins its config allows.
    pub fn with_desk(mut self, desk: Arc<dyn PluginDesk>) -> RulesetRules {
        self.desk = Desk(desk);
        // Another desk may load other plugins: nothing remembered from this one carries over.
        self.answers = Arc::default();
        self
    }

    /// The ruleset.
    pub fn ruleset_data(&self) -> &Arc<Ruleset> {
        &self.ruleset
    }

    /// Decides `point`: by script, by the default with the article, or by the default alone.
    /// With `memo`, a script's or a plugin's answer is remembered by context (see
    /// [`HandMemo`]).
    fn decide<C: Serialize + Clone + Eq + std::hash::Hash, T: Clone>(
        &self,
        point: HookPoint,
        ctx: &C,
        convert: impl Fn(&Dynamic) -> Option<T>,
        default: impl Fn() -> Decided<T>,
        memo: Option<&HandMemo<C, T>>,
    ) -> Decided<T> {
        let Some(hook) = &self.hooks[point as usize] else {
            return default();
        };
        match (memo, &hook.decision, &hook.plugin) {
            (Some(memo), None, Some(plugged)) => {
                self.plugin_remembered(point, hook, plugged, ctx, &convert, &default, memo)
            }
            (Some(memo), Some(_), _) => {
                memo.answer(ctx, || self.by_hook(point, hook, ctx, &convert, &default))
            }
            _ => self.by_hook(point, hook, ctx, &convert, &default),
        }
    }

    /// The engine's default for `point`, *not regulated by this text*, when the binding's
    /// rule covers only other betting structures than `structure`; `None` when it covers
    /// this one (or the point is not bound).
    fn off_structure<T>(
        &self,
        point: HookPoint,
        structure: Structure,
        default: impl Fn() -> Decided<T>,
    ) -> Option<Decided<T>> {
        let hook = self.hooks[point as usize].as_ref()?;
        let names = hook.structures.as_ref()?;
        if names.iter().any(|n| n == structure.word()) {
            return None;
        }
        Some(Decided {
            value: default().value,
            citation: Citation::NotRegulated,
        })
    }

    /// Decides `point` by its plugin, from memory when the same context was answered before:
    /// the desk is told of a remembered answer (the host journals it like an asked one). A
    /// failed call is not remembered and falls back as [`Self::by_hook`] does.
    #[allow(clippy::too_many_arguments)]
    fn plugin_remembered<C: Serialize + Clone + Eq + std::hash::Hash, T: Clone>(
        &self,
        point: HookPoint,
        hook: &Hook,
        plugged: &Plugged,
        ctx: &C,
        convert: &impl Fn(&Dynamic) -> Option<T>,
        default: &impl Fn() -> Decided<T>,
        memo: &HandMemo<C, T>,
    ) -> Decided<T> {
        // A desk that does not listen (a batch replay) is told nothing, and the questions
        // are not kept: each would be memory allocated by the thread that asked and freed by
        // whichever thread next empties the memory the threads share.
        let listens = self.desk.0.hears_remembered();
        if let Some((known, asked)) = memo.recall(ctx, listens) {
            match asked {
                Some(asked) => {
                    let question = PluginQuestion {
                        point: HOOK_POINTS[point as usize],
                        plugin: &asked.plugin,
                        ruleset: self.ruleset.reference(),
                        context: &asked.context,
                        time_limit_ms: plugged.time_limit_ms,
                    };
                    self.desk.0.remembered(&question, &asked.answer);
                    return known;
                }
                None if !listens => return known,
                // Remembered while no desk listened: asked again, so that the desk hears it.
                None => {}
            }
        }
        match self.run_plugin(point, hook, plugged, ctx, convert) {
            Ok((value, answered)) => {
                let decided = Decided {
                    value,
                    citation: answered.citation,
                };
                let asked = listens.then(|| {
                    Arc::new(Asked {
                        plugin: plugged.name.clone(),
                        context: answered.context,
                        answer: PluginAnswer {
                            plugin: answered.plugin,
                            answer: answered.json,
                        },
                    })
                });
                memo.keep(ctx, decided.clone(), asked);
                decided
            }
            Err(what) => self.fall_back(point, hook, ctx, convert, default, &what),
        }
    }

    /// How `hook` rules: its decision, or the default cited by its article.
    fn by_hook<C: Serialize, T>(
        &self,
        point: HookPoint,
        hook: &Hook,
        ctx: &C,
        convert: &impl Fn(&Dynamic) -> Option<T>,
        default: &impl Fn() -> Decided<T>,
    ) -> Decided<T> {
        let asked = match (&hook.decision, &hook.plugin) {
            (Some((layer, name)), _) => self
                .run_decision(hook, *layer, name, ctx, convert)
                .map(|value| (value, hook.citation.clone()))
                .map_err(|(at, why)| {
                    format!(
                        "the decision `{name}` for `{}` failed at {at}: {why}",
                        HOOK_POINTS[point as usize]
                    )
                }),
            (None, Some(plugged)) => self
                .run_plugin(point, hook, plugged, ctx, convert)
                .map(|(value, answered)| (value, answered.citation)),
            (None, None) => {
                return Decided {
                    value: default().value,
                    citation: hook.citation.clone(),
                }
            }
        };
        match asked {
            Ok((value, citation)) => Decided { value, citation },
            Err(what) => self.fall_back(point, hook, ctx, convert, default, &what),
        }
    }

    /// What `hook` rules when its decision or plugin failed with `what`: the parent's ruling
    /// or the default, as the binding declares, citing the failure.
    fn fall_back<C: Serialize, T>(
        &self,
        point: HookPoint,
        hook: &Hook,
        ctx: &C,
        convert: &impl Fn(&Dynamic) -> Option<T>,
        default: &impl Fn() -> Decided<T>,
        what: &str,
    ) -> Decided<T> {
        let fallback = match &hook.parent {
            Some(parent) => self.by_hook(point, parent, ctx, convert, default),
            None => default(),
        };
        let text = failure(what, &hook.parent, &fallback.citation);
        Decided {
            value: fallback.value,
            citation: Citation::ScriptFailed(text),
        }
    }

    /// Runs a bound decision's script on `ctx` and checks its answer; where and why it failed
    /// otherwise.
    fn run_decision<C: Serialize, T>(
        &self,
        hook: &Hook,
        layer: usize,
        name: &str,
        ctx: &C,
        convert: &impl Fn(&Dynamic) -> Option<T>,
    ) -> Result<T, (Location, String)> {
        let layer = &self.ruleset.layers()[layer];
        let script = layer
            .script_for(name)
            .ok_or_else(|| (layer.locate(name), format!("no script defines `{name}`")))?;
        let ctx =
            rhai::serde::to_dynamic(ctx).map_err(|e| (script.locate_fn(name), e.to_string()))?;
        let answer = script
            .call(name, ctx.clone())
            .map_err(|e| (located(script, name, e.location), e.message))?;
        if let Some(signature) = hook.signature {
            signature
                .check(&ctx, &answer)
                .map_err(|why| (script.locate_fn(name), why))?;
        }
        convert(&answer).ok_or_else(|| {
            (
                script.locate_fn(name),
                format!(
                    "its answer {} is not of the expected type",
                    answer.type_name()
                ),
            )
        })
    }

    /// Asks the plugin `hook` selects and reads its answer (with how it was asked); the
    /// sentence saying what failed otherwise.
    fn run_plugin<C: Serialize, T>(
        &self,
        point: HookPoint,
        hook: &Hook,
        plugged: &Plugged,
        ctx: &C,
        convert: &impl Fn(&Dynamic) -> Option<T>,
    ) -> Result<(T, Answered), String> {
        let point = HOOK_POINTS[point as usize];
        let answered = plugged.ask(
            self.desk.0.as_ref(),
            self.ruleset.reference(),
            point,
            &hook.article,
            hook.signature,
            ctx,
        )?;
        match convert(&answered.value) {
            Some(value) => Ok((value, answered)),
            None => Err(format!(
                "the plugin `{}` {} (sha256:{}) for `{point}` failed: its answer {} is not of the expected type",
                answered.plugin.name, answered.plugin.version, answered.plugin.sha256, answered.json
            )),
        }
    }

    /// How the layers from `first` on rule on table event `point` with `facts`: a failed
    /// decision falls back as its binding declares, citing the failure.
    fn event_from(
        &self,
        point: &str,
        facts: &BTreeMap<String, ron::Value>,
        first: usize,
    ) -> EventDecision {
        let (outcome, fields, text) = crate::events::default_ruling(point, facts);
        let default = EventDecision {
            outcome,
            fields,
            text,
            citation: Citation::NotRegulated,
        };
        let Some(resolved) = self.ruleset.resolve_from(point, first) else {
            return default;
        };
        // A rule written for some betting structures only says nothing of the others.
        if let Some(ron::Value::String(structure)) = facts.get("structure") {
            if !resolved.binding.covers(structure) {
                return default;
            }
        }
        let article = Citation::Article(resolved.binding.citation.as_str().into());
        let asked = match (&resolved.binding.decision, Plugged::of(resolved.binding)) {
            (Some(name), _) => run(&resolved, name, facts, &self.params)
                .map(|value| event_decision(value, article, &resolved.binding.citation))
                .map_err(|(at, why)| {
                    format!("the decision `{name}` for `{point}` failed at {at}: {why}")
                }),
            (None, Some(plugged)) => plugged
                .ask(
                    self.desk.0.as_ref(),
                    self.ruleset.reference(),
                    point,
                    &resolved.binding.citation,
                    resolved.point.signature(),
                    &with_params(facts, &self.params),
                )
                .map(|a| event_decision(a.value, a.citation, &resolved.binding.citation)),
            (None, None) => return self.unasked(&resolved, article, default),
        };
        match asked {
            Ok(decision) => decision,
            Err(what) => {
                let layer = self.ruleset.layer_index(resolved.layer);
                let (fallback, parent) = match resolved.binding.fallback {
                    Fallback::Parent if self.ruleset.resolve_from(point, layer + 1).is_some() => {
                        (self.event_from(point, facts, layer + 1), true)
                    }
                    _ => (default, false),
                };
                let instead = match (&fallback.citation, parent) {
                    (c, true) if c.is_article() => {
                        format!("the parent ruleset's ruling ({c})")
                    }
                    (_, true) => "the parent ruleset's fallback".to_string(),
                    _ => "the engine default".to_string(),
                };
                EventDecision {
                    citation: Citation::ScriptFailed(
                        format!("{what}; {instead} applies instead").into(),
                    ),
                    ..fallback
                }
            }
        }
    }

    /// How a binding that asks nothing rules: the default cited by its article, or the text's
    /// ruling in its words.
    fn unasked(
        &self,
        resolved: &Resolved<'_>,
        article: Citation,
        default: EventDecision,
    ) -> EventDecision {
        {
            if resolved.binding.engine_default {
                return EventDecision {
                    citation: article,
                    ..default
                };
            }
            // The text rules but gives nothing the engine can execute: say what it says.
            EventDecision {
                outcome: "as_the_text_says".into(),
                fields: BTreeMap::new(),
                text: resolved.binding.ruling.clone().unwrap_or_default(),
                citation: article,
            }
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

/// The sentence a failed decision's (or plugin's) ruling cites: `what` failed (and where,
/// why), and what applied instead.
fn failure(what: &str, parent: &Option<Box<Hook>>, instead: &Citation) -> Arc<str> {
    let instead = match (parent, instead) {
        (Some(_), c) if c.is_article() => format!("the parent ruleset's ruling ({c})"),
        (Some(_), Citation::ScriptFailed(_)) => "the parent ruleset's fallback".to_string(),
        _ => "the engine default".to_string(),
    };
    format!("{what}; {instead} applies instead").into()
}

/// A table event's `facts` with the ruleset's `params`, as a plugin is asked them and as a
/// script that names `params` reads them.
fn with_params(
    facts: &BTreeMap<String, ron::Value>,
    params: &ron::Value,
) -> BTreeMap<String, ron::Value> {
    let mut ctx = facts.clone();
    ctx.insert("params".into(), params.clone());
    ctx
}

/// Runs a table event's decision on `facts` (with `params`, if the script names them) and
/// checks its answer against the point's signature; where and why it failed otherwise.
fn run(
    resolved: &Resolved<'_>,
    name: &str,
    facts: &BTreeMap<String, ron::Value>,
    params: &ron::Value,
) -> Result<Dynamic, (Location, String)> {
    let layer = resolved.layer;
    let script = layer
        .script_for(name)
        .ok_or_else(|| (layer.locate(name), format!("no script defines `{name}`")))?;
    let ctx = if script.names_params() {
        rhai::serde::to_dynamic(with_params(facts, params))
    } else {
        rhai::serde::to_dynamic(facts)
    }
    .map_err(|e| (script.locate_fn(name), e.to_string()))?;
    let answer = script
        .call(name, ctx.clone())
        .map_err(|e| (located(script, name, e.location), e.message))?;
    if let Some(signature) = resolved.point.signature() {
        signature
            .check(&ctx, &answer)
            .map_err(|why| (script.locate_fn(name), why))?;
    }
    Ok(answer)
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

    fn citation(&self, point: &str) -> Citation {
        self.ruleset
            .resolve(point)
            .map_or(Citation::NotRegulated, |r| {
                Citation::Article(r.binding.citation.as_str().into())
            })
    }

    fn table_event(&self, point: &str, facts: &BTreeMap<String, ron::Value>) -> EventDecision {
        // A decision runs once per distinct question (see `memo`); the rest is read off
        // the bindings.
        match self.ruleset.resolve(point) {
            Some(resolved) if resolved.binding.decision.is_some() => {
                self.memo
                    .answer(point, facts, || self.event_from(point, facts, 0))
            }
            _ => self.event_from(point, facts, 0),
        }
    }

    fn min_raise(&self, ctx: &MinRaiseContext) -> Decided<Chips> {
        if let Some(off) = self.off_structure(HookPoint::MinRaise, ctx.structure, || {
            DefaultRules.min_raise(ctx)
        }) {
            return off;
        }
        self.decide(
            HookPoint::MinRaise,
            ctx,
            as_chips,
            || DefaultRules.min_raise(ctx),
            Some(&self.answers.min_raise),
        )
    }

    fn reopens(&self, ctx: &ReopenContext) -> Decided<bool> {
        if let Some(off) = self.off_structure(HookPoint::Reopening, ctx.structure, || {
            DefaultRules.reopens(ctx)
        }) {
            return off;
        }
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
        if let Some(off) = self.off_structure(HookPoint::PotLimitMax, ctx.structure, || {
            DefaultRules.pot_limit_max(ctx)
        }) {
            return off;
        }
        self.decide(
            HookPoint::PotLimitMax,
            ctx,
            as_chips,
            || DefaultRules.pot_limit_max(ctx),
            Some(&self.answers.pot_limit_max),
        )
    }

    fn odd_chip(&self, ctx: &OddChipContext) -> Decided<usize> {
        // A decision may only hand the chip to one of the winners: its signature checks it.
        self.decide(
            HookPoint::OddChip,
            ctx,
            as_position,
            || DefaultRules.odd_chip(ctx),
            None,
        )
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
        let small_blind_is = |word: &str| {
            map.iter().any(|(k, v)| {
                matches!((k, v), (ron::Value::String(k), ron::Value::String(v))
                    if k == "small_blind" && v == word)
            })
        };
        let n = ctx.players.max(1);
        Decided {
            value: if small_blind_is("hand_holder") {
                // The marker holder posts the small blind himself (pt-casino-2007 rule 81).
                BlindPlan {
                    small_blind: Some(ctx.button % n),
                    big_blind: (ctx.button + 1) % n,
                }
            } else if small_blind_is("left_of_button") {
                // The first and second seats left of the button post, at any table size: a
                // text that states no heads-up exception (pt-online rule 48) has none.
                BlindPlan {
                    small_blind: Some((ctx.button + 1) % n),
                    big_blind: (ctx.button + 2) % n,
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
