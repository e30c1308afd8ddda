//! The Rhai sandbox: rulesets' decision functions run with hard limits on operations, call
//! depth, expression depth and string/array/map sizes; with no `eval`, no `import`, no
//! printing, no clock and no file or network access (none is registered). A script that fails
//! or runs out of operations returns a [`ScriptError`]; it can never touch table state, which
//! only the engine mutates, and only after a decision has come back.

use super::error::{Location, Problem, ProblemKind};
use rhai::{CallFnOptions, Dynamic, Engine, EvalAltResult, Scope, AST};
use std::sync::Arc;

/// Operations a single decision may take: ample for any rule, fatal for a runaway loop.
pub const MAX_OPERATIONS: u64 = 50_000;

/// A configured Rhai engine, shared by every ruleset's scripts.
#[derive(Clone)]
pub struct Sandbox {
    engine: Arc<Engine>,
}

impl std::fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sandbox")
    }
}

impl Default for Sandbox {
    fn default() -> Self {
        Sandbox::new()
    }
}

impl Sandbox {
    /// The engine with floor's limits.
    pub fn new() -> Sandbox {
        let mut engine = Engine::new();
        engine
            .set_max_operations(MAX_OPERATIONS)
            .set_max_call_levels(32)
            .set_max_expr_depths(64, 32)
            .set_max_string_size(4_096)
            .set_max_array_size(1_024)
            .set_max_map_size(256)
            .set_max_modules(0)
            .set_module_resolver(rhai::module_resolvers::DummyModuleResolver::new())
            .on_print(|_| {})
            .on_debug(|_, _, _| {});
        engine.disable_symbol("eval");
        engine.disable_symbol("import");
        Sandbox {
            engine: Arc::new(engine),
        }
    }

    /// Compiles one script; a syntax error names file:line:col.
    pub fn compile(&self, file: &str, text: &str) -> Result<Script, Problem> {
        match self.engine.compile(text) {
            Ok(ast) => Ok(Script {
                engine: self.engine.clone(),
                ast,
                file: file.to_string(),
                text: text.to_string(),
                names_params: names_word(text, "params"),
            }),
            Err(error) => {
                let pos = error.position();
                Err(Problem::new(
                    ProblemKind::ScriptSyntax,
                    Location {
                        file: file.to_string(),
                        line: pos.line().unwrap_or(0),
                        col: pos.position().unwrap_or(0),
                    },
                    format!("Rhai syntax error: {}", error.err_type()),
                ))
            }
        }
    }
}

/// Scripts compiled by earlier loads, which [`Ruleset::load_cached`](super::Ruleset::load_cached)
/// asks before compiling. The engine keeps no cache of its own (no global state): a caller
/// that loads the same files again and again — the daemon's hot reload of a house ruleset,
/// whose parent's scripts do not change — passes one in. It must hold only scripts compiled
/// by the sandbox it is used with.
pub trait ScriptCache {
    /// The script compiled earlier from exactly `text`, if kept.
    fn get(&self, text: &str) -> Option<Script>;
    /// Keeps `script`, just compiled, for later loads.
    fn keep(&self, script: &Script);
    /// Whether the probe `key` passed in an earlier load: the same function of the same
    /// script text, for the same point, with the same parameters, passes again (a decision
    /// is a function of its context and the sandbox holds nothing else). The default keeps
    /// nothing: every probe runs.
    fn passed(&self, _key: &ProbeKey) -> bool {
        false
    }
    /// Remembers that the probe `key` passed.
    fn keep_passed(&self, _key: ProbeKey) {}
}

/// What identifies one probe of a decision: the script's text, the function, the point and
/// the ruleset's parameters (hashed), so that a reload probes again only what changed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ProbeKey {
    script: u64,
    function: String,
    point: &'static str,
    params: u64,
}

impl ProbeKey {
    /// The key of probing `function` of `script` for `point` with `params`.
    pub(super) fn new(
        script: &Script,
        function: &str,
        point: &'static str,
        params: u64,
    ) -> ProbeKey {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        script.text().hash(&mut hasher);
        ProbeKey {
            script: hasher.finish(),
            function: function.to_string(),
            point,
            params,
        }
    }
}

/// No cache: every load compiles every script ([`Ruleset::load`](super::Ruleset::load)).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoCache;

