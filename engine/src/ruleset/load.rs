//! Loading a ruleset: parse its RON, follow `extends`, check every binding and bound, compile
//! and probe its scripts. Every problem found is reported (not just the first), each with a
//! file:line:col, so that `floor check` can list them all.

use super::error::{Location, Problem, ProblemKind};
use super::limits::{self, MAX_RON_DEPTH, MAX_RULESET_BYTES, MAX_SCRIPT_BYTES};
use super::schema::{Binding, Bound, Fallback, RulesetFile, RulesetKind};
use super::script::{NoCache, Sandbox, Script, ScriptCache};
use crate::rules::registry::{self, Kind, RulePoint};
use crate::rules::RulesetRef;
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};

/// A file's text and the name to report it by.
#[derive(Clone, Debug)]
pub struct RulesetSource {
    /// How to name the file in messages (`rulesets/pt-online/ruleset.ron`).
    pub file: String,
    /// Its contents.
    pub text: String,
}

/// Where rulesets come from. The host reads directories; tests use [`MemoryLoader`].
pub trait Loader {
    /// The `ruleset.ron` of ruleset `id`.
    fn ruleset(&self, id: &str) -> Result<RulesetSource, Problem>;
    /// A script named in ruleset `id`'s `scripts` list.
    fn script(&self, id: &str, name: &str) -> Result<RulesetSource, Problem>;
}

/// Rulesets held in memory: `(id, ruleset.ron text, [(script name, text)])`.
#[derive(Clone, Debug, Default)]
pub struct MemoryLoader {
    files: BTreeMap<String, (String, Vec<(String, String)>)>,
}

impl MemoryLoader {
    /// An empty loader.
    pub fn new() -> MemoryLoader {
        MemoryLoader::default()
    }

    /// Adds (or replaces) a ruleset.
    pub fn with(mut self, id: &str, ron: &str, scripts: &[(&str, &str)]) -> MemoryLoader {
        let scripts = scripts
            .iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect();
        self.files
            .insert(id.to_string(), (ron.to_string(), scripts));
        self
    }
}

impl Loader for MemoryLoader {
    fn ruleset(&self, id: &str) -> Result<RulesetSource, Problem> {
        let file = format!("{id}/ruleset.ron");
        match self.files.get(id) {
            Some((text, _)) => Ok(RulesetSource {
                file,
                text: text.clone(),
            }),
            None => Err(missing(&file, &format!("there is no ruleset `{id}`"))),
        }
    }

    fn script(&self, id: &str, name: &str) -> Result<RulesetSource, Problem> {
        let file = format!("{id}/{name}");
        self.files
            .get(id)
            .and_then(|(_, scripts)| scripts.iter().find(|(n, _)| n == name))
            .map(|(_, text)| RulesetSource {
                file: file.clone(),
                text: text.clone(),
            })
            .ok_or_else(|| missing(&file, "no such script"))
    }
}

fn missing(file: &str, message: &str) -> Problem {
    Problem::new(
        ProblemKind::Missing,
        Location {
            file: file.to_string(),
            line: 0,
            col: 0,
        },
        message,
    )
}

/// One ruleset file of a chain, parsed and compiled.
#[derive(Clone, Debug)]
pub struct Layer {
    /// The parsed file.
    pub file: RulesetFile,
    /// Its name for messages.
    pub path: String,
    /// Its text (kept to point at lines).
    pub text: String,
    /// Its compiled scripts.
    pub scripts: Vec<Script>,
}

impl Layer {
    /// Where `needle` first appears in this layer's RON.
    pub fn locate(&self, needle: &str) -> Location {
        Location::of(&self.path, &self.text, needle)
    }

    /// The script defining decision `name`, if any.
    pub fn script_for(&self, name: &str) -> Option<&Script> {
        self.scripts.iter().find(|s| s.has_decision(name))
    }
}

/// A loaded ruleset: its own layer first, then its parent's, and so on.
#[derive(Clone, Debug)]
pub struct Ruleset {
    layers: Vec<Layer>,
    reference: RulesetRef,
    hash: String,
}

