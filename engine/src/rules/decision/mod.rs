//! The typed question and answer of every DECISION: for each rule point a ruleset can bind
//! to a `decision`, the Rust type of the context it is asked with and of the answer it must
//! give, reachable from the [registry](super::registry) by the point's id
//! ([`super::registry::RulePoint::signature`]).
//!
//! A [`Signature`] is the one seam between a point and whatever decides it: it generates the
//! contexts a probe asks with ([`Signature::samples`]: boundary values — zero, one, the
//! largest amounts the engine allows, every case of a word, empty and full lists — one fact
//! at a time, bounded in number), checks an answer's type ([`Signature::check`]) the same way
//! at `floor check` and at play, and says whether facts a caller gives fit the context
//! ([`Signature::fits`]). Contexts reach a decider as a Rhai map (`ctx`); they serialize with
//! serde, so that a native plugin can be handed the same context as JSON and its answer
//! checked by the same function.
//!
//! The types live by kind of point: [`hand`] (the points the hand state machine plays, with
//! the typed contexts of [`super::contexts`]), [`chips`] (chips pushed and words said),
//! [`areas`] (every other table event, cash and tournament point).

pub mod answers;
pub mod areas;
pub mod chips;
pub mod hand;
mod schema;
pub(crate) use schema::card_schema;
mod situation;
pub mod values;

use rhai::Dynamic;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::collections::BTreeMap;

/// Facts a caller gives for a table event, by name (the form events carry them in).
pub type Facts = BTreeMap<String, ron::Value>;

/// A point's context type: serializable (to reach a decider), readable back (to check facts
/// a caller gives), and able to generate the contexts a probe asks with.
pub trait Context: Serialize + DeserializeOwned {
    /// The generated contexts: boundary values of each fact, bounded in number.
    fn samples() -> Vec<Self>;
}

/// How one DECISION is asked and must answer. See the [module](self) documentation.
#[derive(Clone, Copy)]
pub struct Signature {
    /// The rule point's id.
    pub point: &'static str,
    /// The context's Rust type.
    pub context: &'static str,
    /// The answer's Rust type.
    pub answer: &'static str,
    samples: fn() -> Vec<Dynamic>,
    check: fn(&Dynamic, &Dynamic) -> Result<(), String>,
    fits: fn(&Facts) -> Result<(), String>,
    schemas: fn() -> (serde_json::Value, serde_json::Value),
    /// Whether `check` reads the context (an answer checked against it, e.g. a position among
    /// the players in hand): when not, a plugin's answer is checked without the context being
    /// converted for it, a conversion as costly as the call at the points asked most.
    reads_context: bool,
}

impl std::fmt::Debug for Signature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Signature({}: {} -> {})",
            self.point, self.context, self.answer
        )
    }
}

impl Signature {
    /// A signature from its parts (the points the state machine plays write theirs by hand).
    pub(crate) const fn new(
        point: &'static str,
        context: &'static str,
        answer: &'static str,
        samples: fn() -> Vec<Dynamic>,
        check: fn(&Dynamic, &Dynamic) -> Result<(), String>,
        fits: fn(&Facts) -> Result<(), String>,
        schemas: fn() -> (serde_json::Value, serde_json::Value),
    ) -> Signature {
        Signature {
            point,
            context,
            answer,
            samples,
            check,
            fits,
            schemas,
            reads_context: true,
        }
    }

    /// The same signature, declaring that its `check` does not read the context.
    pub(crate) const fn context_unread(self) -> Signature {
        Signature {
            reads_context: false,
            ..self
        }
    }

    /// Whether [`Signature::check`] reads the context it is given (otherwise any may be
    /// given, e.g. `Dynamic::UNIT`).
    pub fn reads_context(&self) -> bool {
        self.reads_context
    }

    /// The JSON Schemas (draft 2020-12) of the point's context and of its answer, generated
    /// from the Rust types the engine asks with and checks the answer against.
    pub fn schemas(&self) -> (serde_json::Value, serde_json::Value) {
        (self.schemas)()
    }

