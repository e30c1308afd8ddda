//! Remembered answers of a ruleset's table-event decisions.
//!
//! A decision is a Rhai function of its facts alone: the sandbox gives a script no clock, no
//! randomness, no files and no state that outlives a call, so the same facts always get the
//! same answer (a script that fails, fails the same way). A cash table asks the same
//! questions hand after hand — "may the table deal with 6 players?", "who gets the button?" —
//! so the answers are kept, per ruleset version, and the script runs once per distinct
//! question. The memo is bounded: when full it starts again empty.
//!
//! The same holds for the decisions the state machine asks during a hand (`allin.reopening`,
//! `betting.min_raise`...): a script bound to one of them runs once per distinct context
//! ([`HandMemo`]), which is what lets a ruleset with Rhai decisions replay at a useful
//! fraction of the engine's own speed.

use crate::rules::plugin::PluginAnswer;
use crate::rules::{Decided, EventDecision};
use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;
use std::sync::{Arc, Mutex};

/// How many distinct questions a ruleset version remembers before starting again.
const CAPACITY: usize = 4096;

/// The question: the point and the facts it was asked with.
type Question = (String, BTreeMap<String, ron::Value>);

/// Answers by question, shared by every table playing one ruleset version.
#[derive(Debug, Default)]
pub(crate) struct DecisionMemo {
    answers: Mutex<HashMap<Question, EventDecision>>,
}

impl DecisionMemo {
    /// The answer to `point` with `facts`, from memory or from `ask` (then remembered).
    pub(crate) fn answer(
        &self,
        point: &str,
        facts: &BTreeMap<String, ron::Value>,
        ask: impl FnOnce() -> EventDecision,
    ) -> EventDecision {
        let question = (point.to_string(), facts.clone());
        if let Some(known) = self.lock().get(&question) {
            return known.clone();
        }
        // Asked outside the lock: a script may take its whole operation budget.
        let answer = ask();
        let mut answers = self.lock();
        if answers.len() >= CAPACITY {
            answers.clear();
        }
        answers.insert(question, answer.clone());
        answer
    }

    /// How many answers are remembered.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Question, EventDecision>> {
        // A panic while holding the lock leaves only a map of complete answers behind.
        self.answers
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Answers of one hand-level decision by its typed context, shared by every hand played
/// under one ruleset version. Bounded like [`DecisionMemo`].
///
/// A plugin's answers are kept too (a plugin must be a pure function of its context, as a
/// script is), each with the question it answered when the desk listens: the host journals
/// every answer a hand used, and an answer given again from memory is handed to it
/// ([`Asked`]) so that the journal, and a replay of it, meet the same questions in the same
/// order. A plugin that
/// failed is not remembered: a time-out says nothing about the next call.
#[derive(Debug)]
pub(crate) struct HandMemo<C, T> {
    answers: Mutex<HashMap<C, Remembered<T>>>,
}

/// A remembered answer, and the plugin question behind it when a plugin gave it.
type Remembered<T> = (Decided<T>, Option<Arc<Asked>>);

/// A plugin question and the answer it got, kept to be handed to the desk again.
#[derive(Debug)]
pub(crate) struct Asked {
    /// The plugin the binding names.
    pub plugin: String,
    /// The context, as the plugin received it.
    pub context: Box<serde_json::value::RawValue>,
    /// The answer.
    pub answer: PluginAnswer,
}

impl<C, T> Default for HandMemo<C, T> {
    fn default() -> Self {
        HandMemo {
            answers: Mutex::new(HashMap::new()),
        }
    }
}

impl<C: Eq + Hash + Clone, T: Clone> HandMemo<C, T> {
    /// The answer for `ctx`, from memory or from `ask` (then remembered).
    pub(crate) fn answer(&self, ctx: &C, ask: impl FnOnce() -> Decided<T>) -> Decided<T> {
        if let Some((known, _)) = self.recall(ctx, false) {
            return known;
        }
        // Asked outside the lock: a script may take its whole operation budget.
        let answer = ask();
        self.keep(ctx, answer.clone(), None);
        answer
    }

    /// The answer remembered for `ctx`, with the plugin question behind it when `with_asked`
    /// (the question's handle is shared by every thread playing the ruleset: cloning it
    /// writes its count, which the other threads write too, so it is taken only when used).
    pub(crate) fn recall(&self, ctx: &C, with_asked: bool) -> Option<Remembered<T>> {
        self.lock().get(ctx).map(|(known, asked)| {
            let asked = if with_asked { asked.clone() } else { None };
            (known.clone(), asked)
        })
    }

    /// Remembers `answer` for `ctx` (and the plugin question that got it).
    pub(crate) fn keep(&self, ctx: &C, answer: Decided<T>, asked: Option<Arc<Asked>>) {
        let mut answers = self.lock();
        if answers.len() >= CAPACITY {
            answers.clear();
        }
        answers.insert(ctx.clone(), (answer, asked));
    }

    /// How many answers are remembered.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<C, Remembered<T>>> {
        // A panic while holding the lock leaves only a map of complete answers behind.
        self.answers
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Citation;

    fn decision(outcome: &str) -> EventDecision {
        EventDecision {
            outcome: outcome.into(),
            fields: BTreeMap::new(),
            text: outcome.into(),
            citation: Citation::NotRegulated,
        }
    }

    fn facts(players: i64) -> BTreeMap<String, ron::Value> {
        BTreeMap::from([(
            "players".to_string(),
            ron::Value::Number(ron::Number::new(players)),
        )])
    }

    #[test]
    fn the_same_question_is_asked_once_and_another_question_again() {
        let memo = DecisionMemo::default();
        let mut asked = 0;
        for _ in 0..3 {
            let a = memo.answer("table.min_players", &facts(6), || {
                asked += 1;
                decision("table_runs")
            });
            assert_eq!(a.outcome, "table_runs");
        }
        assert_eq!(asked, 1);
        let b = memo.answer("table.min_players", &facts(1), || {
            asked += 1;
            decision("table_cannot_run")
        });
        assert_eq!((b.outcome.as_str(), asked), ("table_cannot_run", 2));
        let c = memo.answer("button.start", &facts(6), || {
            asked += 1;
            decision("draw")
        });
        assert_eq!((c.outcome.as_str(), asked), ("draw", 3));
        assert_eq!(memo.len(), 3);
    }

    #[test]
    fn a_hand_decision_runs_once_per_context_and_keeps_its_citation() {
        let memo: HandMemo<(u64, u64), bool> = HandMemo::default();
        let mut asked = 0;
        for _ in 0..3 {
            let a = memo.answer(&(300, 600), || {
                asked += 1;
                Decided {
                    value: false,
                    citation: Citation::Article("Art. 44º(2)".into()),
                }
            });
            assert!(!a.value);
            assert_eq!(a.citation.to_string(), "Art. 44º(2)");
        }
        let b = memo.answer(&(600, 600), || {
            asked += 1;
            Decided::by_default(true)
        });
        assert_eq!((b.value, asked), (true, 2));
        assert_eq!(memo.len(), 2);
    }

    #[test]
    fn a_full_memo_starts_again_empty() {
        let memo = DecisionMemo::default();
        for n in 0..CAPACITY as i64 + 1 {
            memo.answer("table.min_players", &facts(n), || decision("x"));
        }
        assert_eq!(memo.len(), 1);
    }
}
