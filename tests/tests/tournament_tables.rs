//! A live tournament's tables, driven by commands as a daemon drives them, under the
//! tournament rulesets: the rulings a table must make between the hands of a tournament
//! (heads-up, penalties that follow a moved player, a disqualification, a correction after
//! the settlement).

use floor_engine::events::TableEvent;
use floor_engine::rules::Rules;
use floor_engine::ruleset::RulesetRules;
use floor_engine::table::{Move, RulesVersion, TableError, TableView, Viewer};
use floor_engine::tournament::director::{Command, Director, Done, Recorded, TournamentSpec};
use floor_tests::Repo;
use std::collections::BTreeMap;
use std::sync::Arc;

fn version(id: &str) -> (Arc<floor_engine::ruleset::Ruleset>, RulesVersion) {
    let ruleset = Repo::bundled().load(id);
    let rules: Arc<dyn Rules> = Arc::new(RulesetRules::new(ruleset.clone()));
    (
        ruleset,
        RulesVersion {
            rules,
            hash: Arc::from(id),
        },
    )
}

/// A tournament of `seats`-seat tables with slow levels and an announced payout table, the
/// next round dealt on the dealer's word.
fn spec(ruleset: &str, seed: u64, seats: usize) -> TournamentSpec {
    let levels: Vec<serde_json::Value> = (0..12u64)
        .map(|i| {
            let bb = 20u64 << i;
            serde_json::json!({"small_blind": bb / 2, "big_blind": bb, "minutes": 60})
        })
        .collect();
    serde_json::from_value(serde_json::json!({
        "ruleset": ruleset,
        "structure": {"levels": levels},
        "starting_stack": 1000,
        "buy_in": 5000,
        "fee_percent": 10,
        "seats_per_table": seats,
        "seed": seed,
        "seconds_per_round": 30,
        "deal_on_command": true,
        "payouts": {"bands": [{"entries_min": 2, "shares_percent": [50, 30, 20]}]}
    }))
    .expect("a tournament spec")
}

/// A started tournament of `players` players.
fn started(ruleset: &str, seed: u64, seats: usize, players: usize) -> Director {
    let (rs, v) = version(ruleset);
    let mut d = Director::new("tour1".into(), spec(ruleset, seed, seats), rs, v, 0).expect("new");
    for i in 1..=players {
        let name = format!("p{i}");
        d.apply(&Command::Register { name }, 0).expect("registered");
    }
    d.apply(&Command::Start, 0).expect("started");
    d
}

fn table(d: &Director, number: u32) -> TableView {
    d.view(Viewer::Operator, None)
        .tables
        .into_iter()
        .find(|t| t.number == number)
        .map(|t| t.table)
        .expect("the table is in play")
}

/// The seats (numbers from 1) that posted the small and the big blind of the hand in play.
fn blinds(view: &TableView) -> (usize, usize) {
    let mut posted: Vec<(u64, usize)> = view
        .seats
        .iter()
        .filter(|s| s.bet > 0)
        .map(|s| (s.bet, s.seat))
        .collect();
    posted.sort();
    (posted[0].1, posted[posted.len() - 1].1)
}

fn act(d: &mut Director, table: u32, action: Move) -> Done {
    let seat = self::table(d, table)
        .hand
        .and_then(|h| h.to_act)
        .expect("someone to act");
    d.apply(
        &Command::Act {
            table,
            seat,
            action,
        },
        0,
    )
    .expect("a legal action")
}

/// Whether someone is to act at table `number`.
fn to_act(d: &Director, number: u32) -> bool {
    d.view(Viewer::Operator, None)
        .tables
        .iter()
        .any(|t| t.number == number && t.table.hand.as_ref().is_some_and(|h| h.to_act.is_some()))
}

/// Every player to act at table `number` folds (checks when nothing is owed) to the end of
/// its hand; the rulings made.
fn fold_out(d: &mut Director, number: u32) -> Vec<Recorded> {
    let mut rulings = Vec::new();
    while to_act(d, number) {
        let owed = table(d, number)
            .hand
            .and_then(|h| h.to_call)
            .is_some_and(|c| c > 0);
        let action = if owed { Move::Fold } else { Move::CheckOrCall };
        rulings.extend(act(d, number, action).rulings);
    }
    rulings
}

/// The dealer's "next hand": the next round dealt once every hand of the round is over.
fn deal(d: &mut Director) -> Done {
    d.apply(&Command::Deal, 0).expect("the next round is dealt")
}

fn event(d: &mut Director, table: u32, event: TableEvent) -> Result<Done, TableError> {
    d.apply(&Command::Event { table, event }, 0)
}