/// How a ruleset rules on one point, after following `extends`.
#[derive(Clone, Copy, Debug)]
pub struct Resolved<'a> {
    /// The registry entry.
    pub point: &'static RulePoint,
    /// The binding that applies.
    pub binding: &'a Binding,
    /// The layer (this ruleset or an ancestor) it comes from.
    pub layer: &'a Layer,
    /// Whether it comes from an ancestor.
    pub inherited: bool,
}

impl Ruleset {
    /// Loads ruleset `id` and its ancestors through `loader`, checking everything. On failure
    /// returns every problem found.
    pub fn load(id: &str, loader: &dyn Loader, sandbox: &Sandbox) -> Result<Ruleset, Vec<Problem>> {
        Ruleset::load_cached(id, loader, sandbox, &NoCache)
    }

    /// [`Ruleset::load`], taking each script whose text `cache` holds from it instead of
    /// compiling it again (and keeping in it each script it compiles), and not probing again
    /// a decision `cache` says passed the same probe before (same script text, function,
    /// point and parameters). Everything else — parsing, bindings, bounds — is checked as by
    /// `load`.
    pub fn load_cached(
        id: &str,
        loader: &dyn Loader,
        sandbox: &Sandbox,
        cache: &dyn ScriptCache,
    ) -> Result<Ruleset, Vec<Problem>> {
        let ruleset = Ruleset::load_unprobed_cached(id, loader, sandbox, cache)?;
        let problems = super::probe::probe_all(&ruleset, cache);
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(ruleset)
    }

    /// [`Ruleset::load`] without probing the decisions: everything else is checked. For a
    /// version that was checked when it was first activated and must be rebuilt as it was
    /// (a journal's), and for showing how the engine rules when a decision fails at play. A
    /// decision that fails is then a failure ruling at the table, never a silent default.
    pub fn load_unprobed(
        id: &str,
        loader: &dyn Loader,
        sandbox: &Sandbox,
    ) -> Result<Ruleset, Vec<Problem>> {
        Ruleset::load_unprobed_cached(id, loader, sandbox, &NoCache)
    }

    fn load_unprobed_cached(
        id: &str,
        loader: &dyn Loader,
        sandbox: &Sandbox,
        cache: &dyn ScriptCache,
    ) -> Result<Ruleset, Vec<Problem>> {
        let mut problems = Vec::new();
        let mut layers: Vec<Layer> = Vec::new();
        let mut next = Some(id.to_string());
        while let Some(current) = next.take() {
            if let Some(first) = layers.iter().position(|l| l.file.id == current) {
                let cycle: Vec<&str> = layers[first..]
                    .iter()
                    .map(|l| l.file.id.as_str())
                    .chain(std::iter::once(current.as_str()))
                    .collect();
                let last = &layers[layers.len() - 1];
                problems.push(Problem::new(
                    ProblemKind::ExtendsCycle,
                    last.locate("extends"),
                    format!("`extends` loops: {}", cycle.join(" → ")),
                ));
                break;
            }
            match load_layer(&current, loader, sandbox, cache) {
                Ok((layer, mut found)) => {
                    problems.append(&mut found);
                    next = layer.file.extends.clone();
                    layers.push(layer);
                }
                Err(mut found) => {
                    problems.append(&mut found);
                    break;
                }
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        check_bounds(&layers, &mut problems);
        if !problems.is_empty() {
            return Err(problems);
        }
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        for layer in &layers {
            layer.text.hash(&mut hasher);
        }
        let first = &layers[0].file;
        Ok(Ruleset {
            reference: RulesetRef::new(&first.id, &first.version),
            hash: format!("{:016x}", hasher.finish()),
            layers,
        })
    }

    /// The ruleset's id.
    pub fn id(&self) -> &str {
        &self.layers[0].file.id
    }

    /// The ruleset's version.
    pub fn version(&self) -> &str {
        &self.layers[0].file.version
    }

    /// Its title.
    pub fn title(&self) -> &str {
        &self.layers[0].file.title
    }

    /// Cash, online, tournament or house.
    pub fn kind(&self) -> RulesetKind {
        self.layers[0].file.kind
    }

    /// Id and version, as stamped on rulings.
    pub fn reference(&self) -> &RulesetRef {
        &self.reference
    }

    /// A hash of the whole chain's RON (changes whenever any layer changes).
    pub fn hash(&self) -> &str {
        &self.hash
    }

    /// This ruleset's layer, then its ancestors'.
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// The kind of game this ruleset is played at: its own kind, or for a house ruleset the
    /// kind of the first ancestor that is not a house one, since a house plays what its
    /// jurisdiction plays (`None` when every layer is house rules).
    pub fn game_kind(&self) -> Option<RulesetKind> {
        self.layers
            .iter()
            .map(|l| l.file.kind)
            .find(|k| *k != RulesetKind::House)
    }

    /// How this ruleset rules on `point`, if it or an ancestor binds it.
    pub fn resolve(&self, point: &str) -> Option<Resolved<'_>> {
        self.resolve_from(point, 0)
    }

    /// How the layers from `first` on (`0`: this ruleset; `1`: its parent...) rule on
    /// `point`: where a binding's decision fails and it falls back to its parent.
    pub fn resolve_from(&self, point: &str, first: usize) -> Option<Resolved<'_>> {
        let entry = registry::get(point)?;
        self.layers
            .iter()
            .enumerate()
            .skip(first)
            .find_map(|(i, layer)| {
                layer.file.bindings.get(point).map(|binding| Resolved {
                    point: entry,
                    binding,
                    layer,
                    inherited: i > 0,
                })
            })
    }

