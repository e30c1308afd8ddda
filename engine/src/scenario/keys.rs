//! Expectations keyed by ruleset id: which keys a scenario writes, whether each names a
//! ruleset, and what is expected under one ruleset when `"*"` and its own key both speak.
//!
//! The rule (documented in `rulesets/README.md`): a ruleset's own key *adds to* `"*"`. Under
//! that ruleset both apply; where both give the same field, the ruleset's own value wins.
//! A ruling expected at the same rule point is one ruling, merged field by field; a value
//! that is one answer (finishing stacks, places, a receipt, refusal words) is one field.
//! A key that names no ruleset is an error, so a typo cannot silently disable an expectation.

use super::cash::{CashStep, RulingExpect, StepExpect, TableCheck};
use super::format::{Expect, Scenario, ScenarioError, Step};
use super::tournament::{ResultExpect, TournamentStep};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

/// The key that applies to every ruleset.
pub const ANY: &str = "*";

/// How a ruleset's own expectation combines with the one written for `"*"`.
pub trait Merge: Clone {
    /// `general` (`"*"`) with `specific` (the ruleset's key) added: the specific value wins
    /// wherever both speak.
    fn merge(general: &Self, specific: &Self) -> Self;
}

/// What `map` expects under ruleset `id`: its own entry added to `"*"`'s.
pub fn for_ruleset<'a, T: Merge>(map: &'a BTreeMap<String, T>, id: &str) -> Option<Cow<'a, T>> {
    match (map.get(ANY), map.get(id)) {
        (None, None) => None,
        (Some(g), None) => Some(Cow::Borrowed(g)),
        (None, Some(s)) => Some(Cow::Borrowed(s)),
        (Some(g), Some(s)) => Some(Cow::Owned(T::merge(g, s))),
    }
}

/// A value that is one answer: the ruleset's own replaces `"*"`'s.
macro_rules! replaced {
    ($($t:ty),* $(,)?) => {$(
        impl Merge for $t {
            fn merge(_general: &Self, specific: &Self) -> Self {
                specific.clone()
            }
        }
    )*};
}
replaced!(
    String,
    Vec<crate::Chips>,
    Vec<(u32, u32)>,
    (u64, u64, u64, u64, u64, crate::Chips),
    (crate::Chips, crate::Chips)
);

/// Option fields: the ruleset's own value where it gives one.
fn or<T: Clone>(general: &Option<T>, specific: &Option<T>) -> Option<T> {
    specific.clone().or_else(|| general.clone())
}

/// Map fields: every entry of both, the ruleset's own where both name the same key.
fn union<K: Ord + Clone, V: Clone>(g: &BTreeMap<K, V>, s: &BTreeMap<K, V>) -> BTreeMap<K, V> {
    let mut out = g.clone();
    out.extend(s.iter().map(|(k, v)| (k.clone(), v.clone())));
    out
}

impl Merge for Expect {
    fn merge(g: &Self, s: &Self) -> Self {
        Expect {
            point: or(&g.point, &s.point),
            outcome: or(&g.outcome, &s.outcome),
            to: or(&g.to, &s.to),
            fields: union(&g.fields, &s.fields),
            citation: or(&g.citation, &s.citation),
            regulated: or(&g.regulated, &s.regulated),
            text_contains: or(&g.text_contains, &s.text_contains),
            plugin: or(&g.plugin, &s.plugin),
            refused: or(&g.refused, &s.refused),
        }
    }
}

impl Merge for super::format::TableExpect {
    fn merge(g: &Self, s: &Self) -> Self {
        Self {
            board: or(&g.board, &s.board),
            stub: or(&g.stub, &s.stub),
            burns: or(&g.burns, &s.burns),
            set_aside: or(&g.set_aside, &s.set_aside),
            exposed: or(&g.exposed, &s.exposed),
            hole: union(&g.hole, &s.hole),
            stacks: or(&g.stacks, &s.stacks),
            bets: or(&g.bets, &s.bets),
            pot: or(&g.pot, &s.pot),
            to_act: or(&g.to_act, &s.to_act),
            menu: or(&g.menu, &s.menu),
            call_only: or(&g.call_only, &s.call_only),
            held: or(&g.held, &s.held),
            away: or(&g.away, &s.away),
            waits_for_floor: or(&g.waits_for_floor, &s.waits_for_floor),
            redeals: or(&g.redeals, &s.redeals),
            void: or(&g.void, &s.void),
            live: or(&g.live, &s.live),
            complete: or(&g.complete, &s.complete),
            hand: or(&g.hand, &s.hand),
            seats: or(&g.seats, &s.seats),
            penalties: or(&g.penalties, &s.penalties),
            removed: or(&g.removed, &s.removed),
        }
    }
}

