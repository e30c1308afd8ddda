//! Tournaments in `floor serve`, end to end: the real binary on a loopback port; players
//! registered over HTTP, each acting with their own token; the engine's runtime seating,
//! balancing, breaking to the final table and placing; the money paid out to the cent; kill -9.
//!
//! Why this file is long: each test drives a whole tournament over HTTP, as a client does, from
//! its creation to the end it checks; the helpers they share come first.

use crate::support;

use serde_json::Value;
use std::collections::BTreeMap;
use support::journals::Backend;
use support::{Daemon, Scratch};

/// A small, fast event: 1-minute levels, each round counting 30 seconds of the clock.
fn spec(ruleset: &str, seed: u64) -> String {
    let levels: Vec<String> = (0..12u64)
        .map(|i| {
            let bb = 20u64 << i;
            format!(
                r#"{{"small_blind": {}, "big_blind": {bb}, "minutes": 1}}"#,
                bb / 2
            )
        })
        .collect();
    let payouts = if ruleset == "pt-solverde-chaves-2023" {
        String::new()
    } else {
        r#", "payouts": {"bands": [{"entries_min": 2, "shares_percent": [50, 30, 20]}]}"#.into()
    };
    format!(
        r#"{{"ruleset": "{ruleset}", "structure": {{"levels": [{}]}}, "starting_stack": 1000,
            "buy_in": 5000, "fee_percent": 10, "seats_per_table": 6, "seed": {seed},
            "seconds_per_round": 30{payouts}}}"#,
        levels.join(", ")
    )
}

/// Creates a tournament and registers `n` players; returns its id and the tokens by name.
fn tournament(
    d: &Daemon,
    ruleset: &str,
    n: usize,
    seed: u64,
) -> (String, BTreeMap<String, String>) {
    let created = d.post("/api/tournaments", &spec(ruleset, seed));
    let id = created["tournament"].as_str().expect("id").to_string();
    // The version is the ruleset's live one, whatever it is now.
    assert_eq!(created["version"], d.ruleset(ruleset)["version"]);
    let tokens = register(d, &id, n);
    (id, tokens)
}

/// Creates the tournament `body` describes; returns its id.
fn create(d: &Daemon, body: &str) -> String {
    let created = d.post("/api/tournaments", body);
    created["tournament"].as_str().expect("id").to_string()
}

/// Registers players `p01` to `pN` in tournament `id`; returns their tokens by name.
fn register(d: &Daemon, id: &str, n: usize) -> BTreeMap<String, String> {
    let mut tokens = BTreeMap::new();
    for i in 1..=n {
        let name = format!("p{i:02}");
        let r = d.post(
            &format!("/api/tournaments/{id}/players"),
            &format!(r#"{{"name": "{name}"}}"#),
        );
        assert_eq!(r["entry"], i as u64);
        tokens.insert(name, r["token"].as_str().expect("token").to_string());
    }
    tokens
}

fn view(d: &Daemon, id: &str) -> Value {
    d.get(&format!("/api/tournaments/{id}"), Some(&d.operator))
}

/// A small deterministic generator for the players' choices.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
}

/// The seat to act at some table, its player's name and the legal bounds.
fn someone_to_act(v: &Value) -> Option<(u64, u64, String, Value)> {
    v["tables"].as_array()?.iter().find_map(|t| {
        let hand = &t["table"]["hand"];
        let seat = hand["to_act"].as_u64()?;
        if hand["phase"] != "Betting" {
            return None;
        }
        let name = t["table"]["seats"][seat as usize - 1]["player"].as_str()?;
        Some((t["number"].as_u64()?, seat, name.to_string(), hand.clone()))
    })
}

/// One random legal action by the player to act, with their own token.
fn act_once(d: &Daemon, id: &str, tokens: &BTreeMap<String, String>, rng: &mut Lcg) -> bool {
    act(d, id, tokens, rng, true)
}

/// One random action without raises: calls, checks and folds alone put players out slowly
/// whatever cards a seed deals, so a test that needs the event still running gets it.
fn act_calmly(d: &Daemon, id: &str, tokens: &BTreeMap<String, String>, rng: &mut Lcg) -> bool {
    act(d, id, tokens, rng, false)
}