    /// How many decisions of the chain a load probes, and on how many generated contexts.
    pub fn probe_extent(&self) -> (usize, usize) {
        super::probe::extent(self)
    }

    /// The index of `layer` among this ruleset's layers (0 for its own).
    pub fn layer_index(&self, layer: &Layer) -> usize {
        self.layers
            .iter()
            .position(|l| std::ptr::eq(l, layer))
            .unwrap_or(0)
    }

    /// Every PARAMETER value this ruleset (or an ancestor) binds, by point id: what a table
    /// event's decision reads as `ctx.params`.
    pub fn parameters(&self) -> ron::Value {
        let mut params = ron::Map::new();
        for point in registry::all() {
            if let Some(value) = self.resolve(point.id).and_then(|r| r.binding.value.clone()) {
                params.insert(ron::Value::String(point.id.to_string()), value);
            }
        }
        ron::Value::Map(params)
    }
}

/// One script, from `cache` when it holds its text, else compiled (and kept).
fn compile(
    sandbox: &Sandbox,
    cache: &dyn ScriptCache,
    source: &RulesetSource,
) -> Result<Script, Problem> {
    if let Some(problem) = limits::file_too_large(&source.file, source.text.len(), MAX_SCRIPT_BYTES)
    {
        return Err(problem);
    }
    if let Some(script) = cache.get(&source.text) {
        return Ok(script.named(&source.file));
    }
    let script = sandbox.compile(&source.file, &source.text)?;
    cache.keep(&script);
    Ok(script)
}

