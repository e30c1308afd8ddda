//! floor's legal action menu against PokerKit's (the PHH format's reference engine) at every
//! decision point: who acts, what calling costs, the smallest and largest bet or raise-to,
//! whether raising is allowed at all, and the stacks at the end. On the shared cross-check
//! corpora and on hands generated to stress the corners (see `generate`).
//!
//! A model of PokerKit's betting built on the engine's API ([`ReferenceModel`]: its
//! reopening from the round's raises, [`reference_engine_reopens`], and its fixed-limit cap)
//! must offer PokerKit's menus exactly: that is how the differences are known to be these and
//! no others. Under [`PhhConventions`] and under the engine's defaults (the standard rules)
//! every difference from PokerKit must then be one of the documented conventions (see
//! `rules/reference.rs`): the reopening after short all-ins, the fixed-limit half bet and
//! raise cap. The stacks must agree wherever PokerKit plays a hand to the end; where they do
//! not, the reason must be one of PokerKit's documented defects or the run-out rule.
//!
//! PokerKit runs in Python: `tests/run` installs it in a virtual environment under the
//! target directory; `FLOOR_POKERKIT_PYTHON` names another interpreter. Without it the test
//! fails and says so. `FLOOR_MENUS_HANDS` sets how many hands are generated (default 3,000).

#[path = "pokerkit_menus/generate.rs"]
mod generate;

use floor_engine::hand::Structure;
use floor_engine::hand::{Event, Hand, Legal, NoRaise};
use floor_engine::phh::{parse_file, write_phhs, Action as PhhAction, PhhHand};
use floor_engine::replay::Replayer;
use floor_engine::rules::{
    reference_engine_reopens, Decided, DefaultRules, DefaultedPoint, DefaultedPoints,
    PhhConventions, RaiseCapContext, ReopenContext, RoundHistory, Rules,
};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

