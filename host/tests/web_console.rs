//! The dealer's console in a real headless browser (Debian's `chromium`, which `tests/run`
//! installs) on what the table view carries beyond the hand: a penalty whose sanction the
//! text leaves to the floor, asked and answered from the console, and the seats noted away.

use crate::support;

use serde_json::{json, Value};
use support::browser::{console_pressing, row, text_of};
use support::{Daemon, Scratch, TOURNAMENT_RULES_TABLE};

/// Starts the next hand at `table`.
fn deal_next(d: &Daemon, table: &str) {
    d.post(&format!("/api/tables/{table}/hands"), "");
}

/// pt-tournament Art. 68º: exposing cards with the action pending draws a penalty whose
/// sanction Art. 71º(1) leaves to the floor. Given from the console with no sanction, the
/// table waits and the console asks, one button per sanction the text allows; the floor
/// presses "orbits" for one orbit, and at the next deal seat 3 serves it: his cards are
/// dealt and killed, the hands he sits out counted.
#[test]
fn art_68_the_console_asks_the_floor_for_the_sanction_and_the_seat_serves_the_orbit() {
    let scratch = Scratch::new("web-console-penalty-question");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let table = d.four_dealt(TOURNAMENT_RULES_TABLE);
    let profile = scratch.0.join("chromium-console-penalty-question");
    let asked = console_pressing(
        &d,
        &profile,
        &table,
        "penalty-seat:3,penalty-offence:exposing_cards",
        "penalty",
    );
    let view = d.view(&table);
    let question = view["awaiting_penalty"].clone();
    assert_eq!(question["seat"], 3, "{view}");
    assert_eq!(question["player"], "player3", "{view}");
    assert_eq!(question["offence"], "exposing_cards", "{view}");
    assert_eq!(question["point"], "conduct.exposing_cards", "{view}");
    assert_eq!(
        question["choices"],
        json!(["warning", "hands N", "orbits N", "disqualification"]),
        "Art. 71º(1)'s sanctions: {view}"
    );
    let article = question["citation"]["text"].as_str().expect("an article");
    assert!(article.starts_with("Art. 68º"), "{view}");
    assert!(
        !asked.contains("id=\"penalty-question\" hidden"),
        "the question is shown"
    );
    let drawn = text_of(&asked, "penalty-question").unwrap_or_default();
    for part in ["seat 3", "player3", "exposing_cards", article] {
        assert!(drawn.contains(part), "`{part}` in the question: {drawn}");
    }
    for kind in ["warning", "hands", "orbits", "disqualification"] {
        assert!(
            asked.contains(&format!("id=\"sanction-{kind}\"")),
            "a button for {kind}: {drawn}"
        );
    }
    // The table waits: another penalty is refused until the floor answers.
    let (status, _) = d.request(
        "POST",
        &format!("/api/tables/{table}/events"),
        Some(&d.operator),
        Some(r#"{"PenaltyGiven": {"player": 2, "offence": "exposing_cards", "sanction": "warning"}}"#),
    );
    assert_eq!(status, 409);

    let answered = console_pressing(&d, &profile, &table, "penalty-count:1", "sanction-orbits");
    let rulings = text_of(&answered, "rulings").unwrap_or_default();
    assert!(
        rulings.contains("conduct.exposing_cards") && rulings.contains("Art. 68º"),
        "the floor's ruling with its article: {rulings}"
    );
    let view = d.view(&table);
    assert!(view.get("awaiting_penalty").is_none(), "answered: {view}");
    assert!(
        answered.contains("id=\"penalty-question\" hidden"),
        "the question is gone"
    );
    assert_eq!(
        view["seats"][2]["penalty"],
        json!({"offence": "exposing_cards", "sanction": "orbits 1", "hands_left": null, "leaving": false}),
        "{view}"
    );

    // Art. 71º(1): it starts at the next deal; his cards are dealt and killed.
    d.play_out(&table);
    deal_next(&d, &table);
    let serving = d.view(&table);
    let seat3 = &serving["seats"][2];
    assert_eq!(seat3["in_hand"], true, "{serving}");
    assert_eq!(seat3["folded"], true, "his hand is dead: {serving}");
    assert_eq!(
        seat3["penalty"]["hands_left"], 3,
        "4 players × 1 orbit, this hand the first served: {serving}"
    );
    let served = serving["hand"]["rulings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .find(|r| r.contains("player3 serves his penalty (orbits 1)"))
        .unwrap_or_default();
    assert!(served.contains("penalty.serving"), "{serving}");
    let chips: u64 = support::seat_stacks(&serving).iter().sum::<u64>()
        + serving["hand"]["pot"].as_u64().unwrap_or(0);
    assert_eq!(chips, 800, "{serving}");
}

/// pt-tournament Art. 31º: a player who walks away from the table with a live hand is noted
/// away and his hand stays live. The console's "left his seat with a live hand" button reports
/// it and the seat is drawn with the mark; a player resting is drawn sitting out.
#[test]
fn art_31_the_console_notes_a_player_away_and_draws_the_mark_at_his_seat() {
    let scratch = Scratch::new("web-console-away");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let table = d.four_dealt(TOURNAMENT_RULES_TABLE);
    let first = d.view(&table)["hand"]["to_act"].as_u64().expect("to act");
    let away = first % 4 + 1;
    let resting = away % 4 + 1;
    d.post(&format!("/api/tables/{table}/seats/{resting}/sit_out"), "");
    let dom = console_pressing(
        &d,
        &scratch.0.join("chromium-console-away"),
        &table,
        &format!("presence-seat:{away}"),
        "left-seat",
    );
    let rulings = text_of(&dom, "rulings").unwrap_or_default();
    assert!(
        rulings.contains("presence.remain_at_table_with_live_hand") && rulings.contains("Art. 31º"),
        "the ruling with its article: {rulings}"
    );
    let view = d.view(&table);
    let seat = &view["seats"][(away - 1) as usize];
    assert_eq!(seat["away"], true, "{view}");
    assert_eq!(seat["folded"], false, "the hand stays live: {view}");
    assert_eq!(
        view["seats"][(resting - 1) as usize]["sitting_out"],
        true,
        "{view}"
    );
    let marked: Vec<u64> = (1..=4)
        .filter(|&s| row(&dom, "data-seat", &s.to_string()).is_some_and(|l| l.contains("· away")))
        .collect();
    assert_eq!(marked, vec![away], "{dom}");
    let line = row(&dom, "data-seat", &resting.to_string()).unwrap_or_default();
    assert!(line.contains("sitting out"), "seat {resting}: {line}");
}

/// What a player's own token shows of the same table: the penalty question and the away
/// mark, which everyone at the table sees, and no hole cards but his own.
#[test]
fn a_player_sees_the_penalty_question_and_the_away_mark_and_only_his_own_cards() {
    let scratch = Scratch::new("view-player-question");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let (table, tokens) = d.table("pt-tournament", 4, 200);
    deal_next(&d, &table);
    let first = d.view(&table)["hand"]["to_act"].as_u64().expect("to act");
    let away = first % 4 + 1;
    d.post(
        &format!("/api/tables/{table}/events"),
        &format!(
            r#"{{"Situation": {{"point": "presence.remain_at_table_with_live_hand", "facts": {{"seat": {away}}}}}}}"#
        ),
    );
    d.post(
        &format!("/api/tables/{table}/events"),
        r#"{"PenaltyGiven": {"player": 3, "offence": "exposing_cards"}}"#,
    );
    let operator = d.view(&table);
    for (i, token) in tokens.iter().enumerate() {
        let own = i as u64 + 1;
        let seen: Value = d.get(&format!("/api/tables/{table}"), Some(token));
        assert_eq!(
            seen["awaiting_penalty"], operator["awaiting_penalty"],
            "{seen}"
        );
        assert_eq!(seen["seats"][(away - 1) as usize]["away"], true, "{seen}");
        for s in seen["seats"].as_array().into_iter().flatten() {
            let seat = s["seat"].as_u64().unwrap_or(0);
            assert_eq!(
                s["cards"].is_array(),
                seat == own,
                "player{own} sees only his own cards: {seen}"
            );
        }
    }
}
