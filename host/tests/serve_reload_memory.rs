//! The daemon's resident memory over 300 reloads of a house ruleset (each rewritten with a new
//! version and waited for in `/api/rulesets`). A measurement, not a check of behaviour (the
//! check is `serve_security`'s `finding_9_…`), so it is ignored by default; run it by hand:
//!
//! ```sh
//! cargo test --release -p floor-host --test host -- serve_reload_memory:: --ignored --nocapture
//! ```

use crate::support;

use support::{Daemon, Scratch};

fn rss_kb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.split_whitespace().next()?.parse().ok())
        })
        .expect("VmRSS of the daemon")
}

fn house(rulesets: &std::path::Path, n: u64) {
    let dir = rulesets.join("house");
    std::fs::create_dir_all(&dir).expect("dir");
    let text = format!(
        r#"(id: "house", title: "House", source: "test", kind: House, version: "1.0.{n}",
           extends: Some("pt-casino-2007"), scripts: [], bounds: {{}}, bindings: {{}})"#
    );
    std::fs::write(dir.join(".ruleset.ron.tmp"), text).expect("write");
    std::fs::rename(dir.join(".ruleset.ron.tmp"), dir.join("ruleset.ron")).expect("rename");
}

#[test]
#[ignore = "a measurement: run by hand with --ignored --nocapture"]
fn resident_memory_over_300_reloads() {
    let scratch = Scratch::new("reload-rss");
    let rulesets = scratch.rulesets();
    house(&rulesets, 0);
    let d = Daemon::start(&rulesets, &scratch.data());
    let before = rss_kb(d.pid());
    for n in 1..=300 {
        house(&rulesets, n);
        support::eventually("the reload", || {
            (d.ruleset("house")["version"] == format!("1.0.{n}")).then_some(())
        });
    }
    let after = rss_kb(d.pid());
    println!(
        "VmRSS {before} kB before, {after} kB after 300 reloads: {:+} kB ({:.1} kB a reload)",
        after as i64 - before as i64,
        (after as f64 - before as f64) / 300.0
    );
}