fn penalty(seat: usize, sanction: &str) -> TableEvent {
    TableEvent::PenaltyGiven {
        player: seat,
        offence: "abuse".into(),
        sanction: Some(sanction.into()),
        facts: BTreeMap::new(),
    }
}

/// The table and seat (from 1) of the player named `name`, if he still plays.
fn seat_of(d: &Director, name: &str) -> Option<(u32, usize)> {
    let v = d.view(Viewer::Operator, None);
    let p = v.players.iter().rev().find(|p| p.name == name)?;
    Some((p.table?, p.seat?))
}

/// Three players at one table; the button goes all in, the small blind folds, the big blind
/// calls. Over the seeds, the first where the button is eliminated and the table comes down
/// to two: the button and big blind of the hand before, of the first heads-up hand, and the
/// rulings the hand that ended and the one dealt made.
struct HeadsUp {
    before: (usize, usize),
    after: (usize, usize),
    rulings: Vec<Recorded>,
}

fn heads_up_after_the_button_is_out(ruleset: &str) -> HeadsUp {
    for seed in 0..64 {
        let mut d = started(ruleset, seed, 6, 3);
        let view = table(&d, 1);
        let button = view.button.expect("a button");
        let (_, big_blind) = blinds(&view);
        act(&mut d, 1, Move::AllIn);
        act(&mut d, 1, Move::Fold);
        let mut rulings = act(&mut d, 1, Move::CheckOrCall).rulings;
        rulings.extend(deal(&mut d).rulings);
        let view = table(&d, 1);
        let out = view.seats[button - 1].player.is_none();
        if !out || view.seats.iter().filter(|s| s.player.is_some()).count() != 2 {
            continue;
        }
        let after = (view.button.expect("a button"), blinds(&view).1);
        return HeadsUp {
            before: (button, big_blind),
            after,
            rulings,
        };
    }
    panic!("no seed put the button out");
}

fn heads_up_ruling(h: &HeadsUp) -> &Recorded {
    h.rulings
        .iter()
        .find(|r| r.point == "button.heads_up")
        .expect("button.heads_up is ruled on and recorded")
}

/// pt-tournament Art. 35º: as heads-up begins the button must be set so that nobody pays the
/// big blind twice in a row: the last big blind takes the button and the small blind.
#[test]
fn art_35_heads_up_begins_and_the_last_big_blind_takes_the_button() {
    let h = heads_up_after_the_button_is_out("pt-tournament");
    let (_, last_big_blind) = h.before;
    assert_eq!(
        h.after.0, last_big_blind,
        "the last big blind has the button"
    );
    assert_ne!(
        h.after.1, last_big_blind,
        "he does not post the big blind again"
    );
    let r = heads_up_ruling(&h);
    assert_eq!(r.table, "tour1.1");
    assert_eq!(
        (r.ruleset.as_str(), r.citation.as_str()),
        ("pt-tournament", "Art. 35º")
    );
    assert!(!r.version.is_empty());
    assert!(r.text.contains("takes the button"), "{}", r.text);
}

/// ao-tournament-2025 Art. 34: the same adjustment, mandatory.
#[test]
fn ao_art_34_heads_up_begins_and_the_last_big_blind_takes_the_button() {
    let h = heads_up_after_the_button_is_out("ao-tournament-2025");
    assert_eq!(h.after.0, h.before.1);
    let r = heads_up_ruling(&h);
    assert_eq!(
        (r.ruleset.as_str(), r.citation.as_str()),
        ("ao-tournament-2025", "Art. 34")
    );
}

/// br-adtp-2012 rule 30: the button *may* be adjusted — the rotation is kept, and the last big
/// blind posts it again, as the ruling says.
#[test]
fn br_rule_30_heads_up_begins_and_the_rotation_is_kept() {
    let h = heads_up_after_the_button_is_out("br-adtp-2012");
    let (_, last_big_blind) = h.before;
    assert_eq!(
        h.after.1, last_big_blind,
        "the last big blind posts it again"
    );
    assert_ne!(h.after.0, last_big_blind);
    let r = heads_up_ruling(&h);
    assert_eq!(
        (r.ruleset.as_str(), r.citation.as_str()),
        ("br-adtp-2012", "rule 30")
    );
    assert!(r.text.contains("posts the big blind again"), "{}", r.text);
}

/// Every table's hand folded out; the rulings made.
fn fold_all(d: &mut Director) -> Vec<Recorded> {
    let numbers: Vec<u32> = d
        .view(Viewer::Operator, None)
        .tables
        .iter()
        .map(|t| t.number)
        .collect();
    numbers.into_iter().flat_map(|n| fold_out(d, n)).collect()
}

