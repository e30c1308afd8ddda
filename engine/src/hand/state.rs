//! The hand state machine: forced bets, the deal, betting rounds, the board, showdown, pots.
//!
//! A [`Hand`] moves through [`Phase`]s driven by events: the dealer's (hole cards, board
//! cards) and the players' (betting actions, showing or mucking). Every event is validated
//! before anything changes, so a refused event leaves the hand exactly as it was. Wherever
//! rulebooks differ, the hand asks its [`Rules`] and records the [`Ruling`] with its citation.
//!
//! Why this file is long: the hand's state and the events that set it up and move it along
//! are the hot path of every replayed hand, and a module's functions share a codegen unit,
//! where their calls can be inlined; the betting rounds are in `betting`, the showdown in
//! `showdown`, the pots in `pots`.

use super::action::{Event, EventCards, EventLog, PostKind, Street};
use super::betting::{Stakes, TopBets};
use super::config::{ConfigError, HandConfig, Structure, Variant, MAX_PLAYERS};
use super::error::{ActionError, NoRaise};
use super::heard::Heard;
use super::pots::{build_pots_into, Players, Pot, PotList};
use super::remembered::{Remembered, RememberedFor};
use crate::cards::Card;
use crate::rules::{
    Citation, Decided, DefaultedPoints, Finding, RoundHistory, RoundRaise, Rules, RulesetRef,
    Ruling,
};
use crate::Chips;
use std::sync::Arc;

/// Where a hand is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Phase {
    /// Waiting for hole cards to be dealt to every player.
    DealingHole,
    /// A betting round is under way; [`Hand::actor`] says who is to act.
    Betting,
    /// Waiting for the next board cards (between rounds, or running the board out when
    /// nobody can bet any more; players still in may already show during a run-out).
    DealingBoard,
    /// Every board card is out and betting is over: players show or muck.
    Showdown,
    /// The pots have been awarded (or the hand ended with its result unknown to the record).
    Complete,
}

/// How a player's cards fared at showdown, as [`Hand::show_state`] reads it from the hand's
/// masks of players who showed and who mucked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ShowState {
    Pending,
    Shown,
    /// Mucked, with the order of mucking (the last live hand wins a pot all others mucked).
    Mucked(u32),
}

/// What a player may do now: the menu a dealer would read out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Legal {
    /// The player to act.
    pub player: usize,
    /// What calling costs (0: checking is possible). Capped at the player's stack.
    pub to_call: Chips,
    /// The smallest bet or raise-to amount (an all-in below it is also legal), if raising
    /// is allowed at all.
    pub min_raise_to: Option<Chips>,
    /// The largest bet or raise-to amount, if raising is allowed.
    pub max_raise_to: Option<Chips>,
    /// Why raising is not allowed, when it is not.
    pub no_raise: Option<NoRaise>,
}

/// How the hand ended for the record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Outcome {
    /// Still being played.
    InProgress,
    /// Every pot was awarded.
    Awarded,
    /// A showdown the record cannot settle: some contender's cards are unknown.
    Undetermined,
}

/// A position's starting stack and forced bets, as [`Hand::restart_seats`] takes them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Seat {
    /// Chips at the start of the hand (positive).
    pub(crate) stack: Chips,
    /// The ante (zero for none).
    pub(crate) ante: Chips,
    /// The blind or straddle (zero for none).
    pub(crate) blind: Chips,
    /// The live post (zero for none).
    pub(crate) post: Chips,
}

