//! The structure of levels (rule points `tournament.levels.structure`,
//! `tournament.modality.escalator`, `tournament.modality.ante_up`,
//! `tournament.modality.sit_and_go`).
//!
//! The texts leave the numbers to the organiser (Solverde §7.1: levels start at an amount set
//! beforehand and rise, varying with the modality and the buy-in); what they do regulate is the
//! *shape* of some modalities, and that is what [`Structure::check_modality`] enforces:
//!
//! - Escalator (§3.1.7): each level's duration is fixed before the start "com incrementos
//!   progressivos" — read as every level lasting strictly longer than the one before.
//! - Ante Up (§3.1.6): "sempre jogado num nível de apostas" — the small and big blind never
//!   change — "aumentando apenas ... o nível das Ante's": only the antes rise; read as antes
//!   that never fall and rise at least once.
//! - Sit&Go (§3.1.8): one table, starting at 6 ("6-max") or 10 ("10-handed") players.
//!
//! A big-blind ante (pt-tournament Art. 32º: "quando os níveis compreendam Antes, estas
//! deverão ser pagas pela big blind") is a level flag: the big blind posts the whole table's
//! ante, one ante per player dealt in.

use crate::Chips;
use serde::{Deserialize, Serialize};

/// One level of blinds and antes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Level {
    /// The small blind.
    pub small_blind: Chips,
    /// The big blind.
    pub big_blind: Chips,
    /// The ante per player (zero: none).
    #[serde(default)]
    pub ante: Chips,
    /// The big blind pays every player's ante (Art. 32º's big-blind ante).
    #[serde(default)]
    pub big_blind_ante: bool,
    /// How long the level lasts, in minutes.
    pub minutes: u32,
}

/// A break after a level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Break {
    /// The level (from 1) the break follows.
    pub after_level: usize,
    /// Its length in minutes.
    pub minutes: u32,
}

/// The announced structure: levels in order, and the breaks between them. After the last
/// level the clock stays on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Structure {
    /// The levels, first first.
    pub levels: Vec<Level>,
    /// The breaks.
    #[serde(default)]
    pub breaks: Vec<Break>,
}

/// The tournament's modality, where it shapes the structure or the table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Modality {
    /// Any modality whose structure the texts do not shape (freeze-out, rebuy, bounty...).
    #[default]
    Standard,
    /// Solverde §3.1.5: the button goes to the last hand's winner.
    WinTheButton,
    /// Solverde §3.1.6: fixed blinds, rising antes.
    AnteUp,
    /// Solverde §3.1.7: progressively longer levels.
    Escalator,
    /// Solverde §3.1.8: one table, 6-max.
    #[serde(rename = "sit_and_go_6_max")]
    SitAndGoSixMax,
    /// Solverde §3.1.8: one table, 10-handed.
    #[serde(rename = "sit_and_go_10_handed")]
    SitAndGoTenHanded,
}

impl Modality {
    /// The rule point that defines the modality, if one does.
    pub fn point(self) -> Option<&'static str> {
        match self {
            Modality::Standard => None,
            Modality::WinTheButton => Some("tournament.modality.win_the_button"),
            Modality::AnteUp => Some("tournament.modality.ante_up"),
            Modality::Escalator => Some("tournament.modality.escalator"),
            Modality::SitAndGoSixMax | Modality::SitAndGoTenHanded => {
                Some("tournament.modality.sit_and_go")
            }
        }
    }

    /// The modality's name in decisions' facts.
    pub fn name(self) -> &'static str {
        match self {
            Modality::Standard => "standard",
            Modality::WinTheButton => "win_the_button",
            Modality::AnteUp => "ante_up",
            Modality::Escalator => "escalator",
            Modality::SitAndGoSixMax => "sit_and_go_6_max",
            Modality::SitAndGoTenHanded => "sit_and_go_10_handed",
        }
    }
}

/// A structure that cannot be played, or that breaks its modality's rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StructureError {
    /// No levels at all.
    #[error("the structure has no levels")]
    Empty,
    /// A level that cannot be played.
    #[error("level {level}: {why}")]
    BadLevel {
        /// The level, from 1.
        level: usize,
        /// What is wrong.
        why: String,
    },
    /// A break after a level that does not exist.
    #[error("a break after level {0}, but the structure has fewer levels")]
    BadBreak(usize),
    /// The modality's rule is broken.
    #[error("{modality}: {why} ({article})")]
    Modality {
        /// The modality.
        modality: &'static str,
        /// What is wrong.
        why: String,
        /// The article that requires it (or *not regulated by this text*).
        article: String,
    },
}

