//! The table on its own, driven as a tournament drives it (the caller lays each hand out),
//! under the engine's default rules.

use super::*;
use crate::rules::DefaultRules;
use rand::SeedableRng;

fn players(stacks: &[Chips]) -> Table<Player> {
    let mut t = Table::new(6);
    let seats = stacks
        .iter()
        .enumerate()
        .map(|(i, &stack)| {
            Some(Player {
                name: format!("p{}", i + 1),
                stack,
            })
        })
        .chain(std::iter::repeat(None))
        .take(6)
        .collect();
    t.set_seats(seats).expect("between hands");
    t
}

/// Deals a hand to the seated players, the button at the last of them, blinds 1/2.
fn deal(t: &mut Table<Player>, seed: u64) -> u64 {
    let positions: Vec<usize> = (0..6).filter(|&i| t.occupant(i).is_some()).collect();
    let stacks = positions
        .iter()
        .map(|&i| t.occupant(i).map_or(0, |p| p.stack))
        .collect();
    let n = positions.len();
    let button = positions[n - 1];
    let rules: Arc<dyn Rules> = Arc::new(DefaultRules);
    let number = t
        .deal(Deal {
            config: HandConfig::holdem(stacks, n - 1, 1, 2),
            positions,
            button,
            version: RulesVersion::unnamed(rules.clone()),
            hand_rules: rules,
            deck: Deck::shuffled(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed)),
        })
        .expect("dealt");
    t.progress().expect("progress");
    number
}

fn to_act(t: &Table<Player>) -> usize {
    t.hand_view(None)
        .and_then(|h| h.to_act)
        .expect("someone to act")
}

#[test]
fn a_refused_action_leaves_the_table_exactly_as_it_was() {
    let mut t = players(&[100, 100, 100]);
    deal(&mut t, 7);
    let before = format!(
        "{:?} {:?}",
        t.seat_views(Viewer::Operator),
        t.hand_view(None)
    );
    let actor = to_act(&t);
    let other = if actor == 1 { 2 } else { 1 };
    assert!(matches!(
        t.act(other - 1, Action::Fold),
        Err(TableError::Refused(m)) if m.contains("turn")
    ));
    assert!(matches!(
        t.act(actor - 1, Action::BetOrRaiseTo(1)),
        Err(TableError::Refused(_))
    ));
    assert!(matches!(t.index("t1", 9), Err(TableError::Invalid(_))));
    assert!(t.deal_again_is_refused());
    assert_eq!(
        format!(
            "{:?} {:?}",
            t.seat_views(Viewer::Operator),
            t.hand_view(None)
        ),
        before
    );
}

impl Table<Player> {
    fn deal_again_is_refused(&mut self) -> bool {
        let rules: Arc<dyn Rules> = Arc::new(DefaultRules);
        matches!(
            self.deal(Deal {
                config: HandConfig::holdem(vec![100, 100], 1, 1, 2),
                positions: vec![0, 1],
                button: 0,
                version: RulesVersion::unnamed(rules.clone()),
                hand_rules: rules,
                deck: Deck::shuffled(&mut rand_chacha::ChaCha8Rng::seed_from_u64(1)),
            }),
            Err(DealError::Setup(_))
        )
    }
}

/// Chips are conserved at every action and hand after hand, and each hand's stacks are
/// carried back to the seats.
#[test]
fn chips_are_conserved_and_stacks_carried_hand_after_hand() {
    let mut t = players(&[100, 100, 100, 100]);
    for seed in 0..30u64 {
        if t.seats().iter().flatten().filter(|p| p.stack > 0).count() < 2 {
            break;
        }
        let live: Vec<Option<Player>> = t
            .seats()
            .iter()
            .map(|s| s.clone().filter(|p| p.stack > 0))
            .collect();
        t.set_seats(live).expect("between hands");
        let number = deal(&mut t, seed);
        let mut turn = 0u64;
        while t.in_hand() {
            assert_eq!(t.chips(), 400);
            let seat = to_act(&t);
            let hand = t.hand_view(None).expect("hand");
            let action = match (turn + seed) % 5 {
                0 => hand
                    .min_raise_to
                    .map_or(Action::CheckOrCall, Action::BetOrRaiseTo),
                _ => Action::CheckOrCall,
            };
            t.act(seat - 1, action).expect("a legal action");
            turn += 1;
        }
        assert_eq!(t.chips(), 400, "after hand {number}");
        let stacks = t.outcome().flatten().expect("complete");
        let positions = &t.last().expect("hand").positions;
        for (p, &i) in positions.iter().enumerate() {
            assert_eq!(t.occupant(i).map(|s| s.stack), Some(stacks[p]));
        }
    }
}

