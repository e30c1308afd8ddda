//! floor's legal action menu against PokerKit's (the PHH format's reference engine) at every
//! decision point: who acts, what calling costs, the smallest and largest bet or raise-to,
//! whether raising is allowed at all, and the stacks at the end. On the shared cross-check
//! corpora and on hands generated to stress the corners (see `generate`).
//!
//! Under [`PhhConventions`] the menus must be PokerKit's exactly. Under the engine's defaults
//! (the standard rules) every difference must be one of the documented conventions: the
//! reopening after short all-ins and the fixed-limit raise cap (see `rules/reference.rs`).
//! The stacks must agree wherever PokerKit plays a hand to the end; where it cannot (a
//! run-out that floor ends because every hand but one was mucked), the reason is counted.
//!
//! PokerKit runs in Python: `tests/run` installs it in a virtual environment under the
//! target directory; `FLOOR_POKERKIT_PYTHON` names another interpreter. Without it the test
//! fails and says so. `FLOOR_MENUS_HANDS` sets how many hands are generated (default 3,000).

#[path = "pokerkit_menus/generate.rs"]
mod generate;

use floor_engine::hand::{Event, Hand, Legal, NoRaise};
use floor_engine::phh::{parse_file, write_phhs, Action as PhhAction, PhhHand};
use floor_engine::replay::Replayer;
use floor_engine::rules::{DefaultRules, PhhConventions, Rules};
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
    classes: BTreeMap<&'static str, usize>,
    unexplained: Vec<String>,
}

impl Tally {
    fn count(&mut self, class: &'static str) {
        *self.classes.entry(class).or_default() += 1;
    }

    fn unexplained(&mut self, what: String) {
        self.count("unexplained");
        if self.unexplained.len() < 200 {
            self.unexplained.push(what);
        }
    }
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
        let phh = play(record, Arc::new(PhhConventions));
        let default = play(record, Arc::new(DefaultRules));
        for (&index, pk_menu) in &pk.menus {
            let Some(pk_menu) = pk_menu else { continue };
            tally.points += 1;
            match phh.menus.get(&index) {
                Some((menu, _)) if menu == pk_menu => tally.count("same under the PHH conventions"),
                Some((menu, why)) => tally.unexplained(format!(
                    "{}: PHH conventions {menu:?} ({why:?}), PokerKit {pk_menu:?}",
                    at(index)
                )),
                None if phh.refused.is_some_and(|r| r < index) => {}
                None => tally.unexplained(format!("{}: floor has no menu", at(index))),
            }
            if default.refused.is_some_and(|r| r < index) {
                continue;
            }
            match (default.menus.get(&index), phh.menus.get(&index)) {
                (Some((menu, _)), _) if menu == pk_menu => tally.count("same under the defaults"),
                (Some((menu, why)), Some((conv, conv_why))) => {
                    let same_but_raise = (menu.0, menu.1) == (conv.0, conv.1)
                        && (menu.2.is_none() != conv.2.is_none());
                    let reason = why.or(*conv_why);
                    match (same_but_raise, reason) {
                        (true, Some(NoRaise::NotReopened { .. })) => {
                            tally.count("defaults: reopening after a short all-in")
                        }
                        (true, Some(NoRaise::CapReached { .. })) => {
                            tally.count("defaults: fixed-limit raise cap")
                        }
                        _ => tally.unexplained(format!(
                            "{}: defaults {menu:?} ({why:?}), PokerKit {pk_menu:?}",
                            at(index)
                        )),
                    }
                }
                (a, _) => tally.unexplained(format!("{}: defaults {a:?}", at(index))),
            }
        }
        if let Some(index) = phh.refused {
            tally.unexplained(format!("{}: refused under the PHH conventions", at(index)));
        }
        let Some(hand) = &phh.hand else { continue };
        match (&pk.stacks, &pk.error) {
            _ if ended_by_run_out_mucks(hand) => {
                tally.count("run-out ended by mucks: PokerKit waits for the board, then burns the pot")
            }
            (Some(stacks), None) if *stacks == hand.stacks() => tally.count("same stacks"),
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
fn floor_offers_pokerkits_menus_under_the_phh_conventions_and_documented_differences_otherwise() {
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

    let mut tally = Tally::default();
    for (name, path, records) in &corpora {
        let reference = reference_hands(&python, path);
        compare(name, records, &reference, &mut tally);
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
