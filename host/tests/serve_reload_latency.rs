//! Hot-reload latency: the time from writing a ruleset file to the new version being live in
//! `/api/rulesets`, over 100 edits. A measurement, not a check of behaviour, so it is ignored
//! by default; run it by hand:
//!
//! ```sh
//! cargo test --release -p floor-host --test serve_reload_latency -- --ignored --nocapture
//! ```

mod support;

use std::time::{Duration, Instant};
use support::{Daemon, Scratch};

#[test]
#[ignore = "a measurement: run by hand with --ignored --nocapture"]
fn hot_reload_latency_over_100_edits() {
    let scratch = Scratch::new("latency");
    let rulesets = scratch.rulesets();
    let d = Daemon::start(&rulesets, &scratch.data());
    let path = rulesets.join("pt-online/ruleset.ron");
    let original = std::fs::read_to_string(&path).expect("read");
    let mut samples: Vec<Duration> = Vec::new();
    for i in 1..=100 {
        let version = format!("1.0.{i}");
        let text = original.replacen("version: \"1.0.0\"", &format!("version: \"{version}\""), 1);
        let start = Instant::now();
        std::fs::write(&path, text).expect("write");
        loop {
            if d.ruleset("pt-online")["version"] == version.as_str() {
                break;
            }
            assert!(
                start.elapsed() < support::PATIENCE,
                "edit {i} never went live"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        samples.push(start.elapsed());
    }
    samples.sort();
    let median = samples[samples.len() / 2];
    let worst = samples[samples.len() - 1];
    println!(
        "hot reload, write to activation over {} edits (debounce 30 ms): median {:.1} ms, worst {:.1} ms",
        samples.len(),
        median.as_secs_f64() * 1e3,
        worst.as_secs_f64() * 1e3
    );
}