/// One hand of poker, from forced bets to awarded pots.
#[derive(Clone)]
pub struct Hand {
    pub(super) rules: Arc<dyn Rules>,
    /// `rules`' ruleset, read once: every ruling names it, without a call through the
    /// trait object.
    pub(super) ruleset: RulesetRef,
    /// The frequent questions `rules` answers with the default's value, read once: those
    /// are worked out in place, not asked (see [`DefaultedPoints`]).
    pub(super) defaulted: DefaultedPoints,
    pub(super) config: HandConfig,
    /// How many players there are (positions `0..seats`). The per-player arrays below hold
    /// one entry per position up to [`MAX_PLAYERS`] (fixed arrays, not lists, so that a hand
    /// restarts by overwriting them and a round closes by zeroing one); entries past `seats`
    /// stay zero.
    pub(super) seats: usize,
    /// Each player's chips behind.
    pub(super) stack: [Chips; MAX_PLAYERS],
    /// Each player's bet in the current round.
    pub(super) bet: [Chips; MAX_PLAYERS],
    /// Everything each player has put in over the hand (antes included).
    pub(super) contributed: [Chips; MAX_PLAYERS],
    /// The part of `contributed` that is ante (dead money).
    pub(super) ante: [Chips; MAX_PLAYERS],
    /// The bet each player faced when they last acted in this round (read only for players
    /// in `acted`).
    pub(super) faced: [Chips; MAX_PLAYERS],
    /// Each player's hole cards (`None`: not dealt, or unknown to the record).
    pub(super) hole: [[Option<Card>; 4]; MAX_PLAYERS],
    /// The players who have shown their cards (and not mucked them since): with `mucked`,
    /// how each player's cards fared at showdown (see [`Hand::show_state`]). Masks, not a
    /// state per seat, so that a hand starts by emptying two words and the showdown finds
    /// who it waits for, and whose hands to value, without a walk round the table.
    pub(super) shown: Players,
    /// The players who have mucked (or whose hand a ruling killed) at showdown.
    pub(super) mucked: Players,
    /// For each player in `mucked`, the order of his muck (the first is 1): the last live
    /// hand wins a pot all others mucked. Read only for players in `mucked`.
    pub(super) muck_order: [u32; MAX_PLAYERS],
    /// The players who have their hole cards.
    pub(super) dealt_to: Players,
    /// The players who have acted in this betting round.
    pub(super) acted: Players,
    /// The players a ruling capped at calling for the rest of this betting round (a board
    /// card exposed early); emptied when the round closes.
    pub(super) call_only: Players,
    /// The players with chips behind (`stack > 0`), folded or not: kept beside `stack` so
    /// that finding who can still bet is a mask, not a walk round the table.
    pub(super) with_chips: Players,
    pub(super) board: Vec<Card>,
    pub(super) seen: u64,
    pub(super) street: Street,
    pub(super) phase: Phase,
    pub(super) actor: Option<usize>,
    pub(super) current_bet: Chips,
    pub(super) full_increment: Chips,
    /// The rules' `betting.min_raise` answer for the current betting state, once asked
    /// (see [`Hand::min_increment`]); emptied whenever that state changes.
    pub(super) min_raise: Remembered,
    /// The rules' `betting.raise_cap` answer with the facts it was asked for (street and
    /// players in hand; see [`Hand::raise_cap`]).
    pub(super) raise_cap_slot: RememberedFor,
    /// The two largest stakes (bet plus stack) of the players in hand, kept from the opening
    /// of the round through its folds (see [`Stakes`]).
    pub(super) stakes: Stakes,
    /// The players whose forced bets are in this hand's first round (a blind, a straddle or
    /// a live post): until the first round opens, the only players with a bet.
    pub(super) posted: Players,
    /// The round's two largest bets (see [`TopBets`]), kept by [`Hand::put_in`].
    pub(super) top_bets: TopBets,
    /// The position after which the first betting round opens: the player after the largest
    /// blind or straddle (ties: the later position; live posts do not change the order), or
    /// after the button when there is no blind. Found when the forced bets are posted.
    pub(super) first_opens_after: usize,
    pub(super) raises: u32,
    /// The all-ins short of a full raise made in this round.
    pub(super) short_all_ins: u32,
    /// When this round's bets and raises reached the raise cap: how many players held cards
    /// then (see `RaiseCapContext::capped_with_players`).
    pub(super) capped_with: Option<usize>,
    /// This round's bets and raises in order (see [`RoundHistory`]); the buffer is kept from
    /// round to round.
    pub(super) round_raises: Vec<RoundRaise>,
    /// For each player who acted this round (`acted`): how many of `round_raises` had been
    /// made when he last acted.
    pub(super) acted_at: [u32; MAX_PLAYERS],
    pub(super) last_aggressor: Option<usize>,
    pub(super) mucks: u32,
    /// At showdown, the players still in whom it waits for (see `Hand::awaited`): set on
    /// entering the showdown, read only there.
    pub(super) awaiting: Players,
    pub(super) outcome: Outcome,
    /// [`Hand::small_blind_position`], worked out once from the configuration's blinds.
    pub(super) small_blind: Option<usize>,
    /// The players who have not folded (bit `p` for position `p`): kept beside each
    /// player's `folded` so that counting them costs no walk round the table.
    pub(super) in_hand: Players,
    /// The players who must still act in this betting round.
    pub(super) needs_action: Players,
    /// How many players have their hole cards.
    pub(super) dealt: usize,
    /// Which events `events` keeps (every one unless a replay asks for less).
    pub(super) event_log: EventLog,
    pub(super) events: Vec<Event>,
    pub(super) rulings: Vec<Ruling>,
    /// Decisions that failed while the rules were asked, to be recorded as rulings.
    pub(super) heard: Heard,
    /// The pots as they were awarded (after any commission), kept once the hand is settled
    /// and its contributions cleared; empty before.
    pub(super) settled_pots: PotList,
}

impl std::fmt::Debug for Hand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hand")
            .field("ruleset", self.rules.ruleset())
            .field("phase", &self.phase)
            .field("street", &self.street)
            .field("actor", &self.actor)
            .field("stacks", &self.stacks())
            .field("board", &self.board)
            .finish()
    }
}

impl Hand {
    /// Starts a hand: checks the configuration, then posts antes, blinds and straddles, and
    /// live posts, each capped at the player's stack (a player who cannot cover a forced bet
    /// is all-in for what they have). The hand then waits for hole cards.
    pub fn new(config: HandConfig, rules: Arc<dyn Rules>) -> Result<Hand, ConfigError> {
        config.validate()?;
        let n = config.players();
        let mut hand = Hand {
            defaulted: rules.defaulted(),
            // Its own pointer: see [`RulesetRef::own_copy`].
            ruleset: rules.ruleset().own_copy(),
            rules,
            seats: n,
            stack: [0; MAX_PLAYERS],
            bet: [0; MAX_PLAYERS],
            contributed: [0; MAX_PLAYERS],
            ante: [0; MAX_PLAYERS],
            faced: [0; MAX_PLAYERS],
            hole: [[None; 4]; MAX_PLAYERS],
            shown: 0,
            mucked: 0,
            muck_order: [0; MAX_PLAYERS],
            dealt_to: 0,
            acted: 0,
            call_only: 0,
            with_chips: 0,
            board: Vec::with_capacity(5),
            seen: 0,
            street: Street::Preflop,
            phase: Phase::DealingHole,
            actor: None,
            current_bet: 0,
            full_increment: 0,
            min_raise: Remembered::new(),
            raise_cap_slot: RememberedFor::new(),
            stakes: Stakes::default(),
            posted: 0,
            top_bets: TopBets::default(),
            first_opens_after: 0,
            raises: 0,
            short_all_ins: 0,
            capped_with: None,
            round_raises: Vec::new(),
            acted_at: [0; MAX_PLAYERS],
            last_aggressor: None,
            mucks: 0,
            awaiting: 0,
            outcome: Outcome::InProgress,
            small_blind: None,
            in_hand: 0,
            needs_action: 0,
            dealt: 0,
            event_log: EventLog::Every,
            events: Vec::with_capacity(8 * n + 24),
            rulings: Vec::with_capacity(2),
            heard: Heard::default(),
            settled_pots: PotList::new(),
            config,
        };
        hand.start();
        Ok(hand)
    }

