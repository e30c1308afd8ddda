//! Rulings that act, at a live table over HTTP: the dealer's console (the operator's token)
//! reports a misdeal and a premature flop; the daemon journals each, the engine carries the
//! ruling out, and a daemon killed with SIGKILL between them replays to exactly the table it
//! acknowledged.

use crate::support;

use serde_json::Value;
use support::{seat_stacks, Daemon, Scratch, CASINO_TABLE_CALLED_SHOWDOWN, TOURNAMENT_RULES_TABLE};

/// The operator's view of the table, as the console draws it.
fn table(d: &Daemon, t: &str) -> Value {
    d.view(t)
}

/// Posts a table event as the operator; returns the ruling.
fn event(d: &Daemon, t: &str, body: &str) -> Value {
    d.post(&format!("/api/tables/{t}/events"), body)["ruling"].clone()
}

#[test]
fn a_misdeal_and_a_premature_flop_at_a_live_table_survive_kill_9_exactly() {
    let scratch = Scratch::new("serve-rulings");
    let data = scratch.data();
    let d = Daemon::start(&scratch.rulesets(), &data);
    // pt-casino-2007 rule 6: a hold'em table has ten seats; four players are seated.
    let t = d.dealt_table();
    let dealt = table(&d, &t);
    assert_eq!(dealt["hand"]["dealer"]["stub"], 52 - 8, "{dealt}");

    // Rule 69(a): the cards dealt out of order — a misdeal; the 2007 decree starts a new
    // hand (rule 30 moves the mão), so the hand is void and every bet goes back.
    let misdeal = event(
        &d,
        &t,
        r#"{"Situation": {"point": "deal.misdeal_conditions", "facts": {"error": "wrong_order"}}}"#,
    );
    assert_eq!(misdeal["outcome"], "misdeal", "{misdeal}");
    assert_eq!(misdeal["fields"]["remedy"], "misdeal", "{misdeal}");
    let voided = table(&d, &t);
    assert_eq!(voided["hand"]["voided"], true, "{voided}");
    let stacks = |v: &Value| -> Vec<u64> {
        v["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .filter_map(|s| {
                s["player"]
                    .as_str()
                    .map(|_| s["stack"].as_u64().unwrap_or(0))
            })
            .collect()
    };
    assert_eq!(
        stacks(&voided),
        vec![200; 4],
        "every bet returned: {voided}"
    );

    // Killed without a chance to flush anything: what was acknowledged comes back exactly.
    d.kill9();
    let d = Daemon::start(&scratch.rulesets(), &data);
    assert_eq!(table(&d, &t), voided, "the void hand after the restart");

    // The next hand; the first to act calls; then the dealer turns the flop too early.
    d.post(&format!("/api/tables/{t}/hands"), "");
    let first = table(&d, &t)["hand"]["to_act"].as_u64().expect("to act");
    d.post(
        &format!("/api/tables/{t}/actions"),
        &format!(r#"{{"seat": {first}, "action": "cc"}}"#),
    );
    let premature = event(
        &d,
        &t,
        r#"{"Situation": {"point": "board.premature_flop"}}"#,
    );
    assert_eq!(
        premature["citation"]["text"], "rule 70(d),(h)",
        "{premature}"
    );
    assert_eq!(
        premature["fields"]["remedy"], "return_premature",
        "{premature}"
    );
    let after = table(&d, &t);
    let hand = &after["hand"];
    assert_eq!(
        hand["dealer"]["set_aside"].as_array().map(Vec::len),
        Some(3),
        "{after}"
    );
    assert_eq!(hand["dealer"]["burns"], 1, "{after}");
    assert_eq!(hand["dealer"]["stub"], 52 - 8 - 4, "{after}");
    assert_eq!(hand["board"].as_array().map(Vec::len), Some(0), "{after}");
    // Rule 70(h): the three who had not acted may only call — the menu has no raise.
    assert_eq!(
        hand["call_only"].as_array().map(Vec::len),
        Some(3),
        "{after}"
    );
    assert!(hand["min_raise_to"].is_null(), "{after}");
    let next = hand["to_act"].as_u64().expect("to act");
    let (status, refused) = d.request(
        "POST",
        &format!("/api/tables/{t}/actions"),
        Some(&d.operator),
        Some(&format!(r#"{{"seat": {next}, "action": "cbr 10"}}"#)),
    );
    assert!(status >= 400, "a capped raise was accepted: {refused}");
    assert!(
        refused.to_string().contains("only to call"),
        "the refusal says why: {refused}"
    );

    // The betting finishes: the flop comes from the reshuffled stub, without a burn.
    for _ in 0..3 {
        let seat = table(&d, &t)["hand"]["to_act"].as_u64().expect("to act");
        d.post(
            &format!("/api/tables/{t}/actions"),
            &format!(r#"{{"seat": {seat}, "action": "cc"}}"#),
        );
    }
    let flop = table(&d, &t);
    let hand = &flop["hand"];
    assert_eq!(hand["board"].as_array().map(Vec::len), Some(3), "{flop}");
    assert_eq!(
        hand["dealer"]["burns"], 1,
        "no burn before the new flop: {flop}"
    );
    assert_eq!(
        hand["dealer"]["set_aside"].as_array().map(Vec::len),
        Some(0),
        "{flop}"
    );
    assert_eq!(hand["dealer"]["stub"], 52 - 8 - 1 - 3, "{flop}");
    assert!(
        hand.get("call_only").is_none(),
        "the cap ends with the round: {flop}"
    );
    // Killed mid-hand: the restart replays the journal to exactly this hand — the premature
    // flop returned, the new flop from the reshuffled stub — and then voids it, as the daemon
    // voids every hand a crash interrupted, every bet returned, saying so.
    d.kill9();
    let d = Daemon::start(&scratch.rulesets(), &data);
    let restarted = table(&d, &t);
    let hand = &restarted["hand"];
    assert_eq!(hand["voided"], true, "{restarted}");
    assert_eq!(hand["dealer"], flop["hand"]["dealer"], "{restarted}");
    assert_eq!(hand["board"], flop["hand"]["board"], "{restarted}");
    let rulings = |v: &Value| v["hand"]["rulings"].as_array().cloned().unwrap_or_default();
    let (before, after) = (rulings(&flop), rulings(&restarted));
    assert_eq!(after[..before.len()], before[..], "{restarted}");
    assert!(
        after[before.len()..].iter().any(|r| r
            .as_str()
            .is_some_and(|r| r.contains("online.communication_failure"))),
        "the void is a ruling: {restarted}"
    );
    assert_eq!(
        stacks(&restarted),
        vec![200; 4],
        "every bet returned: {restarted}"
    );
}

/// The seat to act, and the seat after him (who acts out of turn).
fn to_act_and_next(d: &Daemon, t: &str) -> (u64, u64) {
    let first = table(d, t)["hand"]["to_act"].as_u64().expect("to act");
    (first, first % 4 + 1)
}

/// A raise to 6 out of turn by `seat`, as the dealer's console reports it.
fn raise_out_of_turn(d: &Daemon, t: &str, seat: u64) -> Value {
    event(
        d,
        t,
        &format!(r#"{{"Played": {{"player": {seat}, "action": {{"BetOrRaiseTo": 6}}}}}}"#),
    )
}

fn bet_of(view: &Value, seat: u64) -> u64 {
    view["seats"][(seat - 1) as usize]["bet"]
        .as_u64()
        .expect("a bet")
}

#[test]
fn an_action_out_of_turn_is_held_and_put_in_at_its_turn_and_replays_after_kill_9() {
    let scratch = Scratch::new("serve-out-of-turn");
    let data = scratch.data();
    let d = Daemon::start(&scratch.rulesets(), &data);
    let t = d.dealt_table();
    let (first, late) = to_act_and_next(&d, &t);
    // Rule 71(f): a bet out of turn is valid and may not be increased at his turn; the table
    // holds it until his turn comes, his chips still behind him.
    let ruling = raise_out_of_turn(&d, &t, late);
    assert_eq!(ruling["outcome"], "binding", "{ruling}");
    assert_eq!(ruling["fields"]["remedy"], "hold_action", "{ruling}");
    assert_eq!(ruling["citation"]["text"], "rule 71(f)", "{ruling}");
    let holding = table(&d, &t);
    assert_eq!(
        holding["hand"]["held"],
        serde_json::json!([{"seat": late, "action": "raise 6"}]),
        "{holding}"
    );
    assert_eq!(holding["hand"]["to_act"], first, "{holding}");
    assert_eq!(bet_of(&holding, late), 0, "{holding}");

    // Killed while the raise is held: the journal replays to exactly that hand (the raise
    // still held), which the restart then voids as it voids every hand a crash interrupted.
    d.kill9();
    let d = Daemon::start(&scratch.rulesets(), &data);
    let restarted = table(&d, &t);
    assert_eq!(restarted["hand"]["voided"], true, "{restarted}");
    assert_eq!(
        restarted["hand"]["held"], holding["hand"]["held"],
        "{restarted}"
    );
    let rulings = |v: &Value| v["hand"]["rulings"].as_array().cloned().unwrap_or_default();
    let (before, after) = (rulings(&holding), rulings(&restarted));
    assert_eq!(after[..before.len()], before[..], "{restarted}");

    // The next hand: the raise out of turn is held, the player in turn calls (the action
    // before the raise does not change), and at its turn the held raise goes in.
    d.post(&format!("/api/tables/{t}/hands"), "");
    let (first, late) = to_act_and_next(&d, &t);
    raise_out_of_turn(&d, &t, late);
    d.post(
        &format!("/api/tables/{t}/actions"),
        &format!(r#"{{"seat": {first}, "action": "cc"}}"#),
    );
    let put_in = table(&d, &t);
    assert!(put_in["hand"].get("held").is_none(), "{put_in}");
    assert_eq!(bet_of(&put_in, late), 6, "{put_in}");
    assert_eq!(put_in["hand"]["to_act"], late % 4 + 1, "{put_in}");
    assert!(
        rulings(&put_in).iter().any(|r| r
            .as_str()
            .is_some_and(|r| r.contains("raise out of turn (6) is put in at his turn"))),
        "the log says so: {put_in}"
    );
    d.kill9();
    let d = Daemon::start(&scratch.rulesets(), &data);
    let replayed = table(&d, &t);
    let (before, after) = (rulings(&put_in), rulings(&replayed));
    assert_eq!(after[..before.len()], before[..], "{replayed}");
    assert_eq!(replayed["hand"]["voided"], true, "{replayed}");
}

/// A raise in two silent motions (a call of 2, then 4 more), as the dealer's console reports
/// it for `seat`, the player to act.
fn string_raise(d: &Daemon, t: &str, seat: u64) -> Value {
    event(
        d,
        t,
        &format!(
            r#"{{"Acted": {{"player": {seat}, "point": "action.string_bets", "motions": [[2], [4]]}}}}"#
        ),
    )
}

#[test]
fn a_string_bet_counts_its_first_motion_at_a_live_table_and_replays_after_kill_9() {
    let scratch = Scratch::new("serve-string-bet");
    let data = scratch.data();
    let d = Daemon::start(&scratch.rulesets(), &data);
    let t = d.dealt_table();
    let (first, _) = to_act_and_next(&d, &t);
    // Rule 55: bets must be clear and immediate; the second motion is refused and only the
    // first counts, a call of the big blind.
    let ruling = string_raise(&d, &t, first);
    assert_eq!(ruling["outcome"], "refused", "{ruling}");
    assert_eq!(ruling["fields"]["remedy"], "first_motion_only", "{ruling}");
    assert_eq!(ruling["citation"]["text"], "rule 55", "{ruling}");
    let called = table(&d, &t);
    assert_eq!(bet_of(&called, first), 2, "{called}");
    assert_eq!(called["hand"]["to_act"], first % 4 + 1, "{called}");

    // Killed after the ruling was acknowledged: the journal replays the hand to it exactly.
    d.kill9();
    let d = Daemon::start(&scratch.rulesets(), &data);
    let restarted = table(&d, &t);
    let rulings = |v: &Value| v["hand"]["rulings"].as_array().cloned().unwrap_or_default();
    let (before, after) = (rulings(&called), rulings(&restarted));
    assert_eq!(after[..before.len()], before[..], "{restarted}");
    assert_eq!(restarted["hand"]["voided"], true, "{restarted}");

    // After the restart the daemon takes the event again and carries it out.
    d.post(&format!("/api/tables/{t}/hands"), "");
    let (first, _) = to_act_and_next(&d, &t);
    let ruling = string_raise(&d, &t, first);
    assert_eq!(ruling["fields"]["remedy"], "first_motion_only", "{ruling}");
    let again = table(&d, &t);
    assert_eq!(bet_of(&again, first), 2, "{again}");
    assert_eq!(again["hand"]["to_act"], first % 4 + 1, "{again}");
    d.kill9();
    let d = Daemon::start(&scratch.rulesets(), &data);
    let replayed = table(&d, &t);
    let (before, after) = (rulings(&again), rulings(&replayed));
    assert_eq!(after[..before.len()], before[..], "{replayed}");
}

/// A showdown event for `seat`, as the dealer's console reports it.
fn at_showdown(d: &Daemon, t: &str, point: &str, seat: u64) -> Value {
    event(
        d,
        t,
        &format!(r#"{{"Situation": {{"point": "{point}", "facts": {{"seat": {seat}}}}}}}"#),
    )
}

#[test]
fn rule_71_b_a_bettors_premature_muck_at_a_called_showdown_replays_after_kill_9() {
    let scratch = Scratch::new("serve-showdown");
    let data = scratch.data();
    let d = Daemon::start(&scratch.rulesets(), &data);
    let t = d.four_dealt(CASINO_TABLE_CALLED_SHOWDOWN);
    // The showdown waits for the dealer to call each hand; killed there, the restart voids
    // the interrupted hand and every bet goes back.
    let waiting = d.check_down(&t);
    assert_eq!(waiting["hand"]["phase"], "Showdown", "{waiting}");
    assert_eq!(waiting["hand"]["pot"], 8, "{waiting}");
    d.kill9();
    let d = Daemon::start(&scratch.rulesets(), &data);
    let restarted = table(&d, &t);
    assert_eq!(restarted["hand"]["voided"], true, "{restarted}");
    assert_eq!(seat_stacks(&restarted), vec![200; 4], "{restarted}");

    // The next hand: seat 1 throws his hand into the discards before the showdown is called
    // and it cannot be rebuilt: rule 71(b), he loses the pot; the others table their hands
    // and the best of them wins the 8 chips (the 5% commission of 8 rounds to nothing).
    d.post(&format!("/api/tables/{t}/hands"), "");
    d.check_down(&t);
    let ruling = at_showdown(&d, &t, "showdown.premature_muck_by_bettor", 1);
    assert_eq!(ruling["outcome"], "loses_pot", "{ruling}");
    assert_eq!(ruling["fields"]["remedy"], "dead_hand", "{ruling}");
    assert_eq!(ruling["citation"]["text"], "rule 71(b)", "{ruling}");
    for seat in 2..=4 {
        let shown = at_showdown(&d, &t, "showdown.proper_show", seat);
        assert_eq!(shown["fields"]["remedy"], "show_hand", "{shown}");
    }
    let settled = table(&d, &t);
    let stacks = seat_stacks(&settled);
    assert_eq!(stacks[0], 198, "seat 1's hand is dead: {settled}");
    assert_eq!(stacks.iter().sum::<u64>(), 800, "{settled}");
    assert!(stacks[1..].iter().any(|&s| s > 200), "{settled}");

    // Killed after the hand: the journal replays it to exactly these stacks.
    d.kill9();
    let d = Daemon::start(&scratch.rulesets(), &data);
    let replayed = table(&d, &t);
    assert_eq!(seat_stacks(&replayed), stacks, "{replayed}");
}

/// Posts a penalty for `offence` against `seat`, as the dealer's console reports it.
fn penalise(d: &Daemon, t: &str, seat: u64, offence: &str) -> Value {
    event(
        d,
        t,
        &format!(r#"{{"PenaltyGiven": {{"player": {seat}, "offence": "{offence}"}}}}"#),
    )
}

#[test]
fn rule_58_71_a_a_warning_is_remembered_after_kill_9_and_the_repeat_sends_the_player_away() {
    let scratch = Scratch::new("serve-penalties");
    let data = scratch.data();
    let d = Daemon::start(&scratch.rulesets(), &data);
    let t = d.dealt_table();
    // Rule 71(a): a player who delays the hand is warned by the dealer.
    let warned = penalise(&d, &t, 3, "slow_play");
    assert_eq!(warned["outcome"], "warning", "{warned}");
    assert_eq!(warned["fields"]["sanction"], "warning", "{warned}");
    assert_eq!(warned["citation"]["text"], "rule 71(a)", "{warned}");

    // Killed after the warning: the journal replays it, so the table still remembers it.
    d.kill9();
    let d = Daemon::start(&scratch.rulesets(), &data);
    d.post(&format!("/api/tables/{t}/hands"), "");
    // Rule 58: the repeated breach sends him from the table; a hand is in progress, so he
    // leaves when it ends, taking his chips.
    let repeated = penalise(&d, &t, 3, "slow_play");
    assert_eq!(repeated["outcome"], "leave_table", "{repeated}");
    assert_eq!(repeated["fields"]["starts"], "end_of_hand", "{repeated}");
    let during = table(&d, &t);
    assert_eq!(during["seats"][2]["penalty"]["leaving"], true, "{during}");
    assert_eq!(during["seats"][2]["player"], "player3", "{during}");

    d.kill9();
    let d = Daemon::start(&scratch.rulesets(), &data);
    // The restart voids the interrupted hand, which ends it: the player leaves his seat.
    let after = table(&d, &t);
    assert_eq!(after["hand"]["voided"], true, "{after}");
    assert!(after["seats"][2]["player"].is_null(), "{after}");
}

#[test]
fn rule_71_a_time_called_at_a_live_table_warns_and_the_warning_counts_after_kill_9() {
    let scratch = Scratch::new("serve-clock-sanction");
    let data = scratch.data();
    let d = Daemon::start(&scratch.rulesets(), &data);
    let t = d.dealt_table();
    let slow = table(&d, &t)["hand"]["to_act"].as_u64().expect("to act");
    // Saying he was warned before, when the table knows he was not, is refused.
    let said = r#"{"Situation": {"point": "time.call_clock", "facts": {"repeated": true}}}"#;
    let path = format!("/api/tables/{t}/events");
    let (status, refused) = d.request("POST", &path, Some(&d.operator), Some(said));
    assert_eq!(status, 409, "{refused}");
    assert!(refused.to_string().contains("repeated"), "{refused}");
    // Rule 71(a): there is no clock; the slow player is warned and is still to act.
    let clock = r#"{"Situation": {"point": "time.call_clock", "facts": {"seconds_used": 75}}}"#;
    let warned = event(&d, &t, clock);
    assert_eq!(warned["outcome"], "warning", "{warned}");
    assert_eq!(warned["fields"]["sanction"], "warning", "{warned}");
    assert_eq!(warned["citation"]["text"], "rule 71(a)", "{warned}");
    assert_eq!(table(&d, &t)["hand"]["to_act"], slow);

    // Killed after the warning: the journal replays it, so the table remembers it, though
    // the interrupted hand is void.
    d.kill9();
    let d = Daemon::start(&scratch.rulesets(), &data);
    d.post(&format!("/api/tables/{t}/hands"), "");
    // The floor's own penalty for slow play reads the same record: a repeat, he must leave.
    let repeated = penalise(&d, &t, slow, "slow_play");
    assert_eq!(repeated["outcome"], "leave_table", "{repeated}");
    assert_eq!(repeated["fields"]["starts"], "end_of_hand", "{repeated}");
    let during = table(&d, &t);
    let at = (slow - 1) as usize;
    assert_eq!(during["seats"][at]["penalty"]["leaving"], true, "{during}");
}

/// The seat whose bet is `amount` (a blind), from 1.
fn seat_betting(view: &Value, amount: u64) -> u64 {
    (1..=4)
        .find(|&s| view["seats"][(s - 1) as usize]["bet"].as_u64() == Some(amount))
        .expect("a seat posting that blind")
}

#[test]
fn rule_91_a_missing_post_taken_back_at_a_live_table_replays_after_kill_9() {
    let scratch = Scratch::new("serve-missing-post");
    let data = scratch.data();
    let d = Daemon::start(&scratch.rulesets(), &data);
    let t = d.dealt_table();
    let dealt = table(&d, &t);
    let big = seat_betting(&dealt, 2);
    // Rule 91: the big bet was never put in; the deal stands and the player will not post:
    // the 2 the table counted go back to him and his hand is dead.
    let ruling = event(
        &d,
        &t,
        &format!(
            r#"{{"Situation": {{"point": "blinds.missing_posts_at_deal", "facts": {{"seat": {big}, "posts": false}}}}}}"#
        ),
    );
    assert_eq!(ruling["outcome"], "deal_stands_post_to_play", "{ruling}");
    assert_eq!(ruling["fields"]["remedy"], "post_to_play", "{ruling}");
    assert_eq!(
        ruling["citation"]["text"], "rule 91 (Hold'em via 92)",
        "{ruling}"
    );
    let taken_back = table(&d, &t);
    assert_eq!(bet_of(&taken_back, big), 0, "{taken_back}");
    let stacks = seat_stacks(&taken_back);
    assert_eq!(stacks[(big - 1) as usize], 200, "{taken_back}");
    assert_eq!(
        stacks.iter().sum::<u64>(),
        800 - 1,
        "only the small blind is in: {taken_back}"
    );
    assert_ne!(taken_back["hand"]["to_act"], big, "{taken_back}");

    // Killed after the ruling: the journal replays to exactly that hand and its log, which
    // the restart then voids as it voids every hand a crash interrupted.
    d.kill9();
    let d = Daemon::start(&scratch.rulesets(), &data);
    let restarted = table(&d, &t);
    let rulings = |v: &Value| v["hand"]["rulings"].as_array().cloned().unwrap_or_default();
    let (before, after) = (rulings(&taken_back), rulings(&restarted));
    assert_eq!(after[..before.len()], before[..], "{restarted}");
    assert_eq!(restarted["hand"]["voided"], true, "{restarted}");
    assert_eq!(seat_stacks(&restarted), vec![200; 4], "{restarted}");
}

/// A claim about the pot as the dealer's console reports it (`from` and `to` are seats).
/// At a four-handed table just dealt, the first to act raises to 10 and the three others fold:
/// he wins the blinds. Returns his seat and the settled table.
fn first_raises_and_the_others_fold(d: &Daemon, t: &str) -> (u64, Value) {
    let first = table(d, t)["hand"]["to_act"].as_u64().expect("to act");
    d.post(
        &format!("/api/tables/{t}/actions"),
        &format!(r#"{{"seat": {first}, "action": "cbr 10"}}"#),
    );
    for _ in 0..3 {
        let seat = table(d, t)["hand"]["to_act"].as_u64().expect("to act");
        d.post(
            &format!("/api/tables/{t}/actions"),
            &format!(r#"{{"seat": {seat}, "action": "f"}}"#),
        );
    }
    let settled = table(d, t);
    assert_eq!(settled["hand"]["phase"], "Complete", "{settled}");
    (first, settled)
}

fn pot_claim(from: usize, to: usize, amount: u64, more: &str) -> String {
    format!(
        r#"{{"Situation": {{"point": "pot.disputes_window", "facts": {{"dispute": "award", "from_seat": {from}, "to_seat": {to}, "amount": {amount}{more}}}}}}}"#
    )
}

/// Art. 22º, at a table played under pt-tournament: a claim about a pot is heard until the
/// next hand's substantial action, and the table moves the chips as ruled. (The 2007 decree's
/// rule 65 keeps the stacks as paid: a claim there is the concessionaire's, rule 8(c).)
#[test]
fn art_22_a_pot_correction_heard_at_a_live_table_survives_kill_9_exactly() {
    let scratch = Scratch::new("serve-correction");
    let data = scratch.data();
    let d = Daemon::start(&scratch.rulesets(), &data);
    let t = d.four_dealt(TOURNAMENT_RULES_TABLE);
    // The first to act raises to 10 and the three others fold: he wins the blinds.
    let (first, settled) = first_raises_and_the_others_fold(&d, &t);
    let paid = seat_stacks(&settled);
    let winner = first as usize;
    assert_eq!(paid[winner - 1], 203, "the blinds won: {settled}");
    let total: u64 = paid.iter().sum();
    // The seat that posted the big blind (198 left) claims that the 2 were his.
    let claimant = paid.iter().position(|&s| s == 198).expect("the big blind") + 1;

    // Around a break the right to claim ends one minute after the award: 90 seconds later
    // the claim is refused with the article, nothing moves and nothing is journaled.
    let (status, refused) = d.request(
        "POST",
        &format!("/api/tables/{t}/events"),
        Some(&d.operator),
        Some(&pot_claim(
            winner,
            claimant,
            2,
            r#", "around_break": true, "awarded_at": "21:10:00", "claimed_at": "21:11:30""#,
        )),
    );
    assert_eq!(status, 409, "{refused}");
    let said = refused.to_string();
    assert!(
        said.contains("out of time") && said.contains("Art. 22º"),
        "the refusal says why, with its article: {said}"
    );
    assert_eq!(table(&d, &t), settled, "nothing changed");

    // With the next hand not dealt the claim is heard: the 2 go back from the winner.
    let heard = event(&d, &t, &pot_claim(winner, claimant, 2, ""));
    assert_eq!(heard["outcome"], "claim_accepted", "{heard}");
    assert_eq!(heard["citation"]["text"], "Art. 22º", "{heard}");
    assert_eq!(heard["fields"]["remedy"], "correct_award", "{heard}");
    assert_eq!(
        heard["fields"]["stacks_changed"],
        format!("seat {winner} -2, seat {claimant} +2"),
        "{heard}"
    );
    let corrected = table(&d, &t);
    let mut expected = paid.clone();
    expected[winner - 1] -= 2;
    expected[claimant - 1] += 2;
    assert_eq!(seat_stacks(&corrected), expected, "{corrected}");
    assert_eq!(seat_stacks(&corrected).iter().sum::<u64>(), total);
    assert!(
        heard["text"]
            .as_str()
            .is_some_and(|t| t.contains("hand 1 corrected after the settlement")),
        "the ruling says what the table did: {heard}"
    );

    // Killed after the correction was acknowledged: the journal replays the settled hand and
    // the correction, and the stacks are the corrected ones exactly.
    d.kill9();
    let d = Daemon::start(&scratch.rulesets(), &data);
    let restarted = table(&d, &t);
    assert_eq!(seat_stacks(&restarted), expected, "{restarted}");
    assert_eq!(restarted, corrected, "the table as acknowledged");
    // The journal holds the correction with its article; the refused claim is not in it.
    let journaled = support::audit(&data, &["--rule-point", "pot.disputes_window"]);
    assert!(
        journaled.contains("Art. 22º") && journaled.contains("corrected after the settlement"),
        "{journaled}"
    );
    assert!(!journaled.contains("out of time"), "{journaled}");
}

/// The hand's rulings as the table's view lists them.
fn hand_rulings(view: &Value) -> Vec<String> {
    view["hand"]["rulings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r.as_str().map(str::to_string))
        .collect()
}

/// Art. 22º: the correction heard after the settlement is listed with the settled hand's
/// rulings in the table's view — its point, the ruleset and version, the article and what the
/// table did — and it is still there, once, after a restart from the journal.
#[test]
fn art_22_a_pot_correction_is_listed_with_the_hands_rulings_and_after_a_restart() {
    let scratch = Scratch::new("serve-correction-listed");
    let data = scratch.data();
    let d = Daemon::start(&scratch.rulesets(), &data);
    let t = d.four_dealt(TOURNAMENT_RULES_TABLE);
    let (first, settled) = first_raises_and_the_others_fold(&d, &t);
    let claimant = seat_stacks(&settled)
        .iter()
        .position(|&s| s == 198)
        .expect("the big blind")
        + 1;
    let heard = event(&d, &t, &pot_claim(first as usize, claimant, 2, ""));
    assert_eq!(heard["fields"]["remedy"], "correct_award", "{heard}");
    let version = heard["ruleset"]["version"].as_str().expect("version");

    // Two rulings join the settled hand's: the claim heard in time, and what the table did.
    let corrected = table(&d, &t);
    let listed = hand_rulings(&corrected);
    let before = hand_rulings(&settled);
    assert_eq!(listed[..before.len()], before[..], "{corrected}");
    let [heard_line, done] = &listed[before.len()..] else {
        panic!("the claim and the correction listed: {corrected}");
    };
    let cited = format!("[pot.disputes_window · pt-tournament v{version} · Art. 22º]");
    assert!(
        heard_line.contains("the claim is heard") && heard_line.ends_with(&cited),
        "{heard_line}"
    );
    assert_eq!(
        *done,
        format!(
            "hand 1 corrected after the settlement: seat {first} -2, seat {claimant} +2 {cited}"
        )
    );

    d.kill9();
    let d = Daemon::start(&scratch.rulesets(), &data);
    let restarted = table(&d, &t);
    assert_eq!(
        hand_rulings(&restarted),
        listed,
        "the same list, the correction once: {restarted}"
    );
}
