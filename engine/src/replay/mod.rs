//! Replaying a PHH hand history through the state machine, and checking it.
//!
//! Every action of the record is applied as an event; the first one the state machine refuses
//! is reported with the reason. The record's results (`finishing_stacks`, `winnings`) are then
//! checked under the conventions real sites write them with (see [`check`] and
//! `docs/REPLAY.md`): a disagreement is a mismatch, and a record whose results contradict its
//! own actions is reported apart, as a contradiction. A show after the hand (a winner nobody
//! called showing his cards) is accepted and ruled on like any exposed hand.

use crate::bounds::MAX_HAND_CHIPS;
use crate::hand::{
    Action, ActionError, EventLog, Hand, HandConfig, Outcome, Phase, Seat, Structure, Variant,
    MAX_PLAYERS,
};
use crate::phh::{Action as PhhAction, ActionLine, PhhHand, Stack};
use crate::rules::Rules;
use crate::Chips;
use serde::Serialize;
use std::sync::Arc;

mod check;
mod export;
mod prefetch;
mod stream;
pub use check::{rake_bound, Readings};
pub use export::{phh_order, to_phh, ExportError};
pub use stream::replay_chunk;

/// The stack given to a player whose starting stack the record writes as `inf`: larger than
/// any real pot, small enough that sums of several never overflow.
pub const UNKNOWN_STACK: Chips = 1 << 52;

/// What replaying one hand found.
#[derive(Clone, Debug, Serialize)]
pub struct ReplayReport {
    /// Whether the hand reached its end (pots awarded, or a showdown the record cannot settle).
    pub completed: bool,
    /// Whether the winner(s) could be determined (false: some shown cards are unknown).
    pub settled: bool,
    /// The first action the engine refused, if any.
    pub illegal: Option<IllegalAction>,
    /// Finishing stacks that differ from the record's.
    pub stack_mismatch: Option<StackMismatch>,
    /// Why the record's winnings disagree with the engine, if they do.
    pub winnings_mismatch: Option<String>,
    /// Why the record's results contradict its own actions whatever the cards, if they do
    /// (winnings above everything put in the middle, a folded player paid, stacks that create
    /// chips or never moved): a fault of the record, not a disagreement with the engine.
    pub contradiction: Option<String>,
    /// How the record's results were read (a rake taken, an uncalled bet counted as won).
    pub readings: Readings,
    /// Folds the record leaves out and the replay supplied (see [`InferredFold`]).
    pub inferred_folds: Vec<InferredFold>,
    /// Cards the record shows once the hand is over (see [`ShownAfterHand`]).
    pub shown_after_hand: Vec<ShownAfterHand>,
}

/// A player showing his cards after the hand is over, as real records write it (the winner
/// of an uncontested pot showing what he won with): accepted, it changes nothing, and the
/// hand records the ruling (`showdown.uncontested_pot` or `conduct.exposing_cards`).
#[derive(Clone, Debug, Serialize)]
pub struct ShownAfterHand {
    /// The player (from 0).
    pub player: usize,
    /// The index, in `actions`, of the show.
    pub index: usize,
    /// Its source line.
    pub line: usize,
    /// Whether the player had won an uncontested pot (everyone else folded).
    pub uncontested: bool,
}

/// A fold the record omits. Live-tournament records sometimes skip a player who folded to a
/// bet (the 2019 WSOP hand skips the button's fold to a raise): when the record's next action
/// is by a player further round the table, and every player skipped faces a bet, those players
/// are taken to have folded. A skipped player who could check is never folded; that record is
/// refused as out of turn.
#[derive(Clone, Debug, Serialize)]
pub struct InferredFold {
    /// The player (from 0) taken to have folded.
    pub player: usize,
    /// The index, in `actions`, of the action that skipped them.
    pub index: usize,
    /// That action's source line.
    pub line: usize,
}