impl ScriptCache for NoCache {
    fn get(&self, _text: &str) -> Option<Script> {
        None
    }

    fn keep(&self, _script: &Script) {}
}

/// One compiled script of a ruleset.
#[derive(Clone)]
pub struct Script {
    engine: Arc<Engine>,
    ast: AST,
    file: String,
    text: String,
    /// Whether the text names `params` (see [`Script::names_params`]).
    names_params: bool,
}

impl std::fmt::Debug for Script {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Script({})", self.file)
    }
}

/// A decision function that failed when called.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{location}: {message}")]
pub struct ScriptError {
    /// Where in the script.
    pub location: Location,
    /// What happened.
    pub message: String,
    /// The function ran out of its operation budget (an endless loop, most likely).
    pub out_of_operations: bool,
}

impl Script {
    /// The file this script came from.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The text it was compiled from (a [`ScriptCache`]'s key).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether the script names `params` anywhere, as a word of its own: only then are a
    /// table event's decisions in it given the ruleset's parameters as `ctx.params`. Rhai
    /// passes a map by value, so each helper a decision passes `ctx` to gets a copy of it,
    /// and the parameters are most of a table event's context: copying them into every call
    /// of a script that cannot read them made loading a ruleset (every decision probed on
    /// every generated context) several times slower.
    pub fn names_params(&self) -> bool {
        self.names_params
    }

    /// The same compiled script, named as `file` (a cached script found for another path:
    /// messages must name the file this load read).
    pub fn named(&self, file: &str) -> Script {
        Script {
            file: file.to_string(),
            ..self.clone()
        }
    }

    /// The functions the script defines, with their parameter counts.
    pub fn functions(&self) -> impl Iterator<Item = (&str, usize)> {
        self.ast.iter_functions().map(|f| (f.name, f.params.len()))
    }

    /// Where `fn name` is defined in the script (for messages about it).
    pub fn locate_fn(&self, name: &str) -> Location {
        let mut at = Location::of(&self.file, &self.text, &format!("fn {name}("));
        if at.line == 0 {
            at = Location::of(&self.file, &self.text, &format!("fn {name}"));
        }
        at
    }

    /// Whether the script defines `name` taking one argument (`ctx`).
    pub fn has_decision(&self, name: &str) -> bool {
        self.functions().any(|(n, arity)| n == name && arity == 1)
    }

    /// Calls decision `name` with its context.
    pub fn call(&self, name: &str, ctx: Dynamic) -> Result<Dynamic, ScriptError> {
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
        self.engine
            .call_fn_with_options::<Dynamic>(options, &mut Scope::new(), &self.ast, name, (ctx,))
            .map_err(|error| self.error(&error))
    }

    fn error(&self, error: &EvalAltResult) -> ScriptError {
        let pos = error.position();
        let out_of_operations = matches!(error, EvalAltResult::ErrorTooManyOperations(_));
        let message = if out_of_operations {
            format!("the decision ran out of its {MAX_OPERATIONS} operations (an endless loop?)")
        } else {
            // Rhai appends the position, which the location already gives.
            let text = error.to_string();
            match text.rfind(" (line ") {
                Some(at) if text.ends_with(')') => text[..at].to_string(),
                _ => text,
            }
        };
        ScriptError {
            location: Location {
                file: self.file.clone(),
                line: pos.line().unwrap_or(0),
                col: pos.position().unwrap_or(0),
            },
            message,
            out_of_operations,
        }
    }
}

/// Whether `word` occurs in `text` with no identifier character (letter, digit, `_`) just
/// before or after it.
fn names_word(text: &str, word: &str) -> bool {
    let is_ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    text.match_indices(word).any(|(at, _)| {
        !is_ident(text[..at].chars().next_back())
            && !is_ident(text[at + word.len()..].chars().next())
    })
}

#[cfg(test)]
mod names_tests {
    use super::names_word;

    #[test]
    fn a_word_is_named_only_on_its_own() {
        assert!(names_word("ctx.params[\"x\"]", "params"));
        assert!(names_word("params", "params"));
        assert!(names_word("let p = ctx[\"params\"];", "params"));
        assert!(!names_word("ctx.paramsx + my_params", "params"));
        assert!(!names_word("fn f(ctx) { ctx.pot }", "params"));
    }
}