impl Merge for RulingExpect {
    fn merge(g: &Self, s: &Self) -> Self {
        RulingExpect {
            point: or(&g.point, &s.point),
            citation: or(&g.citation, &s.citation),
            text_contains: or(&g.text_contains, &s.text_contains),
            regulated: or(&g.regulated, &s.regulated),
        }
    }
}

/// A list of rulings a step must make: a ruling of the ruleset's list at a point `"*"`'s list
/// also names is that ruling, merged; the others are added.
trait AtPoint: Merge {
    fn point(&self) -> Option<&str>;
}

impl AtPoint for Expect {
    fn point(&self) -> Option<&str> {
        self.point.as_deref()
    }
}

impl AtPoint for RulingExpect {
    fn point(&self) -> Option<&str> {
        self.point.as_deref()
    }
}

fn by_point<T: AtPoint>(general: &[T], specific: &[T]) -> Vec<T> {
    let mut out: Vec<T> = general.to_vec();
    for s in specific {
        let same = s
            .point()
            .and_then(|p| out.iter().position(|g| g.point() == Some(p)));
        match same {
            Some(i) => out[i] = T::merge(&out[i], s),
            None => out.push(s.clone()),
        }
    }
    out
}

impl Merge for Vec<Expect> {
    fn merge(g: &Self, s: &Self) -> Self {
        by_point(g, s)
    }
}

impl Merge for StepExpect {
    fn merge(g: &Self, s: &Self) -> Self {
        StepExpect {
            refused: or(&g.refused, &s.refused),
            rulings: by_point(&g.rulings, &s.rulings),
        }
    }
}

impl Merge for TableCheck {
    fn merge(g: &Self, s: &Self) -> Self {
        TableCheck {
            status: or(&g.status, &s.status),
            stacks: union(&g.stacks, &s.stacks),
            seated: or(&g.seated, &s.seated),
            button: or(&g.button, &s.button),
            totals: union(&g.totals, &s.totals),
            last_hand: union(&g.last_hand, &s.last_hand),
        }
    }
}

impl Merge for ResultExpect {
    fn merge(g: &Self, s: &Self) -> Self {
        ResultExpect {
            paid_in: or(&g.paid_in, &s.paid_in),
            fee: or(&g.fee, &s.fee),
            prize_pool: or(&g.prize_pool, &s.prize_pool),
            xtrastack_fund: or(&g.xtrastack_fund, &s.xtrastack_fund),
            places: or(&g.places, &s.places),
            payouts: or(&g.payouts, &s.payouts),
            forms: or(&g.forms, &s.forms),
            payouts_citation: or(&g.payouts_citation, &s.payouts_citation),
            bounties: or(&g.bounties, &s.bounties),
            bounty_citation: or(&g.bounty_citation, &s.bounty_citation),
            ranking: or(&g.ranking, &s.ranking),
            ranking_citation: or(&g.ranking_citation, &s.ranking_citation),
            balanced: or(&g.balanced, &s.balanced),
            refused: or(&g.refused, &s.refused),
        }
    }
}

/// Words that must appear in the hand's log: every word of both lists.
pub(crate) fn log_words<'a>(map: &'a BTreeMap<String, Vec<String>>, id: &str) -> Vec<&'a str> {
    [map.get(ANY), map.get(id)]
        .into_iter()
        .flatten()
        .flatten()
        .map(String::as_str)
        .collect()
}

/// Every ruleset id the scenario names, sorted: each one it keys an expectation to (`"*"`
/// left out) and each one its `rulesets` list says plays it — `floor test` runs the scenario
/// under all of them, so a `"*"` expectation is checked under every ruleset listed.
pub fn ruleset_keys(scenario: &Scenario) -> BTreeSet<String> {
    let mut keys: BTreeSet<String> = scenario.rulesets.iter().cloned().collect();
    let mut add = |k: &mut dyn Iterator<Item = &String>| {
        keys.extend(k.filter(|k| *k != ANY).cloned());
    };
    add(&mut scenario.expect_stacks.keys());
    add(&mut scenario.expect_log.keys());
    add(&mut scenario.expect_refused.keys());
    for step in &scenario.steps {
        match step {
            Step::Event { expect, .. } => add(&mut expect.keys()),
            Step::Table(expect) => add(&mut expect.keys()),
            _ => {}
        }
    }
    if let Some(cash) = &scenario.cash {
        for step in &cash.steps {
            add(&mut cash_keys(step));
        }
    }
    if let Some(tournament) = &scenario.tournament {
        for step in &tournament.steps {
            add(&mut tournament_keys(step));
        }
    }
    keys
}