/// pt-tournament Art. 71º(1): a player penalised three hands who is moved to another table
/// (the final table formed) serves the rest there, and a second offence there is escalated
/// from the first: a sanction no harsher than his earlier one is refused.
#[test]
fn art_71_1_a_penalty_follows_the_player_moved_to_another_table() {
    for seed in 0..64 {
        let mut d = started("pt-tournament", seed, 6, 8);
        let numbers: Vec<u32> = d
            .view(Viewer::Operator, None)
            .tables
            .iter()
            .map(|t| t.number)
            .collect();
        let [first, other] = numbers[..] else {
            panic!("eight players sit at two tables: {numbers:?}");
        };
        let (sb, _) = blinds(&table(&d, first));
        let name = table(&d, first).seats[sb - 1]
            .player
            .clone()
            .expect("the small blind is seated");
        let given = event(&mut d, first, penalty(sb, "hands 3")).expect("penalised");
        assert_eq!(
            given.ruling.expect("a ruling").fields["sanction"],
            "hands 3"
        );
        fold_all(&mut d);
        deal(&mut d);
        // His first hand out is served at his own table: two left.
        let (t, s) = seat_of(&d, &name).expect("he plays");
        assert_eq!(t, first);
        let left = |d: &Director, t: u32, s: usize| {
            table(d, t).seats[s - 1]
                .penalty
                .as_ref()
                .and_then(|p| p.hands_left)
        };
        assert_eq!(left(&d, t, s), Some(2));
        // The others at his table go all in: one of them out, and the final table formed.
        act(&mut d, first, Move::AllIn);
        while to_act(&d, first) {
            act(&mut d, first, Move::CheckOrCall);
        }
        let mut served = fold_out(&mut d, other);
        served.extend(deal(&mut d).rulings);
        let Some((moved_to, _)) = seat_of(&d, &name).filter(|&(t, _)| t != first) else {
            continue;
        };
        let serves = |r: &Recorded| r.point == "penalty.serving" && r.text.contains(&name);
        for _ in 0..3 {
            if served.iter().any(serves) {
                break;
            }
            served = fold_all(&mut d);
            served.extend(deal(&mut d).rulings);
        }
        let here = served
            .iter()
            .find(|r| serves(r))
            .expect("he serves the rest at his new table");
        let (t, seat) = seat_of(&d, &name).expect("he plays");
        assert_eq!(t, moved_to);
        assert_eq!(here.table, format!("tour1.{t}"));
        assert_eq!(here.citation, "Art. 71º(1),(3)");
        assert_eq!(left(&d, t, seat), Some(1));
        // A second offence at the new table: no harsher than his three hands, refused.
        let again = event(&mut d, t, penalty(seat, "hands 2")).expect_err("refused");
        assert!(
            again
                .to_string()
                .contains("harsher penalty than the player's earlier hands 3"),
            "{again}"
        );
        event(&mut d, t, penalty(seat, "hands 4")).expect("a harsher penalty is given");
        return;
    }
    panic!("no seed moved the penalised player");
}

/// pt-tournament Art. 71º(4): a player disqualified at his table leaves the tournament with
/// his chips; he is not placed, not paid and may not re-enter; the others play on to a
/// winner and the places and prizes go to them alone.
#[test]
fn art_71_4_a_disqualified_player_is_out_of_the_tournament_unplaced_and_unpaid() {
    let mut d = started("pt-tournament", 3, 6, 4);
    let (sb, _) = blinds(&table(&d, 1));
    let name = table(&d, 1).seats[sb - 1].player.clone().expect("seated");
    let ruled = event(&mut d, 1, penalty(sb, "disqualification")).expect("disqualified");
    assert_eq!(
        ruled.ruling.expect("a ruling").fields["sanction"],
        "disqualification"
    );
    let mut rulings = fold_out(&mut d, 1);
    rulings.extend(deal(&mut d).rulings);
    let v = d.view(Viewer::Operator, None);
    let out = v.players.iter().find(|p| p.name == name).expect("listed");
    assert!(out.disqualified && out.table.is_none(), "{out:?}");
    assert_eq!(v.players_left, 3);
    assert_eq!(v.chips.in_play, v.chips.at_tables);
    assert!(
        v.chips.in_play < 4_000,
        "his chips left play: {}",
        v.chips.in_play
    );
    let ruling = rulings
        .iter()
        .find(|r| r.point == "penalty.disqualification_effects" && r.table == "tour1")
        .expect("the tournament rules on his entry");
    assert_eq!(ruling.citation, "Art. 71º(4)");
    assert!(ruling.text.contains("not placed"), "{}", ruling.text);
    let player = out.player;
    let back = d
        .apply(&Command::ReEnter { player }, 0)
        .expect_err("no re-entry");
    assert!(back.to_string().contains("disqualified"), "{back}");
    // The others play on, all in every hand, to a winner.
    for _ in 0..200 {
        if d.is_over() {
            break;
        }
        if to_act(&d, 1) {
            act(&mut d, 1, Move::AllIn);
            while to_act(&d, 1) {
                act(&mut d, 1, Move::CheckOrCall);
            }
        } else {
            deal(&mut d);
        }
    }
    let v = d.view(Viewer::Operator, None);
    assert!(d.is_over());
    assert_eq!(v.places.len(), 3, "{:?}", v.places);
    assert!(v.places.iter().any(|p| p.place == 1));
    assert!(v.places.iter().all(|p| p.name != name));
    let paid: u64 = v.places.iter().map(|p| p.prize).sum();
    assert_eq!(paid, v.money.prize_pool);
}

