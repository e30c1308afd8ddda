//! Live streams never carry a card their viewer may not see at that moment (finding 1 of the
//! security review): the two reproducers of the review, and a property test that drives
//! random seat changes, leaves, joins, deals and actions at a real daemon — cash tables, and
//! tournaments played to the end through their table moves and breaks — and checks every
//! event of every stream against what the REST view showed the same token at some moment.

use crate::support;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::Value;
use support::sse::{Event, Stream};
use support::{Daemon, Scratch};

/// No clock tick during a test: every change at a table is one the test made.
const NO_TICK: &str = "clock_tick_ms: 3600000";

fn open_table(d: &Daemon, ruleset: &str) -> String {
    let created = d.post(
        "/api/tables",
        &format!(r#"{{"ruleset": "{ruleset}", "blinds": [1, 2], "seats": 6, "buy_in": 100}}"#),
    );
    created["table"].as_str().expect("table id").to_string()
}

/// Seats `name` at `seat` (operator); its token.
fn sit(d: &Daemon, t: &str, seat: usize, name: &str) -> String {
    let r = d.post(
        &format!("/api/tables/{t}/seats"),
        &format!(r#"{{"seat": {seat}, "name": "{name}", "stack": 100}}"#),
    );
    r["token"].as_str().expect("token").to_string()
}

fn stream(d: &Daemon, t: &str, token: &str) -> Stream {
    Stream::open(&d.addr, &format!("/api/tables/{t}/stream?token={token}"))
}

fn cards(view: &Value, seat: usize) -> &Value {
    &view["seats"][seat - 1]["cards"]
}

fn tables(events: &[Event]) -> Vec<&Value> {
    events
        .iter()
        .filter(|e| e.name == "table")
        .map(|e| &e.data)
        .collect()
}

#[test]
fn finding_1_a_player_who_left_gets_his_stream_closed_and_never_the_next_occupants_cards() {
    let scratch = Scratch::new("stream-leave");
    let d = Daemon::start_with(&scratch.rulesets(), &scratch.data(), NO_TICK);
    let t = open_table(&d, "pt-online");
    sit(&d, &t, 1, "Ana");
    sit(&d, &t, 2, "Rui");
    let x = sit(&d, &t, 4, "Xico");
    let watched = stream(&d, &t, &x);
    watched.wait("the first event", |e, _| !e.is_empty());
    // X leaves: his token is refused on REST, and his stream ends saying why.
    let (status, _) = d.request(
        "DELETE",
        &format!("/api/tables/{t}/seats/4"),
        Some(&x),
        None,
    );
    assert_eq!(status, 200);
    assert_eq!(
        d.request("GET", &format!("/api/tables/{t}"), Some(&x), None)
            .0,
        401
    );
    watched.wait("the stream to end", |_, ended| ended);
    let last = watched.events().last().cloned().expect("events");
    assert_eq!(last.name, "closed");
    assert!(last.data["error"]
        .as_str()
        .is_some_and(|e| e.contains("no longer valid")));
    // Y sits in seat 4 and a hand is dealt: nothing more reaches X.
    sit(&d, &t, 4, "Yara");
    d.post(&format!("/api/tables/{t}/hands"), r#"{"seed": 3}"#);
    let y_cards = d.view(&t)["seats"][3]["cards"].clone();
    assert!(y_cards.is_array(), "Yara was dealt in");
    for event in tables(&watched.events()) {
        assert!(cards(event, 4).is_null(), "{event}");
    }
    // A new stream with the old token is refused.
    let (status, _) = d.request(
        "GET",
        &format!("/api/tables/{t}/stream?token={x}"),
        None,
        None,
    );
    assert_eq!(status, 401);
}

#[test]
fn finding_1_a_player_moved_by_a_seat_change_sees_his_new_seats_cards_not_his_old_seats() {
    let scratch = Scratch::new("stream-move");
    let d = Daemon::start_with(&scratch.rulesets(), &scratch.data(), NO_TICK);
    // pt-casino-2007 rule 12(a): a seat-change request takes the next vacant seat.
    let created = d.post(
        "/api/tables",
        r#"{"ruleset": "pt-casino-2007", "blinds": [1, 2], "seats": 10, "buy_in": 100}"#,
    );
    let t = created["table"].as_str().expect("id").to_string();
    let a = sit(&d, &t, 1, "Ana");
    sit(&d, &t, 2, "Rui");
    let c = sit(&d, &t, 3, "Cid");
    // Rule 24: a hand needs four players.
    sit(&d, &t, 5, "Eva");
    let watched = stream(&d, &t, &a);
    watched.wait("the first event", |e, _| !e.is_empty());
    let asked = d.request(
        "POST",
        &format!("/api/tables/{t}/seats/1/seat_change"),
        Some(&a),
        None,
    );
    assert_eq!(asked.0, 200, "{}", asked.1);
    // C leaves seat 3; A moves there; D sits in seat 1; a hand is dealt.
    let (status, _) = d.request(
        "DELETE",
        &format!("/api/tables/{t}/seats/3"),
        Some(&c),
        None,
    );
    assert_eq!(status, 200);
    let moved = d.view(&t);
    assert_eq!(moved["seats"][2]["player"], "Ana", "{moved}");
    sit(&d, &t, 1, "Dora");
    d.post(&format!("/api/tables/{t}/hands"), r#"{"seed": 5}"#);
    let operator = d.view(&t);
    let own = d.get(&format!("/api/tables/{t}"), Some(&a));
    assert_eq!(cards(&own, 3), cards(&operator, 3), "A sees his own cards");
    assert!(cards(&own, 1).is_null(), "and not D's: {own}");
    watched.wait("the deal", |e, _| {
        tables(e).last().is_some_and(|v| v["hand"]["number"] == 1)
    });
    let events = watched.events();
    let last = tables(&events).last().copied().cloned().expect("events");
    assert_eq!(last, own, "the stream shows what REST shows A");
    let d_cards = cards(&operator, 1).to_string();
    for event in tables(&events) {
        assert!(
            cards(event, 1).is_null(),
            "D's cards {d_cards} on A's stream: {event}"
        );
        assert!(!event.to_string().contains(&d_cards));
    }
}

/// One step of the cash-table property test.
#[derive(Clone, Debug)]
enum Op {
    /// Person `p` sits at seat `s` (operator).
    Join(usize, usize),
    /// Person `p` leaves (his own token).
    Leave(usize),
    /// Person `p` asks for the next seat that falls vacant.
    SeatChange(usize),
    /// The operator deals.
    Deal,
    /// The player to act acts: 0 fold, 1 check or call, 2 minimum raise, 3 all in.
    Act(u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0..7usize, 1..=6usize).prop_map(|(p, s)| Op::Join(p, s)),
        2 => (0..7usize).prop_map(Op::Leave),
        2 => (0..7usize).prop_map(Op::SeatChange),
        2 => Just(Op::Deal),
        6 => (0..4u8).prop_map(Op::Act),
    ]
}

/// A token ever given out, its stream, and every view REST gave it, one per moment.
struct Ticket {
    name: String,
    token: String,
    stream: Stream,
    seen: Vec<Value>,
    valid: bool,
}

struct Cash<'a> {
    d: &'a Daemon,
    t: String,
    tickets: Vec<Ticket>,
}

const PEOPLE: [&str; 7] = ["Ana", "Rui", "Eva", "Gil", "Lia", "Ivo", "Bia"];

impl Cash<'_> {
    fn view(&self) -> Value {
        self.d.view(&self.t)
    }

    /// The seat person `name` sits at now.
    fn seat_of(&self, name: &str) -> Option<usize> {
        self.view()["seats"]
            .as_array()?
            .iter()
            .find(|s| s["player"] == name)
            .and_then(|s| s["seat"].as_u64())
            .map(|s| s as usize)
    }

    /// The live ticket of `name`.
    fn token_of(&self, name: &str) -> Option<String> {
        self.tickets
            .iter()
            .rev()
            .find(|t| t.name == name && t.valid)
            .map(|t| t.token.clone())
    }

    /// Records what REST shows every live token now.
    fn snapshot(&mut self) {
        for ticket in &mut self.tickets {
            if !ticket.valid {
                continue;
            }
            let (status, view) = self.d.request(
                "GET",
                &format!("/api/tables/{}", self.t),
                Some(&ticket.token),
                None,
            );
            match status {
                200 => ticket.seen.push(view),
                401 => ticket.valid = false,
                other => panic!("GET as {}: {other} {view}", ticket.name),
            }
        }
    }

    fn apply(&mut self, op: &Op) {
        let t = self.t.clone();
        match *op {
            Op::Join(p, s) => {
                let name = PEOPLE[p];
                if self.seat_of(name).is_some() {
                    return;
                }
                let (status, r) = self.d.request(
                    "POST",
                    &format!("/api/tables/{t}/seats"),
                    Some(&self.d.operator),
                    Some(&format!(
                        r#"{{"seat": {s}, "name": "{name}", "stack": 100}}"#
                    )),
                );
                if status == 200 {
                    let token = r["token"].as_str().expect("token").to_string();
                    let stream = stream(self.d, &t, &token);
                    self.tickets.push(Ticket {
                        name: name.into(),
                        token,
                        stream,
                        seen: Vec::new(),
                        valid: true,
                    });
                }
            }
            Op::Leave(p) | Op::SeatChange(p) => {
                let name = PEOPLE[p];
                let (Some(seat), Some(token)) = (self.seat_of(name), self.token_of(name)) else {
                    return;
                };
                let (method, path) = match op {
                    Op::Leave(_) => ("DELETE", format!("/api/tables/{t}/seats/{seat}")),
                    _ => ("POST", format!("/api/tables/{t}/seats/{seat}/seat_change")),
                };
                self.d.request(method, &path, Some(&token), None);
            }
            Op::Deal => {
                self.d.request(
                    "POST",
                    &format!("/api/tables/{t}/hands"),
                    Some(&self.d.operator),
                    None,
                );
            }
            Op::Act(kind) => {
                let view = self.view();
                let hand = &view["hand"];
                let Some(seat) = hand["to_act"].as_u64() else {
                    return;
                };
                if hand["phase"] != "Betting" {
                    return;
                }
                let action = match (kind, hand["min_raise_to"].as_u64()) {
                    (0, _) if hand["to_call"].as_u64() > Some(0) => r#""f""#.to_string(),
                    (2, Some(min)) => format!(r#"{{"raise_to": {min}}}"#),
                    (3, Some(_)) => r#""all_in""#.to_string(),
                    _ => r#""cc""#.to_string(),
                };
                let name = view["seats"][seat as usize - 1]["player"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                let token = self
                    .token_of(&name)
                    .unwrap_or_else(|| self.d.operator.clone());
                let (status, body) = self.d.request(
                    "POST",
                    &format!("/api/tables/{t}/actions"),
                    Some(&token),
                    Some(&format!(r#"{{"seat": {seat}, "action": {action}}}"#)),
                );
                assert_eq!(status, 200, "{name} at {seat}: {action}: {body}");
            }
        }
    }

    /// Plays the hand in progress to its end, a moment recorded after each action.
    fn finish(&mut self) {
        for _ in 0..200 {
            let view = self.view();
            if view["hand"].is_null()
                || view["hand"]["phase"] == "Complete"
                || view["hand"]["voided"] == true
            {
                return;
            }
            self.apply(&Op::Act(1));
            self.snapshot();
        }
        panic!("the hand did not finish");
    }
}

/// Every `table` event of the stream is a view REST gave its token at some moment; a stream
/// whose token stopped being valid ended with `closed` saying so.
fn check_stream(ticket: &Ticket) -> Result<(), TestCaseError> {
    let events = ticket.stream.events();
    for (i, event) in events.iter().enumerate() {
        match event.name.as_str() {
            "table" => prop_assert!(
                ticket.seen.contains(&event.data),
                "event {i} of {}'s stream is no view REST ever gave him: {}",
                ticket.name,
                event.data
            ),
            "closed" => prop_assert_eq!(i, events.len() - 1, "closed is the last event"),
            other => prop_assert!(false, "event {other} on {}'s stream", ticket.name),
        }
    }
    if !ticket.valid {
        prop_assert!(
            events
                .last()
                .is_some_and(|e| e.name == "closed" && e.data["error"].is_string()),
            "{}'s stream did not end when his token did: {:?}",
            ticket.name,
            events.last()
        );
    }
    Ok(())
}

#[test]
fn finding_1_no_cash_table_stream_carries_a_card_its_viewer_may_not_see_at_that_moment() {
    let scratch = Scratch::new("stream-prop-cash");
    let d = Daemon::start_with(&scratch.rulesets(), &scratch.data(), NO_TICK);
    let config = Config {
        cases: 12,
        max_shrink_iters: 16,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let strategy = (
        prop_oneof![Just("pt-online"), Just("pt-casino-2007")],
        proptest::collection::vec(op(), 10..40),
    );
    let outcome = runner.run(&strategy, |(ruleset, ops)| {
        let t = if ruleset == "pt-online" {
            open_table(&d, ruleset)
        } else {
            let created = d.post(
                "/api/tables",
                r#"{"ruleset": "pt-casino-2007", "blinds": [1, 2], "seats": 10, "buy_in": 100}"#,
            );
            created["table"].as_str().expect("id").to_string()
        };
        let mut cash = Cash {
            d: &d,
            t: t.clone(),
            tickets: Vec::new(),
        };
        for op in &ops {
            cash.apply(op);
            cash.snapshot();
        }
        cash.finish();
        // Closed: every stream renders its last moment and ends.
        let (status, body) = d.request(
            "DELETE",
            &format!("/api/tables/{t}"),
            Some(&d.operator),
            None,
        );
        prop_assert_eq!(status, 200, "{}", body);
        for ticket in &cash.tickets {
            ticket.stream.wait("the end", |_, ended| ended);
            check_stream(ticket)?;
        }
        Ok(())
    });
    if let Err(e) = outcome {
        panic!("{e}");
    }
}

/// The tournament as `token` sees it (the public with none).
fn tournament_view(d: &Daemon, id: &str, token: Option<&str>) -> Value {
    d.get(&format!("/api/tournaments/{id}"), token)
}

/// A small fast tournament of `players` (1-minute levels, each round 30 seconds of the
/// clock), registered; its id and each viewer (the public, the auditor, every player) with
/// its token.
fn small_tournament(
    d: &Daemon,
    players: usize,
    seed: u64,
) -> (String, Vec<(String, Option<String>)>) {
    let levels: Vec<String> = (0..12u64)
        .map(|i| {
            let bb = 20u64 << i;
            format!(
                r#"{{"small_blind": {}, "big_blind": {bb}, "minutes": 1}}"#,
                bb / 2
            )
        })
        .collect();
    let created = d.post(
        "/api/tournaments",
        &format!(
            r#"{{"ruleset": "pt-tournament", "structure": {{"levels": [{}]}}, "starting_stack": 1000,
                "buy_in": 5000, "fee_percent": 10, "seats_per_table": 6, "seed": {seed},
                "seconds_per_round": 30,
                "payouts": {{"bands": [{{"entries_min": 2, "shares_percent": [70, 30]}}]}}}}"#,
            levels.join(", ")
        ),
    );
    let id = created["tournament"].as_str().expect("id").to_string();
    let mut viewers: Vec<(String, Option<String>)> = vec![
        ("public".into(), None),
        ("auditor".into(), Some(d.auditor.clone())),
    ];
    for i in 1..=players {
        let name = format!("p{i:02}");
        let r = d.post(
            &format!("/api/tournaments/{id}/players"),
            &format!(r#"{{"name": "{name}"}}"#),
        );
        viewers.push((name, r["token"].as_str().map(str::to_string)));
    }
    (id, viewers)
}

/// The table, seat and player to act somewhere in tournament view `v`, with the hand.
fn to_act(v: &Value) -> Option<(u64, u64, String, Value)> {
    v["tables"].as_array()?.iter().find_map(|t| {
        let hand = &t["table"]["hand"];
        let seat = hand["to_act"].as_u64()?;
        (hand["phase"] == "Betting").then(|| {
            let name = t["table"]["seats"][seat as usize - 1]["player"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            (t["number"].as_u64().unwrap_or(0), seat, name, hand.clone())
        })
    })
}

/// Every tournament view REST gave each viewer, one per moment.
struct Seen<'a> {
    d: &'a Daemon,
    id: String,
    viewers: Vec<(String, Option<String>)>,
    views: Vec<Vec<Value>>,
}

impl Seen<'_> {
    fn snapshot(&mut self) {
        for (i, (_, token)) in self.viewers.iter().enumerate() {
            self.views[i].push(tournament_view(self.d, &self.id, token.as_deref()));
        }
    }

    fn token_of(&self, name: &str) -> String {
        self.viewers
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, t)| t.clone())
            .unwrap_or_else(|| self.d.operator.clone())
    }
}

/// Plays tournament `seen.id` to its end, each action its player's (all-in, call or fold as
/// `choices` say, in turn), a moment recorded after each; returns the table counts seen.
fn play_to_the_end(seen: &mut Seen, choices: &[u8]) -> Result<Vec<usize>, TestCaseError> {
    let (d, id) = (seen.d, seen.id.clone());
    let mut tables_seen: Vec<usize> = Vec::new();
    for step in 0..5000 {
        let v = tournament_view(d, &id, Some(&d.operator));
        let tables = v["tables"].as_array().map_or(0, Vec::len);
        if tables_seen.last() != Some(&tables) {
            tables_seen.push(tables);
        }
        if v["status"] == "finished" {
            return Ok(tables_seen);
        }
        let Some((table, seat, name, hand)) = to_act(&v) else {
            // A break or a round to deal.
            d.request(
                "POST",
                &format!("/api/tournaments/{id}/rounds"),
                Some(&d.operator),
                None,
            );
            seen.snapshot();
            continue;
        };
        let action = match choices[step % choices.len()] {
            0..=5 if hand["max_raise_to"].is_u64() => r#""all_in""#,
            6 if hand["to_call"].as_u64() > Some(0) => r#""f""#,
            _ => r#""cc""#,
        };
        let (status, body) = d.request(
            "POST",
            &format!("/api/tournaments/{id}/tables/{table}/actions"),
            Some(&seen.token_of(&name)),
            Some(&format!(r#"{{"seat": {seat}, "action": {action}}}"#)),
        );
        prop_assert_eq!(status, 200, "{} at {}/{}: {}", name, table, seat, body);
        seen.snapshot();
    }
    Err(TestCaseError::fail(
        "the tournament did not finish in 5000 steps",
    ))
}

#[test]
fn finding_1_no_tournament_stream_carries_a_card_its_viewer_may_not_see_through_moves_and_breaks() {
    let scratch = Scratch::new("stream-prop-tour");
    let d = Daemon::start_with(&scratch.rulesets(), &scratch.data(), NO_TICK);
    let config = Config {
        cases: 3,
        max_shrink_iters: 4,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let strategy = (
        8..=12usize,
        any::<u64>(),
        proptest::collection::vec(0..10u8, 16..64),
    );
    let outcome = runner.run(&strategy, |(players, seed, choices)| {
        let (id, viewers) = small_tournament(&d, players, seed);
        let streams: Vec<Stream> = viewers
            .iter()
            .map(|(_, token)| {
                let query = token
                    .as_deref()
                    .map_or(String::new(), |t| format!("?token={t}"));
                Stream::open(&d.addr, &format!("/api/tournaments/{id}/stream{query}"))
            })
            .collect();
        let mut seen = Seen {
            d: &d,
            id: id.clone(),
            views: vec![Vec::new(); viewers.len()],
            viewers,
        };
        seen.snapshot();
        d.post(&format!("/api/tournaments/{id}/start"), "");
        seen.snapshot();
        let tables_seen = play_to_the_end(&mut seen, &choices)?;
        // Two tables broken down to one: players were moved.
        prop_assert_eq!(tables_seen.first(), Some(&2), "{:?}", tables_seen);
        prop_assert_eq!(tables_seen.last(), Some(&1), "{:?}", tables_seen);
        // Closed: every stream ends.
        let (status, body) = d.request(
            "DELETE",
            &format!("/api/tournaments/{id}"),
            Some(&d.operator),
            None,
        );
        prop_assert_eq!(status, 200, "{}", body);
        for (i, stream) in streams.iter().enumerate() {
            stream.wait("the end", |_, ended| ended);
            let who = &seen.viewers[i].0;
            for event in stream.events() {
                match event.name.as_str() {
                    "tournament" => prop_assert!(
                        seen.views[i].contains(&event.data),
                        "an event of {}'s stream is no view REST ever gave him: {}",
                        who,
                        event.data
                    ),
                    "closed" => {}
                    other => prop_assert!(false, "event {} on {}'s stream", other, who),
                }
            }
        }
        Ok(())
    });
    if let Err(e) = outcome {
        panic!("{e}");
    }
}
