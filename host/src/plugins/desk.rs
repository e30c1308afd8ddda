//! The host's [`PluginDesk`]: how a point a ruleset binds to a `plugin` is answered at play.
//!
//! Live in the daemon, the desk calls the plugin on a worker thread and waits no longer than
//! the binding's time limit (a plugin that hangs costs a thread, never the table). Batch
//! commands call in place ([`HostDesk::in_place`], see [`super::watchdog`]): the same
//! answers and the same time-out rulings, without two thread switches per question. Every question and its
//! outcome — the answer, or why there is none — is taken down on the calling thread's tape
//! while a command is applied ([`recording`]), and the daemon journals the tape with the
//! command. Replaying the journal ([`replaying`]), the desk answers from the tape and never
//! calls a plugin: a plugin replaced, rebuilt or removed since cannot change the past.
//!
//! The tape is per thread because a command is applied on one thread, start to end, and
//! tables apply their commands concurrently: each command's questions stay its own.

use super::watchdog::Watchdog;
use super::{PluginError, Plugins};
use floor_engine::rules::{
    PluginAnswer, PluginDesk, PluginFailure, PluginIdentity, PluginQuestion,
};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One question asked of a plugin and what came of it, as journaled with the command that
/// asked it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnswerRecord {
    /// The rule point.
    pub point: String,
    /// The plugin the binding names.
    pub plugin: String,
    /// The context, as the plugin received it.
    pub question: Value,
    /// The answer, or why there was none.
    pub outcome: Result<PluginAnswer, PluginFailure>,
}

enum Tape {
    Record(Vec<AnswerRecord>),
    Replay(VecDeque<AnswerRecord>),
}

thread_local! {
    static TAPE: RefCell<Option<Tape>> = const { RefCell::new(None) };
}

/// Runs `f` (a command being applied) taking down every plugin question it asks; what it
/// returned, and the questions with their outcomes, in order.
pub fn recording<R>(f: impl FnOnce() -> R) -> (R, Vec<AnswerRecord>) {
    let outer = TAPE.with(|t| t.replace(Some(Tape::Record(Vec::new()))));
    let out = f();
    let taken = TAPE.with(|t| t.replace(outer));
    match taken {
        Some(Tape::Record(answers)) => (out, answers),
        _ => (out, Vec::new()),
    }
}

/// Runs `f` (a journaled command applied again) answering its plugin questions from
/// `answers`, in order, without calling any plugin.
pub fn replaying<R>(answers: Vec<AnswerRecord>, f: impl FnOnce() -> R) -> R {
    let outer = TAPE.with(|t| t.replace(Some(Tape::Replay(answers.into()))));
    let out = f();
    TAPE.with(|t| t.replace(outer));
    out
}

/// The journaled outcome of `question` (replaying), `None` when not replaying.
fn replayed(question: &PluginQuestion<'_>) -> Option<Result<PluginAnswer, PluginFailure>> {
    TAPE.with(|t| {
        let mut tape = t.borrow_mut();
        let Some(Tape::Replay(queue)) = tape.as_mut() else {
            return None;
        };
        let failure = |why: &str| PluginFailure {
            plugin: None,
            why: format!("{why}; a replay never calls the plugin"),
        };
        Some(match queue.pop_front() {
            Some(r)
                if r.point == question.point
                    && r.plugin == question.plugin
                    && r.question == as_value(question.context) =>
            {
                r.outcome
            }
            Some(r) => Err(failure(&format!(
                "the journal's next answer is to another question (`{}` of `{}`)",
                r.point, r.plugin
            ))),
            None => Err(failure("the journal holds no answer to this question")),
        })
    })
}

/// The question's context as the journal keeps it (a JSON value: the text's key order is the
/// context type's, a journaled value's may be another).
fn as_value(context: &RawValue) -> Value {
    // The engine wrote the text from a typed context: it is JSON.
    serde_json::from_str(context.get()).unwrap_or_default()
}

/// Whether a command is being recorded on this thread.
fn recording_now() -> bool {
    TAPE.with(|t| matches!(*t.borrow(), Some(Tape::Record(_))))
}

/// Takes down a live question's outcome, when a command is being recorded.
fn record(question: &PluginQuestion<'_>, outcome: &Result<PluginAnswer, PluginFailure>) {
    TAPE.with(|t| {
        if let Some(Tape::Record(answers)) = t.borrow_mut().as_mut() {
            answers.push(AnswerRecord {
                point: question.point.to_string(),
                plugin: question.plugin.to_string(),
                question: as_value(question.context),
                outcome: outcome.clone(),
            });
        }
    });
}

type Job = (String, String, String);
type Reply = Result<Value, PluginError>;

/// A thread that calls plugins, one question at a time.
struct Worker {
    jobs: mpsc::Sender<Job>,
    replies: mpsc::Receiver<Reply>,
}

impl Worker {
    fn start(plugins: Arc<Plugins>) -> Option<Worker> {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let (outbox, replies) = mpsc::channel();
        std::thread::Builder::new()
            .name("floor-plugin".into())
            .spawn(move || {
                // Ends when the desk drops its end (after a time-out, or with the desk).
                while let Ok((name, point, context)) = inbox.recv() {
                    let reply = match plugins.get(&name) {
                        Some(plugin) => plugin.call_json(&point, &context),
                        None => Err(PluginError::NotLoaded {
                            point,
                            plugin: name,
                        }),
                    };
                    if outbox.send(reply).is_err() {
                        break;
                    }
                }
            })
            .ok()?;
        Some(Worker { jobs, replies })
    }
}

/// Where a desk's calls run.
enum Calls {
    /// On worker threads (the daemon); the workers waiting for a question (a call takes
    /// one, or starts one).
    Workers(Mutex<Vec<Worker>>),
    /// On the asking thread (batch commands), watched for a hang.
    InPlace(Watchdog),
}