fn cash_keys(step: &CashStep) -> Box<dyn Iterator<Item = &String> + '_> {
    use CashStep::*;
    match step {
        Seat { expect, .. }
        | Draw { expect, .. }
        | Leave { expect, .. }
        | SitOut { expect, .. }
        | SitIn { expect, .. }
        | Rebuy { expect, .. }
        | WaitingList { expect, .. }
        | SeatChange { expect, .. }
        | Advance { expect, .. }
        | Deal { expect, .. }
        | Act { expect, .. }
        | CheckDown { expect }
        | FoldAround { expect }
        | Failure { expect, .. } => Box::new(expect.keys()),
        Check(checks) => Box::new(checks.keys()),
    }
}

fn tournament_keys(step: &TournamentStep) -> Box<dyn Iterator<Item = &String> + '_> {
    use TournamentStep::*;
    match step {
        Play { expect, .. }
        | Balance { expect }
        | StopCheck { expect, .. }
        | Elapse { expect, .. }
        | WrongSeat { expect, .. }
        | ColorUp { expect, .. } => Box::new(expect.keys()),
        Eliminate { places, expect, .. } => Box::new(places.keys().chain(expect.keys())),
        LateEntry {
            expect, refused, ..
        }
        | AbandonStack {
            expect, refused, ..
        } => Box::new(expect.keys().chain(refused.keys())),
        Buy {
            receipt,
            expect,
            refused,
            ..
        } => Box::new(receipt.keys().chain(expect.keys()).chain(refused.keys())),
        Result { expect, .. } => Box::new(expect.keys()),
        DeclareRebuy { stacks, expect, .. } => Box::new(stacks.keys().chain(expect.keys())),
        EliminateAt { .. } | Absent { .. } | Check { .. } => Box::new(std::iter::empty()),
    }
}

/// Refuses a scenario that keys an expectation to a ruleset not in `known`, at the key's
/// line and column in `text`: a mistyped key would otherwise disable its expectation.
pub fn check_keys(
    file: &str,
    text: &str,
    scenario: &Scenario,
    known: &[String],
) -> Result<(), ScenarioError> {
    let Some(unknown) = ruleset_keys(scenario)
        .into_iter()
        .find(|k| !known.iter().any(|id| id == k))
    else {
        return Ok(());
    };
    let (line, col) = key_position(text, &unknown).unwrap_or((1, 1));
    Err(ScenarioError {
        file: file.to_string(),
        line,
        col,
        message: format!(
            "the expectation key \"{unknown}\" names no ruleset (known: {}; \"*\" is any ruleset)",
            known.join(", ")
        ),
    })
}

