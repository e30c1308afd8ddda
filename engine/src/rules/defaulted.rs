//! Which of the state machine's frequent questions a [`super::Rules`] implementation answers
//! with the documented default, so that the state machine can work those answers out itself.
//!
//! The brief holds that a hook is called only where a ruleset binds it. Most of the questions
//! a hand asks on every raise or every round (`betting.min_raise`, `allin.reopening`,
//! `betting.first_to_act`, `betting.pot_limit_max`, `betting.raise_cap`) are answered by [`super::DefaultRules`]
//! under most rulesets; asking them through the trait object costs a call, a context and a
//! [`super::Decided`] each time, which is a measurable share of a replayed hand. A
//! [`DefaultedPoints`] set, read once per hand, lets the state machine compute the default's
//! value in place for exactly the points that are not bound — the same value the call would
//! have returned.

/// A value-only question of the state machine that can be answered by the default in place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum DefaultedPoint {
    /// `betting.min_raise`.
    MinRaise = 1,
    /// `allin.reopening` (only where the value alone is read: a short all-in's ruling still
    /// asks, for its citation).
    Reopening = 2,
    /// `betting.first_to_act`.
    FirstToAct = 4,
    /// `betting.pot_limit_max`.
    PotLimitMax = 8,
    /// `betting.raise_cap` (a PARAMETER: defaulted when no value is bound).
    RaiseCap = 16,
    /// `showdown.order`: the last aggressor shows first, or the first player left of the
    /// button (worked out from the hand's masks, without listing the players in order).
    ShowdownOrder = 32,
    /// `allin.reopening` answered as the PHH reference conventions answer it
    /// ([`super::PhhConventions`]): the standard rule, or the reference engine's reading of
    /// the round's course, whichever allows the raise. Not a default: only those conventions
    /// declare it, so that a replay's raises are not asked through the trait object. Their
    /// answer cites nothing (*not regulated*), so a short all-in's ruling is worked out in
    /// place too.
    ReferenceReopening = 64,
}

impl DefaultedPoint {
    /// The rule point's id.
    pub const fn id(self) -> &'static str {
        match self {
            DefaultedPoint::MinRaise => "betting.min_raise",
            DefaultedPoint::Reopening => "allin.reopening",
            DefaultedPoint::FirstToAct => "betting.first_to_act",
            DefaultedPoint::PotLimitMax => "betting.pot_limit_max",
            DefaultedPoint::RaiseCap => "betting.raise_cap",
            DefaultedPoint::ShowdownOrder => "showdown.order",
            DefaultedPoint::ReferenceReopening => "allin.reopening",
        }
    }
}

/// A set of [`DefaultedPoint`]s: the points whose value is the documented default under
/// some rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DefaultedPoints(u8);

impl DefaultedPoints {
    /// No point: every question is asked through the rules (always correct, for any rules).
    pub const NONE: DefaultedPoints = DefaultedPoints(0);
    /// Every point the engine's own defaults answer (not [`DefaultedPoint::ReferenceReopening`],
    /// which is the PHH conventions' answer, not the default's).
    pub const ALL: DefaultedPoints = DefaultedPoints(1 | 2 | 4 | 8 | 16 | 32);

    /// This set with `point` added.
    #[must_use]
    pub const fn with(self, point: DefaultedPoint) -> DefaultedPoints {
        DefaultedPoints(self.0 | point as u8)
    }

    /// This set without `point`: for rules that forward another's set but answer `point`
    /// themselves.
    #[must_use]
    pub const fn without(self, point: DefaultedPoint) -> DefaultedPoints {
        DefaultedPoints(self.0 & !(point as u8))
    }

    /// Whether `point` is answered by the default.
    #[inline]
    pub const fn contains(self, point: DefaultedPoint) -> bool {
        self.0 & point as u8 != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_holds_exactly_the_points_added() {
        let set = DefaultedPoints::NONE
            .with(DefaultedPoint::MinRaise)
            .with(DefaultedPoint::FirstToAct);
        assert!(set.contains(DefaultedPoint::MinRaise));
        assert!(set.contains(DefaultedPoint::FirstToAct));
        assert!(!set.contains(DefaultedPoint::Reopening));
        assert!(!set.contains(DefaultedPoint::PotLimitMax));
        assert!(!set.contains(DefaultedPoint::RaiseCap));
        assert!(!set.contains(DefaultedPoint::ShowdownOrder));
        assert!(!set.contains(DefaultedPoint::ReferenceReopening));
        for point in [
            DefaultedPoint::MinRaise,
            DefaultedPoint::Reopening,
            DefaultedPoint::FirstToAct,
            DefaultedPoint::PotLimitMax,
            DefaultedPoint::RaiseCap,
            DefaultedPoint::ShowdownOrder,
        ] {
            assert!(DefaultedPoints::ALL.contains(point));
            assert!(!DefaultedPoints::NONE.contains(point));
        }
    }

    /// The PHH conventions' reopening is theirs, not the default's: the defaults do not
    /// claim it.
    #[test]
    fn the_defaults_do_not_claim_the_reference_reopening() {
        assert!(!DefaultedPoints::ALL.contains(DefaultedPoint::ReferenceReopening));
    }

    #[test]
    fn without_removes_exactly_one_point() {
        let set = DefaultedPoints::ALL
            .with(DefaultedPoint::ReferenceReopening)
            .without(DefaultedPoint::ReferenceReopening);
        assert_eq!(set, DefaultedPoints::ALL);
        assert!(!DefaultedPoints::ALL
            .without(DefaultedPoint::MinRaise)
            .contains(DefaultedPoint::MinRaise));
    }
}
