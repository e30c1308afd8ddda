//! The daemon's cash tables end to end: the real binary on a loopback port, every session
//! rule ruled by the engine's cash table under the table's ruleset and journaled with its
//! citation — the minimum number of players (pt-casino-2007 rule 24), buy-ins (rules 28,
//! 78), the commission from each payment (pt-online rules 18, 19) and per session on the
//! table maximum (pt-casino-2007 rule 7(b)), rests (pt-casino-2007 rule 13), seat changes
//! before the waiting list (rules 8(a), 12), the daemon's own clock (journaled `Clock`
//! commands, replayed on restart), and a hand voided after kill -9 (pt-online rule 72) with
//! the session intact.
//!
//! One file over 800 lines: every test drives the same daemon through the helpers at its top,
//! and the session rules are read best side by side.

use crate::support;

use serde_json::Value;
use support::journals::Backend;
use support::{audit, eventually, floor, Daemon, Scratch};

/// Opens a table with `spec` (JSON); its id.
fn open(d: &Daemon, spec: &str) -> String {
    let created = d.post("/api/tables", spec);
    created["table"].as_str().expect("table id").to_string()
}

/// `name` buys in for `amount` in `seat`: the status and the answer.
fn buy_in(d: &Daemon, t: &str, seat: usize, name: &str, amount: u64) -> (u16, Value) {
    d.request(
        "POST",
        &format!("/api/tables/{t}/seats"),
        Some(&d.operator),
        Some(&format!(
            r#"{{"seat": {seat}, "name": "{name}", "stack": {amount}}}"#
        )),
    )
}

/// Seats `names` in seats 1.. with `amount` each; their tokens.
fn seat_all(d: &Daemon, t: &str, names: &[&str], amount: u64) -> Vec<String> {
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let (status, body) = buy_in(d, t, i + 1, name, amount);
            assert_eq!(status, 200, "{body}");
            body["token"].as_str().expect("token").to_string()
        })
        .collect()
}

/// Deals a hand (operator) from the deck of seed 7: the status and the answer.
fn deal(d: &Daemon, t: &str) -> (u16, Value) {
    deal_seeded(d, t, 7)
}