/// Parses, compiles and checks one file (not its relation to parents).
fn load_layer(
    id: &str,
    loader: &dyn Loader,
    sandbox: &Sandbox,
    cache: &dyn ScriptCache,
) -> Result<(Layer, Vec<Problem>), Vec<Problem>> {
    let source = loader.ruleset(id).map_err(|p| vec![p])?;
    if let Some(problem) =
        limits::file_too_large(&source.file, source.text.len(), MAX_RULESET_BYTES)
    {
        return Err(vec![problem]);
    }
    // `implicit_some` lets authors write `ruling: "..."` rather than `ruling: Some("...")`.
    let options = ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .with_recursion_limit(MAX_RON_DEPTH);
    let file: RulesetFile = options.from_str(&source.text).map_err(|e| {
        vec![Problem::new(
            ProblemKind::Ron,
            Location {
                file: source.file.clone(),
                line: e.span.start.line,
                col: e.span.start.col,
            },
            limits::too_deep(e.code.to_string()),
        )]
    })?;
    let mut problems = Vec::new();
    let mut layer = Layer {
        path: source.file.clone(),
        text: source.text,
        scripts: Vec::new(),
        file,
    };
    if layer.file.id != id {
        problems.push(Problem::new(
            ProblemKind::Ron,
            layer.locate("id"),
            format!(
                "the file says id `{}` but is loaded as `{id}`",
                layer.file.id
            ),
        ));
    }
    let before = problems.len();
    limits::check(&layer, &mut problems);
    if problems.len() > before {
        // Nothing more is read from a file past its bounds.
        return Ok((layer, problems));
    }
    let mut scripts_ok = true;
    for name in layer.file.scripts.clone() {
        match loader.script(id, &name) {
            Ok(script) => match compile(sandbox, cache, &script) {
                Ok(compiled) => layer.scripts.push(compiled),
                Err(problem) => {
                    scripts_ok = false;
                    problems.push(problem);
                }
            },
            Err(problem) => {
                scripts_ok = false;
                problems.push(problem);
            }
        }
    }
    for point in layer.file.bounds.keys() {
        if registry::get(point).is_none() {
            problems.push(unknown_point(&layer, point));
        }
    }
    for (point, binding) in &layer.file.bindings {
        let Some(entry) = registry::get(point) else {
            problems.push(unknown_point(&layer, point));
            continue;
        };
        check_binding(&layer, entry, binding, scripts_ok, &mut problems);
    }
    Ok((layer, problems))
}

fn unknown_point(layer: &Layer, point: &str) -> Problem {
    let nearest = registry::all()
        .iter()
        .map(|p| (edit_distance(p.id, point), p.id))
        .min();
    let hint = match nearest {
        Some((d, id)) if d <= point.len() / 3 => format!("did you mean `{id}`?"),
        _ => "`floor explain --list` shows every id".to_string(),
    };
    Problem::new(
        ProblemKind::UnknownRulePoint,
        layer.locate(&format!("\"{point}\"")),
        format!("`{point}` is not a registered rule point; {hint}"),
    )
}

fn check_binding(
    layer: &Layer,
    entry: &RulePoint,
    binding: &Binding,
    scripts_ok: bool,
    problems: &mut Vec<Problem>,
) {
    let at = || layer.locate(&format!("\"{}\"", entry.id));
    match (entry.kind, &binding.decision, &binding.value) {
        (Kind::Parameter, Some(_), _) => problems.push(Problem::new(
            ProblemKind::InvalidBinding,
            at(),
            format!(
                "`{}` is a PARAMETER: give it a `value`, not a `decision`",
                entry.id
            ),
        )),
        (Kind::Decision, _, Some(_)) => problems.push(Problem::new(
            ProblemKind::InvalidBinding,
            at(),
            format!(
                "`{}` is a DECISION: give it a `decision` function, not a `value`",
                entry.id
            ),
        )),
        _ => {}
    }
    if let Some(plugin) = &binding.plugin {
        let problem = if entry.kind == Kind::Parameter {
            Some(format!(
                "`{}` is a PARAMETER: give it a `value`, not a `plugin`",
                entry.id
            ))
        } else if plugin.trim().is_empty() {
            Some(format!("`{}`: the `plugin` name is empty", entry.id))
        } else {
            None
        };
        if let Some(message) = problem {
            problems.push(Problem::new(ProblemKind::InvalidBinding, at(), message));
        }
    }
    if let Some(ms) = binding.time_limit_ms {
        let problem = if binding.plugin.is_none() {
            Some(format!(
                "`{}`: `time_limit_ms` bounds a `plugin`'s answer, and there is none",
                entry.id
            ))
        } else if ms == 0 || ms > crate::rules::plugin::MAX_TIME_LIMIT_MS {
            Some(format!(
                "`{}`: `time_limit_ms` is {ms}; give 1 to {} milliseconds",
                entry.id,
                crate::rules::plugin::MAX_TIME_LIMIT_MS
            ))
        } else {
            None
        };
        if let Some(message) = problem {
            problems.push(Problem::new(ProblemKind::InvalidBinding, at(), message));
        }
    }
    if let Some(names) = &binding.structures {
        let problem = if entry.kind != Kind::Decision {
            Some(format!(
                "`{}` is a PARAMETER: `structures` narrows a DECISION's rule to some betting structures",
                entry.id
            ))
        } else if names.is_empty() {
            Some(format!(
                "`{}`: `structures` is empty; leave it out for a rule that covers every structure",
                entry.id
            ))
        } else {
            names
                .iter()
                .find(|n| !super::schema::STRUCTURE_NAMES.contains(&n.as_str()))
                .map(|n| {
                    format!(
                        "`{}`: `{n}` in `structures` is not a betting structure; use {}",
                        entry.id,
                        super::schema::STRUCTURE_NAMES.join(", ")
                    )
                })
        };
        if let Some(message) = problem {
            problems.push(Problem::new(ProblemKind::InvalidBinding, at(), message));
        }
    }
    // With a script that did not compile, its functions cannot be looked for.
    if let Some(name) = binding.decision.as_ref().filter(|_| scripts_ok) {
        // A function found is probed once the whole chain is loaded (`probe`).
        if layer.script_for(name).is_none() {
            problems.push(Problem::new(
                ProblemKind::MissingFunction,
                layer.locate(&format!("\"{name}\"")),
                format!(
                    "`{}` is decided by `{name}`, but no script of this ruleset defines `fn {name}(ctx)`",
                    entry.id
                ),
            ));
        }
    }
    if binding.fallback == Fallback::Parent
        && binding.decision.is_none()
        && binding.plugin.is_none()
    {
        problems.push(Problem::new(
            ProblemKind::InvalidBinding,
            at(),
            format!(
                "`{}`: `fallback` says what replaces a failed `decision` or `plugin`, and there is none",
                entry.id
            ),
        ));
    }
    if entry.engine_hook().is_some()
        && binding.decision.is_none()
        && binding.value.is_none()
        && !binding.engine_default
        && binding.plugin.is_none()
    {
        problems.push(Problem::new(
            ProblemKind::InvalidBinding,
            at(),
            format!(
                "`{}` is played by the engine: bind it with a `decision`, a `value` or `engine_default: true` (the text's ruling alone cannot be executed)",
                entry.id
            ),
        ));
    }
}