    /// Starts a new hand in place of this one, under the same rules: exactly what
    /// [`Hand::new`] with `config` and [`Hand::rules`] would give, but reusing this hand's
    /// buffers (board, events, rulings), so that replaying many hands one after
    /// another allocates nothing once the buffers are large enough. A refused configuration
    /// leaves this hand as it was.
    pub fn restart(&mut self, config: &HandConfig) -> Result<(), ConfigError> {
        config.validate()?;
        // Field by field, so the lists keep their buffers (a derived `clone_from` would not).
        let own = &mut self.config;
        own.variant = config.variant;
        own.structure = config.structure;
        own.min_bet = config.min_bet;
        own.button = config.button;
        for (to, from) in [
            (&mut own.stacks, &config.stacks),
            (&mut own.antes, &config.antes),
            (&mut own.blinds, &config.blinds),
            (&mut own.posts, &config.posts),
        ] {
            to.clear();
            to.extend_from_slice(from);
        }
        self.start();
        Ok(())
    }

    /// [`Hand::restart`] with the configuration given seat by seat: `seat(p)` gives position
    /// `p`'s starting stack and forced bets (for `p` in `0..n`), `game` the variant,
    /// structure and minimum bet. They are written straight into this hand's own
    /// configuration (reusing the lists' buffers) in the same walk over the seats that starts
    /// the hand, so that a replayer sets a hand up from a record without building a
    /// configuration to copy, nor walking the seats once per list. The caller checks the
    /// record first: the configuration must be one [`HandConfig::validate`] accepts, as this
    /// hand cannot be left as it was once the walk has begun.
    pub(crate) fn restart_seats(
        &mut self,
        game: (Variant, Structure, Chips),
        n: usize,
        button: usize,
        seat: impl Fn(usize) -> Seat,
    ) {
        // The caller checked 2..=MAX_PLAYERS seats; the `min` only spares a check.
        let n = n.min(MAX_PLAYERS);
        let config = &mut self.config;
        (config.variant, config.structure, config.min_bet) = game;
        config.button = button;
        // Every list cut or grown to the players, then written by position: writing by
        // position checks no capacity (as pushing would, reloading the list's length and
        // capacity each time), and only a list that grows writes anything before.
        for list in [
            &mut config.stacks,
            &mut config.antes,
            &mut config.blinds,
            &mut config.posts,
        ] {
            list.resize(n, 0);
        }
        let (stacks, antes) = (&mut config.stacks[..n], &mut config.antes[..n]);
        let (blinds, posts) = (&mut config.blinds[..n], &mut config.posts[..n]);
        self.stack = [0; MAX_PLAYERS];
        let mut owes: Players = 0;
        for p in 0..n {
            let Seat {
                stack,
                ante,
                blind,
                post,
            } = seat(p);
            (stacks[p], antes[p], blinds[p], posts[p]) = (stack, ante, blind, post);
            self.stack[p] = stack;
            owes |= (((ante | blind | post) != 0) as Players) << p;
        }
        debug_assert_eq!(self.config.validate(), Ok(()));
        self.start_seated(n, owes);
    }

    /// Resets every field from `self.config` and posts the forced bets: the one start of a
    /// hand that [`Hand::new`] and [`Hand::restart`] share.
    fn start(&mut self) {
        // `validate` bounds the players by MAX_PLAYERS; the `min` only spares a check.
        let n = self.config.players().min(MAX_PLAYERS);
        self.stack = [0; MAX_PLAYERS];
        let config = &self.config;
        let (antes, blinds, posts) = (&config.antes[..n], &config.blinds[..n], &config.posts[..n]);
        let mut owes: Players = 0;
        for (p, (stack, &start)) in self.stack[..n].iter_mut().zip(&config.stacks).enumerate() {
            *stack = start;
            owes |= (((antes[p] | blinds[p] | posts[p]) != 0) as Players) << p;
        }
        self.start_seated(n, owes);
    }