/// pt-online rules 72–73 as a table carries them out: a void hand returns every bet (the
/// seats keep the stacks they had when it was dealt) and records why with the hand.
#[test]
fn art_72_a_voided_hand_returns_every_bet_and_records_the_ruling() {
    let mut t = players(&[100, 100]);
    deal(&mut t, 3);
    let seat = to_act(&t);
    t.act(seat - 1, Action::BetOrRaiseTo(10)).expect("raise");
    let returned = t
        .void_ruled(
            "online.communication_failure",
            Citation::Article("rules 72, 73".into()),
            "the system failed",
        )
        .expect("void");
    assert_eq!(returned, 12);
    assert!(!t.in_hand());
    assert_eq!(t.outcome(), Some(None));
    let seats = t.seat_views(Viewer::Public);
    assert_eq!((seats[0].stack, seats[1].stack), (100, 100));
    assert_eq!(t.chips(), 200);
    let rulings: Vec<String> = t
        .last()
        .expect("hand")
        .hand
        .rulings()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(
        rulings.last().is_some_and(|r| r.contains("rules 72, 73")),
        "{rulings:?}"
    );
    assert!(t.hand_view(None).is_some_and(|h| h.voided && h.pot == 0));
}

/// Hole cards: the operator sees them all, a seat its own, the public none before a
/// showdown.
#[test]
fn each_viewer_sees_only_the_cards_he_may() {
    let mut t = players(&[100, 100, 100]);
    deal(&mut t, 11);
    let shown = |v: Viewer| -> Vec<bool> {
        t.seat_views(v)
            .iter()
            .take(3)
            .map(|s| s.cards.is_some())
            .collect()
    };
    assert_eq!(shown(Viewer::Operator), [true, true, true]);
    assert_eq!(shown(Viewer::Seat(1)), [false, true, false]);
    assert_eq!(shown(Viewer::Public), [false, false, false]);
    assert_eq!(shown(Viewer::Auditor), [false, false, false]);
}

fn situation(point: &str, facts: &[(&str, ron::Value)]) -> crate::events::TableEvent {
    crate::events::TableEvent::Situation {
        point: point.into(),
        facts: facts
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    }
}

/// A fact the caller gives that the table contradicts is refused with the reason, and the
/// table is left as it was.
#[test]
fn a_reported_fact_the_table_contradicts_is_refused_with_the_reason() {
    let mut t = players(&[100, 100, 100, 100]);
    deal(&mut t, 3);
    let d = t.live().expect("a hand");
    let held: Vec<String> = d
        .hand
        .hole_cards(3)
        .iter()
        .flatten()
        .map(|c| c.to_string())
        .collect();
    let stub = d.dealer.stub_len();
    let not_held = crate::cards::Card::all()
        .map(|c| c.to_string())
        .find(|c| !held.contains(c))
        .expect("a card");
    let wrong = situation(
        "deal.exposed_card_during_deal",
        &[
            ("seat", ron::Value::Number(ron::Number::new(4))),
            ("card", ron::Value::String(not_held.clone())),
        ],
    );
    let e = t.event("t", &wrong).expect_err("refused").to_string();
    assert!(e.contains("seat 4 holds") && e.contains(&not_held), "{e}");
    // A premature turn before the flop is not possible.
    let e = t
        .event("t", &situation("board.premature_turn", &[]))
        .expect_err("refused")
        .to_string();
    assert!(e.contains("betting on the flop is not under way"), "{e}");
    // The premature flop's cards are the stub's next cards, whatever is reported.
    let next: Vec<String> = t
        .live()
        .expect("hand")
        .dealer
        .next_cards(4)
        .iter()
        .map(|c| c.to_string())
        .collect();
    let reported = ron::Value::Seq(
        ["Ah", "Kd", "Qs"]
            .iter()
            .map(|c| ron::Value::String(c.to_string()))
            .collect(),
    );
    if next[1..] != ["Ah", "Kd", "Qs"] {
        let e = t
            .event(
                "t",
                &situation("board.premature_flop", &[("premature_cards", reported)]),
            )
            .expect_err("refused")
            .to_string();
        assert!(e.contains("the table's premature_cards is"), "{e}");
    }
    assert_eq!(t.live().expect("hand").dealer.stub_len(), stub, "unchanged");
}