/// One random action of the player to act (folds, calls and checks; raises when `raises`).
fn act(
    d: &Daemon,
    id: &str,
    tokens: &BTreeMap<String, String>,
    rng: &mut Lcg,
    raises: bool,
) -> bool {
    let v = view(d, id);
    let Some((table, seat, name, hand)) = someone_to_act(&v) else {
        return false;
    };
    let roll = rng.next() % 10;
    let roll = if raises || !(3..=4).contains(&roll) {
        roll
    } else {
        9
    };
    let action = match (
        roll,
        hand["min_raise_to"].as_u64(),
        hand["max_raise_to"].as_u64(),
    ) {
        (0..=2, _, _) if hand["to_call"].as_u64() > Some(0) => r#""f""#.to_string(),
        (3, Some(min), _) => format!(r#"{{"raise_to": {min}}}"#),
        (4, _, Some(max)) => format!(r#"{{"raise_to": {max}}}"#),
        _ => r#""cc""#.to_string(),
    };
    let (status, body) = d.request(
        "POST",
        &format!("/api/tournaments/{id}/tables/{table}/actions"),
        Some(&tokens[&name]),
        Some(&format!(r#"{{"seat": {seat}, "action": {action}}}"#)),
    );
    assert_eq!(status, 200, "{name} at {table}/{seat} {action}: {body}");
    true
}

/// One action of a policy that puts a player out whatever cards a seed deals: with nobody
/// all in, the player to act moves all in; with one all in, he calls; once two are all in,
/// everyone else folds (or checks). At most the players in one confrontation can be out, so
/// the tournament goes on.
fn act_to_put_one_out(d: &Daemon, id: &str, tokens: &BTreeMap<String, String>) -> bool {
    let v = view(d, id);
    let Some((table, seat, name, hand)) = someone_to_act(&v) else {
        return false;
    };
    let all_in = v["tables"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|t| t["number"].as_u64() == Some(table))
        .flat_map(|t| t["table"]["seats"].as_array().into_iter().flatten())
        .filter(|s| s["in_hand"] == true && s["folded"] != true && s["stack"] == 0)
        .count();
    let facing = hand["to_call"].as_u64() > Some(0);
    let action = match (all_in, hand["max_raise_to"].as_u64()) {
        (0, Some(max)) => format!(r#"{{"raise_to": {max}}}"#),
        (0 | 1, _) => r#""cc""#.to_string(),
        _ if facing => r#""f""#.to_string(),
        _ => r#""cc""#.to_string(),
    };
    let (status, body) = d.request(
        "POST",
        &format!("/api/tournaments/{id}/tables/{table}/actions"),
        Some(&tokens[&name]),
        Some(&format!(r#"{{"seat": {seat}, "action": {action}}}"#)),
    );
    assert_eq!(status, 200, "{name} at {table}/{seat} {action}: {body}");
    true
}

/// One action of a policy under which nobody can be out: every player facing a bet folds, so
/// each hand goes to the big blind (or is checked down) whatever cards a seed deals.
fn act_folding_to_the_blind(d: &Daemon, id: &str, tokens: &BTreeMap<String, String>) -> bool {
    let v = view(d, id);
    let Some((table, seat, name, hand)) = someone_to_act(&v) else {
        return false;
    };
    let action = if hand["to_call"].as_u64() > Some(0) {
        r#""f""#
    } else {
        r#""cc""#
    };
    let (status, body) = d.request(
        "POST",
        &format!("/api/tournaments/{id}/tables/{table}/actions"),
        Some(&tokens[&name]),
        Some(&format!(r#"{{"seat": {seat}, "action": {action}}}"#)),
    );
    assert_eq!(status, 200, "{name} at {table}/{seat} {action}: {body}");
    true
}

#[test]
fn a_twelve_player_tournament_is_played_over_http_to_a_winner_with_chips_and_money_exact() {
    let scratch = Scratch::new("tour-play");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let (id, tokens) = tournament(&d, "pt-solverde-chaves-2023", 12, 7);
    let started = d.post(&format!("/api/tournaments/{id}/start"), "");
    assert_eq!(started["status"], "running");
    assert_eq!(
        started["tables"].as_array().map(Vec::len),
        Some(2),
        "12 players at 6-max: two tables"
    );
    assert_eq!(started["chips"]["in_play"], 12_000);
    // Solverde §4.3/§7.2: 12 × €50 less 10% → a €540 pool; §7.4 10–30 entries: 50/30/20.
    assert_eq!(started["money"]["prize_pool"], 54_000);
    assert_eq!(started["money"]["fee"], 6_000);
    let payouts: Vec<u64> = started["money"]["payouts"]
        .as_array()
        .expect("payouts")
        .iter()
        .map(|p| p["amount"].as_u64().expect("amount"))
        .collect();
    assert_eq!(payouts, vec![27_000, 16_200, 10_800]);
    assert!(started["money"]["payouts_citation"]
        .as_str()
        .is_some_and(|c| c.contains("§7.4")));
    // The list shows the live tournament.
    let list = d.get("/api/tournaments", None);
    assert_eq!(list[0]["id"], id.as_str());

    let mut rng = Lcg(11);
    let mut tables_seen = Vec::new();
    let mut levels_seen = Vec::new();
    for step in 0..20_000 {
        let v = view(&d, &id);
        assert_eq!(
            v["chips"]["at_tables"], v["chips"]["in_play"],
            "step {step}: {v}"
        );
        let tables = v["tables"].as_array().map_or(0, Vec::len);
        if tables_seen.last() != Some(&tables) {
            tables_seen.push(tables);
        }
        let level = v["level"]["number"].as_u64().unwrap_or(0);
        if levels_seen.last() != Some(&level) {
            levels_seen.push(level);
        }
        if v["status"] == "finished" {
            break;
        }
        assert!(act_once(&d, &id, &tokens, &mut rng), "nobody to act: {v}");
    }
    let v = view(&d, &id);
    assert_eq!(v["status"], "finished", "{v}");
    assert_eq!(v["players_left"], 1);
    // Broken down from two tables to the final table.
    assert_eq!(tables_seen.first(), Some(&2), "{tables_seen:?}");
    assert_eq!(tables_seen.last(), Some(&1), "{tables_seen:?}");
    assert!(levels_seen.len() > 1, "levels went up: {levels_seen:?}");
    // Every entry placed once, places 1..=12; the prizes sum to the pool exactly.
    let places = v["places"].as_array().expect("places");
    assert_eq!(places.len(), 12);
    let mut entries: Vec<u64> = places
        .iter()
        .map(|p| p["entry"].as_u64().expect("entry"))
        .collect();
    entries.sort_unstable();
    assert_eq!(entries, (1..=12).collect::<Vec<u64>>());
    assert_eq!(places[0]["place"], 1);
    let paid: u64 = places
        .iter()
        .map(|p| p["prize"].as_u64().expect("prize"))
        .sum();
    assert_eq!(paid, 54_000);
    assert_eq!(v["money"]["paid_in"], 60_000);
    // The runtime's rulings are journaled with their citations: the draw, the final table.
    let journal = d.get(&format!("/api/journal?table={id}"), Some(&d.auditor));
    let points: Vec<&str> = journal["rulings"]
        .as_array()
        .expect("rulings")
        .iter()
        .filter_map(|r| r["point"].as_str())
        .collect();
    for p in [
        "seating.initial_draw",
        "table.breaking.reseat",
        "tournament.levels.change_timing",
    ] {
        assert!(points.contains(&p), "{p} in {points:?}");
    }
    // Over: the operator closes it and it leaves the list.
    let (status, _) = d.request(
        "DELETE",
        &format!("/api/tournaments/{id}"),
        Some(&d.operator),
        None,
    );
    assert_eq!(status, 200);
    assert_eq!(d.get("/api/tournaments", None), Value::Array(Vec::new()));
}

#[test]
fn a_player_token_acts_only_for_its_own_seat_and_sees_only_its_own_cards() {
    let scratch = Scratch::new("tour-tokens");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let (id, tokens) = tournament(&d, "pt-tournament", 8, 3);
    // Not started: nobody acts; registration is the operator's.
    let (status, _) = d.request(
        "POST",
        &format!("/api/tournaments/{id}/players"),
        Some(&tokens["p01"]),
        Some(r#"{"name": "x"}"#),
    );
    assert_eq!(status, 403);
    d.post(&format!("/api/tournaments/{id}/start"), "");
    let before = view(&d, &id);
    let (table, seat, name, _) = someone_to_act(&before).expect("someone to act");
    let other = tokens.keys().find(|n| **n != name).expect("another player");
    let path = format!("/api/tournaments/{id}/tables/{table}/actions");
    let body = format!(r#"{{"seat": {seat}, "action": "f"}}"#);
    let (status, answer) = d.request("POST", &path, Some(&tokens[other]), Some(&body));
    assert_eq!(status, 403, "{answer}");
    assert_eq!(d.request("POST", &path, Some("nobody"), Some(&body)).0, 401);
    assert_eq!(d.request("POST", &path, None, Some(&body)).0, 401);
    assert_eq!(
        d.request("POST", &path, Some(&d.auditor), Some(&body)).0,
        403
    );
    let (status, answer) = d.request("POST", &path, Some(&tokens[&name]), Some(r#"{"seat": 1"#));
    assert_eq!(status, 400, "{answer}");
    // Out of turn at the same table: 409 with the reason.
    let v = view(&d, &id);
    let t = v["tables"]
        .as_array()
        .expect("tables")
        .iter()
        .find(|t| t["number"] == table)
        .expect("table");
    let idle = t["table"]["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .find(|s| s["in_hand"] == true && s["seat"] != seat)
        .expect("another seat in the hand");
    let idle_name = idle["player"].as_str().expect("name");
    let (status, answer) = d.request(
        "POST",
        &path,
        Some(&tokens[idle_name]),
        Some(&format!(r#"{{"seat": {}, "action": "cc"}}"#, idle["seat"])),
    );
    assert_eq!(status, 409, "{answer}");
    assert!(
        answer["error"].as_str().is_some_and(|e| e.contains("turn")),
        "{answer}"
    );
    assert_eq!(view(&d, &id), before, "nothing changed");
    // Each player sees their own cards and no one else's, at every table.
    for (who, token) in &tokens {
        let mine = d.get(&format!("/api/tournaments/{id}"), Some(token));
        for t in mine["tables"].as_array().expect("tables") {
            for s in t["table"]["seats"].as_array().expect("seats") {
                if s["in_hand"] == true {
                    assert_eq!(
                        s["cards"].is_array(),
                        s["player"] == who.as_str(),
                        "{who} sees {s}"
                    );
                }
            }
        }
    }
    for token in [None, Some(d.auditor.as_str())] {
        let v = d.get(&format!("/api/tournaments/{id}"), token);
        assert!(v["tables"]
            .as_array()
            .expect("tables")
            .iter()
            .flat_map(|t| t["table"]["seats"].as_array().cloned().unwrap_or_default())
            .all(|s| s["cards"].is_null()));
    }
    // The player's own token acts.
    let (status, answer) = d.request("POST", &path, Some(&tokens[&name]), Some(&body));
    assert_eq!(status, 200, "{answer}");
    setups_the_rulesets_refuse_are_refused(&d, &tokens["p01"]);
}

/// A tournament is refused when its ruleset is not a tournament's, when its fee is outside
/// the text's bounds (Solverde §4.3: 5–20%), when it announces a payout table the ruleset
/// fixes (§7.4), and when a player's token asks for it.
fn setups_the_rulesets_refuse_are_refused(d: &Daemon, player: &str) {
    // A tournament with a ruleset that is not a tournament's is refused.
    let (status, answer) = d.request(
        "POST",
        "/api/tournaments",
        Some(&d.operator),
        Some(&spec("pt-online", 1)),
    );
    assert_eq!(status, 400, "{answer}");
    // Solverde §4.3 bounds the fee to 5–20% and §7.4 fixes the payout table.
    let (status, answer) = d.request(
        "POST",
        "/api/tournaments",
        Some(&d.operator),
        Some(
            &spec("pt-solverde-chaves-2023", 1)
                .replace(r#""fee_percent": 10"#, r#""fee_percent": 25"#),
        ),
    );
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer["error"].as_str().is_some_and(|e| e.contains("§4.3")),
        "{answer}"
    );
    let (status, answer) = d.request(
        "POST",
        "/api/tournaments",
        Some(&d.operator),
        Some(&spec("pt-solverde-chaves-2023", 1).replace(
            r#""seconds_per_round": 30"#,
            r#""seconds_per_round": 30, "payouts": {"bands": []}"#,
        )),
    );
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .is_some_and(|e| e.contains("payout_table")),
        "{answer}"
    );
    let (status, _) = d.request(
        "POST",
        "/api/tournaments",
        Some(player),
        Some(&spec("pt-tournament", 1)),
    );
    assert_eq!(status, 401);
}

/// Each entry's chips as the acknowledged state implies them: the stack at the table where
/// the hand is over, the stack before the hand where it is still being played (and so will
/// be voided).
fn acknowledged_chips(v: &Value) -> BTreeMap<u64, u64> {
    let mut out = BTreeMap::new();
    for p in v["players"].as_array().expect("players") {
        let entry = p["entry"].as_u64().expect("entry");
        let Some(table) = p["table"].as_u64() else {
            out.insert(entry, 0);
            continue;
        };
        let t = v["tables"]
            .as_array()
            .and_then(|ts| ts.iter().find(|t| t["number"] == table))
            .expect("table");
        let hand = &t["table"]["hand"];
        let seat = p["seat"].as_u64().expect("seat") as usize;
        let over = hand["phase"] == "Complete";
        let chips = if over && t["table"]["seats"][seat - 1]["in_hand"] == true {
            t["table"]["seats"][seat - 1]["stack"]
                .as_u64()
                .expect("stack")
        } else {
            p["chips"].as_u64().expect("chips")
        };
        out.insert(entry, chips);
    }
    out
}

fn current_chips(v: &Value) -> BTreeMap<u64, u64> {
    v["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| {
            (
                p["entry"].as_u64().expect("entry"),
                p["chips"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

/// On both journals: SQLite, and PostgreSQL (the daemon restarted on the same data directory
/// takes the dead one's tables over at once).
#[test]
fn kill_9_mid_tournament_restores_the_acknowledged_state_and_voids_the_hands_in_play() {
    for backend in Backend::both("tour-crash") {
        kill_9_mid_tournament_on(&backend);
    }
}

fn kill_9_mid_tournament_on(backend: &Backend) {
    let scratch = Scratch::new(&format!("tour-crash-{}", backend.name()));
    let rulesets = scratch.rulesets();
    let d = Daemon::start_on(&rulesets, &scratch.data(), backend);
    let (id, tokens) = tournament(&d, "pt-tournament", 12, 21);
    d.post(&format!("/api/tournaments/{id}/start"), "");
    let mut rng = Lcg(5);
    for _ in 0..60 {
        act_calmly(&d, &id, &tokens, &mut rng);
    }
    // A clean stop: everything comes back exactly, hands in progress resume.
    let before = view(&d, &id);
    assert!(d.terminate());
    let d = Daemon::start_on(&rulesets, &scratch.data(), backend);
    assert_eq!(
        view(&d, &id),
        before,
        "a clean restart restores the tournament exactly"
    );
    for _ in 0..17 {
        act_calmly(&d, &id, &tokens, &mut rng);
    }
    // Mid-round: at least one hand being played.
    for _ in 0..200 {
        if someone_to_act(&view(&d, &id)).is_some() {
            break;
        }
        act_calmly(&d, &id, &tokens, &mut rng);
    }
    assert!(
        someone_to_act(&view(&d, &id)).is_some(),
        "no hand in play: {}",
        view(&d, &id)
    );
    let acknowledged = view(&d, &id);
    let in_hand: Vec<u64> = acknowledged["tables"]
        .as_array()
        .expect("tables")
        .iter()
        .filter(|t| t["table"]["hand"]["phase"] != "Complete")
        .map(|t| t["number"].as_u64().expect("number"))
        .collect();
    assert!(!in_hand.is_empty());
    let expected = acknowledged_chips(&acknowledged);
    d.kill9();

    let d = Daemon::start_on(&rulesets, &scratch.data(), backend);
    let v = view(&d, &id);
    assert_eq!(v["status"], "running");
    assert_eq!(v["entries"], acknowledged["entries"]);
    assert_eq!(
        v["round"],
        acknowledged["round"].as_u64().expect("round") + 1,
        "the round was finished and the next dealt"
    );
    assert_eq!(
        current_chips(&v),
        expected,
        "every bet of the interrupted hands returned"
    );
    assert_eq!(v["chips"]["at_tables"], v["chips"]["in_play"]);
    // The void is journaled for each interrupted table, not regulated by a tournament text.
    let journal = d.get(
        "/api/journal?rule_point=online.communication_failure",
        Some(&d.auditor),
    );
    let voids: Vec<&Value> = journal["rulings"]
        .as_array()
        .expect("rulings")
        .iter()
        .collect();
    assert_eq!(voids.len(), in_hand.len(), "{journal}");
    for r in voids {
        assert!(r["table"]
            .as_str()
            .is_some_and(|t| t.starts_with(&format!("{id}."))));
        assert_eq!(r["citation"], "not regulated by this text");
        assert_eq!(r["ruleset"], "pt-tournament");
        assert_eq!(r["version"], acknowledged["version"]);
    }
    // Tokens survived, and play goes on to a winner.
    for _ in 0..20_000 {
        if view(&d, &id)["status"] == "finished" {
            break;
        }
        assert!(act_once(&d, &id, &tokens, &mut rng));
    }
    let v = view(&d, &id);
    assert_eq!(v["status"], "finished");
    let paid: u64 = v["places"]
        .as_array()
        .expect("places")
        .iter()
        .map(|p| p["prize"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(paid, v["money"]["prize_pool"].as_u64().expect("pool"));
}

#[test]
fn late_entries_and_re_entries_buy_new_stacks_while_the_window_is_open_and_are_refused_after_it() {
    let scratch = Scratch::new("tour-late");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    // Each round counts one second of 1-minute levels: late registration (to level 2) stays
    // open until the operator moves the clock.
    let body = spec("pt-tournament", 9)
        .replace(r#""seconds_per_round": 30"#, r#""seconds_per_round": 1"#)
        .replace(
            r#""seed": 9,"#,
            r#""seed": 9, "late_registration_until_level": 2, "re_entries": true,"#,
        );
    let id = create(&d, &body);
    let mut tokens = register(&d, &id, 6);
    d.post(&format!("/api/tournaments/{id}/start"), "");
    // Play until two players are out, one confrontation at a time (random play may put every
    // player but one out in a single hand, and the tournament would be over): one of them
    // re-enters into his seat, and the late entrant needs the other's seat at the full
    // six-seat table.
    let mut rng = Lcg(3);
    let out = play_until_out(&d, &id, &tokens, 2)[0];
    let before = view(&d, &id);
    assert_eq!(
        before["level"]["number"], 1,
        "still in the window: {}",
        before["level"]
    );
    // A player still in cannot re-enter; the one who is out can, and gets a new entry.
    let still_in = before["players"]
        .as_array()
        .expect("players")
        .iter()
        .find(|p| !p["table"].is_null())
        .expect("someone in")["player"]
        .as_u64()
        .expect("player");
    let (status, answer) = d.request(
        "POST",
        &format!("/api/tournaments/{id}/players/{still_in}/reentries"),
        Some(&d.operator),
        None,
    );
    assert_eq!(status, 409, "{answer}");
    let re = d.post(
        &format!("/api/tournaments/{id}/players/{out}/reentries"),
        "",
    );
    assert_eq!(re["entry"], 7);
    let late = d.post(
        &format!("/api/tournaments/{id}/players"),
        r#"{"name": "late"}"#,
    );
    assert_eq!(late["entry"], 8);
    assert_eq!(late["player"], 7);
    let v = view(&d, &id);
    assert_eq!(v["entries"], 8);
    assert_eq!(v["chips"]["in_play"], 8_000, "two more starting stacks");
    assert_eq!(v["chips"]["at_tables"], 8_000);
    assert_eq!(v["money"]["paid_in"], 40_000);
    assert_eq!(v["money"]["prize_pool"], 36_000);
    let seated = |v: &Value, entry: u64| {
        v["players"]
            .as_array()
            .expect("players")
            .iter()
            .any(|p| p["entry"] == entry && p["table"].is_u64())
    };
    assert!(seated(&v, 7) && seated(&v, 8), "{}", v["players"]);
    // The late entrant's token is theirs: they see their own seat's cards once dealt in.
    tokens.insert(
        "late".into(),
        late["token"].as_str().expect("token").to_string(),
    );
    late_registration_is_refused_once_the_window_closed(&d, &id);
    // Play on to a winner: every entry placed, the prizes the pool.
    for _ in 0..20_000 {
        if view(&d, &id)["status"] == "finished" {
            break;
        }
        assert!(act_once(&d, &id, &tokens, &mut rng));
    }
    let v = view(&d, &id);
    assert_eq!(v["status"], "finished");
    assert_eq!(v["places"].as_array().map(Vec::len), Some(8));
    let paid: u64 = v["places"]
        .as_array()
        .expect("places")
        .iter()
        .map(|p| p["prize"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(paid, 36_000, "{}", v["places"]);
    // Players out before the late entries finish behind them: the places cover 1..=8.
    let last = v["places"]
        .as_array()
        .expect("places")
        .iter()
        .filter_map(|p| p["shared_through"].as_u64())
        .max();
    assert_eq!(last, Some(8), "{}", v["places"]);
}

/// Plays until `count` players are out, one confrontation at a time; returns their numbers.
fn play_until_out(
    d: &Daemon,
    id: &str,
    tokens: &BTreeMap<String, String>,
    count: usize,
) -> Vec<u64> {
    loop {
        let v = view(d, id);
        let out: Vec<u64> = v["players"]
            .as_array()
            .expect("players")
            .iter()
            .filter(|p| p["table"].is_null())
            .filter_map(|p| p["player"].as_u64())
            .collect();
        if out.len() >= count {
            return out;
        }
        assert!(act_to_put_one_out(d, id, tokens), "{v}");
    }
}

/// pt-tournament Art. 7º(1): once the clock passes the last level of the window (level 2),
/// a late registration is refused with the article, journaled, and changes nothing; a
/// malformed registration is 400, an unknown tournament 404.
fn late_registration_is_refused_once_the_window_closed(d: &Daemon, id: &str) {
    // The window closes at level 3: late registration refused with its article.
    d.post(
        &format!("/api/tournaments/{id}/clock"),
        r#"{"seconds": 150}"#,
    );
    let (status, answer) = d.request(
        "POST",
        &format!("/api/tournaments/{id}/players"),
        Some(&d.operator),
        Some(r#"{"name": "too late"}"#),
    );
    assert_eq!(status, 409, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .is_some_and(|e| e.contains("late registration refused")),
        "{answer}"
    );
    // The refusal is the ruleset's ruling through the runtime's announced window, cited
    // (pt-tournament Art. 7º(1)) and journaled; nobody was registered.
    assert_eq!(answer["point"], "tournament.late_registration", "{answer}");
    assert_eq!(answer["citation"], "Art. 7º(1)", "{answer}");
    let journal = d.get(
        "/api/journal?rule_point=tournament.late_registration",
        Some(&d.auditor),
    );
    let last = journal["rulings"]
        .as_array()
        .and_then(|r| r.last())
        .expect("the refusal journaled");
    assert_eq!(last["citation"], "Art. 7º(1)", "{journal}");
    assert_eq!(last["table"], id, "{journal}");
    let after = view(d, id);
    assert_eq!(after["entries"], 8);
    assert_eq!(after["money"]["paid_in"], 40_000);
    // Malformed and unknown: 400 and 404.
    assert_eq!(
        d.request(
            "POST",
            &format!("/api/tournaments/{id}/players"),
            Some(&d.operator),
            Some("{")
        )
        .0,
        400
    );
    assert_eq!(
        d.request("GET", "/api/tournaments/tour99", None, None).0,
        404
    );
}

#[test]
fn hand_for_hand_is_played_at_the_bubble_across_tables() {
    let scratch = Scratch::new("tour-bubble");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    // Fourteen players at 6-max, ten places paid: the bubble comes with two tables left.
    let body = spec("pt-tournament", 4)
        .replace(r#"[50, 30, 20]"#, r#"[20, 15, 12, 10, 9, 8, 7, 7, 6, 6]"#);
    let id = create(&d, &body);
    let tokens = register(&d, &id, 14);
    let started = d.post(&format!("/api/tournaments/{id}/start"), "");
    assert_eq!(started["tables"].as_array().map(Vec::len), Some(3));
    let mut rng = Lcg(8);
    let (mut seen, mut burst, mut rounds_across_tables) = (false, false, 0);
    // Each table's hand number when hand-for-hand began: the tables then deal hand by hand
    // together, so every table still in play has dealt the same number of hands since.
    let mut start: BTreeMap<u64, u64> = BTreeMap::new();
    let hands_by_table = |v: &Value| -> BTreeMap<u64, u64> {
        v["tables"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| {
                Some((
                    t["number"].as_u64()?,
                    t["table"]["hand"]["number"].as_u64()?,
                ))
            })
            .collect()
    };
    for _ in 0..20_000 {
        let v = view(&d, &id);
        let left = v["players_left"].as_u64().expect("players left");
        if v["hand_for_hand"] == true {
            seen = true;
            assert!(left > 10, "hand-for-hand with {left} left");
            assert!(!burst, "hand-for-hand again after the bubble");
            let now = hands_by_table(&v);
            if start.is_empty() {
                start = now.clone();
            }
            let dealt: Vec<u64> = now
                .iter()
                .filter_map(|(t, n)| start.get(t).map(|s| n - s))
                .collect();
            assert!(
                dealt.windows(2).all(|w| w[0] == w[1]),
                "hands dealt since: {now:?} from {start:?}"
            );
            if dealt.len() >= 2 && dealt[0] > 0 {
                rounds_across_tables += 1;
            }
        } else if seen {
            // Hand-for-hand stops once the bubble bursts (ten players, ten places paid).
            assert!(left <= 10, "hand-for-hand stopped with {left} left");
            burst = true;
        }
        if v["status"] == "finished" {
            break;
        }
        // Until one hand-for-hand hand has been played at every table together, each hand
        // goes to the blind, so the bubble cannot burst in the first of them whatever the
        // seed deals; then play is random again.
        if v["hand_for_hand"] == true && rounds_across_tables == 0 {
            assert!(act_folding_to_the_blind(&d, &id, &tokens));
        } else {
            assert!(act_once(&d, &id, &tokens, &mut rng));
        }
    }
    assert!(seen, "hand-for-hand at the bubble");
    assert!(burst, "hand-for-hand stopped after the bubble");
    assert!(
        rounds_across_tables > 0,
        "hand-for-hand hands played at two tables together"
    );
    let journal = d.get(
        &format!("/api/journal?table={id}&rule_point=tournament.hand_for_hand"),
        Some(&d.auditor),
    );
    let r = &journal["rulings"][0];
    assert_eq!(r["ruleset"], "pt-tournament");
    assert!(
        r["citation"].as_str().is_some_and(|c| c.contains("79")),
        "{r}"
    );
    let v = view(&d, &id);
    let paid: u64 = v["places"]
        .as_array()
        .expect("places")
        .iter()
        .map(|p| p["prize"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(paid, v["money"]["prize_pool"].as_u64().expect("pool"));
}

#[test]
fn a_players_live_stream_carries_the_tournament_with_only_their_own_cards() {
    use std::io::{BufRead, BufReader, Write};
    let scratch = Scratch::new("tour-stream");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let (id, tokens) = tournament(&d, "pt-tournament", 4, 12);
    d.post(&format!("/api/tournaments/{id}/start"), "");
    let mut stream = std::net::TcpStream::connect(&d.addr).expect("connect");
    stream
        .set_read_timeout(Some(support::PATIENCE))
        .expect("timeout");
    write!(
        stream,
        "GET /api/tournaments/{id}/stream?token={} HTTP/1.1\r\nHost: x\r\n\r\n",
        tokens["p01"]
    )
    .expect("write");
    let mut lines = BufReader::new(stream).lines();
    let mut next = || loop {
        let line = lines.next().expect("an event").expect("line");
        if let Some(data) = line
            .strip_prefix("data: ")
            .or_else(|| line.strip_prefix("data:"))
        {
            return serde_json::from_str::<Value>(data).expect("event JSON");
        }
    };
    let first = next();
    assert_eq!(first["you"], 1);
    let mut rng = Lcg(1);
    act_once(&d, &id, &tokens, &mut rng);
    let second = next();
    assert_ne!(second, first, "a change is announced");
    for v in [first, second] {
        for t in v["tables"].as_array().expect("tables") {
            for s in t["table"]["seats"].as_array().expect("seats") {
                if s["in_hand"] == true && t["table"]["hand"]["phase"] != "Complete" {
                    assert_eq!(s["cards"].is_array(), s["player"] == "p01", "{s}");
                }
            }
        }
    }
}

fn chips_of(v: &Value, player: u64) -> u64 {
    v["players"]
        .as_array()
        .expect("players")
        .iter()
        .rev()
        .find(|p| p["player"] == player)
        .and_then(|p| p["chips"].as_u64())
        .expect("seated")
}

/// The sum of the players' stacks (as the runtime holds them: at the start of their hand).
fn stacks_total(v: &Value) -> u64 {
    v["players"]
        .as_array()
        .expect("players")
        .iter()
        .filter_map(|p| p["chips"].as_u64())
        .sum()
}

/// pt-tournament Art. 27º (inherited by pt-solverde-chaves-2023) and Solverde §3.1.2: a rebuy
/// bought while the player's hand is played is paid and journaled at once — 202 Accepted,
/// with the ruling on when it applies — and its chips join his stack at the start of his next
/// hand, before the deal (he plays the hand in progress with the chips he holds). A purchase
/// the rules refuse (past the one rebuy announced) is still refused at once, mid-hand. The
/// queued purchase survives kill -9: the interrupted hand is void and the chips are added
/// before the next deal.
#[test]
fn art_27_a_rebuy_bought_during_a_hand_is_paid_at_once_and_its_chips_join_before_the_next_deal() {
    let scratch = Scratch::new("tour-rebuy-queued");
    let rulesets = scratch.rulesets();
    let d = Daemon::start(&rulesets, &scratch.data());
    let body = spec("pt-solverde-chaves-2023", 7).replace(
        r#""seconds_per_round": 30"#,
        r#""seconds_per_round": 30, "rebuy": 5000, "max_rebuys": 1"#,
    );
    let id = create(&d, &body);
    let tokens = register(&d, &id, 6);
    d.post(&format!("/api/tournaments/{id}/start"), "");
    let money = |v: &Value, k: &str| v["money"][k].as_u64().expect("money");
    let chips = |v: &Value, k: &str| v["chips"][k].as_u64().expect("chips");
    // Round 1: every player is in the hand at the one table; a few actions are taken.
    let mut rng = Lcg(3);
    assert!(act_once(&d, &id, &tokens, &mut rng));
    let v0 = view(&d, &id);
    assert_eq!(v0["round_in_play"], 1, "{v0}");
    let stack0 = chips_of(&v0, 1);

    let (status, bought) = d.request(
        "POST",
        &format!("/api/tournaments/{id}/players/1/rebuys"),
        Some(&d.operator),
        None,
    );
    assert_eq!(status, 202, "{bought}");
    assert_eq!(bought["applies"], "next_hand", "{bought}");
    assert_eq!(bought["paid"], 5000);
    assert_eq!(bought["to_pool"], 4500);
    assert_eq!(bought["chips"], 1000);
    assert_eq!(
        bought["stack"], stack0,
        "he plays this hand with the chips he holds"
    );
    assert_eq!(bought["point"], "tournament.modality.rebuy_addon");
    assert_eq!(bought["citation"], "§3.1.2, §3.1.2.1, §3.1.2.2");
    assert_eq!(bought["when"]["point"], "tournament.rebuy.declaration");
    assert_eq!(bought["when"]["citation"], "Art. 27º", "{bought}");
    assert!(
        bought["when"]["text"]
            .as_str()
            .is_some_and(|t| t.contains("start of his next hand, before the deal")),
        "{bought}"
    );
    // Paid now; the chips wait, in neither the stack nor the chips in play.
    let v1 = view(&d, &id);
    assert_eq!(money(&v1, "paid_in"), money(&v0, "paid_in") + 5000);
    assert_eq!(money(&v1, "prize_pool"), money(&v0, "prize_pool") + 4500);
    assert_eq!(chips(&v1, "in_play"), chips(&v0, "in_play"));
    assert_eq!(chips(&v1, "queued"), 1000);
    assert_eq!(chips_of(&v1, 1), stack0);

    // A second rebuy (one announced): refused at once, mid-hand, citing §3.1.2; nothing paid.
    let (status, answer) = d.request(
        "POST",
        &format!("/api/tournaments/{id}/players/1/rebuys"),
        Some(&d.operator),
        None,
    );
    assert_eq!(status, 409, "{answer}");
    assert_eq!(answer["point"], "tournament.modality.rebuy_addon");
    assert_eq!(answer["citation"], "§3.1.2, §3.1.2.1, §3.1.2.2");
    let v2 = view(&d, &id);
    assert_eq!(money(&v2, "paid_in"), money(&v1, "paid_in"));
    assert_eq!(chips(&v2, "queued"), 1000);

    // The daemon dies mid-hand: the purchase was acknowledged, so it comes back; the hand is
    // void and the chips join before the next deal.
    d.kill9();
    let d = Daemon::start(&rulesets, &scratch.data());
    let v3 = view(&d, &id);
    assert_eq!(money(&v3, "paid_in"), money(&v1, "paid_in"));
    assert_eq!(v3["round_in_play"], 2, "{v3}");
    assert_eq!(chips(&v3, "queued"), 0, "{v3}");
    assert_eq!(chips(&v3, "in_play"), chips(&v0, "in_play") + 1000);
    assert_eq!(chips(&v3, "at_tables"), chips(&v3, "in_play"));
    assert_eq!(stacks_total(&v3), chips(&v3, "in_play"));
    assert_eq!(
        chips_of(&v3, 1),
        stack0 + 1000,
        "the void hand returned his bets; the rebuy is on top"
    );

    // The same, played out rather than voided: player 2 buys during round 2.
    let stack2 = chips_of(&v3, 2);
    assert!(act_once(&d, &id, &tokens, &mut rng));
    let (status, bought) = d.request(
        "POST",
        &format!("/api/tournaments/{id}/players/2/rebuys"),
        Some(&d.operator),
        None,
    );
    assert_eq!(status, 202, "{bought}");
    assert_eq!(bought["stack"], stack2);
    while view(&d, &id)["round"] == 2 {
        assert!(act_once(&d, &id, &tokens, &mut rng));
    }
    let v4 = view(&d, &id);
    assert_eq!(chips(&v4, "queued"), 0);
    assert_eq!(chips(&v4, "in_play"), chips(&v0, "in_play") + 2000);
    assert_eq!(chips(&v4, "at_tables"), chips(&v4, "in_play"));
    assert_eq!(stacks_total(&v4), chips(&v4, "in_play"));
    assert!(
        chips_of(&v4, 2) >= 1000,
        "the rebuy's chips are in his stack"
    );

    // Journaled: both purchases and both rulings on when they apply.
    let journal = d.get(
        "/api/journal?rule_point=tournament.rebuy.declaration",
        Some(&d.auditor),
    );
    let rulings = journal["rulings"].as_array().expect("rulings");
    assert_eq!(rulings.len(), 2, "{journal}");
    assert!(rulings
        .iter()
        .all(|r| r["citation"] == "Art. 27º" && r["ruleset"] == "pt-solverde-chaves-2023"));
}

/// ao-tournament-2025 does not regulate rebuys (its Art. 23–29 are missing from the text): a
/// rebuy bought during a hand is queued all the same, and both rulings — the purchase and when
/// it applies — say *not regulated by this text*.
#[test]
fn ao_2025_a_rebuy_bought_during_a_hand_is_queued_and_ruled_not_regulated_by_this_text() {
    let scratch = Scratch::new("tour-rebuy-ao");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let body = spec("ao-tournament-2025", 2).replace(
        r#""seconds_per_round": 30"#,
        r#""seconds_per_round": 30, "rebuy": 5000"#,
    );
    let id = create(&d, &body);
    register(&d, &id, 4);
    d.post(&format!("/api/tournaments/{id}/start"), "");
    let (status, bought) = d.request(
        "POST",
        &format!("/api/tournaments/{id}/players/3/rebuys"),
        Some(&d.operator),
        None,
    );
    assert_eq!(status, 202, "{bought}");
    assert_eq!(bought["applies"], "next_hand");
    assert_eq!(bought["point"], "tournament.modality.rebuy_addon");
    assert_eq!(bought["citation"], "not regulated by this text", "{bought}");
    assert_eq!(bought["when"]["point"], "tournament.rebuy.declaration");
    assert_eq!(bought["when"]["citation"], "not regulated by this text");
    assert_eq!(view(&d, &id)["chips"]["queued"], 1000);
}

/// pt-tournament Art. 27º: a player who declared a rebuy plays the hand with the chips he holds
/// and is obliged to rebuy. Player 1 buys a rebuy during his first hand, then goes all-in and
/// is called: when he loses that hand he is not out — the queued chips are his stack at his
/// next hand, exactly the rebuy's 1,000, and no place is given. (Seeds are tried in turn until
/// one where he loses.)
#[test]
fn art_27_a_player_who_loses_the_hand_he_bought_a_rebuy_during_is_kept_in_by_it() {
    let scratch = Scratch::new("tour-rebuy-bust");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    for seed in 1..=16 {
        let body = spec("pt-solverde-chaves-2023", seed).replace(
            r#""seconds_per_round": 30"#,
            r#""seconds_per_round": 30, "rebuy": 5000, "max_rebuys": 1"#,
        );
        let id = create(&d, &body);
        let tokens = register(&d, &id, 6);
        d.post(&format!("/api/tournaments/{id}/start"), "");
        let (status, bought) = d.request(
            "POST",
            &format!("/api/tournaments/{id}/players/1/rebuys"),
            Some(&d.operator),
            None,
        );
        assert_eq!(status, 202, "{bought}");
        // Player 1 moves all in; the first player after him calls, the others fold.
        let (mut all_in, mut caller) = (false, None::<String>);
        for _ in 0..100 {
            let v = view(&d, &id);
            if v["round_in_play"] != 1 {
                break;
            }
            let Some((table, seat, name, hand)) = someone_to_act(&v) else {
                break;
            };
            let action = if name == "p01" {
                all_in = true;
                format!(
                    r#"{{"raise_to": {}}}"#,
                    hand["max_raise_to"].as_u64().expect("p01 may raise")
                )
            } else if all_in && caller.is_none() {
                caller = Some(name.clone());
                r#""cc""#.to_string()
            } else if hand["to_call"].as_u64() > Some(0) {
                r#""f""#.to_string()
            } else {
                r#""cc""#.to_string()
            };
            let (status, answer) = d.request(
                "POST",
                &format!("/api/tournaments/{id}/tables/{table}/actions"),
                Some(&tokens[&name]),
                Some(&format!(r#"{{"seat": {seat}, "action": {action}}}"#)),
            );
            assert_eq!(status, 200, "{name} {action}: {answer}");
        }
        let v = view(&d, &id);
        assert_eq!(v["round_in_play"], 2, "{v}");
        let Some(caller) = caller else { continue };
        let number: u64 = caller[1..].parse().expect("player number");
        let callers_chips = v["players"]
            .as_array()
            .expect("players")
            .iter()
            .rev()
            .find(|p| p["player"] == number)
            .and_then(|p| p["chips"].as_u64())
            .unwrap_or(0);
        if callers_chips < 1900 {
            continue; // player 1 did not lose this one
        }
        // He lost every chip he held; the rebuy he paid for is his stack, and he is still in.
        assert_eq!(chips_of(&v, 1), 1000, "{v}");
        assert_eq!(v["players_left"], 6, "{v}");
        let me = v["players"]
            .as_array()
            .expect("players")
            .iter()
            .rev()
            .find(|p| p["player"] == 1)
            .expect("player 1");
        assert!(me["table"].is_u64(), "seated: {me}");
        assert!(
            v["places"].as_array().is_none_or(|p| p.is_empty()),
            "no place given: {v}"
        );
        assert_eq!(v["chips"]["in_play"], 7000);
        assert_eq!(v["chips"]["at_tables"], 7000);
        return;
    }
    panic!("player 1 won or split his all-in under every seed tried");
}

/// Solverde §3.1.2: rebuys as announced and a single add-on of at least the starting stack.
/// Over HTTP, on the break: a rebuy and an add-on add their chips to the stack and to the
/// chips in play, and their price less the fee to the prize pool, exactly; a second add-on
/// and a rebuy past the announced one are refused citing §3.1.2; all journaled.
#[test]
fn solverde_3_1_2_a_rebuy_and_an_add_on_change_the_stack_and_the_prize_pool_exactly() {
    let scratch = Scratch::new("tour-rebuy");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let body = spec("pt-solverde-chaves-2023", 5)
        .replace(
            r#""seconds_per_round": 30"#,
            r#""seconds_per_round": 30, "rebuy": 5000, "max_rebuys": 1, "add_on": {"price": 4000, "chips": 2000}"#,
        )
        .replace(
            r#"]}, "starting_stack""#,
            r#"], "breaks": [{"after_level": 1, "minutes": 5}]}, "starting_stack""#,
        );
    let id = create(&d, &body);
    let tokens = register(&d, &id, 6);
    d.post(&format!("/api/tournaments/{id}/start"), "");
    // Play to the break after level 1 (a purchase during a hand is queued: see
    // art_27_a_rebuy_bought_during_a_hand_is_paid_at_once_and_its_chips_join_before_the_next_deal).
    let mut rng = Lcg(11);
    while view(&d, &id)["break_seconds_left"].is_null() {
        assert!(act_once(&d, &id, &tokens, &mut rng));
    }
    let v0 = view(&d, &id);
    assert!(v0["round_in_play"].is_null(), "{v0}");
    let player = v0["players"]
        .as_array()
        .expect("players")
        .iter()
        .find(|p| p["table"].is_u64())
        .expect("someone in")["player"]
        .as_u64()
        .expect("player");
    let stack0 = chips_of(&v0, player);
    let money = |v: &Value, k: &str| v["money"][k].as_u64().expect("money");
    let chips = |v: &Value, k: &str| v["chips"][k].as_u64().expect("chips");
    // The rebuy: a starting stack for 5000 cents, 500 of it the 10% fee.
    let rebuy = d.post(
        &format!("/api/tournaments/{id}/players/{player}/rebuys"),
        "",
    );
    assert_eq!(rebuy["chips"], 1000, "{rebuy}");
    assert_eq!(rebuy["paid"], 5000, "{rebuy}");
    assert_eq!(rebuy["to_pool"], 4500, "{rebuy}");
    assert_eq!(rebuy["citation"], "§3.1.2, §3.1.2.1, §3.1.2.2", "{rebuy}");
    assert_eq!(rebuy["stack"], stack0 + 1000, "{rebuy}");
    let v1 = view(&d, &id);
    assert_eq!(chips_of(&v1, player), stack0 + 1000);
    assert_eq!(chips(&v1, "in_play"), chips(&v0, "in_play") + 1000);
    assert_eq!(chips(&v1, "at_tables"), chips(&v1, "in_play"));
    assert_eq!(money(&v1, "paid_in"), money(&v0, "paid_in") + 5000);
    assert_eq!(money(&v1, "prize_pool"), money(&v0, "prize_pool") + 4500);
    assert_eq!(v1["entries"], v0["entries"], "a rebuy is not an entry");
    // The add-on: 2000 chips for 4000 cents, 3600 to the pool.
    let add_on = d.post(
        &format!("/api/tournaments/{id}/players/{player}/addons"),
        "",
    );
    assert_eq!(add_on["chips"], 2000, "{add_on}");
    assert_eq!(add_on["to_pool"], 3600, "{add_on}");
    let v2 = view(&d, &id);
    assert_eq!(chips_of(&v2, player), stack0 + 3000);
    assert_eq!(chips(&v2, "in_play"), chips(&v0, "in_play") + 3000);
    assert_eq!(chips(&v2, "at_tables"), chips(&v2, "in_play"));
    assert_eq!(money(&v2, "paid_in"), money(&v0, "paid_in") + 9000);
    assert_eq!(money(&v2, "prize_pool"), money(&v0, "prize_pool") + 8100);
    // A second add-on (§3.1.2: a single one) and a second rebuy (one announced): refused,
    // cited, nothing changed.
    for route in ["addons", "rebuys"] {
        let (status, answer) = d.request(
            "POST",
            &format!("/api/tournaments/{id}/players/{player}/{route}"),
            Some(&d.operator),
            None,
        );
        assert_eq!(status, 409, "{answer}");
        assert_eq!(answer["point"], "tournament.modality.rebuy_addon");
        assert_eq!(answer["citation"], "§3.1.2, §3.1.2.1, §3.1.2.2", "{answer}");
    }
    let v3 = view(&d, &id);
    assert_eq!(chips_of(&v3, player), stack0 + 3000);
    assert_eq!(money(&v3, "paid_in"), money(&v2, "paid_in"));
    let journal = d.get(
        "/api/journal?rule_point=tournament.modality.rebuy_addon",
        Some(&d.auditor),
    );
    let rulings = journal["rulings"].as_array().expect("rulings");
    assert_eq!(rulings.len(), 4, "{journal}");
    assert!(rulings
        .iter()
        .all(|r| r["citation"] == "§3.1.2, §3.1.2.1, §3.1.2.2" && r["table"] == id.as_str()));
    // Play on to a winner: the prizes are the pool, purchases included.
    d.post(
        &format!("/api/tournaments/{id}/clock"),
        r#"{"seconds": 300}"#,
    );
    for _ in 0..20_000 {
        let v = view(&d, &id);
        if v["status"] == "finished" {
            break;
        }
        if v["round_in_play"].is_null() {
            d.post(&format!("/api/tournaments/{id}/rounds"), "");
            continue;
        }
        assert!(act_once(&d, &id, &tokens, &mut rng));
    }
    let v = view(&d, &id);
    assert_eq!(v["status"], "finished");
    let paid: u64 = v["places"]
        .as_array()
        .expect("places")
        .iter()
        .map(|p| p["prize"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(paid, money(&v2, "prize_pool"), "{}", v["places"]);
}
