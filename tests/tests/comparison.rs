//! The comparison regulators read: every point the catalogue marks DIFFERS shows as differing
//! across the six rulesets, cells cite their article or say they are unregulated, and the
//! Solverde house rules inherit from pt-tournament (its §8.8).

use floor_engine::rules::registry;
use floor_engine::ruleset::compare;
use floor_tests::{Repo, RULESETS};

#[test]
fn every_catalogue_differs_point_differs_and_every_cell_is_cited() {
    let repo = Repo::bundled();
    let rulesets: Vec<_> = RULESETS.iter().map(|id| repo.load(id)).collect();
    let matrix = compare(&rulesets);
    assert_eq!(matrix.rule_points.len(), 195);
    for point in registry::all().iter().filter(|p| p.differs) {
        let row = matrix
            .rule_points
            .iter()
            .find(|r| r.id == point.id)
            .expect("every point has a row");
        assert!(row.differs, "{} is DIFFERS in the catalogue", point.id);
    }
    for row in &matrix.rule_points {
        for (id, cell) in &row.cells {
            if cell.regulated {
                assert!(
                    !cell.citation.is_empty(),
                    "{} / {id} has no citation",
                    row.id
                );
            } else {
                assert_eq!(cell.ruling, "not regulated by this text");
            }
        }
    }
}

#[test]
fn solverde_inherits_what_it_is_silent_on_from_pt_tournament() {
    let solverde = Repo::bundled().load("pt-solverde-chaves-2023");
    let min_raise = solverde.resolve("betting.min_raise").expect("inherited");
    assert!(min_raise.inherited);
    assert_eq!(min_raise.layer.file.id, "pt-tournament");
    assert_eq!(min_raise.binding.citation, "Art. 48º(1)");
}

/// Whether `citation` names one of Art. 23 to Art. 29 (not Art. 230, nor Art. 2).
fn cites_23_to_29(citation: &str) -> bool {
    citation.match_indices("Art. 2").any(|(i, m)| {
        let rest = &citation[i + m.len()..];
        let mut digits = rest.chars();
        matches!(digits.next(), Some('3'..='9'))
            && !digits.next().is_some_and(|c| c.is_ascii_digit())
    })
}

#[test]
fn angola_does_not_borrow_the_missing_articles_23_to_29() {
    // The Angolan text jumps from Art. 22 to Art. 30: no binding and no script of
    // ao-tournament-2025 may cite what is not there (calling the clock, pt-tournament Art.
    // 29º, is not regulated there).
    assert!(cites_23_to_29("Art. 29º") && cites_23_to_29("Art. 8(1), Art. 23"));
    assert!(!cites_23_to_29("Art. 230") && !cites_23_to_29("Art. 22") && !cites_23_to_29("Art. 2"));
    let ao = Repo::bundled().load("ao-tournament-2025");
    let layer = &ao.layers()[0];
    assert_eq!(layer.file.id, "ao-tournament-2025");
    assert!(
        layer.file.bindings.len() >= 100,
        "{} bindings",
        layer.file.bindings.len()
    );
    for (point, binding) in &layer.file.bindings {
        assert!(
            !cites_23_to_29(&binding.citation),
            "{point} cites a missing article: {}",
            binding.citation
        );
    }
    // A script may cite a more precise article in its answer.
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets/ao-tournament-2025");
    let mut scripts = 0;
    for entry in std::fs::read_dir(&dir)
        .expect("the ruleset's directory")
        .flatten()
    {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "rhai") {
            let text = std::fs::read_to_string(&path).expect("script");
            for line in text.lines().filter(|l| l.contains("citation")) {
                assert!(!cites_23_to_29(line), "{}: {line}", path.display());
            }
            scripts += 1;
        }
    }
    assert!(scripts > 0, "no scripts read in {}", dir.display());
    let pt = Repo::bundled().load("pt-tournament");
    assert_eq!(
        pt.resolve("time.call_clock")
            .map(|r| r.binding.citation.as_str()),
        Some("Art. 29º")
    );
    assert!(
        ao.resolve("time.call_clock")
            .is_none_or(|r| !cites_23_to_29(&r.binding.citation)),
        "calling the clock"
    );
}
