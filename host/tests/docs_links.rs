//! The documentation's links resolve: every relative link of README.md, docs/*.md and the
//! rulesets' and plugins' READMEs (the screenshots of the comparison, the clock screen and a
//! seat map among them) names a file that is in the repository.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The targets of the Markdown links `[text](target)` of `text` that point into the
/// repository (not `http…`, `mailto:` or an anchor of the same page), anchors cut off.
fn relative_links(text: &str) -> Vec<String> {
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .map(|target| target.split('#').next().unwrap_or("").trim().to_string())
        .filter(|t| !t.is_empty() && !t.contains("://") && !t.starts_with("mailto:"))
        .collect()
}

#[test]
fn every_relative_link_of_the_documentation_names_a_file_that_exists() {
    let root = root();
    let mut pages = vec![
        root.join("README.md"),
        root.join("rulesets/README.md"),
        root.join("plugins/README.md"),
    ];
    let docs = std::fs::read_dir(root.join("docs")).expect("docs/ is in the repository");
    pages.extend(
        docs.flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "md")),
    );
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in &pages {
        let text =
            std::fs::read_to_string(page).unwrap_or_else(|e| panic!("{}: {e}", page.display()));
        let dir = page.parent().expect("a page's directory");
        for link in relative_links(&text) {
            checked += 1;
            if !dir.join(&link).exists() {
                broken.push(format!("{}: {link}", page.display()));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links to nothing:\n{}",
        broken.join("\n")
    );
    assert!(checked > 0, "no link was checked");
}

#[test]
fn the_readme_links_the_screenshots_of_the_comparison_the_clock_and_a_seat_map() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let links = relative_links(&readme);
    for shot in ["docs/compare.png", "docs/clock.png", "docs/seats.png"] {
        assert!(
            links.iter().any(|l| l == shot),
            "README.md does not link {shot}"
        );
        let bytes = std::fs::read(root().join(shot)).expect(shot);
        assert!(
            bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
            "{shot} is not a PNG image"
        );
    }
}