/// Whether the player on the clock faces a bet is the hand's to say, for every clock that
/// turns on it: the shot clock and the online time-out as much as the clock called.
#[test]
fn the_clocks_read_whether_the_player_faces_a_bet_from_the_hand() {
    let mut t = players(&[100, 100, 100, 100]);
    deal(&mut t, 5);
    // The first to act faces the big blind.
    for point in ["time.call_clock", "time.shot_clock", "time.online_timeout"] {
        let e = t
            .event(
                "t",
                &situation(point, &[("bet_faced", ron::Value::Bool(false))]),
            )
            .expect_err("refused")
            .to_string();
        assert!(e.contains("the table's bet_faced is true"), "{point}: {e}");
    }
}

#[test]
fn the_button_short_a_card_is_refused_where_no_live_hand_holds_the_button() {
    let short = situation("deal.button_short_card", &[]);
    // A dead button: the button is at seat 6, where nobody sits.
    let mut t = players(&[100, 100, 100]);
    let rules: Arc<dyn Rules> = Arc::new(DefaultRules);
    t.deal(Deal {
        config: HandConfig::holdem(vec![100, 100, 100], 2, 1, 2),
        positions: vec![0, 1, 2],
        button: 5,
        version: RulesVersion::unnamed(rules.clone()),
        hand_rules: rules,
        deck: Deck::shuffled(&mut rand_chacha::ChaCha8Rng::seed_from_u64(3)),
    })
    .expect("dealt");
    t.progress().expect("progress");
    assert!(matches!(
        t.event("t1", &short),
        Err(TableError::Refused(m)) if m.contains("the button is dead")
    ));
    // The button folded: he holds no hand to complete, and the table is unchanged.
    let mut t = players(&[100, 100, 100]);
    deal(&mut t, 3);
    assert_eq!(to_act(&t), 3, "three-handed, the button acts first");
    t.act(2, Action::Fold).expect("the button folds");
    let before = format!("{:?}", t.hand_view(None));
    assert!(matches!(
        t.event("t1", &short),
        Err(TableError::Refused(m)) if m.contains("seat 3 (the button) has folded")
    ));
    assert_eq!(format!("{:?}", t.hand_view(None)), before);
}

/// The seat a dealer reports left with a live hand is noted away in the view while the hand
/// plays — to every viewer, a player looking at the table seeing the mark and no card but his
/// own — and the mark goes with the hand.
#[test]
fn a_seat_noted_away_with_a_live_hand_is_marked_in_the_view_and_no_card_shown_for_it() {
    let mut t = players(&[100, 100, 100]);
    deal(&mut t, 3);
    let away = to_act(&t);
    let other = away % 3 + 1;
    let mut facts = std::collections::BTreeMap::new();
    facts.insert(
        "seat".to_string(),
        ron::Value::Number(ron::Number::new(away as i64)),
    );
    let ruling = t
        .event(
            "t1",
            &TableEvent::Situation {
                point: "presence.remain_at_table_with_live_hand".into(),
                facts,
            },
        )
        .expect("ruled");
    assert_eq!(ruling.point, "presence.remain_at_table_with_live_hand");
    for viewer in [
        Viewer::Operator,
        Viewer::Auditor,
        Viewer::Public,
        Viewer::Seat(other - 1),
    ] {
        let seats = t.seat_views(viewer);
        let marked: Vec<usize> = seats.iter().filter(|s| s.away).map(|s| s.seat).collect();
        assert_eq!(marked, vec![away], "{viewer:?}: {seats:?}");
        assert!(!seats[away - 1].folded, "his hand stays live");
    }
    // The player in another seat sees the mark and only his own cards.
    let seen = t.seat_views(Viewer::Seat(other - 1));
    for s in &seen {
        assert_eq!(s.cards.is_some(), s.seat == other, "{s:?}");
    }
    let json = serde_json::to_value(&seen).expect("serialised");
    assert_eq!(json[away - 1]["away"], true, "{json}");
    assert!(
        json[other - 1].get("away").is_none() && json[other - 1].get("sitting_out").is_none(),
        "written only when set: {json}"
    );
    // Played out: the mark belongs to the hand.
    while let Some(seat) = t.hand_view(None).and_then(|h| h.to_act) {
        t.act(seat - 1, Action::Fold).expect("fold");
    }
    assert!(t.seat_views(Viewer::Operator).iter().all(|s| !s.away));
}
