//! The host's integration tests, as one test binary: the `floor` commands and the daemon
//! driven from outside, as a user drives them. One binary rather than one per file: each
//! would link the same dependencies and instantiate the same generic code again, which made
//! the test build several minutes longer. Run one file's tests with
//! `cargo test --release -p floor-host --test host -- serve_cash::`.

mod support;

mod api_doc;
mod audit_reports;
mod cli_errors;
mod cli_grammar;
mod cli_house;
mod cli_payouts;
mod cli_plugins;
mod cli_replay;
mod cli_rulesets;
mod cli_test_runner;
mod docs_links;
mod load;
mod plugin_kit;
mod serve;
mod serve_cash;
mod serve_fleet;
mod serve_journal;
mod serve_plugins;
mod serve_reload_latency;
mod serve_reload_memory;
mod serve_rulings;
mod serve_security;
mod serve_streams;
mod serve_tournaments;
mod web_console;
mod web_page;
