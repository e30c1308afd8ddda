//! The scenario file format (RON).

use crate::events::TableEvent;
use crate::Chips;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A scenario file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// A short name; for a worked example, the article first (`Art. 51º(1): several chips`).
    pub name: String,
    /// What it shows and where it comes from.
    #[serde(default)]
    pub about: String,
    /// The table, when the steps act on a hand.
    #[serde(default)]
    pub table: Option<TableSetup>,
    /// What happens, in order.
    #[serde(default)]
    pub steps: Vec<Step>,
    /// A cash session instead of a single hand (see [`super::cash`]).
    #[serde(default)]
    pub cash: Option<super::cash::CashSession>,
    /// Expected finishing stacks, by ruleset id (`"*"`: any ruleset).
    #[serde(default)]
    pub expect_stacks: BTreeMap<String, Vec<Chips>>,
    /// Words that must appear in the hand's log of rulings (each entry in some line), by
    /// ruleset id: for rulings the engine makes itself, such as who shows first.
    #[serde(default)]
    pub expect_log: BTreeMap<String, Vec<String>>,
    /// The table must be refused, with a reason containing these words, by ruleset id (a
    /// variant a text lists without rules, for instance).
    #[serde(default)]
    pub expect_refused: BTreeMap<String, String>,
    /// A tournament to run instead of a hand (see [`super::tournament`]).
    #[serde(default)]
    pub tournament: Option<super::tournament::TournamentScenario>,
    /// Only these rulesets (or house rulesets built on one of them) play it; empty: every
    /// ruleset that plays its kind. For a worked example of one text whose steps assume that
    /// text's rule (pt-casino-2007 rule 24's 4-player minimum, where pt-online rule 7 deals
    /// with 2): `floor scenario --all` lists the others as *not applicable*.
    #[serde(default)]
    pub rulesets: Vec<String>,
}

/// The table a scenario's hand is played at. Positions count from 0 = the first seat left of
/// the button (the small blind), as in PHH; the button is the last position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSetup {
    /// Starting stacks, one per player.
    pub stacks: Vec<Chips>,
    /// Small and big blind.
    pub blinds: (Chips, Chips),
    /// An ante from every player.
    #[serde(default)]
    pub ante: Chips,
    /// `no_limit` (default), `pot_limit`, `half_pot_limit` or `fixed_limit`.
    #[serde(default)]
    pub structure: Option<String>,
    /// `holdem` (default) or `omaha`.
    #[serde(default)]
    pub variant: Option<String>,
    /// Where the blinds sit: `Standard` (default: small blind left of the button, as in PHH,
    /// so the same steps play under every ruleset) or `Ruleset` (as the ruleset's
    /// `blinds.positions_and_amounts` says, e.g. pt-casino-2007's marker holder posting the
    /// small bet himself).
    #[serde(default)]
    pub seating: Seating,
    /// The dealer calls the showdown hand by hand: it waits for each live hand to be
    /// reported (`showdown.proper_show`, `showdown.premature_muck_by_bettor`...) and the pots
    /// go to the best live hand. Off (default), every hand still in is tabled and speaks.
    #[serde(default)]
    pub called_showdown: bool,
    /// The deck, laid out as a hand record writes it (each player's hole cards in position
    /// order, then the five board cards; the rest of the deck follows in a fixed order).
    /// Given, the hand is dealt by the table's dealer — one card at a time, a burn before
    /// each street — and rulings act on the cards: `Deal` and `Board` steps are not used.
    #[serde(default)]
    pub deck: Option<String>,
    /// The chip denominations in play (`[5, 25, 100]`): a `Chips` event pushing any other
    /// chip is refused. Empty: any chip.
    #[serde(default)]
    pub denominations: Vec<Chips>,
    /// The house commission the table plays with, within what the text allows (e.g.
    /// pt-casino-2007 rule 7(a): up to 5% a hand, a cap the house may set). None: the
    /// ruleset's own binding.
    #[serde(default)]
    pub commission: Option<Commission>,
}

/// A house commission: how it is charged, its rate and its cap.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Commission {
    /// `per_hand` (a percentage of each pot), `per_session` (charged by the session, nothing
    /// from the pot) or `none`.
    pub mode: String,
    /// The percentage (per hand: of the pot, rounded down to the chip).
    #[serde(default)]
    pub rate: Chips,
    /// The most taken from one hand (0: no cap).
    #[serde(default)]
    pub cap: Chips,
}

/// Where a scenario table's blinds sit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Seating {
    /// Small blind left of the button, big blind next (heads-up: the button posts the small).
    #[default]
    Standard,
    /// As the ruleset in force places them.
    Ruleset,
}