    /// The rest of a hand's start, once the configuration is written and the `n` players'
    /// stacks are in `stack` (zero past them), `owes` marking who owes a forced bet (usually
    /// just the blinds): every other field is reset, and only those players' antes, blinds
    /// and live posts are worked out; the events follow in the order a dealer takes the bets
    /// (every ante, then every blind, then every post), found from bit masks rather than by
    /// walking the seats three more times.
    fn start_seated(&mut self, n: usize, owes: Players) {
        self.seats = n;
        // Whole fixed arrays: a few vector stores each, cheaper than clearing a part.
        self.bet = [0; MAX_PLAYERS];
        self.contributed = [0; MAX_PLAYERS];
        self.ante = [0; MAX_PLAYERS];
        // `faced` is read only for players in `acted`, and `muck_order` only for players in
        // `mucked`: emptying the masks is enough.
        self.hole = [[None; 4]; MAX_PLAYERS];
        (self.shown, self.mucked) = (0, 0);

        let config = &self.config;
        let (stacks, antes) = (&config.stacks[..n], &config.antes[..n]);
        let (blinds, posts) = (&config.blinds[..n], &config.posts[..n]);
        // `validate` refuses empty stacks: everyone has chips until a forced bet takes them.
        let mut with_chips = ((1u64 << n) - 1) as Players;
        let (mut owe_ante, mut owe_blind, mut owe_post): (Players, Players, Players) = (0, 0, 0);
        let mut current_bet = 0;
        let mut posted: Players = 0;
        // The forced bets' two largest, as the first round starts from them.
        let mut top_bets = TopBets::default();
        for p in seats_in(owes) {
            let ante = antes[p].min(stacks[p]);
            let left = stacks[p] - ante;
            let blind = blinds[p].min(left);
            let left = left - blind;
            let post = posts[p].min(left);
            let left = left - post;
            self.stack[p] = left;
            // Antes are dead money: they count for the pots, not for this round's bet.
            top_bets.raised(&self.bet, p, blind + post);
            self.bet[p] = blind + post;
            posted |= ((blind + post > 0) as Players) << p;
            self.ante[p] = ante;
            self.contributed[p] = ante + blind + post;
            current_bet = current_bet.max(blind + post);
            with_chips &= !(((left == 0) as Players) << p);
            owe_ante |= ((antes[p] > 0) as Players) << p;
            owe_blind |= ((blinds[p] > 0) as Players) << p;
            owe_post |= ((posts[p] > 0) as Players) << p;
        }

        debug_assert!({
            let walked = TopBets::of(&self.bet[..n]);
            (walked.first, walked.second) == (top_bets.first, top_bets.second)
        });
        self.top_bets = top_bets;
        self.posted = posted;
        self.dealt_to = 0;
        self.acted = 0;
        self.call_only = 0;
        self.with_chips = with_chips;
        self.board.clear();
        self.seen = 0;
        self.street = Street::Preflop;
        self.phase = Phase::DealingHole;
        self.actor = None;
        self.current_bet = current_bet;
        self.full_increment = 0;
        self.betting_state_changed();
        self.raises = 0;
        self.short_all_ins = 0;
        self.capped_with = None;
        self.round_raises.clear();
        self.last_aggressor = None;
        self.mucks = 0;
        self.outcome = Outcome::InProgress;
        self.in_hand = ((1u64 << n) - 1) as Players;
        self.needs_action = 0;
        self.dealt = 0;
        self.events.clear();
        self.events.reserve(8 * n + 24);
        self.rulings.clear();
        if self.heard.any() {
            self.heard.take();
        }
        self.settled_pots.clear();

        // The small blind: of two or more blinds, the smallest (the first of equals).
        let mut smallest: Option<(Chips, usize)> = None;
        // The largest blind paid (up to what was asked) and who paid it, the last of equals:
        // the first round opens after them. Of players with no blind (paying "0"), the last.
        let mut largest = (0, n - 1);
        for p in seats_in(owe_blind) {
            let asked = self.config.blinds[p];
            if smallest.is_none_or(|(least, _)| asked < least) {
                smallest = Some((asked, p));
            }
            let paid = self.bet[p].min(asked);
            if paid > 0 && paid >= largest.0 {
                largest = (paid, p);
            }
        }
        self.small_blind = smallest
            // Two blinds or more: a bit left once the lowest is cleared.
            .filter(|_| owe_blind & owe_blind.wrapping_sub(1) != 0)
            .map(|(_, p)| p);
        self.first_opens_after = if owe_blind == 0 {
            self.config.button
        } else {
            largest.1
        };
        // The posts' events, kept only in a log of every event (a post settles nothing):
        // their amounts are worked out only then.
        if self.event_log == EventLog::Every {
            self.log_forced_bets(owe_ante, owe_blind, owe_post);
        }
    }

    /// The events of the forced bets just posted, in the order a dealer takes them: every
    /// ante (of the players in `antes`), then every blind, then every live post.
    fn log_forced_bets(&mut self, antes: Players, blinds: Players, posts: Players) {
        for p in seats_in(antes) {
            self.log_post(Event::Posted {
                player: p,
                kind: PostKind::Ante,
                amount: self.ante[p],
            });
        }
        for p in seats_in(blinds) {
            self.log_post(Event::Posted {
                player: p,
                kind: PostKind::Blind,
                amount: self.blind_paid(p),
            });
        }
        for p in seats_in(posts) {
            self.log_post(Event::Posted {
                player: p,
                kind: PostKind::Post,
                amount: self.bet[p] - self.blind_paid(p),
            });
        }
    }

    /// What the player paid of their blind when the hand started (capped by what the ante
    /// left them; a live post comes after it).
    fn blind_paid(&self, player: usize) -> Chips {
        self.config.blinds[player].min(self.config.stacks[player] - self.ante[player])
    }

    // ----- queries -------------------------------------------------------------------------