/// The host's desk over the plugins its config allows.
pub struct HostDesk {
    plugins: Arc<Plugins>,
    calls: Calls,
}

impl HostDesk {
    /// A desk over `plugins` that calls them on worker threads: the daemon's, where a plugin
    /// that never returns must cost a thread and not a table.
    pub fn new(plugins: Arc<Plugins>) -> HostDesk {
        HostDesk {
            plugins,
            calls: Calls::Workers(Mutex::new(Vec::new())),
        }
    }

    /// A desk over `plugins` that calls them on the asking thread: a batch command's, where
    /// the hand-off to a worker would cost more than the call. A late answer is ruled a
    /// time-out as on a worker; a call that never returns stops the command with a message.
    pub fn in_place(plugins: Arc<Plugins>) -> HostDesk {
        HostDesk {
            plugins,
            calls: Calls::InPlace(Watchdog::default()),
        }
    }

    /// Calls the plugin, ruling a time-out past the question's time limit.
    fn call(&self, question: &PluginQuestion<'_>) -> Result<PluginAnswer, PluginFailure> {
        let Some(plugin) = self.plugins.get(question.plugin) else {
            return Err(PluginFailure {
                plugin: None,
                why: "no plugin of that name is loaded (list it in the `plugins` of the config)"
                    .into(),
            });
        };
        let identity = identity(plugin.identity());
        let failure = |why: String| PluginFailure {
            plugin: Some(identity.clone()),
            why,
        };
        let limit = Duration::from_millis(question.time_limit_ms);
        let late = || {
            failure(format!(
                "it did not answer within its time limit of {} ms",
                question.time_limit_ms
            ))
        };
        let reply = match &self.calls {
            Calls::Workers(idle) => match on_worker(&self.plugins, idle, question, limit) {
                Called::Reply(reply) => reply,
                Called::Late => return Err(late()),
                Called::Lost(why) => return Err(failure(why.into())),
            },
            Calls::InPlace(watchdog) => {
                let watched = watchdog.watch(question.plugin, question.point, limit);
                let reply = plugin.call_json(question.point, question.context.get());
                if watched.elapsed() > limit {
                    return Err(late());
                }
                reply
            }
        };
        match reply {
            Ok(answer) => Ok(PluginAnswer {
                plugin: identity,
                answer,
            }),
            Err(e) => Err(failure(why(e))),
        }
    }
}

/// What came of a question handed to a worker.
enum Called {
    Reply(Reply),
    /// No answer within the limit (the worker is dropped: it ends once the plugin returns).
    Late,
    /// No worker could take it, or it stopped.
    Lost(&'static str),
}

/// Hands `question` to an idle worker (or a new one) and waits up to `limit` for its reply.
fn on_worker(
    plugins: &Arc<Plugins>,
    idle: &Mutex<Vec<Worker>>,
    question: &PluginQuestion<'_>,
    limit: Duration,
) -> Called {
    let waiting = idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
    let Some(worker) = waiting.or_else(|| Worker::start(plugins.clone())) else {
        return Called::Lost("no thread could be started to call it");
    };
    let job = (
        question.plugin.to_string(),
        question.point.to_string(),
        question.context.get().to_string(),
    );
    if worker.jobs.send(job).is_err() {
        return Called::Lost("its worker stopped");
    }
    match worker.replies.recv_timeout(limit) {
        Ok(reply) => {
            idle.lock().unwrap_or_else(|e| e.into_inner()).push(worker);
            Called::Reply(reply)
        }
        Err(mpsc::RecvTimeoutError::Timeout) => Called::Late,
        Err(mpsc::RecvTimeoutError::Disconnected) => Called::Lost("its worker stopped"),
    }
}

impl PluginDesk for HostDesk {
    fn ask(&self, question: &PluginQuestion<'_>) -> Result<PluginAnswer, PluginFailure> {
        if let Some(outcome) = replayed(question) {
            return outcome;
        }
        let outcome = self.call(question);
        record(question, &outcome);
        outcome
    }

    /// Only while a command is recorded or replayed on this thread: otherwise (a batch
    /// replay of hand histories) the rules need not take the remembered question out of
    /// their memory, which every thread playing the ruleset shares.
    fn hears_remembered(&self) -> bool {
        TAPE.with(|t| t.borrow().is_some())
    }

    /// Taken down like an asked question (live), or read off the tape (replaying), so that
    /// the journal holds every answer a command used whether the rules asked or remembered
    /// it, and a replay whose memory differs still meets its answers in order.
    fn remembered(&self, question: &PluginQuestion<'_>, answer: &PluginAnswer) {
        // Checked first: outside a recorded command (a batch replay) the answer is not cloned.
        if replayed(question).is_none() && recording_now() {
            record(question, &Ok(answer.clone()));
        }
    }
}

/// A loaded plugin's identity, as the engine stamps it on rulings.
pub fn identity(plugin: &super::PluginRef) -> PluginIdentity {
    PluginIdentity {
        name: plugin.name.clone(),
        version: plugin.version.clone(),
        sha256: plugin.sha256.clone(),
    }
}

/// Why a call failed, in the words a ruling reads after "the plugin … failed: ".
fn why(e: PluginError) -> String {
    match e {
        PluginError::Panicked { message, .. } => format!("it panicked: {message}"),
        PluginError::Refused { message, .. } => format!("it refused: {message}"),
        PluginError::BadAnswer { problem, .. } => format!("its answer is malformed: {problem}"),
        PluginError::NotImplemented {
            point, implemented, ..
        } => format!("it does not implement `{point}` (it implements: {implemented})"),
        other => other.to_string(),
    }
}
