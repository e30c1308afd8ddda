//! What a hand is dealt with: the game, the betting structure, the players' stacks and the
//! forced bets. A [`HandConfig`] is checked once, when the hand starts.

use crate::bounds::{within, MAX_HAND_CHIPS};
use crate::Chips;
use serde::{Deserialize, Serialize};

/// The most players one hand can seat. The rulebooks allow at most 11 at a table (the 2007
/// decree's synthetic poker); the engine leaves room for larger hand histories.
pub const MAX_PLAYERS: usize = 23;

/// The games the engine deals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Variant {
    /// Texas hold'em: two hole cards, any five of seven.
    Holdem,
    /// Omaha: four hole cards, exactly two of them with exactly three of the board.
    Omaha,
}

impl Variant {
    /// How many hole cards each player receives.
    pub fn hole_cards(self) -> usize {
        match self {
            Variant::Holdem => 2,
            Variant::Omaha => 4,
        }
    }
}

/// How large bets may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "rulesets", derive(schemars::JsonSchema))]
pub enum Structure {
    /// Any amount up to the player's stack.
    NoLimit,
    /// At most the pot after calling.
    PotLimit,
    /// The 2007 decree's "com limite": at most half the pot (pt-casino-2007 rule 21a).
    HalfPotLimit,
    /// Fixed increments: the small bet before the turn, the big bet from the turn on,
    /// with a cap on the number of raises (rule point `betting.raise_cap`).
    FixedLimit {
        /// The increment on the first two rounds.
        small_bet: Chips,
        /// The increment on the turn and river.
        big_bet: Chips,
    },
}

impl Structure {
    /// The structure's name as rulesets and table events write it (`no_limit`, `pot_limit`,
    /// `half_pot_limit`, `fixed_limit`).
    pub fn word(self) -> &'static str {
        match self {
            Structure::NoLimit => "no_limit",
            Structure::PotLimit => "pot_limit",
            Structure::HalfPotLimit => "half_pot_limit",
            Structure::FixedLimit { .. } => "fixed_limit",
        }
    }
}

/// Everything a hand starts from. Positions are indices into the per-player vectors, in
/// clockwise order; `button` says which position holds the dealer button.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandConfig {
    /// The game.
    pub variant: Variant,
    /// The betting structure.
    pub structure: Structure,
    /// The smallest opening bet (normally the big blind); in fixed-limit, the small bet.
    pub min_bet: Chips,
    /// Each player's chips at the start of the hand. Every stack must be positive.
    pub stacks: Vec<Chips>,
    /// Each player's ante (dead money, posted first). Zero for none.
    pub antes: Vec<Chips>,
    /// Blinds and straddles per player: live bets posted before the deal. The largest one
    /// decides who acts first before the flop.
    pub blinds: Vec<Chips>,
    /// Live posts that do not change the order of action (a newly seated player posting to
    /// play at once). Zero for none.
    pub posts: Vec<Chips>,
    /// The button's position.
    pub button: usize,
}

/// A hand that cannot start as configured.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// Fewer than two players, or more than the engine seats.
    #[error("a hand needs 2 to {MAX_PLAYERS} players, not {0}")]
    PlayerCount(usize),
    /// A per-player list whose length differs from the number of stacks.
    #[error("`{field}` has {len} entries but there are {players} players")]
    Length {
        /// The list.
        field: &'static str,
        /// Its length.
        len: usize,
        /// The number of players.
        players: usize,
    },
    /// A player dealt in with no chips.
    #[error("player {} has no chips and cannot be dealt in", .0 + 1)]
    EmptyStack(usize),
    /// The button is not one of the positions.
    #[error("button position {0} is not a player's position")]
    Button(usize),
    /// A minimum bet of zero (the betting could never open).
    #[error("the minimum bet must be positive")]
    MinBet,
    /// An amount above the engine's bound ([`crate::bounds::MAX_HAND_CHIPS`]).
    #[error(transparent)]
    Amount(#[from] crate::bounds::AmountError),
}