/// Where the map key `"key":` first appears in RON `text`, outside comments (1-based).
fn key_position(text: &str, key: &str) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let (mut i, mut line, mut line_start) = (0usize, 1usize, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                line += 1;
                line_start = i + 1;
                i += 1;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                    if bytes[i] == b'\n' {
                        line += 1;
                        line_start = i + 1;
                    }
                    i += 1;
                }
                i += 2;
            }
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                let content = text.get(start + 1..i.min(bytes.len()));
                i += 1;
                let rest = text.get(i..).unwrap_or("").trim_start();
                if content == Some(key) && rest.starts_with(':') {
                    let col = text[line_start..start].chars().count() + 1;
                    return Some((line, col));
                }
            }
            _ => i += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expect(point: &str, outcome: Option<&str>, citation: Option<&str>) -> Expect {
        Expect {
            point: Some(point.into()),
            outcome: outcome.map(Into::into),
            citation: citation.map(Into::into),
            ..Expect::default()
        }
    }

    /// The README's example: `"*"` expects a call at `action.multiple_chips`, pt-tournament's
    /// key adds the article; under pt-tournament both are checked.
    #[test]
    fn a_ruleset_key_adds_to_the_star_key() {
        let map: BTreeMap<String, Expect> = [
            (
                "*".into(),
                expect("action.multiple_chips", Some("call"), None),
            ),
            (
                "pt-tournament".into(),
                Expect {
                    citation: Some("Art. 51º(1)".into()),
                    ..Expect::default()
                },
            ),
        ]
        .into_iter()
        .collect();
        let pt = for_ruleset(&map, "pt-tournament").expect("an expectation");
        assert_eq!(
            *pt,
            expect("action.multiple_chips", Some("call"), Some("Art. 51º(1)"))
        );
        let br = for_ruleset(&map, "br-adtp-2012").expect("an expectation");
        assert_eq!(*br, expect("action.multiple_chips", Some("call"), None));
    }

    #[test]
    fn where_both_speak_the_ruleset_key_wins() {
        let map: BTreeMap<String, Vec<Expect>> = [
            (
                "*".into(),
                vec![expect("a", Some("x"), None), expect("b", None, None)],
            ),
            (
                "br".into(),
                vec![expect("a", Some("y"), None), expect("c", None, None)],
            ),
        ]
        .into_iter()
        .collect();
        let br = for_ruleset(&map, "br").expect("an expectation");
        assert_eq!(
            *br,
            vec![
                expect("a", Some("y"), None),
                expect("b", None, None),
                expect("c", None, None)
            ]
        );
        let places: BTreeMap<String, Vec<(u32, u32)>> = [
            ("*".into(), vec![(9, 10), (9, 10)]),
            ("br".into(), vec![(9, 9), (10, 10)]),
        ]
        .into_iter()
        .collect();
        assert_eq!(
            *for_ruleset(&places, "br").expect("places"),
            vec![(9, 9), (10, 10)]
        );
        assert_eq!(
            *for_ruleset(&places, "pt").expect("places"),
            vec![(9, 10), (9, 10)]
        );
        assert!(for_ruleset(&BTreeMap::<String, String>::new(), "pt").is_none());
    }

    #[test]
    fn log_words_are_both_lists() {
        let map: BTreeMap<String, Vec<String>> = [
            ("*".into(), vec!["shows first".into()]),
            ("pt".into(), vec!["rule 62".into()]),
        ]
        .into_iter()
        .collect();
        assert_eq!(log_words(&map, "pt"), ["shows first", "rule 62"]);
        assert_eq!(log_words(&map, "br"), ["shows first"]);
    }

    #[test]
    fn a_key_naming_no_ruleset_is_refused_where_it_is_written() {
        let text = "Scenario(\n    name: \"x\",\n    // \"pt-tournamnet\": in a comment\n    expect_stacks: {\"*\": [1, 2],\n      \"pt-tournamnet\": [3, 4]},\n)\n";
        let scenario = super::super::parse("x.ron", text).expect("parses");
        let known = vec!["pt-tournament".to_string()];
        let e = check_keys("x.ron", text, &scenario, &known).expect_err("unknown key");
        assert_eq!((e.line, e.col), (5, 7));
        assert_eq!(
            e.to_string(),
            "x.ron:5:7: the expectation key \"pt-tournamnet\" names no ruleset (known: pt-tournament; \"*\" is any ruleset)"
        );
        let good = text.replace("tournamnet", "tournament");
        let scenario = super::super::parse("x.ron", &good).expect("parses");
        assert_eq!(check_keys("x.ron", &good, &scenario, &known), Ok(()));
    }

    /// The keys of a tournament step's expectations and of a cash session's checks are
    /// checked too, not only a hand's.
    #[test]
    fn a_key_naming_no_ruleset_in_a_tournament_or_cash_step_is_refused() {
        let known = vec!["pt-online".to_string(), "pt-tournament".to_string()];
        for (text, key, at) in [
            (
                "Scenario(name: \"t\", tournament: (entries: 10, starting_stack: 100,\n    levels: [(small_blind: 1, big_blind: 2, minutes: 1)],\n    steps: [Elapse(seconds: 60, expect: {\"pt-tournamnet\": [(point: \"tournament.levels\")]})]))\n",
                "pt-tournamnet",
                (3, 42),
            ),
            (
                "Scenario(name: \"c\", cash: (table: (table_minimum: 10, initial_buy_in: 1000),\n    steps: [Seat(player: \"ana\", buy_in: 1000),\n        Check({\"pt-onlnie\": (status: \"running\")})]))\n",
                "pt-onlnie",
                (3, 16),
            ),
        ] {
            let scenario = super::super::parse("x.ron", text).expect("parses");
            let e = check_keys("x.ron", text, &scenario, &known).expect_err(key);
            assert_eq!((e.line, e.col), at, "{e}");
            assert!(
                e.message
                    .starts_with(&format!("the expectation key \"{key}\" names no ruleset")),
                "{e}"
            );
            let good = text
                .replace("pt-tournamnet", "pt-tournament")
                .replace("pt-onlnie", "pt-online");
            let scenario = super::super::parse("x.ron", &good).expect("parses");
            assert_eq!(check_keys("x.ron", &good, &scenario, &known), Ok(()));
        }
    }
}
