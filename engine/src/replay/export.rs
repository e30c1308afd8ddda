//! Writing a hand the engine played as a PHH record: the inverse of [`super::config_from_phh`]
//! plus the events as PHH actions. Round-tripping every random hand through it (engine → PHH
//! text → engine) is how the property tests show that nothing is lost in either direction.

use crate::hand::{ActionKind, Event, Hand, Outcome, Structure, Variant, MAX_PLAYERS};
use crate::phh::{Action as PhhAction, ActionLine, PhhHand, Stack};
use crate::Chips;

/// A hand PHH cannot describe.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    /// The betting structure or variant has no PHH variant code.
    #[error("PHH has no variant code for {0}")]
    Variant(&'static str),
    /// A player both posts a blind and a live post, which one PHH entry cannot say.
    #[error("player {0} posts both a blind and a live post")]
    DoublePost(usize),
    /// An amount too large for PHH's signed integers.
    #[error("an amount of {0} chips is too large for a PHH record")]
    TooLarge(Chips),
}

/// The PHH record of `hand` so far: configuration, every dealing, betting and showdown action,
/// and the finishing stacks once the pots have been awarded.
pub fn to_phh(hand: &Hand) -> Result<PhhHand, ExportError> {
    let config = hand.config();
    let n = config.players();
    // PHH lists players from the first seat left of the button, the button last.
    let order = phh_order(hand);
    let mut phh_of = vec![0; n];
    for (i, &p) in order.iter().enumerate() {
        phh_of[p] = i;
    }
    let signed = |c: Chips| i64::try_from(c).map_err(|_| ExportError::TooLarge(c));
    let (variant, min_bet, small_bet, big_bet) = match (config.variant, config.structure) {
        (Variant::Holdem, Structure::NoLimit) => ("NT", Some(config.min_bet), None, None),
        (Variant::Holdem, Structure::PotLimit) => ("PT", Some(config.min_bet), None, None),
        (Variant::Omaha, Structure::NoLimit) => ("NO", Some(config.min_bet), None, None),
        (Variant::Omaha, Structure::PotLimit) => ("PO", Some(config.min_bet), None, None),
        (Variant::Holdem, Structure::FixedLimit { small_bet, big_bet }) => {
            ("FT", None, Some(small_bet), Some(big_bet))
        }
        (Variant::Omaha, Structure::FixedLimit { small_bet, big_bet }) => {
            ("FO", None, Some(small_bet), Some(big_bet))
        }
        (_, Structure::HalfPotLimit) => {
            return Err(ExportError::Variant(
                "the half-pot limit of the 2007 decree",
            ))
        }
    };
    // Heads-up, PHH writes the forced bets in the reverse of the engine's order.
    let seat = |i: usize| if n == 2 { order[n - 1 - i] } else { order[i] };
    let antes = (0..n)
        .map(|i| signed(config.antes[seat(i)]))
        .collect::<Result<Vec<_>, _>>()?;
    let mut blinds_or_straddles = Vec::with_capacity(n);
    for (i, &position) in order.iter().enumerate() {
        let (blind, post) = (config.blinds[seat(i)], config.posts[position]);
        blinds_or_straddles.push(match (blind, post) {
            (b, 0) => signed(b)?,
            (0, p) => -signed(p)?,
            _ => return Err(ExportError::DoublePost(i)),
        });
    }
    let starting_stacks = order
        .iter()
        .map(|&p| Stack::Chips(config.stacks[p]))
        .collect();
    let player_of = |p: &usize| phh_player(phh_of[*p]);
    let mut actions = Vec::with_capacity(hand.events().len());
    for event in hand.events() {
        let action = match event {
            Event::HoleDealt { player, cards } => PhhAction::DealHole {
                player: player_of(player),
                cards: (&cards[..]).into(),
            },
            Event::BoardDealt { cards, .. } => PhhAction::DealBoard {
                cards: (&cards[..]).into(),
            },
            Event::Acted {
                player, kind, to, ..
            } => match kind {
                ActionKind::Fold => PhhAction::Fold {
                    player: player_of(player),
                },
                ActionKind::Check | ActionKind::Call => PhhAction::CheckCall {
                    player: player_of(player),
                },
                ActionKind::Bet | ActionKind::Raise => PhhAction::CompleteBetRaiseTo {
                    player: player_of(player),
                    amount: signed(*to)?,
                },
            },
            Event::Showed { player, cards } => PhhAction::ShowMuck {
                player: player_of(player),
                cards: Some((&cards[..]).into()),
            },
            Event::Mucked { player } => PhhAction::ShowMuck {
                player: player_of(player),
                cards: None,
            },
            Event::Posted { .. }
            | Event::UncalledReturned { .. }
            | Event::Awarded { .. }
            | Event::Raked { .. } => continue,
        };
        actions.push(ActionLine::new(action));
    }
    let finishing_stacks = match hand.outcome() {
        Outcome::Awarded => {
            let stacks = hand.stacks();
            Some(
                order
                    .iter()
                    .map(|&p| signed(stacks[p]))
                    .collect::<Result<Vec<_>, _>>()?,
            )
        }
        _ => None,
    };
    Ok(PhhHand {
        variant: variant.to_string(),
        antes,
        blinds_or_straddles,
        min_bet: min_bet.map(signed).transpose()?,
        small_bet: small_bet.map(signed).transpose()?,
        big_bet: big_bet.map(signed).transpose()?,
        starting_stacks,
        actions,
        finishing_stacks,
        ..PhhHand::default()
    })
}

/// The hand's position of each PHH player, in PHH's order: from the first position left of
/// the button round to the button, which PHH puts last. Per-player facts kept by position
/// (names, seats, what a table took) are written in this order beside [`to_phh`]'s record.
pub fn phh_order(hand: &Hand) -> Vec<usize> {
    let config = hand.config();
    let n = config.players();
    (0..n).map(|i| (config.button + 1 + i) % n).collect()
}

/// A hand's position as a PHH action holds it (a byte). A hand's positions are below
/// [`MAX_PLAYERS`], checked when the hand is configured, and that fits a byte (asserted
/// below), so the conversion loses nothing.
fn phh_player(position: usize) -> u8 {
    const _: () = assert!(MAX_PLAYERS <= 256);
    position as u8
}