impl Structure {
    /// Checks that every level can be played: a positive big blind, a small blind no larger,
    /// a positive duration; breaks after existing levels.
    pub fn validate(&self) -> Result<(), StructureError> {
        if self.levels.is_empty() {
            return Err(StructureError::Empty);
        }
        for (i, l) in self.levels.iter().enumerate() {
            let why = if l.big_blind == 0 {
                Some("the big blind is zero")
            } else if l.small_blind > l.big_blind {
                Some("the small blind is larger than the big blind")
            } else if l.minutes == 0 {
                Some("the level lasts zero minutes")
            } else {
                None
            };
            if let Some(why) = why {
                return Err(StructureError::BadLevel {
                    level: i + 1,
                    why: why.into(),
                });
            }
        }
        if let Some(b) = self
            .breaks
            .iter()
            .find(|b| b.after_level == 0 || b.after_level > self.levels.len())
        {
            return Err(StructureError::BadBreak(b.after_level));
        }
        Ok(())
    }

    /// An Escalator structure: the given blinds and antes, the first level lasting
    /// `first_minutes` and each later one `increment_minutes` longer (Solverde §3.1.7).
    pub fn escalator(
        blinds: &[(Chips, Chips, Chips)],
        first_minutes: u32,
        increment_minutes: u32,
    ) -> Structure {
        Structure {
            levels: blinds
                .iter()
                .zip(0u32..)
                .map(|(&(small_blind, big_blind, ante), i)| Level {
                    small_blind,
                    big_blind,
                    ante,
                    big_blind_ante: false,
                    minutes: first_minutes + i * increment_minutes,
                })
                .collect(),
            breaks: Vec::new(),
        }
    }

    /// An Ante Up structure: one blind level for the whole tournament and the announced ante
    /// schedule, `minutes` per level (Solverde §3.1.6).
    pub fn ante_up(
        small_blind: Chips,
        big_blind: Chips,
        antes: &[Chips],
        minutes: u32,
    ) -> Structure {
        Structure {
            levels: antes
                .iter()
                .map(|&ante| Level {
                    small_blind,
                    big_blind,
                    ante,
                    big_blind_ante: false,
                    minutes,
                })
                .collect(),
            breaks: Vec::new(),
        }
    }

    /// Checks the structure against the shape its modality requires; `article` is the
    /// citation of the ruleset's binding of the modality's point (`None`: the text does not
    /// define the modality, and the engine holds the structure to the same shape, citing
    /// nothing).
    pub fn check_modality(
        &self,
        modality: Modality,
        article: Option<&str>,
    ) -> Result<(), StructureError> {
        self.validate()?;
        let fail = |why: String| StructureError::Modality {
            modality: modality.name(),
            why,
            article: article.unwrap_or("not regulated by this text").to_string(),
        };
        match modality {
            Modality::Escalator => {
                for (i, pair) in self.levels.windows(2).enumerate() {
                    if pair[1].minutes <= pair[0].minutes {
                        return Err(fail(format!(
                            "level {} lasts {} minutes, not longer than level {} ({} minutes): Escalator levels grow progressively",
                            i + 2,
                            pair[1].minutes,
                            i + 1,
                            pair[0].minutes
                        )));
                    }
                }
            }
            Modality::AnteUp => {
                let first = &self.levels[0];
                for (i, l) in self.levels.iter().enumerate().skip(1) {
                    if (l.small_blind, l.big_blind) != (first.small_blind, first.big_blind) {
                        return Err(fail(format!(
                            "level {} has blinds {}/{}, not the one blind level {}/{}: in Ante Up only the antes rise",
                            i + 1,
                            l.small_blind,
                            l.big_blind,
                            first.small_blind,
                            first.big_blind
                        )));
                    }
                    if l.ante < self.levels[i - 1].ante {
                        return Err(fail(format!(
                            "level {} lowers the ante from {} to {}: in Ante Up the antes rise",
                            i + 1,
                            self.levels[i - 1].ante,
                            l.ante
                        )));
                    }
                }
                let last = self.levels.last().map_or(0, |l| l.ante);
                if self.levels.len() > 1 && last <= first.ante {
                    return Err(fail("the antes never rise".into()));
                }
            }
            _ => {}
        }
        Ok(())
    }
}