impl ReplayReport {
    /// The report before a replay: nothing found yet.
    fn blank() -> ReplayReport {
        ReplayReport {
            completed: false,
            settled: false,
            illegal: None,
            stack_mismatch: None,
            winnings_mismatch: None,
            contradiction: None,
            readings: Readings::default(),
            inferred_folds: Vec::new(),
            shown_after_hand: Vec::new(),
        }
    }

    /// Whether the replay found a problem with the engine's replay of the record: an action
    /// refused, or results the engine disagrees with. A record that contradicts itself is not
    /// one (see [`ReplayReport::contradiction`]).
    pub fn failed(&self) -> bool {
        self.illegal.is_some() || self.stack_mismatch.is_some() || self.winnings_mismatch.is_some()
    }

    /// Empties the report for the next replay, keeping its lists' buffers.
    #[inline(always)]
    fn reset(&mut self) {
        self.completed = false;
        self.settled = false;
        self.illegal = None;
        self.stack_mismatch = None;
        self.winnings_mismatch = None;
        self.contradiction = None;
        self.readings = Readings::default();
        self.inferred_folds.clear();
        self.shown_after_hand.clear();
    }
}

/// An action the engine refused.
#[derive(Clone, Debug, Serialize)]
pub struct IllegalAction {
    /// Its position in the `actions` list (from 0).
    pub index: usize,
    /// Its source line.
    pub line: usize,
    /// The action as written.
    pub notation: String,
    /// Why it was refused.
    pub reason: String,
    /// The rule point whose answer refused it, when a rulebook decides it.
    pub point: Option<&'static str>,
}

/// Finishing stacks that do not match.
#[derive(Clone, Debug, Serialize)]
pub struct StackMismatch {
    /// The record's finishing stacks (in the record's units).
    pub expected: Vec<i64>,
    /// The engine's.
    pub actual: Vec<i64>,
}

