//! The operator's reading of a real daemon's journal: `floor serve` played over HTTP (a cash
//! table with a fold-out, a showdown, an all-in with side pots and the commission pt-online
//! rules 18 and 19 take, a hand voided by a kill -9 under rule 72, and a small tournament),
//! then `floor audit --phh` exports its hands, `floor replay` replays them with no illegal
//! action and no mismatch, PokerKit loads and plays them, and `floor audit --report` counts
//! them per table.

use crate::support;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::{floor, Daemon, Scratch};

/// Deals a hand at `t` from the deck of `seed`.
fn deal(d: &Daemon, t: &str, seed: u64) {
    let (status, body) = d.request(
        "POST",
        &format!("/api/tables/{t}/hands"),
        Some(&d.operator),
        Some(&format!(r#"{{"seed": {seed}}}"#)),
    );
    assert_eq!(status, 200, "{body}");
}

/// Plays the hand at `t` to its end, the player to act choosing with `choose(hand)`.
fn play(d: &Daemon, t: &str, choose: impl Fn(&Value) -> &'static str) {
    for _ in 0..60 {
        let hand = d.view(t)["hand"].clone();
        if hand["phase"] == "Complete" {
            return;
        }
        let seat = hand["to_act"].as_u64().expect("someone to act");
        d.post(
            &format!("/api/tables/{t}/actions"),
            &format!(r#"{{"seat": {seat}, "action": "{}"}}"#, choose(&hand)),
        );
    }
    panic!("the hand at {t} did not finish");
}

/// A daemon's journal: three cash hands at a pt-online table (a fold-out, an all-in with a
/// side pot, a showdown), a fourth cut short by a kill -9 and voided at restart, and a
/// three-player tournament played for a few rounds. Returns the data directory.
fn played_journal(scratch: &Scratch) -> PathBuf {
    let rulesets = scratch.rulesets();
    let d = Daemon::start(&rulesets, &scratch.data());
    let t = d.post(
        "/api/tables",
        r#"{"ruleset": "pt-online", "blinds": [1, 2], "seats": 6, "buy_in": 100}"#,
    )["table"]
        .as_str()
        .expect("table id")
        .to_string();
    for (seat, name) in ["ana", "rui", "eva"].iter().enumerate() {
        d.post(
            &format!("/api/tables/{t}/seats"),
            &format!(
                r#"{{"seat": {}, "name": "{name}", "stack": 100}}"#,
                seat + 1
            ),
        );
    }
    // Hand 1: everyone folds to the big blind; the stacks now differ.
    deal(&d, &t, 7);
    play(&d, &t, |_| "f");
    // Hand 2: everyone all in: a main pot and a side pot.
    deal(&d, &t, 1);
    play(&d, &t, |hand| {
        if hand["max_raise_to"].is_null() {
            "cc"
        } else {
            "all_in"
        }
    });
    // Hand 3: checked and called down to a showdown by whoever still has chips.
    let alive = (0..3)
        .filter(|s| d.view(&t)["seats"][*s]["stack"].as_u64() > Some(0))
        .count();
    if alive >= 2 {
        deal(&d, &t, 3);
        play(&d, &t, |_| "cc");
    }
    // The tournament: three players, a few rounds of checks and calls.
    let tour = d.post(
        "/api/tournaments",
        r#"{"ruleset": "pt-tournament", "structure": {"levels": [
              {"small_blind": 10, "big_blind": 20, "minutes": 1},
              {"small_blind": 20, "big_blind": 40, "minutes": 1}]},
            "starting_stack": 1000, "buy_in": 5000, "fee_percent": 10, "seats_per_table": 6,
            "seed": 11, "seconds_per_round": 30,
            "payouts": {"bands": [{"entries_min": 2, "shares_percent": [100]}]}}"#,
    )["tournament"]
        .as_str()
        .expect("tournament id")
        .to_string();
    for name in ["p1", "p2", "p3"] {
        d.post(
            &format!("/api/tournaments/{tour}/players"),
            &format!(r#"{{"name": "{name}"}}"#),
        );
    }
    d.post(&format!("/api/tournaments/{tour}/start"), "");
    for _ in 0..12 {
        let v = d.get(&format!("/api/tournaments/{tour}"), Some(&d.operator));
        let Some((table, seat)) = v["tables"].as_array().and_then(|tables| {
            tables.iter().find_map(|t| {
                let hand = &t["table"]["hand"];
                (hand["phase"] == "Betting").then_some(())?;
                Some((t["number"].as_u64()?, hand["to_act"].as_u64()?))
            })
        }) else {
            break;
        };
        d.post(
            &format!("/api/tournaments/{tour}/tables/{table}/actions"),
            &format!(r#"{{"seat": {seat}, "action": "cc"}}"#),
        );
    }
    // Hand 4 at the cash table, cut short: voided at restart (pt-online rule 72).
    if alive >= 2 {
        deal(&d, &t, 5);
        d.kill9();
        let d = Daemon::start(&rulesets, &scratch.data());
        assert_eq!(d.view(&t)["hand"]["voided"], true);
        assert!(d.terminate(), "the daemon stops cleanly");
    } else {
        assert!(d.terminate(), "the daemon stops cleanly");
    }
    scratch.data()
}

/// `floor ARGS`: its stdout, the command having succeeded.
fn run(args: &[&str]) -> String {
    let out = floor().args(args).output().expect("floor");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "floor {args:?} failed: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// The interpreter with PokerKit installed (as `tests/run` makes it), or why there is none.
fn pokerkit() -> Result<PathBuf, String> {
    let path = match std::env::var_os("FLOOR_POKERKIT_PYTHON") {
        Some(path) => PathBuf::from(path),
        None => Path::new(env!("CARGO_TARGET_TMPDIR")).join("../pokerkit-venv/bin/python"),
    };
    let probe = Command::new(&path)
        .args(["-c", "import pokerkit"])
        .output()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if !probe.status.success() {
        return Err(format!(
            "{} cannot import pokerkit: {}",
            path.display(),
            String::from_utf8_lossy(&probe.stderr).trim()
        ));
    }
    Ok(path)
}

#[test]
fn the_daemons_hands_export_to_phh_that_floor_replay_and_pokerkit_play_back() {
    let scratch = Scratch::new("audit-phh");
    let data = played_journal(&scratch);
    let data_arg = data.to_str().expect("path");

    // One file of every hand.
    let file = scratch.0.join("hands.phhs");
    let said = run(&[
        "audit",
        "--data",
        data_arg,
        "--phh",
        file.to_str().expect("path"),
    ]);
    assert!(said.contains("void hand(s) left out"), "{said}");
    let text = std::fs::read_to_string(&file).expect("the export");
    let records = floor_engine::phh::parse_file(&text).expect("the export reads as PHH");
    let cash: Vec<_> = records
        .iter()
        .filter(|r| r.field("table").and_then(|t| t.as_str()) == Some("t1"))
        .collect();
    assert!(cash.len() >= 2, "{text}");
    assert!(records.len() > cash.len(), "tournament hands too: {text}");
    // The fold-out: players, seats, hand number, the journal's date, floor's own fields.
    let first = cash[0];
    assert_eq!(first.field("hand").and_then(|h| h.as_integer()), Some(1));
    assert_eq!(first.variant, "NT");
    assert_eq!(
        first.blinds_or_straddles.iter().filter(|&&b| b > 0).count(),
        2
    );
    assert_eq!(first.min_bet, Some(2));
    for key in [
        "players",
        "seats",
        "seat_count",
        "time",
        "day",
        "month",
        "year",
    ] {
        assert!(first.field(key).is_some(), "{key} in {text}");
    }
    assert_eq!(
        first.field("_ruleset").and_then(|v| v.as_str()),
        Some("pt-online")
    );
    assert!(first.field("_ruleset_version").is_some());
    // The all-in: two pots, the commission of rule 19 taken from the payments.
    let all_in = cash[1];
    assert!(
        all_in.field("_commission").and_then(|c| c.as_integer()) > Some(0),
        "{text}"
    );
    let rulings = all_in.field("_rulings").expect("rulings").to_string();
    assert!(
        rulings.contains("cash.rake.split_payments") && rulings.contains("rule 19"),
        "{rulings}"
    );
    let chips = |r: &floor_engine::phh::PhhHand| -> (u64, u64) {
        let start: u64 = r
            .starting_stacks
            .iter()
            .map(|s| match s {
                floor_engine::phh::Stack::Chips(c) => *c,
                floor_engine::phh::Stack::Unknown => panic!("every stack is known"),
            })
            .sum();
        let end: i64 = r
            .finishing_stacks
            .as_ref()
            .expect("finishing stacks")
            .iter()
            .sum();
        (start, end as u64)
    };
    let (start, end) = chips(all_in);
    let commission = all_in
        .field("_commission")
        .and_then(|c| c.as_integer())
        .unwrap_or(0);
    assert_eq!(
        start,
        end + commission as u64,
        "chips are conserved: {text}"
    );

    // `floor replay`: every hand legal, every result the engine's.
    let replayed: Value = serde_json::from_str(&run(&[
        "replay",
        "--format",
        "json",
        file.to_str().expect("path"),
    ]))
    .expect("replay JSON");
    assert_eq!(replayed["hands"], records.len() as u64, "{replayed}");
    assert_eq!(replayed["completed"], records.len() as u64, "{replayed}");
    for key in ["illegal_actions", "stack_mismatches", "winnings_mismatches"] {
        assert_eq!(replayed[key], 0, "{key}: {replayed}");
    }
    assert!(
        replayed.get("contradictory_records").is_none(),
        "{replayed}"
    );

    // A directory: one file per table, the same hands.
    let dir = scratch.0.join("hands");
    run(&[
        "audit",
        "--data",
        data_arg,
        "--phh",
        dir.to_str().expect("path"),
    ]);
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("the directory")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files[0], "t1.phhs", "{files:?}");
    assert!(files.iter().any(|f| f.starts_with("tour1.")), "{files:?}");
    let per_table: usize = files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(dir.join(f)).expect("file");
            floor_engine::phh::parse_file(&text).expect("PHH").len()
        })
        .sum();
    assert_eq!(per_table, records.len());

    // PokerKit, the format's reference implementation, loads every record and plays every
    // action.
    let python = pokerkit().unwrap_or_else(|why| {
        panic!("PokerKit is not available ({why}); tests/run installs it (pip install pokerkit==0.7.7 in a venv under the target directory), or set FLOOR_POKERKIT_PYTHON")
    });
    let script = "import sys, warnings\n\
        warnings.simplefilter('error')\n\
        from pokerkit import HandHistory\n\
        n = 0\n\
        with open(sys.argv[1], 'rb') as f:\n\
        \x20   for hh in HandHistory.load_all(f):\n\
        \x20       for state in hh:\n\
        \x20           pass\n\
        \x20       assert not state.status, f'hand {n + 1} is not over in PokerKit'\n\
        \x20       n += 1\n\
        print(n)\n";
    let out = Command::new(&python)
        .args(["-c", script])
        .arg(&file)
        .output()
        .expect("python");
    assert!(
        out.status.success(),
        "PokerKit refused the export: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        records.len().to_string()
    );

    // The report counts what the export holds, and the void hand.
    let report: Value = serde_json::from_str(&run(&[
        "audit", "--data", data_arg, "--report", "--format", "json",
    ]))
    .expect("report JSON");
    let t1 = &report["tables"]["t1"];
    assert_eq!(t1["hands_played"], cash.len() as u64, "{report}");
    assert_eq!(t1["hands_voided"], 1, "{report}");
    assert_eq!(t1["commission"][0]["point"], "cash.rake.mode_and_bounds");
    assert_eq!(t1["commission"][0]["total"], commission as u64, "{report}");
    let tournament_hands: u64 = report["tables"]
        .as_object()
        .expect("tables")
        .iter()
        .filter(|(id, _)| id.starts_with("tour1."))
        .map(|(_, t)| t["hands_played"].as_u64().expect("hands"))
        .sum();
    assert_eq!(tournament_hands as usize, records.len() - cash.len());
    assert_eq!(report["tournaments"]["tour1"]["entries"], 3, "{report}");
    assert_eq!(
        report["tournaments"]["tour1"]["prize_pool"], 13_500,
        "{report}"
    );
    // The text report: the journal is deterministic (seeded decks, the same actions), the
    // range given, so the whole text is.
    let text = run(&[
        "audit",
        "--data",
        data_arg,
        "--report",
        "--from",
        "2000-01-01",
        "--to",
        "2100-01-01",
    ]);
    insta::assert_snapshot!("report_text", text);
    let none = run(&[
        "audit",
        "--data",
        data_arg,
        "--report",
        "--day",
        "1999-12-31",
    ]);
    assert!(none.contains("No table played"), "{none}");
}