/// One step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Step {
    /// Hole cards for every player in position order (`"AhKh"`).
    Deal(Vec<String>),
    /// A clean action in PHH notation (`"p3 cbr 600"`: player 3 = position 2).
    Act(String),
    /// Board cards (`"AhKdQc"`, then `"7s"`...).
    Board(String),
    /// A clean action (PHH notation) that must be refused, with a reason containing `because`;
    /// the hand is left as it was.
    Refused {
        /// The action, as in `Act`.
        act: String,
        /// Words the refusal must contain.
        because: String,
    },
    /// What the table must look like now, by ruleset id (`"*"`: any ruleset).
    Table(BTreeMap<String, TableExpect>),
    /// The next hand at the same table (a table with a `deck` only): the hand in progress
    /// must be over; the button moves to the next seat with chips, the same blinds and antes
    /// are posted, and the players with chips are dealt from the scenario's deck again. `p1`
    /// is then the first seat left of the new button.
    NextHand,
    /// A table event, with the ruling expected under each ruleset.
    Event {
        /// The event.
        event: TableEvent,
        /// Expected ruling by ruleset id (`"*"`: any ruleset).
        #[serde(default)]
        expect: BTreeMap<String, Expect>,
    },
}

/// What a ruling must say. Every field given must match; omitted fields are not checked.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// The rule point that must decide.
    #[serde(default)]
    pub point: Option<String>,
    /// The outcome (`call`, `raise`, `misdeal`...).
    #[serde(default)]
    pub outcome: Option<String>,
    /// The raise-to or bet amount.
    #[serde(default)]
    pub to: Option<Chips>,
    /// Other result fields, compared as text.
    #[serde(default)]
    pub fields: BTreeMap<String, String>,
    /// The citation, exactly.
    #[serde(default)]
    pub citation: Option<String>,
    /// Whether the ruleset regulates the point (`false`: the ruling must read *not
    /// regulated by this text*).
    #[serde(default)]
    pub regulated: Option<bool>,
    /// Words the ruling's text must contain.
    #[serde(default)]
    pub text_contains: Option<String>,
    /// The plugin that must have answered, as `NAME VERSION` (`odd-chip-suits 0.1.0`): a
    /// plugin's citation also carries its SHA-256, which changes with every build, so a
    /// scenario names the plugin this way rather than by the whole citation.
    #[serde(default)]
    pub plugin: Option<String>,
    /// The event must be refused, with these words in the reason (a chip not in play at the
    /// table; at a table with a deck, any event the table refuses, such as a repeat offence's
    /// penalty no harsher than the last).
    #[serde(default)]
    pub refused: Option<String>,
}

/// What the table must look like after a step. Every field given must match; omitted
/// fields are not checked. Players are numbered from 1 in position order (`p1` is the first
/// seat left of the button), as in the actions' notation.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableExpect {
    /// The board (`"AhKdQs"`; `""`: none).
    #[serde(default)]
    pub board: Option<String>,
    /// Cards left in the stub.
    #[serde(default)]
    pub stub: Option<usize>,
    /// The burn cards, in order (`"2c7d"`).
    #[serde(default)]
    pub burns: Option<String>,
    /// Board cards turned too early and set aside.
    #[serde(default)]
    pub set_aside: Option<String>,
    /// Cards exposed by accident.
    #[serde(default)]
    pub exposed: Option<String>,
    /// Hole cards by player (`{1: "AhKh"}`).
    #[serde(default)]
    pub hole: BTreeMap<usize, String>,
    /// Each player's chips behind.
    #[serde(default)]
    pub stacks: Option<Vec<Chips>>,
    /// Each player's bet in the current round.
    #[serde(default)]
    pub bets: Option<Vec<Chips>>,
    /// Every chip in the middle (bets included).
    #[serde(default)]
    pub pot: Option<Chips>,
    /// The player to act (0: nobody).
    #[serde(default)]
    pub to_act: Option<usize>,
    /// The legal menu of the player to act: `"fold call raise"`, `"fold call"` (capped or
    /// no raise possible), `"check raise"`...
    #[serde(default)]
    pub menu: Option<String>,
    /// The players capped at calling for this round.
    #[serde(default)]
    pub call_only: Option<Vec<usize>>,
    /// The players (from 1) whose action out of turn is held for their turn.
    #[serde(default)]
    pub held: Option<Vec<usize>>,
    /// The players (from 1) noted away from the seat with a live hand.
    #[serde(default)]
    pub away: Option<Vec<usize>>,
    /// The hand waits for the floor's ruling.
    #[serde(default)]
    pub waits_for_floor: Option<bool>,
    /// How many times the hand was redealt after a misdeal.
    #[serde(default)]
    pub redeals: Option<u32>,
    /// The hand is void.
    #[serde(default)]
    pub void: Option<bool>,
    /// The players (from 1) whose hands are live at the showdown (not folded, mucked or
    /// ruled dead).
    #[serde(default)]
    pub live: Option<Vec<usize>>,
    /// The hand is over and its pots awarded.
    #[serde(default)]
    pub complete: Option<bool>,
    /// The table's hand number (from 1).
    #[serde(default)]
    pub hand: Option<u64>,
    /// Each seat's chips behind (by seat number from 1; 0 for an empty seat), as the seats
    /// hold them between hands.
    #[serde(default)]
    pub seats: Option<Vec<Chips>>,
    /// The penalties the seats serve, by seat number from 1: `orbits 1: 3 left`,
    /// `hands 2: starts next deal`, `disqualification: leaves`. Seats not named serve none.
    #[serde(default)]
    pub penalties: Option<BTreeMap<usize, String>>,
    /// Chips taken out of play by disqualifications.
    #[serde(default)]
    pub removed: Option<Chips>,
}