/// Deals a hand from the deck of `seed`.
fn deal_seeded(d: &Daemon, t: &str, seed: u64) -> (u16, Value) {
    d.request(
        "POST",
        &format!("/api/tables/{t}/hands"),
        Some(&d.operator),
        Some(&format!(r#"{{"seed": {seed}}}"#)),
    )
}

/// Everyone to act folds until the hand is over.
fn fold_around(d: &Daemon, t: &str) {
    for _ in 0..20 {
        let hand = d.view(t)["hand"].clone();
        if hand["phase"] == "Complete" || hand["voided"] == true {
            return;
        }
        let seat = hand["to_act"].as_u64().expect("someone to act");
        d.post(
            &format!("/api/tables/{t}/actions"),
            &format!(r#"{{"seat": {seat}, "action": "f"}}"#),
        );
    }
    panic!("the hand did not finish");
}

/// The rulings of an answer, as one text.
fn rulings(answer: &Value) -> String {
    answer["rulings"].to_string()
}

/// The journal's rulings at table `t` on `point` (as the auditor reads them).
fn journal(d: &Daemon, t: &str, point: &str) -> Vec<Value> {
    let report = d.get(
        &format!("/api/journal?table={t}&rule_point={point}"),
        Some(&d.auditor),
    );
    report["rulings"].as_array().cloned().unwrap_or_default()
}

const CASINO: &str =
    r#"{"ruleset": "pt-casino-2007", "blinds": [5, 10], "seats": 10, "buy_in": 1000}"#;

#[test]
fn rule_24_below_four_players_the_table_is_suspended_then_closed_after_15_minutes() {
    let scratch = Scratch::new("cash-rule-24");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let t = open(&d, CASINO);
    seat_all(&d, &t, &["ana", "bia", "caio"], 1000);
    // Three players: no hand (rule 24's minimum is 4).
    let (status, body) = deal(&d, &t);
    assert_eq!(status, 409, "{body}");
    assert!(body["error"].to_string().contains("rule 24"), "{body}");
    let (status, seated) = buy_in(&d, &t, 4, "duda", 1000);
    assert_eq!(status, 200, "{seated}");
    let duda = seated["token"].as_str().expect("token").to_string();
    let (status, body) = buy_in(&d, &t, 5, "duda", 1000);
    assert_eq!(status, 409, "one seat per player: {body}");
    assert_eq!(deal(&d, &t).0, 200);
    fold_around(&d, &t);
    assert_eq!(d.view(&t)["session"]["status"], "Running");
    // duda leaves with his own token: three remain, the game is suspended.
    let left = d
        .request(
            "DELETE",
            &format!("/api/tables/{t}/seats/4"),
            Some(&duda),
            None,
        )
        .1;
    let said = rulings(&left);
    assert!(
        said.contains("table.min_players")
            && said.contains("suspended")
            && said.contains("rule 24"),
        "{left}"
    );
    let (status, body) = deal(&d, &t);
    assert_eq!(status, 409, "{body}");
    assert!(body["error"].to_string().contains("suspended"), "{body}");
    // 14 minutes: still suspended; the 15th closes it.
    let clock = |minutes: u64| {
        d.post(
            &format!("/api/tables/{t}/clock"),
            &format!(r#"{{"minutes": {minutes}}}"#),
        )
    };
    assert_eq!(clock(14)["rulings"], serde_json::json!([]));
    assert_eq!(
        d.view(&t)["session"]["status"],
        serde_json::json!({"Suspended": {"since": 0}})
    );
    let closed = clock(1);
    let said = rulings(&closed);
    assert!(
        said.contains("closed") && said.contains("rule 24"),
        "{closed}"
    );
    assert_eq!(d.view(&t)["session"]["status"], "Closed");
    assert_eq!(d.view(&t)["session"]["minute"], 15);
    let (status, body) = buy_in(&d, &t, 5, "fred", 1000);
    assert_eq!(status, 409, "{body}");
    assert!(body["error"].to_string().contains("closed"), "{body}");
    assert_eq!(deal(&d, &t).0, 409);
    // Both rulings are in the journal with their citation.
    let journaled = journal(&d, &t, "table.min_players");
    assert!(journaled.len() >= 2, "{journaled:?}");
    assert!(journaled.iter().all(|r| r["citation"] == "rule 24"));
    assert!(journaled
        .last()
        .is_some_and(|r| r["text"].to_string().contains("closed")));
}

#[test]
fn rules_28_78_a_buy_in_below_the_minimum_entry_is_refused_with_its_article() {
    let scratch = Scratch::new("cash-rule-78");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let t = open(
        &d,
        r#"{"ruleset": "pt-casino-2007", "blinds": [5, 10], "seats": 10, "buy_in": 1000, "minimum_entry": 1500}"#,
    );
    // Before the game begins: the initial buy-in, exactly (rule 75).
    let (status, body) = buy_in(&d, &t, 1, "ana", 900);
    assert_eq!(status, 409, "{body}");
    assert!(body["error"].to_string().contains("rule 75"), "{body}");
    seat_all(&d, &t, &["ana", "bia", "caio", "duda"], 1000);
    assert_eq!(deal(&d, &t).0, 200);
    fold_around(&d, &t);
    // Once it has begun: the average stack (1000), but not below the minimum entry (1500).
    let (status, body) = buy_in(&d, &t, 5, "eva", 1000);
    assert_eq!(status, 409, "{body}");
    let error = body["error"].as_str().expect("error");
    assert!(
        error.contains("eva: 1000 refused")
            && error.contains("1500")
            && error.contains("rules 28, 78"),
        "{error}"
    );
    insta::assert_snapshot!("rule_78_buy_in_refused", error);
    assert!(
        d.view(&t)["seats"][4]["player"].is_null(),
        "nothing changed"
    );
    let (status, body) = buy_in(&d, &t, 5, "eva", 1500);
    assert_eq!(status, 200, "{body}");
    assert!(
        rulings(&body).contains("cash.buy_in.joining_mid_game"),
        "{body}"
    );
    let journaled = journal(&d, &t, "cash.buy_in.joining_mid_game");
    assert_eq!(
        journaled.last().map(|r| r["citation"].clone()),
        Some(Value::from("rules 28, 78"))
    );
}

#[test]
fn rules_18_19_the_commission_is_taken_from_each_payment_and_journaled() {
    let scratch = Scratch::new("cash-rule-19");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let t = open(
        &d,
        r#"{"ruleset": "pt-online", "blinds": [1, 2], "seats": 6, "buy_in": 100}"#,
    );
    seat_all(&d, &t, &["ana", "rui", "eva"], 100);
    // Hand 1: everyone folds to the big blind: no flop, no voluntary bet, so no commission
    // (rule 18); the stacks now differ.
    assert_eq!(deal(&d, &t).0, 200);
    fold_around(&d, &t);
    let stacks: Vec<u64> = (0..3)
        .map(|s| d.view(&t)["seats"][s]["stack"].as_u64().expect("stack"))
        .collect();
    assert_ne!(stacks[0], stacks[1], "{stacks:?}");
    let raked_before = d.view(&t)["raked"].as_u64().expect("raked");
    // Hand 2: everyone all-in: a main pot and a side pot; the deck of seed 1 gives them to
    // different players, two payments.
    assert_eq!(deal_seeded(&d, &t, 1).0, 200);
    for _ in 0..10 {
        let hand = d.view(&t)["hand"].clone();
        if hand["phase"] == "Complete" {
            break;
        }
        let seat = hand["to_act"].as_u64().expect("to act");
        // All-in where raising is open, else call the all-ins.
        let action = if hand["max_raise_to"].is_null() {
            "cc"
        } else {
            "all_in"
        };
        d.post(
            &format!("/api/tables/{t}/actions"),
            &format!(r#"{{"seat": {seat}, "action": "{action}"}}"#),
        );
    }
    let view = d.view(&t);
    assert_eq!(view["hand"]["phase"], "Complete", "{view}");
    let raked = view["raked"].as_u64().expect("raked");
    assert!(raked > raked_before, "a commission was taken: {view}");
    // Every chip is a player's or the house's.
    let held: u64 = (0..3)
        .map(|s| view["seats"][s]["stack"].as_u64().expect("stack"))
        .sum();
    assert_eq!(held + raked, 300, "{view}");
    // Rule 18 spared hand 1; hand 2 paid, rule 19: from each payment.
    let no_drop = journal(&d, &t, "cash.rake.no_flop_no_drop");
    assert!(
        no_drop.iter().any(|r| r["hand"] == 1
            && r["citation"] == "rule 18"
            && r["text"].to_string().contains("no commission")),
        "{no_drop:?}"
    );
    assert_eq!(raked_before, 0);
    let split = journal(&d, &t, "cash.rake.split_payments");
    let split = split
        .iter()
        .find(|r| r["hand"] == 2)
        .unwrap_or_else(|| panic!("rule 19 asked: {view}"));
    assert_eq!(split["citation"], "rule 19", "{split}");
    assert!(split["text"].to_string().contains("from each payment"));
    let taken = journal(&d, &t, "cash.rake.mode_and_bounds");
    let taken = taken
        .iter()
        .rfind(|r| r["hand"] == 2)
        .expect("the commission ruling");
    let text = taken["text"].as_str().expect("text");
    assert!(
        text.contains(&format!("a commission of {}", raked - raked_before))
            && text.contains("taken before the winners are paid: 14 of ana's 297, 0 of rui's 2"),
        "{text}"
    );
    // `floor audit` shows it with the ruleset version and article.
    let version = d.ruleset("pt-online")["version"].clone();
    let version = version.as_str().expect("version");
    drop(d);
    let audit = audit(
        &scratch.data(),
        &[
            "--table",
            &t,
            "--hand",
            "2",
            "--rule-point",
            "cash.rake.split_payments",
        ],
    );
    assert!(
        audit.contains("cash.rake.split_payments")
            && audit.contains(&format!("[pt-online v{version} · rule 19]")),
        "{audit}"
    );
}

#[test]
fn rule_13_a_player_whose_rest_runs_out_is_removed() {
    let scratch = Scratch::new("cash-rule-13");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let t = open(&d, CASINO);
    let tokens = seat_all(&d, &t, &["ana", "bia", "caio", "duda", "eva"], 1000);
    // Another seat's token may not rest eva; her own may.
    let path = format!("/api/tables/{t}/seats/5/sit_out");
    assert_eq!(d.request("POST", &path, Some(&tokens[0]), None).0, 403);
    let (status, rested) = d.request("POST", &path, Some(&tokens[4]), None);
    assert_eq!(status, 200, "{rested}");
    let said = rulings(&rested);
    assert!(
        said.contains("presence.sit_out_and_inactivity") && said.contains("rule 13"),
        "{rested}"
    );
    // Two hands rested keep the seat; the third removes her.
    for hand in 1..=3 {
        assert_eq!(deal(&d, &t).0, 200, "hand {hand}");
        let view = d.view(&t);
        assert_eq!(view["seats"][4]["in_hand"], false, "eva rests: {view}");
        fold_around(&d, &t);
        let seated = d.view(&t)["seats"][4]["player"].clone();
        if hand < 3 {
            assert_eq!(seated, "eva", "after hand {hand}");
        } else {
            assert!(seated.is_null(), "after hand 3 eva has left");
        }
    }
    let journaled = journal(&d, &t, "presence.sit_out_and_inactivity");
    let last = journaled.last().expect("rulings");
    assert_eq!(last["citation"], "rule 13");
    assert!(
        last["text"].to_string().contains("must leave the table"),
        "{last}"
    );
    // Her token no longer names a seat at this table.
    assert_eq!(
        d.request("GET", &format!("/api/tables/{t}"), Some(&tokens[4]), None)
            .0,
        401
    );
    // Four play on.
    assert_eq!(d.view(&t)["session"]["status"], "Running");
    assert_eq!(deal(&d, &t).0, 200);
}

/// On both journals: SQLite, and PostgreSQL (the daemon restarted on the same data directory
/// takes the dead one's tables over at once).
#[test]
fn rule_72_kill_9_mid_hand_voids_it_and_the_session_is_as_acknowledged() {
    for backend in Backend::both("cash-rule-72") {
        rule_72_kill_9_on(&backend);
    }
}

fn rule_72_kill_9_on(backend: &Backend) {
    let scratch = Scratch::new(&format!("cash-rule-72-{}", backend.name()));
    let rulesets = scratch.rulesets();
    let d = Daemon::start_on(&rulesets, &scratch.data(), backend);
    let t = open(
        &d,
        r#"{"ruleset": "pt-online", "blinds": [1, 2], "seats": 6, "buy_in": 200}"#,
    );
    let tokens = seat_all(&d, &t, &["ana", "rui", "eva", "joao"], 200);
    // joao rests; the others play hand 1 to a showdown, which pays a commission.
    d.request(
        "POST",
        &format!("/api/tables/{t}/seats/4/sit_out"),
        Some(&tokens[3]),
        None,
    );
    assert_eq!(deal(&d, &t).0, 200);
    let first = d.view(&t)["hand"]["to_act"].as_u64().expect("to act");
    d.post(
        &format!("/api/tables/{t}/actions"),
        &format!(r#"{{"seat": {first}, "action": "cbr 10"}}"#),
    );
    d.play_out(&t);
    d.post(&format!("/api/tables/{t}/clock"), r#"{"minutes": 3}"#);
    let acknowledged = d.view(&t);
    assert!(acknowledged["raked"].as_u64() > Some(0), "{acknowledged}");
    // Hand 2 is cut short after a raise.
    assert_eq!(deal(&d, &t).0, 200);
    let seat = d.view(&t)["hand"]["to_act"].as_u64().expect("to act");
    d.post(
        &format!("/api/tables/{t}/actions"),
        &format!(r#"{{"seat": {seat}, "action": {{"raise_to": 8}}}}"#),
    );
    assert!(d.view(&t)["hand"]["pot"].as_u64() > Some(3));
    d.kill9();

    let d = Daemon::start_on(&rulesets, &scratch.data(), backend);
    let view = d.view(&t);
    assert_eq!(view["hand"]["number"], 2);
    assert_eq!(view["hand"]["voided"], true, "{view}");
    assert!(
        view["hand"]["rulings"].to_string().contains("rule 72"),
        "{view}"
    );
    // Every bet returned; the session — rests, commission, clock, stacks — as acknowledged.
    assert_eq!(view["raked"], acknowledged["raked"]);
    for s in 0..4 {
        assert_eq!(
            view["seats"][s]["stack"],
            acknowledged["seats"][s]["stack"],
            "seat {}",
            s + 1
        );
    }
    let fields = |v: &Value| -> Vec<Value> {
        v["session"]["seats"]
            .as_array()
            .expect("session seats")
            .iter()
            .map(|s| {
                serde_json::json!([
                    s["seat"],
                    s["player"],
                    s["stack"],
                    s["sitting_out"],
                    s["rests_taken"]
                ])
            })
            .collect()
    };
    assert_eq!(fields(&view), fields(&acknowledged));
    assert_eq!(view["session"]["minute"], 3);
    assert_eq!(view["session"]["status"], "Running");
    let void = journal(&d, &t, "online.communication_failure");
    assert!(
        void.iter()
            .any(|r| r["hand"] == 2 && r["citation"] == "rule 72" && r["version"] == "1.1.3"),
        "{void:?}"
    );
    // The seat tokens still act, and play goes on.
    assert_eq!(deal(&d, &t).1["hand"], 3);
    let seat = d.view(&t)["hand"]["to_act"].as_u64().expect("to act") as usize;
    let (status, _) = d.request(
        "POST",
        &format!("/api/tables/{t}/actions"),
        Some(&tokens[seat - 1]),
        Some(&format!(r#"{{"seat": {seat}, "action": "f"}}"#)),
    );
    assert_eq!(status, 200);
}

/// A house ruleset extending pt-casino-2007 that takes the per-session commission of rule
/// 7(b): `percent` of the table maximum for every session, written into `rulesets`.
fn per_session_house(rulesets: &std::path::Path, percent: u64) -> &'static str {
    let id = "house-casino-session";
    let dir = rulesets.join(id);
    std::fs::create_dir_all(&dir).expect("house dir");
    std::fs::write(
        dir.join("ruleset.ron"),
        format!(
            r#"(
    id: "{id}",
    title: "A casino's house rules: the commission per session",
    source: "house rules",
    kind: House,
    version: "1.0.0",
    extends: Some("pt-casino-2007"),
    scripts: [],
    bounds: {{}},
    bindings: {{
        "cash.rake.mode_and_bounds": (
            citation: "rule 7(b)",
            ruling: "The house takes the per-session commission: a percentage of the table maximum for every session",
            value: {{"mode": "per_session", "session_percent": {percent}, "base": "table_maximum"}},
        ),
    }},
)
"#
        ),
    )
    .expect("write the house ruleset");
    id
}

#[test]
fn rule_7b_the_session_commission_on_the_table_maximum_is_taken_when_each_session_starts() {
    let scratch = Scratch::new("cash-rule-7b");
    let rulesets = scratch.rulesets();
    let house = per_session_house(&rulesets, 10);
    let d = Daemon::start(&rulesets, &scratch.data());
    let t = open(
        &d,
        &format!(
            r#"{{"ruleset": "{house}", "blinds": [5, 10], "seats": 10, "buy_in": 1000, "table_maximum": 500, "mode": "Session"}}"#
        ),
    );
    seat_all(&d, &t, &["ana", "bia", "caio", "duda"], 1000);
    assert_eq!(
        d.view(&t)["raked"],
        0,
        "nothing is taken before the session starts"
    );
    // Hand 1 starts session 1: each of the four pays 10% of the table maximum, 50.
    let (status, dealt) = deal(&d, &t);
    assert_eq!(status, 200, "{dealt}");
    let said = rulings(&dealt);
    for name in ["ana", "bia", "caio", "duda"] {
        assert!(
            said.contains(&format!(
                "{name} pays the session commission of 50 (10% of the table maximum, 500) for session 1"
            )),
            "{name}: {dealt}"
        );
    }
    assert!(said.contains("rule 7(b)"), "{dealt}");
    fold_around(&d, &t);
    let view = d.view(&t);
    assert_eq!(view["raked"], 200, "{view}");
    let held: u64 = (0..4)
        .map(|s| view["seats"][s]["stack"].as_u64().expect("stack"))
        .sum();
    assert_eq!(held + 200, 4000, "chips conserved: {view}");
    // The table list's `chips` counts the house's commission with the players' chips.
    assert_eq!(d.chips(&t), 4000);
    // 59 minutes later the session (60 minutes, rules 7(b), 74) is not over: hand 2 pays nothing.
    d.post(&format!("/api/tables/{t}/clock"), r#"{"minutes": 59}"#);
    let (status, dealt) = deal(&d, &t);
    assert_eq!(status, 200, "{dealt}");
    assert!(!rulings(&dealt).contains("session commission"), "{dealt}");
    fold_around(&d, &t);
    assert_eq!(d.view(&t)["raked"], 200);
    // The hour is over: the first hand dealt after it starts session 2, and everyone pays again.
    d.post(&format!("/api/tables/{t}/clock"), r#"{"minutes": 1}"#);
    let (status, dealt) = deal(&d, &t);
    assert_eq!(status, 200, "{dealt}");
    assert_eq!(
        rulings(&dealt).matches("for session 2").count(),
        4,
        "{dealt}"
    );
    fold_around(&d, &t);
    let view = d.view(&t);
    assert_eq!(view["raked"], 400, "{view}");
    assert_eq!(view["session"]["minute"], 60, "{view}");
    let held: u64 = (0..10)
        .map(|s| view["seats"][s]["stack"].as_u64().expect("stack"))
        .sum();
    assert_eq!(
        held + 400,
        4000,
        "every chip is a player's or the house's: {view}"
    );
    assert_eq!(d.chips(&t), 4000);
    // Journaled with the article, at hands 1 and 3.
    let taken: Vec<Value> = journal(&d, &t, "cash.rake.mode_and_bounds")
        .into_iter()
        .filter(|r| r["text"].to_string().contains("session commission"))
        .collect();
    assert_eq!(taken.len(), 8, "{taken:?}");
    assert!(taken.iter().all(|r| r["citation"] == "rule 7(b)"
        && r["ruleset"] == house
        && (r["hand"] == 1 || r["hand"] == 3)));
    // `floor audit` shows them with the ruleset version and article.
    drop(d);
    let audit = audit(
        &scratch.data(),
        &["--table", &t, "--rule-point", "cash.rake.mode_and_bounds"],
    );
    assert_eq!(
        audit
            .lines()
            .filter(|l| l.contains("session commission of 50")
                && l.contains("[house-casino-session v1.0.0 · rule 7(b)]"))
            .count(),
        8,
        "{audit}"
    );
}

#[test]
fn rules_8a_12_a_seat_change_request_then_the_waiting_list_take_a_vacant_seat() {
    let scratch = Scratch::new("cash-rule-12");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let t = open(&d, CASINO);
    let names = [
        "ana", "bia", "caio", "duda", "eva", "fabio", "gil", "hugo", "ines", "joao",
    ];
    let tokens = seat_all(&d, &t, &names, 1000);
    // The table is full: two players put down their names (rule 8(a)); the operator keeps
    // the list, a seat's token may not add or strike anyone's name.
    let list = format!("/api/tables/{t}/waiting_list");
    let (status, body) = d.request("POST", &list, Some(&tokens[4]), Some(r#"{"name": "rita"}"#));
    assert_eq!(status, 403, "{body}");
    for name in ["rita", "sara"] {
        let (status, body) = d.request(
            "POST",
            &list,
            Some(&d.operator),
            Some(&format!(r#"{{"name": "{name}"}}"#)),
        );
        assert_eq!(status, 200, "{body}");
    }
    let (status, body) = d.request("DELETE", &format!("{list}/rita"), Some(&tokens[4]), None);
    assert_eq!(status, 403, "{body}");
    assert_eq!(
        d.view(&t)["session"]["waiting_list"],
        serde_json::json!(["rita", "sara"])
    );
    // bia asks to change seat: with ana's token, refused; with her own, granted.
    let change = format!("/api/tables/{t}/seats/2/seat_change");
    assert_eq!(d.request("POST", &change, Some(&tokens[0]), None).0, 403);
    let (status, body) = d.request("POST", &change, Some(&tokens[1]), None);
    assert_eq!(status, 200, "{body}");
    // duda leaves: bia's request comes first (rule 12(a)), then her old seat is offered to
    // the first on the list (rules 8(a), 12(b)).
    let (status, left) = d.request(
        "DELETE",
        &format!("/api/tables/{t}/seats/4"),
        Some(&tokens[3]),
        None,
    );
    assert_eq!(status, 200, "{left}");
    let said = rulings(&left);
    assert!(
        said.contains("seating.vacancy_and_table_change")
            && said.contains("rule 12(a)")
            && said.contains("bia moves from seat 2 to seat 4"),
        "{left}"
    );
    assert!(
        said.contains("rules 8(a), 12(b)") && said.contains("seat 2 is offered to rita"),
        "{left}"
    );
    let view = d.view(&t);
    assert_eq!(view["seats"][3]["player"], "bia", "{view}");
    assert!(view["seats"][1]["player"].is_null(), "{view}");
    // The second on the list may not take it before the first.
    let (status, body) = buy_in(&d, &t, 2, "sara", 1000);
    assert_eq!(status, 409, "{body}");
    assert!(body["error"].to_string().contains("rita is next"), "{body}");
    let (status, body) = buy_in(&d, &t, 2, "rita", 1000);
    assert_eq!(status, 200, "{body}");
    let view = d.view(&t);
    assert_eq!(view["seats"][1]["player"], "rita", "{view}");
    assert_eq!(view["session"]["waiting_list"], serde_json::json!(["sara"]));
    // bia's token follows her to seat 4.
    let (status, body) = d.request(
        "POST",
        &format!("/api/tables/{t}/seats/4/sit_out"),
        Some(&tokens[1]),
        None,
    );
    assert_eq!(status, 200, "{body}");
    // Both rulings are journaled with their articles.
    let journaled = journal(&d, &t, "seating.vacancy_and_table_change");
    let citations: Vec<&Value> = journaled.iter().map(|r| &r["citation"]).collect();
    assert_eq!(
        citations,
        ["rule 12(a)", "rules 8(a), 12(b)"],
        "{journaled:?}"
    );
}

#[test]
fn rule_24_the_daemons_own_clock_closes_a_suspended_table_and_a_restart_replays_it() {
    let scratch = Scratch::new("cash-clock");
    let rulesets = scratch.rulesets();
    // A table minute every 50 ms of real time instead of every minute.
    let d = Daemon::start_with(&rulesets, &scratch.data(), "clock_tick_ms: 50");
    let t = open(&d, CASINO);
    let tokens = seat_all(&d, &t, &["ana", "bia", "caio", "duda"], 1000);
    // The clock runs by itself while players are seated.
    eventually("the table clock to move by itself", || {
        (d.view(&t)["session"]["minute"].as_u64() >= Some(2)).then_some(())
    });
    assert_eq!(deal(&d, &t).0, 200);
    fold_around(&d, &t);
    // duda leaves: three remain, the game is suspended (rule 24), and nobody posts a clock:
    // the daemon's own minutes close the table 15 minutes later.
    let (status, left) = d.request(
        "DELETE",
        &format!("/api/tables/{t}/seats/4"),
        Some(&tokens[3]),
        None,
    );
    assert_eq!(status, 200, "{left}");
    assert!(rulings(&left).contains("suspended"), "{left}");
    let view = eventually("the suspended table to close", || {
        let view = d.view(&t);
        (view["session"]["status"] == "Closed").then_some(view)
    });
    let closed = journal(&d, &t, "table.min_players");
    let last = closed.last().expect("rulings");
    assert!(
        last["text"].to_string().contains("closed") && last["citation"] == "rule 24",
        "{closed:?}"
    );
    let minute = view["session"]["minute"].as_u64().expect("minute");
    assert!(minute >= 17, "{view}");
    // A closed table's clock stops; every minute was journaled as a one-minute `Clock`.
    assert!(d.terminate(), "clean stop");
    let c = rusqlite::Connection::open(scratch.data().join("journal.sqlite")).expect("journal");
    let mut read = c
        .prepare("SELECT body FROM commands WHERE table_id = ?1")
        .expect("query");
    let clocks: Vec<Value> = read
        .query_map([&t], |r| r.get::<_, String>(0))
        .expect("commands")
        .map(|b| serde_json::from_str::<Value>(&b.expect("body")).expect("json"))
        .filter(|b| b["command"] == "clock")
        .collect();
    assert_eq!(clocks.len() as u64, minute, "{clocks:?}");
    assert!(clocks.iter().all(|c| c["minutes"] == 1), "{clocks:?}");
    drop(read);
    drop(c);
    // The restart (with the default one-minute tick) replays them to the same state.
    let d = Daemon::start(&rulesets, &scratch.data());
    let replayed = d.view(&t);
    assert_eq!(replayed["session"], view["session"], "{replayed}");
    assert_eq!(replayed["seats"], view["seats"]);
}

#[test]
fn a_clock_tick_of_0_ms_in_the_config_is_refused_at_start_naming_the_field() {
    let scratch = Scratch::new("cash-clock-0");
    let config = scratch.0.join("serve.ron");
    std::fs::write(&config, "(clock_tick_ms: 0)").expect("config");
    let out = floor()
        .arg("serve")
        .arg("--rulesets-dir")
        .arg(scratch.rulesets())
        .arg("--data")
        .arg(scratch.data())
        .args(["--addr", "127.0.0.1:0", "--config"])
        .arg(&config)
        .output()
        .expect("floor serve");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{said}");
    assert!(
        said.contains("clock_tick_ms") && said.contains("default 60000"),
        "{said}"
    );
}

/// A house ruleset `casa` extending pt-casino-2007, at `version`, its title `title`.
fn house_ruleset(version: &str, title: &str) -> String {
    format!(
        r#"(
    id: "casa",
    title: "{title}",
    source: "house rules of a test room",
    kind: House,
    version: "{version}",
    extends: Some("pt-casino-2007"),
    scripts: [],
    bounds: {{}},
    bindings: {{}},
)
"#
    )
}

/// House rules beside the law: the daemon serves the bundled rulesets and a house directory
/// side by side (`--rulesets-dir` twice), the house ruleset extending a jurisdiction of the
/// other directory. New content under a version string already live is refused, naming the
/// file; a ruling between hands cites the version in force, while a hand in progress keeps
/// its own; the same id in both directories is refused.
#[test]
fn a_house_directory_beside_the_bundled_one_and_versions_that_mean_something() {
    let scratch = Scratch::new("cash-house-dirs");
    let bundled = scratch.rulesets();
    let house = scratch.0.join("house");
    let file = house.join("casa/ruleset.ron");
    std::fs::create_dir_all(house.join("casa")).expect("house dir");
    std::fs::write(&file, house_ruleset("1.0.0", "Casa")).expect("house ruleset");
    let d = Daemon::start_dirs(&[&bundled, &house], &scratch.data(), "", "info");
    let casa = d.ruleset("casa");
    assert_eq!(
        (&casa["status"], &casa["version"]),
        (&"ok".into(), &"1.0.0".into())
    );
    let t = open(&d, &CASINO.replace("pt-casino-2007", "casa"));
    seat_all(&d, &t, &["ana", "bia", "caio", "duda", "eva"], 1000);
    assert_eq!(deal(&d, &t).0, 200);

    // Other content, same version string: refused, the version in force stays live.
    std::fs::write(&file, house_ruleset("1.0.0", "Casa (edited)")).expect("edit");
    let refused = eventually("the edit under the same version to be refused", || {
        let r = d.ruleset("casa");
        (r["status"] == "error").then_some(r)
    });
    let error = refused["error"].as_str().expect("error");
    assert!(
        error.contains("casa/ruleset.ron") && error.contains("raise `version`"),
        "{error}"
    );
    assert_eq!(refused["hash"], casa["hash"], "the old content stays live");
    // `floor check` against the daemon's journal says the same before any reload.
    let checked = floor()
        .arg("check")
        .arg(house.join("casa"))
        .arg("--rulesets-dir")
        .arg(&bundled)
        .arg("--data")
        .arg(scratch.data())
        .output()
        .expect("floor check");
    let said = String::from_utf8_lossy(&checked.stdout);
    assert_eq!(checked.status.code(), Some(1), "{said}");
    assert!(
        said.contains("error casa: ")
            && said.contains(
                "casa/ruleset.ron: ruleset `casa` changed but its version is still \"1.0.0\""
            ),
        "{said}"
    );

    // Raised: live at once.
    std::fs::write(&file, house_ruleset("1.0.1", "Casa (edited)")).expect("raise");
    eventually("version 1.0.1 to go live", || {
        let r = d.ruleset("casa");
        (r["status"] == "ok" && r["version"] == "1.0.1").then_some(())
    });
    // The hand in progress keeps its version; the rest ruled after it cites the new one.
    assert_eq!(d.view(&t)["hand"]["version"], "1.0.0");
    fold_around(&d, &t);
    let (status, rested) = d.request(
        "POST",
        &format!("/api/tables/{t}/seats/5/sit_out"),
        Some(&d.operator),
        None,
    );
    assert_eq!(status, 200, "{rested}");
    let rest = journal(&d, &t, "presence.sit_out_and_inactivity");
    let rest = rest.last().expect("the rest's ruling");
    assert_eq!(
        (&rest["ruleset"], &rest["version"]),
        (&"casa".into(), &"1.0.1".into()),
        "{rest}"
    );
    assert_eq!(deal(&d, &t).0, 200);
    assert_eq!(d.view(&t)["hand"]["version"], "1.0.1");

    // pt-online copied into the house directory: one id in two directories is refused.
    let in_force = d.ruleset("pt-online")["version"].clone();
    let online = house.join("pt-online");
    std::fs::create_dir_all(&online).expect("copy dir");
    let text = std::fs::read_to_string(bundled.join("pt-online/ruleset.ron")).expect("read");
    std::fs::write(online.join("ruleset.ron"), text).expect("copy");
    let twice = eventually("the copy to be refused", || {
        let r = d.ruleset("pt-online");
        (r["status"] == "error").then_some(r)
    });
    assert!(
        twice["error"]
            .as_str()
            .is_some_and(|e| e.contains("is in two rulesets directories")
                && e.contains("rulesets/pt-online/ruleset.ron")
                && e.contains("house/pt-online/ruleset.ron")),
        "{twice}"
    );
    assert_eq!(
        twice["version"], in_force,
        "the version in force stays live"
    );
}