impl HandConfig {
    /// A no-limit hold'em hand with the usual blinds for `stacks.len()` players: small blind
    /// left of the button, big blind next; heads-up, the button posts the small blind.
    pub fn holdem(stacks: Vec<Chips>, button: usize, small_blind: Chips, big_blind: Chips) -> Self {
        let n = stacks.len();
        let mut blinds = vec![0; n];
        if n >= 2 {
            let (sb, bb) = if n == 2 {
                (button % n, (button + 1) % n)
            } else {
                ((button + 1) % n, (button + 2) % n)
            };
            blinds[sb] = small_blind;
            blinds[bb] = big_blind;
        }
        HandConfig {
            variant: Variant::Holdem,
            structure: Structure::NoLimit,
            min_bet: big_blind,
            antes: vec![0; n],
            posts: vec![0; n],
            blinds,
            stacks,
            button,
        }
    }

    /// A hold'em table whose blinds are placed by the rules in force (`blinds.positions_and_amounts`,
    /// `button.heads_up`): the usual small blind left of the button, or, under the 2007 decree,
    /// the marker holder's own small bet (pt-casino-2007 rule 81). Returns the ruling's
    /// citation with the configuration.
    pub fn at_table(
        stacks: Vec<Chips>,
        button: usize,
        small_blind: Chips,
        big_blind: Chips,
        rules: &dyn crate::rules::Rules,
    ) -> (Self, crate::rules::Citation) {
        let mut config = HandConfig::holdem(stacks, button, 0, 0);
        let n = config.stacks.len();
        let plan = rules.blinds(&crate::rules::BlindsContext { players: n, button });
        if let Some(sb) = plan.value.small_blind.filter(|&p| p < n) {
            config.blinds[sb] = small_blind;
        }
        if plan.value.big_blind < n {
            config.blinds[plan.value.big_blind] = big_blind;
        }
        config.min_bet = big_blind;
        (config, plan.citation)
    }

    /// How many players are dealt in.
    pub fn players(&self) -> usize {
        self.stacks.len()
    }

    /// Checks the configuration before a hand starts from it.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let n = self.stacks.len();
        if !(2..=MAX_PLAYERS).contains(&n) {
            return Err(ConfigError::PlayerCount(n));
        }
        for (field, len) in [
            ("antes", self.antes.len()),
            ("blinds", self.blinds.len()),
            ("posts", self.posts.len()),
        ] {
            if len != n {
                return Err(ConfigError::Length {
                    field,
                    len,
                    players: n,
                });
            }
        }
        if let Some(p) = self.stacks.iter().position(|&s| s == 0) {
            return Err(ConfigError::EmptyStack(p));
        }
        if self.button >= n {
            return Err(ConfigError::Button(self.button));
        }
        if self.min_bet == 0 {
            return Err(ConfigError::MinBet);
        }
        self.check_bounds()
    }

    /// Every amount within [`MAX_HAND_CHIPS`], so that no sum the hand makes can wrap.
    fn check_bounds(&self) -> Result<(), ConfigError> {
        // One `max` per list keeps the usual case (everything small) to a few comparisons.
        let largest = [&self.stacks, &self.antes, &self.blinds, &self.posts]
            .iter()
            .flat_map(|list| list.iter())
            .copied()
            .chain([self.min_bet])
            .max()
            .unwrap_or(0);
        let bets = match self.structure {
            Structure::FixedLimit { small_bet, big_bet } => small_bet.max(big_bet),
            _ => 0,
        };
        if largest.max(bets) <= MAX_HAND_CHIPS {
            return Ok(());
        }
        let named = [
            ("a stack", &self.stacks),
            ("an ante", &self.antes),
            ("a blind", &self.blinds),
            ("a live post", &self.posts),
        ];
        for (what, list) in named {
            if let Some(&amount) = list.iter().find(|&&a| a > MAX_HAND_CHIPS) {
                within(what, amount, MAX_HAND_CHIPS)?;
            }
        }
        within("the minimum bet", self.min_bet, MAX_HAND_CHIPS)?;
        within("the fixed-limit bet", bets, MAX_HAND_CHIPS)?;
        Ok(())
    }
}