    /// The contexts a probe asks the point's decision with, as the maps a decision receives.
    pub fn samples(&self) -> Vec<Dynamic> {
        (self.samples)()
    }

    /// Whether `answer`, given to `ctx`, is of the point's answer type; why not otherwise.
    pub fn check(&self, ctx: &Dynamic, answer: &Dynamic) -> Result<(), String> {
        (self.check)(ctx, answer)
    }

    /// The contexts a probe asks a `plugin` with: [`Signature::samples`] as JSON.
    pub fn json_samples(&self) -> Vec<serde_json::Value> {
        self.samples()
            .iter()
            .filter_map(|ctx| serde_json::to_value(ctx).ok())
            .collect()
    }

    /// [`Signature::check`] for a plugin's JSON `answer` to JSON `ctx`.
    pub fn check_json(
        &self,
        ctx: &serde_json::Value,
        answer: &serde_json::Value,
    ) -> Result<(), String> {
        let ctx = rhai::serde::to_dynamic(ctx).map_err(|e| e.to_string())?;
        let answer = rhai::serde::to_dynamic(answer).map_err(|e| e.to_string())?;
        self.check(&ctx, &answer)
    }

    /// Whether the hand state machine plays the point: its decision receives the typed
    /// context alone, where a table event's also receives the ruleset's `params`.
    pub fn played_by_hand(&self) -> bool {
        hand::SIGNATURES.iter().any(|h| h.point == self.point)
    }

    /// Whether facts a caller gives fit the point's context (every fact known, of its kind,
    /// within its bounds); which does not otherwise.
    pub fn fits(&self, facts: &Facts) -> Result<(), String> {
        (self.fits)(facts)
    }
}

/// The signature of DECISION `point`, if it is one.
pub fn signature(point: &str) -> Option<&'static Signature> {
    all().find(|s| s.point == point)
}

/// Every signature: the hand's points, chips and words, then the areas in catalogue order.
pub fn all() -> impl Iterator<Item = &'static Signature> {
    hand::SIGNATURES
        .iter()
        .chain(chips::SIGNATURES)
        .chain(areas::SIGNATURES.iter().flat_map(|area| area.iter()))
}

/// A context as the map a decision receives.
pub(crate) fn to_map<C: Serialize>(context: &C) -> Option<Dynamic> {
    let map = rhai::serde::to_dynamic(context).ok();
    debug_assert!(map.is_some(), "a context always serializes");
    map
}

/// The samples of a context type, as maps.
fn samples_of<C: Context>() -> Vec<Dynamic> {
    C::samples().iter().filter_map(to_map).collect()
}

/// Facts as the map a decision receives.
pub(crate) fn facts_map(facts: &Facts) -> Result<Dynamic, String> {
    rhai::serde::to_dynamic(facts).map_err(|e| e.to_string())
}

/// Whether facts fit context type `C`: read as the decision would receive them, as `C`.
fn fits_of<C: Context>(facts: &Facts) -> Result<(), String> {
    let map = facts_map(facts)?;
    rhai::serde::from_dynamic::<C>(&map)
        .map(|_| ())
        .map_err(|e| {
            let e = e.to_string();
            e.strip_prefix("Syntax error: ").unwrap_or(&e).to_string()
        })
}

/// The check of a table event's answer with typed fields `F`.
fn check_event_of<F: answers::Fields>(_ctx: &Dynamic, answer: &Dynamic) -> Result<(), String> {
    answers::check_event::<F>(answer)
}

/// The signature of a table event's point: context `C`, answer fields `F`.
pub(crate) const fn event<
    C: Context + schemars::JsonSchema,
    F: answers::Fields + schemars::JsonSchema,
>(
    point: &'static str,
    context: &'static str,
    answer: &'static str,
) -> Signature {
    Signature::new(
        point,
        context,
        answer,
        samples_of::<C>,
        check_event_of::<F>,
        fits_of::<C>,
        schema::schemas_of::<C, schema::EventAnswer<F>>,
    )
    .context_unread()
}

#[cfg(test)]
mod tests;