/// Checks every descendant's bindings against every ancestor's bounds.
fn check_bounds(layers: &[Layer], problems: &mut Vec<Problem>) {
    for (a, ancestor) in layers.iter().enumerate().skip(1) {
        for (point, bound) in ancestor
            .file
            .bounds
            .iter()
            .flat_map(|(point, bounds)| bounds.iter().map(move |b| (point, b)))
        {
            for child in &layers[..a] {
                let Some(binding) = child.file.bindings.get(point) else {
                    continue;
                };
                if let Some(message) = violates(bound, binding) {
                    problems.push(Problem::new(
                        ProblemKind::BoundExceeded,
                        child.locate(&format!("\"{point}\"")),
                        format!(
                            "`{point}`: {message} (bound set by {}, {})",
                            ancestor.file.id, bound.citation
                        ),
                    ));
                }
            }
        }
    }
}

fn violates(bound: &Bound, binding: &Binding) -> Option<String> {
    if bound.locked {
        return Some("the parent fixes this point; a child may not rebind it".into());
    }
    let value = binding.value.as_ref()?;
    let value = match &bound.field {
        Some(field) => match value {
            ron::Value::Map(map) => map
                .iter()
                .find(|(k, _)| matches!(k, ron::Value::String(s) if s == field))
                .map(|(_, v)| v.clone())?,
            _ => return Some(format!("the value has no field `{field}`")),
        },
        None => value.clone(),
    };
    let number = match value {
        ron::Value::Number(n) => n.into_f64(),
        other => return Some(format!("the bounded value {other:?} is not a number")),
    };
    let what = bound
        .field
        .as_ref()
        .map_or("the value".to_string(), |f| format!("`{f}`"));
    if let Some(max) = bound.max {
        if number > max as f64 {
            return Some(format!("{what} {number} is above the maximum {max}"));
        }
    }
    if let Some(min) = bound.min {
        if number < min as f64 {
            return Some(format!("{what} {number} is below the minimum {min}"));
        }
    }
    None
}

/// Levenshtein distance, for "did you mean" hints.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}