/// A scenario file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{col}: {message}")]
pub struct ScenarioError {
    /// The file.
    pub file: String,
    /// Line (1-based).
    pub line: usize,
    /// Column (1-based).
    pub col: usize,
    /// What is wrong.
    pub message: String,
}

/// Parses a scenario (RON, `implicit_some` on), and checks its counts and durations against
/// their bounds ([`super::bounds`]).
pub fn parse(file: &str, text: &str) -> Result<Scenario, ScenarioError> {
    let options =
        ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    let scenario: Scenario = options.from_str(text).map_err(|e| ScenarioError {
        file: file.to_string(),
        line: e.span.start.line,
        col: e.span.start.col,
        message: e.code.to_string(),
    })?;
    super::bounds::check(file, text, &scenario)?;
    Ok(scenario)
}

/// What a scenario plays: a hand (any ruleset), a tournament (tournament rulesets) or a cash
/// session (cash and online rulesets).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ScenarioKind {
    /// One hand at a table: every ruleset can rule on it.
    Hand,
    /// A tournament: only rulesets of tournament rulebooks run tournaments.
    Tournament,
    /// A cash session: only cash-game rulesets (land casino or online) run cash tables.
    Cash,
}

impl Scenario {
    /// Whether this scenario plays a hand, a tournament or a cash session.
    pub fn kind(&self) -> ScenarioKind {
        if self.tournament.is_some() {
            ScenarioKind::Tournament
        } else if self.cash.is_some() {
            ScenarioKind::Cash
        } else {
            ScenarioKind::Hand
        }
    }
}

/// Whether a scenario can be played under a ruleset: `Err` says why not (a tournament scenario
/// under a cash rulebook, a cash session under a tournament rulebook). `kind` is the ruleset's
/// own kind, or for a house ruleset the kind of the first ancestor that is not a house one
/// (`None` when the chain is all house rules: then it may play anything).
///
/// `floor scenario --all` reports such rulesets as *not applicable* instead of running
/// expectations written for another kind of game against them.
pub fn applicable(
    scenario: &Scenario,
    kind: Option<crate::ruleset::RulesetKind>,
) -> Result<(), String> {
    use crate::ruleset::RulesetKind as K;
    match (scenario.kind(), kind) {
        (ScenarioKind::Hand, _) | (_, None) | (_, Some(K::House)) => Ok(()),
        (ScenarioKind::Tournament, Some(K::Tournament)) => Ok(()),
        (ScenarioKind::Cash, Some(K::Cash | K::Online)) => Ok(()),
        (ScenarioKind::Tournament, Some(k)) => Err(format!(
            "a tournament scenario, and this ruleset is for {}",
            kind_name(k)
        )),
        (ScenarioKind::Cash, Some(k)) => Err(format!(
            "a cash-session scenario, and this ruleset is for {}",
            kind_name(k)
        )),
    }
}

/// Whether a scenario restricted to some rulesets ([`Scenario::rulesets`]) is played by a
/// ruleset whose chain of layers has these ids (its own first, then what it extends): `Err`
/// says why not.
pub fn applicable_to<'a>(
    scenario: &Scenario,
    mut chain: impl Iterator<Item = &'a str>,
) -> Result<(), String> {
    if scenario.rulesets.is_empty() || chain.any(|id| scenario.rulesets.iter().any(|r| r == id)) {
        Ok(())
    } else {
        Err(format!(
            "the scenario is written for {} only",
            scenario.rulesets.join(", ")
        ))
    }
}

/// Whether a scenario can be played under a loaded ruleset: by the kind of game the ruleset is
/// played at ([`applicable`]) and, for a scenario restricted to some rulesets, by its chain of
/// layers ([`applicable_to`]). `Err` says why not.
pub fn playable_under(
    scenario: &Scenario,
    ruleset: &crate::ruleset::Ruleset,
) -> Result<(), String> {
    applicable(scenario, ruleset.game_kind())?;
    applicable_to(
        scenario,
        ruleset.layers().iter().map(|l| l.file.id.as_str()),
    )
}

fn kind_name(kind: crate::ruleset::RulesetKind) -> &'static str {
    use crate::ruleset::RulesetKind as K;
    match kind {
        K::Cash => "cash games in a land casino",
        K::Online => "online cash games",
        K::Tournament => "tournaments",
        K::House => "house rules",
    }
}