/// pt-tournament Art. 22º: errors in awarding a pot may be claimed until the next hand
/// begins. At a live tournament table the next round waits for the dealer: a claim after the
/// settlement is heard, journaled with the hand and carried out on the stacks the next hand
/// is dealt with; once it is dealt, a claim on the last hand moves nothing.
#[test]
fn art_22_a_claim_after_the_settlement_is_heard_before_the_next_round_is_dealt() {
    let mut d = started("pt-tournament", 5, 6, 3);
    fold_out(&mut d, 1);
    let settled = table(&d, 1);
    assert!(settled.hand.as_ref().is_some_and(|h| h.to_act.is_none()));
    let number = |d: &Director| table(d, 1).hand.map(|h| h.number);
    assert_eq!(number(&d), Some(1), "no next hand dealt");
    let winner = settled.seats.iter().max_by_key(|s| s.stack).expect("seats");
    let other = settled
        .seats
        .iter()
        .find(|s| s.player.is_some() && s.seat != winner.seat)
        .expect("another player");
    let (from, to) = (winner.seat, other.seat);
    let (from_stack, to_stack) = (winner.stack, other.stack);
    let claim = TableEvent::Situation {
        point: "pot.disputes_window".into(),
        facts: BTreeMap::from([
            ("dispute".to_string(), ron::Value::String("award".into())),
            (
                "from_seat".to_string(),
                ron::Value::Number(ron::Number::U64(from as u64)),
            ),
            (
                "to_seat".to_string(),
                ron::Value::Number(ron::Number::U64(to as u64)),
            ),
            (
                "amount".to_string(),
                ron::Value::Number(ron::Number::U64(10)),
            ),
        ]),
    };
    let heard = event(&mut d, 1, claim.clone()).expect("the claim is heard");
    let ruling = heard.ruling.as_ref().expect("a ruling");
    assert_eq!(ruling.outcome, "claim_accepted");
    assert_eq!(ruling.fields["remedy"], "correct_award");
    assert!(heard
        .rulings
        .iter()
        .any(|r| r.point == "pot.disputes_window"
            && r.table == "tour1.1"
            && r.citation == "Art. 22º"
            && r.text.contains("corrected after the settlement")));
    let corrected = table(&d, 1);
    assert_eq!(corrected.seats[from - 1].stack, from_stack - 10);
    assert_eq!(corrected.seats[to - 1].stack, to_stack + 10);
    assert_eq!(number(&d), Some(1), "no next hand dealt");
    deal(&mut d);
    assert_eq!(number(&d), Some(2));
    let v = d.view(Viewer::Operator, None);
    let chips = |name: &Option<String>| {
        v.players
            .iter()
            .find(|p| Some(&p.name) == name.as_ref())
            .and_then(|p| p.chips)
    };
    assert_eq!(chips(&other.player), Some(to_stack + 10));
    assert_eq!(chips(&winner.player), Some(from_stack - 10));
    assert_eq!((v.chips.in_play, v.chips.at_tables), (3_000, 3_000));
    // Once the next hand is dealt the claim is no longer carried out on the stacks.
    let stacks = |d: &Director| -> Vec<u64> { table(d, 1).seats.iter().map(|s| s.stack).collect() };
    let before = stacks(&d);
    let _ = event(&mut d, 1, claim);
    assert_eq!(
        stacks(&d),
        before,
        "a claim once the next hand is dealt moves nothing"
    );
}