    /// The rules this hand is played under (fixed for the whole hand).
    pub fn rules(&self) -> &Arc<dyn Rules> {
        &self.rules
    }

    /// The configuration the hand started from.
    pub fn config(&self) -> &HandConfig {
        &self.config
    }

    /// Where the hand is.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The current (or last) betting round.
    pub fn street(&self) -> Street {
        self.street
    }

    /// Who is to act, during a betting round.
    pub fn actor(&self) -> Option<usize> {
        self.actor
    }

    /// Whether the hand is over.
    pub fn is_complete(&self) -> bool {
        self.phase == Phase::Complete
    }

    /// How the hand ended.
    pub fn outcome(&self) -> Outcome {
        self.outcome
    }

    /// Each player's chips behind (not counting bets in front of them).
    pub fn stacks(&self) -> Vec<Chips> {
        self.stack[..self.seats].to_vec()
    }

    /// [`Hand::stacks`] without a copy.
    pub(crate) fn stacks_in_place(&self) -> &[Chips] {
        &self.stack[..self.seats.min(MAX_PLAYERS)]
    }

    /// Each player's bet in the current round.
    pub fn bets(&self) -> Vec<Chips> {
        self.bet[..self.seats].to_vec()
    }

    /// The board dealt so far.
    pub fn board(&self) -> &[Card] {
        &self.board
    }

    /// A player's hole cards (`None` entries are unknown to the record).
    pub fn hole_cards(&self, player: usize) -> &[Option<Card>] {
        let n = self.config.variant.hole_cards();
        if player >= self.seats {
            return &[];
        }
        &self.hole[player][..n]
    }

    /// Whether the player has folded.
    pub fn has_folded(&self, player: usize) -> bool {
        self.in_hand & (1 << player.min(31)) == 0
    }

    /// How `player`'s cards fared at showdown, read from the masks of players who showed
    /// and who mucked (a player past the table has done neither).
    pub(super) fn show_state(&self, player: usize) -> ShowState {
        let bit: Players = if player < MAX_PLAYERS { 1 << player } else { 0 };
        if self.mucked & bit != 0 {
            ShowState::Mucked(self.muck_order[player])
        } else if self.shown & bit != 0 {
            ShowState::Shown
        } else {
            ShowState::Pending
        }
    }

    /// Notes that `player` mucked (or that a ruling killed his hand), as the next in the
    /// order of mucking.
    pub(super) fn note_muck(&mut self, player: usize) {
        self.mucks += 1;
        let bit: Players = 1 << player;
        self.mucked |= bit;
        self.shown &= !bit;
        self.muck_order[player] = self.mucks;
    }

    /// Every chip in the middle: pots plus this round's bets.
    pub fn pot_total(&self) -> Chips {
        self.contributed.iter().sum()
    }

    /// The pots as they stand (bets of the current round included); once the hand is over,
    /// the pots as they were awarded (after any commission).
    pub fn pots(&self) -> Vec<Pot> {
        if self.phase == Phase::Complete {
            return self.settled_pots.to_vec();
        }
        self.pot_list().to_vec()
    }

    /// [`Hand::pots`] without allocating.
    pub(super) fn pot_list(&self) -> PotList {
        let mut pots = PotList::new();
        self.pots_into(&mut pots);
        pots
    }

    /// [`Hand::pot_list`] written into `pots`, which the caller holds (no copy of the list
    /// on the way out): the contributions less the antes are live money, the antes dead.
    pub(super) fn pots_into(&self, pots: &mut PotList) {
        let n = self.seats.min(MAX_PLAYERS);
        let mut live = [0 as Chips; MAX_PLAYERS];
        let mut dead = 0;
        for ((slot, &put), &ante) in live[..n].iter_mut().zip(&self.contributed).zip(&self.ante) {
            *slot = put - ante;
            dead += ante;
        }
        build_pots_into(n, |p| live[p], dead, self.in_hand, pots);
    }

    /// The bet to call in the current round (the largest bet made in it).
    pub fn current_bet(&self) -> Chips {
        self.current_bet
    }

    /// The size of a full raise now (`betting.min_raise`, or the fixed-limit increment).
    pub fn full_raise(&self) -> Chips {
        self.min_increment()
    }

    /// Whether the bet to call is the round's opening bet: the big blind before the flop with
    /// no raise yet, or the first bet of a later round with no raise over it.
    pub fn facing_opening_bet(&self) -> bool {
        self.current_bet > 0
            && match self.street {
                Street::Preflop => self.raises == 0,
                _ => self.raises <= 1,
            }
    }

    /// Who posted the small blind: of two or more blinds, the smallest (the first of equals);
    /// `None` with fewer than two.
    pub fn small_blind_position(&self) -> Option<usize> {
        self.small_blind
    }