/// The interpreter with PokerKit installed, or why there is none.
fn python() -> Result<PathBuf, String> {
    let path = match std::env::var_os("FLOOR_POKERKIT_PYTHON") {
        Some(path) => PathBuf::from(path),
        None => Path::new(env!("CARGO_TARGET_TMPDIR")).join("../pokerkit-venv/bin/python"),
    };
    let probe = Command::new(&path)
        .args(["-c", "import pokerkit; print(pokerkit.__name__)"])
        .output();
    match probe {
        Ok(out) if out.status.success() => Ok(path),
        Ok(out) => Err(format!(
            "{} cannot import pokerkit: {}",
            path.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// PokerKit's betting as a [`Rules`]: the standard rules but for its reopening and its
/// fixed-limit cap (four bets and raises a round, every all-in counted, never lifted).
struct ReferenceModel;

impl Rules for ReferenceModel {
    fn defaulted(&self) -> DefaultedPoints {
        DefaultedPoints::NONE
            .with(DefaultedPoint::MinRaise)
            .with(DefaultedPoint::FirstToAct)
            .with(DefaultedPoint::PotLimitMax)
    }

    fn reopens_in_round(&self, _ctx: &ReopenContext, round: &RoundHistory) -> Decided<bool> {
        Decided::by_default(reference_engine_reopens(round))
    }

    fn raise_cap_in_round(
        &self,
        ctx: &RaiseCapContext,
        round: &RoundHistory,
    ) -> Decided<Option<u32>> {
        Decided::by_default(match ctx.structure {
            Structure::FixedLimit { .. } => {
                // The engine counts the raises that reopen the betting; PokerKit counts every
                // one: the cap is lowered by the ones the engine leaves out.
                let uncounted = (round.raises.len() as u32).saturating_sub(ctx.raises_this_round);
                Some(4u32.saturating_sub(uncounted))
            }
            _ => None,
        })
    }
}

/// A menu as both engines give it: actor, to call, min and max raise-to, fold allowed.
type Menu = (usize, u64, Option<u64>, Option<u64>, bool);

fn floor_menu(legal: &Legal) -> Menu {
    (
        legal.player,
        legal.to_call,
        legal.min_raise_to,
        legal.max_raise_to,
        true,
    )
}

/// What PokerKit said about one hand.
struct Reference {
    menus: BTreeMap<usize, Option<Menu>>,
    stacks: Option<Vec<u64>>,
    error: Option<String>,
    /// How many of the hand's actions PokerKit applied.
    applied: usize,
}

fn reference_hands(python: &Path, file: &Path) -> Vec<Reference> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("pokerkit/menus.py");
    let out = Command::new(python)
        .arg(&script)
        .arg(file)
        .output()
        .unwrap_or_else(|e| panic!("{} {}: {e}", python.display(), script.display()));
    assert!(
        out.status.success(),
        "menus.py failed on {}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let number = |v: &Value| v.as_u64();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).expect("a JSON line from menus.py");
            let mut menus = BTreeMap::new();
            for (index, menu) in v["menus"].as_object().into_iter().flatten() {
                let menu = menu.as_array().map(|m| {
                    (
                        number(&m[0]).unwrap_or(u64::MAX) as usize,
                        number(&m[1]).unwrap_or(0),
                        number(&m[2]),
                        number(&m[3]),
                        m[4].as_bool().unwrap_or(false),
                    )
                });
                menus.insert(index.parse().expect("an action index"), menu);
            }
            Reference {
                menus,
                stacks: v["stacks"]
                    .as_array()
                    .map(|s| s.iter().filter_map(Value::as_u64).collect()),
                error: v["error"].as_str().map(str::to_string),
                applied: number(&v["applied"]).unwrap_or(0) as usize,
            }
        })
        .collect()
}

/// floor's replay of a record under `rules`: the menu before each betting action, the first
/// action refused (its index), and the hand at the end.
struct Played {
    menus: BTreeMap<usize, (Menu, Option<NoRaise>)>,
    refused: Option<usize>,
    hand: Option<Hand>,
}

fn play(record: &PhhHand, rules: Arc<dyn Rules>) -> Played {
    let mut menus = BTreeMap::new();
    let mut replayer = Replayer::new(rules);
    let report = replayer.replay_observed(record, |hand, index, line| {
        let betting = matches!(
            line.action,
            PhhAction::Fold { .. }
                | PhhAction::CheckCall { .. }
                | PhhAction::CompleteBetRaiseTo { .. }
        );
        if let (true, Some(legal)) = (betting, hand.legal()) {
            menus.insert(index, (floor_menu(&legal), legal.no_raise));
        }
    });
    let refused = report
        .ok()
        .and_then(|r| r.illegal.as_ref().map(|i| i.index));
    Played {
        menus,
        refused,
        hand: replayer.hand().cloned(),
    }
}

/// Whether floor ended the hand during a run-out because every hand but one was mucked
/// (PokerKit then waits for a board the record does not deal).
fn ended_by_run_out_mucks(hand: &Hand) -> bool {
    hand.board().len() < 5
        && hand.players_in_hand() >= 2
        && hand
            .events()
            .iter()
            .any(|e| matches!(e, Event::Mucked { .. }))
}

/// Whether every contender of one of the hand's pots mucked (floor gives that pot to the
/// last live hand; PokerKit burns it or fails an internal assertion).
fn a_pot_every_contender_mucked(hand: &Hand) -> bool {
    let mucked = hand.events().iter().fold(0u32, |mask, e| match e {
        Event::Mucked { player } => mask | 1 << player,
        _ => mask,
    });
    hand.pots()
        .iter()
        .any(|pot| pot.eligible != 0 && pot.eligible & !mucked == 0)
}

/// What each player put in over the hand, read from its events.
fn contributions(hand: &Hand) -> Vec<u64> {
    let n = hand.config().players();
    let (mut total, mut round) = (vec![0u64; n], vec![0u64; n]);
    for event in hand.events() {
        match *event {
            Event::Posted {
                player,
                kind,
                amount,
            } => match kind {
                floor_engine::hand::PostKind::Ante => total[player] += amount,
                _ => round[player] += amount,
            },
            Event::Acted { player, to, .. } => round[player] = round[player].max(to),
            Event::UncalledReturned { player, amount } => round[player] -= amount,
            Event::BoardDealt { .. } => {
                for p in 0..n {
                    total[p] += std::mem::take(&mut round[p]);
                }
            }
            _ => {}
        }
    }
    (0..n).map(|p| total[p] + round[p]).collect()
}

/// Whether players who folded put in more than any player still in: a side pot only
/// folded players reached (floor adds it to the last pot; PokerKit burns it).
fn a_side_pot_only_folded_players_reached(hand: &Hand) -> bool {
    let put = contributions(hand);
    let most = |folded: bool| {
        (0..put.len())
            .filter(|&p| hand.has_folded(p) == folded)
            .map(|p| put[p])
            .max()
            .unwrap_or(0)
    };
    most(true) > most(false)
}

#[derive(Default)]
struct Tally {
    hands: usize,
    points: usize,
    classes: BTreeMap<String, usize>,
    unexplained: Vec<String>,
}

impl Tally {
    fn count(&mut self, class: &str) {
        *self.classes.entry(class.to_string()).or_default() += 1;
    }

    fn count_owned(&mut self, class: String) {
        *self.classes.entry(class).or_default() += 1;
    }

    fn unexplained(&mut self, what: String) {
        self.count("unexplained");
        if self.unexplained.len() < 200 {
            self.unexplained.push(what);
        }
    }
}

/// How a menu of floor's under some rules compares with PokerKit's, at a point where the
/// model of PokerKit's betting offers PokerKit's own menu: the same, or a documented class.
fn class_of(
    rules: &'static str,
    floor: &(Menu, Option<NoRaise>),
    model: &(Menu, Option<NoRaise>),
    pk: &Menu,
) -> Option<String> {
    if floor.0 == *pk {
        return Some(format!("{rules}: same menu"));
    }
    let ((menu, why), (_, model_why)) = (floor, model);
    // Only whether a raise is allowed may differ, and for a documented reason.
    if (menu.0, menu.1, menu.4) != (pk.0, pk.1, pk.4) || menu.2.is_none() == pk.2.is_none() {
        return None;
    }
    let class = match (why, model_why) {
        (Some(NoRaise::NotReopened { .. }), _) => {
            "the standard rule does not reopen where PokerKit does (PokerKit measures the first raise of a round from zero)"
        }
        (_, Some(NoRaise::NotReopened { .. })) => {
            "PokerKit does not reopen where the standard rule does (short all-ins adding up to a full raise; the fixed-limit half bet)"
        }
        (Some(NoRaise::CapReached { .. }), _) | (_, Some(NoRaise::CapReached { .. })) => {
            "fixed-limit raise cap (PokerKit counts every all-in and never lifts it heads-up)"
        }
        _ => return None,
    };
    Some(format!("{rules}: {class}"))
}

/// Compares one corpus; `name` labels the differences.
fn compare(name: &str, records: &[PhhHand], reference: &[Reference], tally: &mut Tally) {
    assert_eq!(
        records.len(),
        reference.len(),
        "{name}: PokerKit read every hand"
    );
    for (i, (record, pk)) in records.iter().zip(reference).enumerate() {
        tally.hands += 1;
        let at = |index: usize| format!("{name} hand {} action {}", i + 1, index + 1);
        let model = play(record, Arc::new(ReferenceModel));
        let played = [
            ("PHH conventions", play(record, Arc::new(PhhConventions))),
            ("defaults", play(record, Arc::new(DefaultRules))),
        ];
        for (&index, pk_menu) in &pk.menus {
            let Some(pk_menu) = pk_menu else { continue };
            tally.points += 1;
            let Some(model_menu) = model.menus.get(&index) else {
                tally.unexplained(format!("{}: the model has no menu", at(index)));
                continue;
            };
            if model_menu.0 != *pk_menu {
                tally.unexplained(format!(
                    "{}: the model of PokerKit offers {model_menu:?}, PokerKit {pk_menu:?}",
                    at(index)
                ));
                continue;
            }
            tally.count("the model of PokerKit: same menu");
            for (rules, floor) in &played {
                if floor.refused.is_some_and(|r| r < index) {
                    continue;
                }
                let class = floor
                    .menus
                    .get(&index)
                    .and_then(|menu| class_of(rules, menu, model_menu, pk_menu));
                match class {
                    Some(class) => tally.count_owned(class),
                    None => tally.unexplained(format!(
                        "{}: {rules} {:?}, PokerKit {pk_menu:?}",
                        at(index),
                        floor.menus.get(&index)
                    )),
                }
            }
        }
        let [(_, phh), _] = &played;
        let Some(hand) = &phh.hand else { continue };
        if phh.refused.is_some() {
            // An action PokerKit took that the PHH conventions refuse: counted at its menu.
            continue;
        }
        match (&pk.stacks, &pk.error) {
            _ if ended_by_run_out_mucks(hand) => {
                tally.count("run-out ended by mucks: PokerKit waits for the board, then burns the pot")
            }
            (Some(stacks), None) if *stacks == hand.stacks() => tally.count("same stacks"),
            (_, Some(_)) if model.refused == Some(pk.applied) => tally.count(
                "PokerKit refuses an action the PHH conventions allow (its menu differs, counted above)",
            ),
            _ if a_pot_every_contender_mucked(hand) => tally.count(
                "a pot every contender mucked: floor gives it to the last live hand, PokerKit burns it or fails an assertion",
            ),
            _ if a_side_pot_only_folded_players_reached(hand) => tally.count(
                "a side pot only folded players reached: floor adds it to the last pot, PokerKit burns it",
            ),
            (Some(stacks), None) => tally.unexplained(format!(
                "{name} hand {}: stacks {:?}, PokerKit {stacks:?}",
                i + 1,
                hand.stacks()
            )),
            (_, error) => tally.unexplained(format!(
                "{name} hand {}: PokerKit stopped: {error:?}",
                i + 1
            )),
        }
    }
}

#[test]
fn every_menu_difference_from_pokerkit_is_a_documented_convention() {
    let python = python().unwrap_or_else(|why| {
        panic!("PokerKit is not available ({why}); tests/run installs it (pip install pokerkit==0.7.7 in a venv under the target directory), or set FLOOR_POKERKIT_PYTHON")
    });
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/crosscheck");
    let mut corpora: Vec<(String, PathBuf, Vec<PhhHand>)> = Vec::new();
    for file in ["random-nlhe-2k.phhs", "random-plo-500.phhs"] {
        let path = data.join(file);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!("the cross-check corpus {} is missing ({e}): it lives in ../shared/data beside the workspace", path.display())
        });
        let records = parse_file(&text).expect("a readable corpus");
        corpora.push((file.to_string(), path, records));
    }
    let count = std::env::var("FLOOR_MENUS_HANDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3_000);
    let generated = generate::corner_hands(2026, count, Arc::new(PhhConventions));
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pokerkit-menus-generated.phhs");
    std::fs::write(&path, write_phhs(&generated)).expect("write the generated hands");
    corpora.push(("generated".to_string(), path, generated));

    // PokerKit replays each corpus in a Python process of its own; the three run side by
    // side, so the comparison takes the longest corpus's time rather than the sum.
    let python = python.as_path();
    let references: Vec<Vec<Reference>> = std::thread::scope(|scope| {
        let runs: Vec<_> = corpora
            .iter()
            .map(|(_, path, _)| scope.spawn(move || reference_hands(python, path)))
            .collect();
        runs.into_iter()
            .map(|run| run.join().expect("a PokerKit run"))
            .collect()
    });
    let mut tally = Tally::default();
    for ((name, _, records), reference) in corpora.iter().zip(&references) {
        compare(name, records, reference, &mut tally);
    }
    println!(
        "{} hands, {} decision points compared with PokerKit",
        tally.hands, tally.points
    );
    for (class, n) in &tally.classes {
        println!("  {n:>8}  {class}");
    }
    assert!(
        tally.unexplained.is_empty(),
        "differences no documented rule explains:\n  {}",
        tally.unexplained.join("\n  ")
    );
}