/// A record the engine cannot set up a hand from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A variant floor does not play.
    #[error("variant `{0}` is not supported (floor plays NT, PO, FT and PO-style omaha)")]
    Variant(String),
    /// A required betting field is missing for the variant.
    #[error("variant `{variant}` needs the field `{field}`")]
    MissingField {
        /// The variant.
        variant: String,
        /// The missing field.
        field: &'static str,
    },
    /// Negative amounts where only positive ones make sense.
    #[error("negative amount in `{0}`")]
    Negative(&'static str),
    /// The configuration itself is refused.
    #[error(transparent)]
    Config(#[from] crate::hand::ConfigError),
}

/// Builds the hand configuration a PHH record describes. PHH lists players from the first
/// seat left of the button to the button; heads-up, the record's forced bets are reversed
/// (the button posts the small blind). Negative `blinds_or_straddles` entries are live posts.
pub fn config_from_phh(phh: &PhhHand) -> Result<HandConfig, SetupError> {
    let mut config = empty_config();
    fill_config(phh, &mut config)?;
    config.validate()?;
    Ok(config)
}

/// A configuration with no players, to be filled by [`fill_config`].
fn empty_config() -> HandConfig {
    HandConfig {
        variant: Variant::Holdem,
        structure: Structure::NoLimit,
        min_bet: 0,
        stacks: Vec::new(),
        antes: Vec::new(),
        blinds: Vec::new(),
        posts: Vec::new(),
        button: 0,
    }
}

/// [`config_from_phh`] into an existing configuration, reusing its lists' buffers, but not
/// yet validated. On an error, `config` holds a partly filled configuration that must not be
/// used.
fn fill_config(phh: &PhhHand, config: &mut HandConfig) -> Result<(), SetupError> {
    let game = game_of(phh)?;
    if phh.antes.iter().any(|&a| a < 0) {
        return Err(SetupError::Negative("antes"));
    }
    fill_checked(phh, game, config);
    Ok(())
}

/// The variant, betting structure and minimum bet a record's variant code and betting fields
/// give, or the first thing wrong with them (the first error [`config_from_phh`] reports).
#[inline(always)]
fn game_of(phh: &PhhHand) -> Result<(Variant, Structure, Chips), SetupError> {
    // Every code floor plays has two letters: one comparison of two bytes per code.
    let code = match *phh.variant.as_bytes() {
        [a, b] => [a, b],
        _ => return Err(unsupported(phh)),
    };
    let no_limit = |variant| Ok((variant, Structure::NoLimit, min_bet(phh)?));
    let pot_limit = |variant| Ok((variant, Structure::PotLimit, min_bet(phh)?));
    match &code {
        b"NT" => no_limit(Variant::Holdem),
        b"PO" => pot_limit(Variant::Omaha),
        b"NO" => no_limit(Variant::Omaha),
        b"PT" => pot_limit(Variant::Holdem),
        b"FT" | b"FO" => {
            let small_bet = required(phh, phh.small_bet, "small_bet")?;
            let big_bet = required(phh, phh.big_bet, "big_bet")?;
            let variant = if code[1] == b'T' {
                Variant::Holdem
            } else {
                Variant::Omaha
            };
            Ok((
                variant,
                Structure::FixedLimit { small_bet, big_bet },
                small_bet,
            ))
        }
        _ => Err(unsupported(phh)),
    }
}

fn min_bet(phh: &PhhHand) -> Result<Chips, SetupError> {
    required(phh, phh.min_bet, "min_bet")
}

#[cold]
fn unsupported(phh: &PhhHand) -> SetupError {
    SetupError::Variant(phh.variant.clone())
}

/// Whether the record's players and forced bets make a configuration
/// [`HandConfig::validate`] accepts, with no negative ante: a record
/// [`fill_checked`] may set a hand up from. Checked on the record, before the hand is
/// touched, in one pass over the seats.
fn plain_seats(phh: &PhhHand, (_, structure, min_bet): (Variant, Structure, Chips)) -> bool {
    let n = phh.starting_stacks.len();
    let big_bet = match structure {
        Structure::FixedLimit { big_bet, .. } => big_bet,
        _ => 0,
    };
    if !((2..=MAX_PLAYERS).contains(&n)
        && phh.antes.len() == n
        && phh.blinds_or_straddles.len() == n
        && min_bet > 0
        && min_bet.max(big_bet) <= MAX_HAND_CHIPS)
    {
        return false;
    }
    // One walk over the three lists side by side, the faults gathered without a branch per
    // seat (a record is almost always plain).
    let mut faulty = false;
    for ((&stack, &ante), &forced) in phh
        .starting_stacks
        .iter()
        .zip(&phh.antes)
        .zip(&phh.blinds_or_straddles)
    {
        let empty_or_huge = match stack {
            // Zero, or more than a hand may hold: one comparison once shifted down by one.
            Stack::Chips(c) => c.wrapping_sub(1) >= MAX_HAND_CHIPS,
            Stack::Unknown => false,
        };
        faulty |= empty_or_huge
            | (ante as u64 > MAX_HAND_CHIPS)
            | (forced.unsigned_abs() > MAX_HAND_CHIPS);
    }
    !faulty
}

/// Writes the configuration of a record whose game is `game` and whose antes are not
/// negative into `config`, reusing the lists' buffers. PHH lists players from the first
/// seat left of the button to the button; heads-up, the record's antes and blinds are
/// reversed (the button posts the small blind). Negative `blinds_or_straddles` entries are
/// live posts.
fn fill_checked(phh: &PhhHand, game: (Variant, Structure, Chips), config: &mut HandConfig) {
    let n = phh.starting_stacks.len();
    (config.variant, config.structure, config.min_bet) = game;
    config.stacks.clear();
    config
        .stacks
        .extend(phh.starting_stacks.iter().map(|s| match s {
            Stack::Chips(c) => *c,
            Stack::Unknown => UNKNOWN_STACK,
        }));
    config.antes.clear();
    config.antes.extend(phh.antes.iter().map(|&a| a as Chips));
    config.blinds.clear();
    config
        .blinds
        .extend(phh.blinds_or_straddles.iter().map(|&b| b.max(0) as Chips));
    config.posts.clear();
    config.posts.extend(
        phh.blinds_or_straddles
            .iter()
            .map(|&b| b.min(0).unsigned_abs()),
    );
    if n == 2 {
        config.antes.reverse();
        config.blinds.reverse();
    }
    config.button = n.saturating_sub(1);
}

fn required(phh: &PhhHand, value: Option<i64>, field: &'static str) -> Result<Chips, SetupError> {
    match value {
        Some(v) if v >= 0 => Ok(v as Chips),
        Some(_) => Err(SetupError::Negative(field)),
        None => Err(SetupError::MissingField {
            variant: phh.variant.clone(),
            field,
        }),
    }
}

/// Replays one PHH hand under `rules` (normally [`crate::rules::PhhConventions`]) and checks
/// it against the record. Returns the hand as played, for further inspection.
///
/// To replay many hands, [`Replayer`] does the same work without allocating a new hand for
/// each one.
pub fn replay(phh: &PhhHand, rules: Arc<dyn Rules>) -> Result<(Hand, ReplayReport), SetupError> {
    let mut hand = Hand::new(config_from_phh(phh)?, rules)?;
    let mut report = ReplayReport::blank();
    play(
        phh,
        &mut hand,
        &mut report,
        &mut |_: &Hand, _: usize, _: &ActionLine| {},
    );
    Ok((hand, report))
}

/// Replays hands one after another under the same rules, reusing one [`Hand`]'s buffers and
/// one report, so that a corpus replays without allocating per hand. Each replay gives
/// exactly what [`replay`] gives for that record: the same hand (every event and ruling, with
/// its citation) and the same report — or, under [`Replayer::with_event_log`]`(`
/// [`EventLog::Settlement`]`)`, the same report, rulings and table, with only the events
/// that settle the hand.
pub struct Replayer {
    rules: Arc<dyn Rules>,
    event_log: EventLog,
    hand: Option<Hand>,
    report: ReplayReport,
    /// Whether the hand whose actions are handed one by one (see [`replay_chunk`]) has had
    /// one refused: the replay stopped there.
    refused: bool,
}

impl Replayer {
    /// A replayer for hands played under `rules`.
    pub fn new(rules: Arc<dyn Rules>) -> Replayer {
        Replayer {
            rules,
            event_log: EventLog::Every,
            hand: None,
            report: ReplayReport::blank(),
            refused: false,
        }
    }

    /// The same replayer, its hands keeping the events `log` keeps. The report never reads
    /// more than [`EventLog::Settlement`] keeps (see [`check`]), so a tool that wants only
    /// the reports — `floor replay` over a corpus — asks for that and spares every hand the
    /// writing of its deals, posts and actions. Rulings are recorded either way.
    pub fn with_event_log(mut self, log: EventLog) -> Replayer {
        self.event_log = log;
        if let Some(hand) = &mut self.hand {
            hand.set_event_log(log);
        }
        self
    }

    /// Replays one record and checks it (see [`replay`]); the hand as played stays available
    /// from [`Replayer::hand`] until the next replay.
    pub fn replay(&mut self, phh: &PhhHand) -> Result<&ReplayReport, SetupError> {
        self.replay_observed(phh, |_: &Hand, _: usize, _: &ActionLine| {})
    }

    /// [`Replayer::replay`], calling `observe` before each action of the record is applied,
    /// with the hand as it stands, the action's index in `actions` and the action: a tool
    /// comparing floor with another engine reads the legal menu there ([`Hand::legal`]),
    /// the pots, the board. The replay itself is exactly [`Replayer::replay`]'s.
    #[inline]
    pub fn replay_observed<O>(
        &mut self,
        phh: &PhhHand,
        mut observe: O,
    ) -> Result<&ReplayReport, SetupError>
    where
        O: FnMut(&Hand, usize, &ActionLine),
    {
        let hand = match &mut self.hand {
            Some(hand) => {
                let game = game_of(phh)?;
                if plain_seats(phh, game) {
                    restart_plain(hand, phh, game);
                } else {
                    // Something is wrong with it: the exact error, as `replay` reports it.
                    hand.restart(&config_from_phh(phh)?)?;
                }
                hand
            }
            slot @ None => {
                let mut hand = Hand::new(config_from_phh(phh)?, self.rules.clone())?;
                if self.event_log != EventLog::Every {
                    // The posts were logged as the hand started: logged again without them.
                    hand.set_event_log(self.event_log);
                    hand.restart(&config_from_phh(phh)?)?;
                }
                slot.insert(hand)
            }
        };
        // Field by field: the lists keep their buffers.
        let report = &mut self.report;
        report.reset();
        play(phh, hand, report, &mut observe);
        Ok(&self.report)
    }

    /// Replays every record of a corpus in order (each exactly as [`Replayer::replay`]
    /// would) and calls `visit` with its index and result: the hand as played and its
    /// report, or why it could not be set up. While one record is replayed, the memory of
    /// the next ones is fetched ahead (see the `prefetch` module), which a corpus larger than
    /// the processor's caches needs to replay at full speed.
    pub fn replay_all<F>(&mut self, records: &[PhhHand], mut visit: F)
    where
        F: FnMut(usize, Result<(&Hand, &ReplayReport), SetupError>),
    {
        for (index, record) in records.iter().enumerate() {
            if let Some(later) = records.get(index + 2) {
                prefetch::outline(later);
            }
            if let Some(next) = records.get(index + 1) {
                prefetch::actions(next);
            }
            let result = match self.replay(record) {
                Ok(_) => match &self.hand {
                    Some(hand) => Ok((hand, &self.report)),
                    None => continue,
                },
                Err(error) => Err(error),
            };
            visit(index, result);
        }
    }

    /// The hand of the last successful [`Replayer::replay`] (or [`replay_chunk`]), as
    /// played.
    pub fn hand(&self) -> Option<&Hand> {
        self.hand.as_ref()
    }

    /// The report of the last successful [`Replayer::replay`].
    pub fn report(&self) -> &ReplayReport {
        &self.report
    }
}

/// Sets `hand` up anew from a record [`plain_seats`] accepts, seat by seat, as
/// [`fill_checked`] would fill the configuration.
#[inline(always)]
fn restart_plain(hand: &mut Hand, phh: &PhhHand, game: (Variant, Structure, Chips)) {
    let n = phh.starting_stacks.len();
    // Heads-up, the record's antes and blinds are reversed: position `p` reads the other
    // one's (`p ^ 1`).
    let flip = (n == 2) as usize;
    hand.restart_seats(game, n, n - 1, |p| {
        let forced = phh.blinds_or_straddles[p];
        Seat {
            stack: match phh.starting_stacks[p] {
                Stack::Chips(c) => c,
                Stack::Unknown => UNKNOWN_STACK,
            },
            ante: phh.antes[p ^ flip] as Chips,
            blind: phh.blinds_or_straddles[p ^ flip].max(0) as Chips,
            post: forced.min(0).unsigned_abs(),
        }
    });
}

/// Applies every action of the record to a freshly started `hand` and checks the result;
/// `observe` sees the hand before each action.
#[inline(always)]
fn play<O>(phh: &PhhHand, hand: &mut Hand, report: &mut ReplayReport, observe: &mut O)
where
    O: FnMut(&Hand, usize, &ActionLine),
{
    for (index, line) in phh.actions.iter().enumerate() {
        observe(hand, index, line);
        if !play_line(hand, report, index, &line.action, line.line) {
            return;
        }
    }
    finish_play(phh, hand, report);
}

/// Applies the record's action `index` to `hand`; false, with the refusal in the report,
/// when the engine refuses it (the replay stops there).
#[inline(always)]
fn play_line(
    hand: &mut Hand,
    report: &mut ReplayReport,
    index: usize,
    action: &PhhAction,
    line: u32,
) -> bool {
    let result = match action {
        // Cards shown once the hand is over (the winner of an uncontested pot showing).
        PhhAction::ShowMuck {
            player,
            cards: Some(cards),
        } if hand.is_complete() => {
            show_after_hand(hand, report, usize::from(*player), cards, (index, line))
        }
        // A betting action by someone other than the player to act: folds may have been
        // omitted before it.
        PhhAction::Fold { player }
        | PhhAction::CheckCall { player }
        | PhhAction::CompleteBetRaiseTo { player, .. }
            if hand.actor() != Some(usize::from(*player)) =>
        {
            play_off_turn(hand, report, index, action, line)
        }
        // The common case: the player to act acts, or the dealer deals.
        action => apply_action(hand, action),
    };
    if let Err(error) = result {
        refuse(report, index, action, line, &error);
        return false;
    }
    true
}

/// A betting action by someone other than the player to act, after the folds the record
/// omitted before it, if any. Out of line, as [`refuse`] is: records seldom need either, and
/// [`play_line`] is inlined into the reading of every action.
#[cold]
#[inline(never)]
fn play_off_turn(
    hand: &mut Hand,
    report: &mut ReplayReport,
    index: usize,
    action: &PhhAction,
    line: u32,
) -> Result<(), ActionError> {
    if let Some(skipped) = omitted_folds(hand, action) {
        for player in skipped {
            // `omitted_folds` checked on a copy that these folds are legal.
            if hand.act(player, Action::Fold).is_ok() {
                report.inferred_folds.push(InferredFold {
                    player,
                    index,
                    line: line as usize,
                });
            }
        }
    }
    apply(hand, action)
}

/// Notes in the report the engine's refusal of the record's action `index`.
#[cold]
#[inline(never)]
fn refuse(
    report: &mut ReplayReport,
    index: usize,
    action: &PhhAction,
    line: u32,
    error: &ActionError,
) {
    report.illegal = Some(IllegalAction {
        index,
        line: line as usize,
        notation: action.to_string(),
        reason: error.to_string(),
        point: error.rule_point(),
    });
}

/// Once every action of the record is applied: the showdown the record stops before, the
/// report's outcome, and the record's results checked.
#[inline(always)]
fn finish_play(phh: &PhhHand, hand: &mut Hand, report: &mut ReplayReport) {
    if hand.phase() == Phase::Showdown {
        // The record stops before every player acted at showdown: tabled hands speak.
        let _ = hand.finish_showdown();
    }
    report.completed = hand.is_complete();
    report.settled = hand.outcome() == Outcome::Awarded;
    if report.settled && (phh.finishing_stacks.is_some() || phh.winnings.is_some()) {
        check_results(phh, hand, report);
    }
}

/// A show once the hand is over, noted in the report (see [`ShownAfterHand`]).
#[cold]
#[inline(never)]
fn show_after_hand(
    hand: &mut Hand,
    report: &mut ReplayReport,
    player: usize,
    cards: &[Option<crate::cards::Card>],
    (index, line): (usize, u32),
) -> Result<(), ActionError> {
    let uncontested = hand.players_in_hand() == 1 && !hand.has_folded(player);
    hand.show_after_hand(player, cards)?;
    report.shown_after_hand.push(ShownAfterHand {
        player,
        index,
        line: line as usize,
        uncontested,
    });
    Ok(())
}

/// Checks the record's finishing stacks and winnings (see [`check`]): almost every record
/// gives them, so this is on every replay's way, in line.
#[inline(always)]
fn check_results(phh: &PhhHand, hand: &Hand, report: &mut ReplayReport) {
    // The usual record first: stacks that agree exactly, no winnings to check.
    let exact = check::stacks_agree_exactly(phh, hand);
    if exact && phh.winnings.is_none() {
        return;
    }
    let stacks = match exact {
        true => check::Verdict::Agrees,
        false => check::finishing_stacks(phh, hand, &mut report.readings),
    };
    match stacks {
        check::Verdict::Agrees => {}
        check::Verdict::Mismatch(_) => {
            let n = hand.config().players();
            report.stack_mismatch = Some(StackMismatch {
                expected: phh.finishing_stacks.clone().unwrap_or_default(),
                actual: (0..n).map(|p| hand.stack_of(p) as i64).collect(),
            })
        }
        check::Verdict::Contradiction(why) => report.contradiction = Some(why),
    }
    match check::winnings(phh, hand, &mut report.readings) {
        check::Verdict::Agrees => {}
        check::Verdict::Mismatch(why) => report.winnings_mismatch = Some(why),
        check::Verdict::Contradiction(why) => {
            report.contradiction.get_or_insert(why);
        }
    }
}

/// The players a betting action by someone else skips, if folding each of them (each facing a
/// bet) brings the turn to the player the record names; `None` otherwise.
fn omitted_folds(hand: &Hand, action: &PhhAction) -> Option<Vec<usize>> {
    let named = match action {
        PhhAction::Fold { player }
        | PhhAction::CheckCall { player }
        | PhhAction::CompleteBetRaiseTo { player, .. } => usize::from(*player),
        _ => return None,
    };
    if hand.actor()? == named {
        return None;
    }
    let mut trial = hand.clone();
    let mut skipped = Vec::new();
    while let Some(legal) = trial.legal() {
        if legal.player == named {
            return Some(skipped);
        }
        if legal.to_call == 0 || skipped.len() >= hand.config().players() {
            return None;
        }
        trial.act(legal.player, Action::Fold).ok()?;
        skipped.push(legal.player);
    }
    None
}

/// Applies one PHH action to the hand.
pub fn apply(hand: &mut Hand, action: &PhhAction) -> Result<(), ActionError> {
    apply_action(hand, action)
}

/// [`apply`], inlined into [`play`]'s loop: one dispatch on the action per line.
#[inline(always)]
fn apply_action(hand: &mut Hand, action: &PhhAction) -> Result<(), ActionError> {
    match action {
        PhhAction::DealHole { player, cards } => hand.deal_hole(usize::from(*player), cards),
        PhhAction::DealBoard { cards } => hand.deal_board(cards),
        PhhAction::Fold { player } => hand.fold(usize::from(*player)),
        PhhAction::CheckCall { player } => hand.check_or_call(usize::from(*player)),
        PhhAction::CompleteBetRaiseTo { player, amount } => match u64::try_from(*amount) {
            Ok(amount) => hand.bet_or_raise_to(usize::from(*player), amount),
            Err(_) => Err(negative_amount()),
        },
        PhhAction::ShowMuck {
            player,
            cards: Some(cards),
        } => hand.show(usize::from(*player), Some(&cards[..])),
        PhhAction::ShowMuck {
            player,
            cards: None,
        } => hand.muck(usize::from(*player)),
        PhhAction::NoOp => Ok(()),
        PhhAction::BringIn { .. } | PhhAction::StandPatDiscard { .. } => Err(ActionError::Deal(
            "bring-ins and draws belong to stud and draw games, which floor does not play".into(),
        )),
    }
}

/// The refusal of a bet or raise to a negative amount (no bet can be below zero).
#[cold]
fn negative_amount() -> ActionError {
    ActionError::NotARaise {
        amount: 0,
        current: 0,
    }
}

#[cfg(test)]
mod stream_tests;
#[cfg(test)]
mod tests;
