//! Embeds the bundled rulesets (`../rulesets/*/ruleset.ron`, `*.rhai`, `tests/*.ron`) into the
//! binary, so that `floor` works with nothing else installed. The files stay the source of
//! truth; `--rulesets DIR` reads them from disk instead (and the daemon watches them).

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    collect(&root, &root, &mut files);
    files.sort();
    let mut out = String::from("/// The bundled rulesets: (path relative to `rulesets/`, contents).\npub const EMBEDDED: &[(&str, &str)] = &[\n");
    for (rel, abs) in &files {
        println!("cargo:rerun-if-changed={abs}");
        let _ = writeln!(out, "    ({rel:?}, include_str!({abs:?})),");
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into()))
        .join("embedded_rulesets.rs");
    if let Err(e) = std::fs::write(&dest, out) {
        panic!("cannot write {}: {e}", dest.display());
    }
}

fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            println!("cargo:rerun-if-changed={}", path.display());
            collect(root, &path, files);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("ron" | "rhai" | "md")
        ) {
            let rel = path
                .strip_prefix(root)
                .map(|p| p.to_string_lossy().replace('\\', "/"));
            if let (Ok(rel), Ok(abs)) = (rel, path.canonicalize()) {
                files.push((rel, abs.to_string_lossy().into_owned()));
            }
        }
    }
}