    /// This round's bets and raises, in order (forced bets are not among them): the history
    /// the rules read at `allin.reopening` and `betting.raise_cap`.
    pub fn round_raises(&self) -> RoundHistory<'_> {
        RoundHistory {
            raises: &self.round_raises,
            acted_after: None,
        }
    }

    /// The player's bet in the current round.
    pub fn bet_of(&self, player: usize) -> Chips {
        self.bet.get(player).map_or(0, |&b| b)
    }

    /// The player's stack behind (not yet bet).
    pub fn stack_of(&self, player: usize) -> Chips {
        self.stack.get(player).map_or(0, |&s| s)
    }

    /// How many players have not folded.
    pub fn players_in_hand(&self) -> usize {
        self.in_hand_count()
    }

    /// Records a ruling made outside the betting logic (table events, irregularities), so
    /// that the hand's log holds every ruling in order.
    pub fn record_ruling(&mut self, ruling: Ruling) {
        if self.heard.any() {
            self.record_failures();
        }
        self.rulings.push(ruling);
    }

    /// The value of a rules answer, noting it to be recorded as a ruling when the decision
    /// behind it failed (see [`Heard`]): every point the hand asks goes through this.
    #[inline]
    pub(super) fn heard<T>(&self, point: &'static str, decided: Decided<T>) -> T {
        self.hear(point, &decided);
        decided.value
    }

    /// Notes `decided`'s failure, if its decision failed (see [`Hand::heard`]).
    #[inline]
    pub(super) fn hear<T>(&self, point: &'static str, decided: &Decided<T>) {
        if matches!(decided.citation, Citation::ScriptFailed(_)) {
            self.heard.note(point, &decided.citation);
        }
    }

    /// Records the failures heard as rulings, each once per hand.
    #[cold]
    #[inline(never)]
    pub(super) fn record_failures(&mut self) {
        for (point, citation) in self.heard.take() {
            let said = self.rulings.iter().any(|r| {
                r.point == point && r.finding == Finding::DecisionFailed && r.citation == citation
            });
            if !said {
                if let Some(ruling) = Ruling::failure(point, self.rules.ruleset(), &citation) {
                    self.rulings.push(ruling);
                }
            }
        }
    }

    /// The events accepted so far, in order (those its [`EventLog`] keeps: every one unless
    /// [`Hand::set_event_log`] chose less).
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Which events [`Hand::events`] keeps.
    pub fn event_log(&self) -> EventLog {
        self.event_log
    }

    /// Chooses which events the hand keeps from now on (see [`EventLog`]); rulings are
    /// recorded whatever it keeps. A replayer sets it once, before its first hand.
    pub fn set_event_log(&mut self, log: EventLog) {
        self.event_log = log;
    }

    /// The rulings made so far, each with its rule point, ruleset and citation.
    pub fn rulings(&self) -> &[Ruling] {
        &self.rulings
    }

    /// The chips every player has in total (stack plus everything put in). Conserved by
    /// every event: it equals the sum of the starting stacks until the pots are awarded, and
    /// after that the stacks alone sum to it.
    pub fn chips_in_play(&self) -> Chips {
        self.stack
            .iter()
            .zip(&self.contributed)
            .map(|(s, c)| s + c)
            .sum()
    }

    /// What the player to act may do, or `None` when nobody is to act.
    pub fn legal(&self) -> Option<Legal> {
        let p = self.actor?;
        let to_call = self
            .current_bet
            .saturating_sub(self.bet[p])
            .min(self.stack[p]);
        let (min_raise_to, max_raise_to, no_raise) = match self.raise_bounds(p) {
            Ok((min, max)) => (Some(min), Some(max), None),
            Err(why) => (None, None, Some(why)),
        };
        Some(Legal {
            player: p,
            to_call,
            min_raise_to,
            max_raise_to,
            no_raise,
        })
    }

    /// Which hole-card slot is still to be dealt: the first player without cards.
    pub fn next_hole_deal(&self) -> Option<usize> {
        if self.phase != Phase::DealingHole {
            return None;
        }
        let missing = !self.dealt_to & (((1u64 << self.seats) - 1) as Players);
        (missing != 0).then(|| missing.trailing_zeros() as usize)
    }

    /// How many board cards the dealer must deal next, when the hand waits for the board.
    pub fn board_cards_due(&self) -> Option<usize> {
        (self.phase == Phase::DealingBoard)
            .then(|| self.street.next().map(Street::board_cards_dealt))
            .flatten()
    }

    // ----- dealer events -------------------------------------------------------------------

    /// Deals a player's hole cards (`None` for cards the record does not know).
    pub fn deal_hole(&mut self, player: usize, cards: &[Option<Card>]) -> Result<(), ActionError> {
        // The common deal first: two known, distinct, unseen hold'em cards to a player still
        // waiting for his, while the hole cards are dealt. Its few tests are those
        // `deal_hole_in_general` makes, each of which it then passes; anything else (omaha,
        // unknown cards, a refusal) is dealt there.
        if let [Some(a), Some(b)] = *cards {
            let mask = 1u64 << a.index() | 1u64 << b.index();
            let bit: Players = 1 << player.min(31);
            if self.config.variant == Variant::Holdem
                && self.phase == Phase::DealingHole
                && player < self.seats
                && self.dealt_to & bit == 0
                && a != b
                && self.seen & mask == 0
            {
                self.seen |= mask;
                let hole = [Some(a), Some(b), None, None];
                self.hole[player] = hole;
                self.dealt_to |= bit;
                self.dealt += 1;
                self.record_play(|_| Event::HoleDealt {
                    player,
                    cards: EventCards::first(hole, 2),
                });
                if self.dealt == self.seats {
                    self.start_first_round();
                }
                return Ok(());
            }
        }
        self.deal_hole_in_general(player, cards)
    }

    /// [`Hand::deal_hole`] of any deal: four cards, unknown ones, and every refusal.
    #[inline(never)]
    fn deal_hole_in_general(
        &mut self,
        player: usize,
        cards: &[Option<Card>],
    ) -> Result<(), ActionError> {
        let want = self.config.variant.hole_cards();
        // The cards as one fixed word (the slots past them `None`), copied at a size known
        // to the compiler: no loop, no call to copy a slice.
        let mut hole = [None; 4];
        match cards.len() {
            2 if want == 2 => hole[..2].copy_from_slice(cards),
            4 if want == 4 => hole.copy_from_slice(cards),
            _ => return Err(self.hole_refused(player, cards.len())),
        }
        if self.phase != Phase::DealingHole
            || player >= self.seats
            || self.dealt_to & (1 << player) != 0
        {
            return Err(self.hole_refused(player, cards.len()));
        }
        // Known cards must not have been seen, nor be dealt twice here: bit arithmetic on
        // the four slots; which card, only when one is refused. An empty slot gives bit 52,
        // which no card has and which is then dropped: no test for the empty slot (52 is
        // also how an empty slot is stored, so the bit's position is the slot's byte).
        let (mut mask, mut twice) = (0u64, 0u64);
        for card in hole {
            let bit = 1u64 << card.map_or(52, |c| c.index());
            twice |= mask & bit;
            mask |= bit;
        }
        let cards_only = (1u64 << 52) - 1;
        let (mask, twice) = (mask & cards_only, twice & cards_only);
        if (self.seen & mask) | twice != 0 {
            return Err(self.seen_refused(cards.iter().flatten().copied()));
        }
        self.seen |= mask;
        self.hole[player] = hole;
        self.dealt_to |= 1 << player;
        self.dealt += 1;
        self.record_play(|_| Event::HoleDealt {
            player,
            cards: EventCards::first(hole, want),
        });
        if self.dealt == self.seats {
            self.start_first_round();
        }
        Ok(())
    }

    /// Why [`Hand::deal_hole`] refuses to deal `count` cards to `player`, in the order the
    /// checks are made. Out of the way of the deal itself: formatting a message is for the
    /// rare refused deal.
    #[cold]
    #[inline(never)]
    fn hole_refused(&self, player: usize, count: usize) -> ActionError {
        let want = self.config.variant.hole_cards();
        if self.phase != Phase::DealingHole {
            ActionError::Deal("hole cards were already dealt".into())
        } else if player >= self.seats {
            ActionError::NotInHand(player)
        } else if self.dealt_to & (1 << player) != 0 {
            ActionError::Deal(format!("player {} already has hole cards", player + 1))
        } else {
            ActionError::Deal(format!(
                "each player receives {want} hole cards, not {count}"
            ))
        }
    }

    /// Deals the next board cards: three for the flop, then one each for turn and river.
    pub fn deal_board(&mut self, cards: &[Card]) -> Result<(), ActionError> {
        let due = match (self.phase, self.street) {
            (Phase::DealingBoard, Street::Preflop) => 3,
            (Phase::DealingBoard, Street::Flop | Street::Turn) => 1,
            _ => 0,
        };
        // The flop and the later cards each as an array of a size the compiler knows: the
        // checks and copies that follow have no loop whose length is the card count.
        match *cards {
            [a, b, c] if due == 3 => self.deal_board_cards([a, b, c]),
            [a] if due == 1 => self.deal_board_cards([a]),
            _ if self.phase == Phase::Complete => self.deal_board_after_hand(cards),
            _ => Err(self.board_refused(cards.len())),
        }
    }

    /// The rest of a board dealt once the hand is decided (a run-out in which every hand
    /// but one was mucked ends without it, but a dealer, or a record, may still turn the
    /// cards): the cards due next are taken onto the board, unseen ones only; nothing else
    /// changes. Refused when the board is complete or the count is not the one due.
    #[cold]
    #[inline(never)]
    fn deal_board_after_hand(&mut self, cards: &[Card]) -> Result<(), ActionError> {
        let due = match self.board.len() {
            0 => 3,
            3 | 4 => 1,
            _ => return Err(ActionError::Deal("the board is complete".into())),
        };
        if cards.len() != due {
            return Err(ActionError::Deal(format!(
                "the next board cards are {due}, not {}",
                cards.len()
            )));
        }
        let mask = self.check_unseen(cards.iter().copied())?;
        self.seen |= mask;
        self.board.extend_from_slice(cards);
        let street = match self.board.len() {
            3 => Street::Flop,
            4 => Street::Turn,
            _ => Street::River,
        };
        self.record_play(|_| Event::BoardDealt {
            street,
            cards: EventCards::new(cards),
        });
        Ok(())
    }

    /// [`Hand::deal_board`] of the `N` cards due (3 or 1).
    #[inline(always)]
    fn deal_board_cards<const N: usize>(&mut self, cards: [Card; N]) -> Result<(), ActionError> {
        let (mut mask, mut twice) = (0u64, 0u64);
        for card in cards {
            let bit = 1u64 << card.index();
            twice |= mask & bit;
            mask |= bit;
        }
        if (self.seen & mask) | twice != 0 {
            return Err(self.seen_refused(cards));
        }
        self.seen |= mask;
        self.board.extend_from_slice(&cards);
        // The cards as one fixed word, the slots past them the default card (as
        // [`EventCards::new`] leaves them).
        let mut dealt = [Card::default(); 4];
        dealt[..N].copy_from_slice(&cards);
        let street = self.street.next().unwrap_or(Street::River);
        self.street = street;
        self.betting_state_changed();
        self.record_play(|_| Event::BoardDealt {
            street,
            cards: EventCards::first(dealt, N),
        });
        self.start_later_round();
        Ok(())
    }

    /// Why [`Hand::deal_board`] refuses `count` cards now (see [`Hand::hole_refused`]).
    #[cold]
    #[inline(never)]
    fn board_refused(&self, count: usize) -> ActionError {
        let Some(due) = self.board_cards_due() else {
            return ActionError::Deal(match self.phase {
                Phase::Betting => "the betting round is not over".into(),
                Phase::DealingHole => "hole cards are still being dealt".into(),
                _ => "the board is complete".into(),
            });
        };
        ActionError::Deal(format!(
            "the {} takes {due} card(s), not {count}",
            self.street.next().map_or("board", Street::name),
        ))
    }

    /// The refusal of a deal some of whose `cards` were already seen: the first card seen
    /// before, or earlier in the same deal (what [`Hand::check_unseen`] reports).
    #[cold]
    #[inline(never)]
    fn seen_refused(&self, cards: impl IntoIterator<Item = Card>) -> ActionError {
        match self.check_unseen(cards) {
            Err(refused) => refused,
            Ok(_) => ActionError::Deal("a card has already been dealt".into()),
        }
    }

    // ----- internals: bookkeeping ----------------------------------------------------------

    /// Moves up to `amount` from the player's stack into their bet; returns what moved. The
    /// round's largest bets ([`TopBets`]) follow (the forced bets are counted afresh when
    /// the betting starts, antes having been taken back out of the bets).
    #[inline]
    pub(super) fn put_in(&mut self, player: usize, amount: Chips) -> Chips {
        let paid = amount.min(self.stack[player]);
        self.stack[player] -= paid;
        if self.stack[player] == 0 {
            self.with_chips &= !(1 << player);
        }
        let bet = self.bet[player] + paid;
        self.top_bets.raised(&self.bet, player, bet);
        self.bet[player] = bet;
        self.contributed[player] += paid;
        paid
    }

    pub(super) fn in_hand_mask(&self) -> Players {
        self.in_hand
    }

    pub(super) fn in_hand_count(&self) -> usize {
        self.in_hand.count_ones() as usize
    }

    pub(super) fn active_count(&self) -> usize {
        (self.in_hand & self.with_chips).count_ones() as usize
    }

    pub(super) fn check_unseen(
        &self,
        cards: impl IntoIterator<Item = Card>,
    ) -> Result<u64, ActionError> {
        let mut mask = 0u64;
        for card in cards {
            let bit = 1u64 << card.index();
            if (self.seen | mask) & bit != 0 {
                return Err(already_dealt(card));
            }
            mask |= bit;
        }
        Ok(mask)
    }

    pub(super) fn phase_name(&self) -> &'static str {
        match self.phase {
            Phase::DealingHole => "hole cards are being dealt",
            Phase::Betting => "a betting round is under way",
            Phase::DealingBoard => "the board is being dealt",
            Phase::Showdown => "the hand is at showdown",
            Phase::Complete => "the hand is over",
        }
    }

    /// Records an event in the hand's log, unless the log leaves it out (see [`EventLog`]).
    /// In line wherever an event is made: the kind of the event is then known there, and an
    /// event a settlement log leaves out (a replay's deals and actions) costs one test,
    /// neither built nor passed to a call.
    #[inline(always)]
    pub(super) fn record(&mut self, event: Event) {
        if self.heard.any() {
            self.record_failures();
        }
        if self.event_log == EventLog::Settlement && !event.settles() {
            return;
        }
        self.push_event(event);
    }

    /// [`Hand::record`] of an event of play (a deal, an action, a show or a muck: one that
    /// settles nothing), made by `event` from the hand only when the log keeps it: a settlement log, a
    /// replay's, then costs one test, with nothing built.
    #[inline(always)]
    pub(super) fn record_play(&mut self, event: impl FnOnce(&Hand) -> Event) {
        if self.heard.any() {
            self.record_failures();
        }
        if self.event_log == EventLog::Settlement {
            return;
        }
        let event = event(self);
        debug_assert!(!event.settles(), "{event:?} settles the hand");
        self.push_event(event);
    }

    /// Appends `event` to the log (see [`Hand::record`]).
    pub(super) fn push_event(&mut self, event: Event) {
        if self.events.len() == self.events.capacity() {
            self.grow_events();
        }
        self.events.push(event);
    }

    /// A forced bet's event, as the hand starts: kept only in a log of every event (a post
    /// settles nothing).
    #[inline]
    fn log_post(&mut self, event: Event) {
        if self.event_log == EventLog::Every {
            self.events.push(event);
        }
    }

    /// Room for more events: rare, as a hand starts with room for the events of a usual
    /// hand, so out of the way of [`Hand::push_event`], which every event kept goes through.
    #[cold]
    #[inline(never)]
    fn grow_events(&mut self) {
        self.events.reserve(1);
    }

    pub(super) fn rule(&mut self, point: &'static str, citation: Citation, finding: Finding) {
        if self.heard.any() {
            self.record_failures();
        }
        self.rulings.push(Ruling {
            point,
            ruleset: self.ruleset.clone(),
            citation,
            finding,
        });
    }
}

/// A card refused because it was dealt before.
#[cold]
#[inline(never)]
fn already_dealt(card: Card) -> ActionError {
    ActionError::Deal(format!("{card} has already been dealt"))
}

/// The positions whose bits are set in `mask`, lowest first.
fn seats_in(mut mask: Players) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let p = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            p
        })
    })
}
