//! The cross-crate integration tests, as one test binary: the engine driven through its public
//! API on the shared corpora, the jurisdictions' rulesets, cash tables and tournaments, and
//! PokerKit's menus. One binary rather than one per file: each would link the same
//! dependencies and instantiate the same generic code again, and one binary runs the files'
//! tests side by side. Run one file's tests with
//! `cargo test --release -p floor-tests --test integration -- corpora::`.

mod cash_tables;
mod comparison;
mod contexts;
mod corpora;
mod driven;
mod jurisdictions;
mod pokerkit_menus;
mod scenario_coverage;
mod tournament_money;
mod tournament_sim;
mod tournament_tables;
