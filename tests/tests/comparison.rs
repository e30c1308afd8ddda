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

#[test]
fn angola_does_not_borrow_the_missing_articles_23_to_29() {
    // The Angolan text jumps from Art. 22 to Art. 30; what those articles would cover is not
    // regulated there (calling the clock is pt-tournament Art. 29º).
    let ao = Repo::bundled().load("ao-tournament-2025");
    let pt = Repo::bundled().load("pt-tournament");
    assert!(pt.resolve("time.call_clock").is_some());
    if let Some(r) = ao.resolve("time.call_clock") {
        let c = &r.binding.citation;
        assert!(
            !(c.contains("Art. 23")
                || c.contains("Art. 24")
                || c.contains("Art. 25")
                || c.contains("Art. 26")
                || c.contains("Art. 27")
                || c.contains("Art. 28")
                || c.contains("Art. 29")),
            "ao cites a missing article: {c}"
        );
    }
}
