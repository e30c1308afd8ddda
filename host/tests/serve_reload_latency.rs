//! Hot-reload latency: the time from writing a ruleset file to the new version being live in
//! `/api/rulesets`, over 100 edits. A measurement, not a check of behaviour, so it is ignored
//! by default; run it by hand:
//!
//! ```sh
//! cargo test --release -p floor-host --test host -- serve_reload_latency:: --ignored --nocapture
//! ```

use crate::support;

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
    let (span, (major, minor, patch)) =
        version_of(&original).expect("pt-online/ruleset.ron has a `version: \"X.Y.Z\"`");
    let mut samples: Vec<Duration> = Vec::new();
    for i in 1..=100 {
        // Whatever the ruleset's version is, each edit raises its patch number.
        let version = format!("{major}.{minor}.{}", patch + i);
        let text = format!(
            "{}{version}{}",
            &original[..span.start],
            &original[span.end..]
        );
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

/// The span of the version string in a ruleset file's `version: "X.Y.Z"` field (the text
/// between the quotes) and its three numbers, found wherever it stands and whatever it is, so
/// this test cannot go stale when the ruleset's version is bumped.
fn version_of(text: &str) -> Option<(std::ops::Range<usize>, (u64, u64, u64))> {
    let key = text.find("version:")?;
    let open = key + text[key..].find('"')? + 1;
    let close = open + text[open..].find('"')?;
    let mut numbers = text[open..close].split('.').map(|n| n.parse::<u64>().ok());
    let (major, minor, patch) = (numbers.next()??, numbers.next()??, numbers.next()??);
    if numbers.next().is_some() {
        return None;
    }
    Some((open..close, (major, minor, patch)))
}

#[test]
fn the_version_is_found_whatever_it_is() {
    let text = "RulesetFile(\n    id: \"x\",\n    version: \"1.12.3\",\n)";
    let (span, numbers) = version_of(text).expect("found");
    assert_eq!(&text[span], "1.12.3");
    assert_eq!(numbers, (1, 12, 3));
    assert_eq!(version_of("version: \"1.x\""), None);
    let bundled = include_str!("../../rulesets/pt-online/ruleset.ron");
    assert!(
        version_of(bundled).is_some(),
        "pt-online's version is found"
    );
}
