//! Rule sets: who wins with which line, and whether Black has forbidden moves.
//!
//! | rule | who wins | forbidden moves |
//! |---|---|---|
//! | `renju` | Black: exactly five. White: five or more | Black only |
//! | `gomoku` | exactly `k`, both sides | none |
//! | `freestyle` | `k` or more, both sides | none |
//! | `caro` | exactly five whose two end points are not both held by the opponent | none |
//!
//! The win length `k` (default 5) applies to gomoku and freestyle only.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::geometry::{Color, MAX_SIDE};

/// A rule set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rule {
    /// RIF renju: Black wins with exactly five and may not play overline, double-four or
    /// double-three; White wins with five or more.
    #[default]
    Renju,
    /// Standard gomoku: exactly `k` in a row wins, for both sides.
    Gomoku,
    /// Freestyle gomoku: `k` or more in a row wins, for both sides.
    Freestyle,
    /// Caro: exactly five wins unless both end points are held by the opponent.
    Caro,
}

impl Rule {
    /// All rule sets.
    pub const ALL: [Rule; 4] = [Rule::Renju, Rule::Gomoku, Rule::Freestyle, Rule::Caro];

    /// The name used on the command line and in JSON.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Renju => "renju",
            Rule::Gomoku => "gomoku",
            Rule::Freestyle => "freestyle",
            Rule::Caro => "caro",
        }
    }

    /// Whether the win length can be set (gomoku and freestyle).
    #[must_use]
    pub const fn has_variable_k(self) -> bool {
        matches!(self, Rule::Gomoku | Rule::Freestyle)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rule {
    type Err = RuleError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Rule::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| RuleError::Unknown(s.to_string()))
    }
}

/// A rule set that cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RuleError {
    /// A rule name that is not one of the four.
    #[error("unknown rule `{0}`: expected renju, gomoku, freestyle or caro")]
    Unknown(String),
    /// A win length given for a rule whose win length is fixed at five.
    #[error(
        "win length k={k} does not apply to {rule}: {rule} is always five in a row (k applies to gomoku and freestyle)"
    )]
    FixedK {
        /// The rule.
        rule: Rule,
        /// The win length asked for.
        k: u32,
    },
    /// A win length outside 3..=MAX_SIDE.
    #[error("win length k={0} is out of range: it must be from 3 to {MAX_SIDE}")]
    KOutOfRange(u32),
}

/// A rule set with its win length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rules {
    rule: Rule,
    k: u8,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            rule: Rule::Renju,
            k: 5,
        }
    }
}

impl Rules {
    /// `rule` with win length `k` (`None` means 5).
    ///
    /// # Errors
    /// [`RuleError::FixedK`] if `k` is given, is not 5, and the rule is renju or caro;
    /// [`RuleError::KOutOfRange`] if `k` is outside 3..=[`MAX_SIDE`].
    pub fn new(rule: Rule, k: Option<u32>) -> Result<Rules, RuleError> {
        let k = k.unwrap_or(5);
        if !(3..=u32::from(MAX_SIDE)).contains(&k) {
            return Err(RuleError::KOutOfRange(k));
        }
        if k != 5 && !rule.has_variable_k() {
            return Err(RuleError::FixedK { rule, k });
        }
        Ok(Rules { rule, k: k as u8 })
    }

    /// Plain renju (the default).
    #[must_use]
    pub const fn renju() -> Rules {
        Rules {
            rule: Rule::Renju,
            k: 5,
        }
    }

    /// The rule set.
    #[must_use]
    pub const fn rule(self) -> Rule {
        self.rule
    }

    /// The win length.
    #[must_use]
    pub const fn k(self) -> u8 {
        self.k
    }

    /// Whether Black has forbidden moves (renju only).
    #[must_use]
    pub const fn has_forbidden(self) -> bool {
        matches!(self.rule, Rule::Renju)
    }

    /// Whether an unbroken run of `len` stones of `color` wins, given whether each of the two
    /// points just beyond its ends holds an opponent stone (the board edge is not a stone).
    #[must_use]
    pub const fn is_win(self, color: Color, len: u32, ends_held_by_opponent: [bool; 2]) -> bool {
        let k = self.k as u32;
        match self.rule {
            Rule::Renju => match color {
                Color::Black => len == 5,
                Color::White => len >= 5,
            },
            Rule::Gomoku => len == k,
            Rule::Freestyle => len >= k,
            Rule::Caro => len == 5 && !(ends_held_by_opponent[0] && ends_held_by_opponent[1]),
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.rule.has_variable_k() {
            write!(f, "{} (k={})", self.rule, self.k)
        } else {
            write!(f, "{}", self.rule)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_lengths() {
        let renju = Rules::renju();
        assert!(renju.is_win(Color::Black, 5, [false; 2]));
        assert!(!renju.is_win(Color::Black, 6, [false; 2]));
        assert!(renju.is_win(Color::White, 6, [false; 2]));
        let gomoku = Rules::new(Rule::Gomoku, Some(4)).unwrap();
        assert!(gomoku.is_win(Color::White, 4, [true; 2]));
        assert!(!gomoku.is_win(Color::White, 5, [false; 2]));
        let free = Rules::new(Rule::Freestyle, None).unwrap();
        assert!(free.is_win(Color::Black, 7, [false; 2]));
        let caro = Rules::new(Rule::Caro, None).unwrap();
        assert!(caro.is_win(Color::Black, 5, [true, false]));
        assert!(!caro.is_win(Color::Black, 5, [true, true]));
        assert!(!caro.is_win(Color::Black, 6, [false, false]));
    }

    #[test]
    fn k_only_where_it_applies() {
        assert!(matches!(
            Rules::new(Rule::Renju, Some(4)),
            Err(RuleError::FixedK { .. })
        ));
        assert!(Rules::new(Rule::Renju, Some(5)).is_ok());
        assert!(matches!(
            Rules::new(Rule::Gomoku, Some(2)),
            Err(RuleError::KOutOfRange(2))
        ));
        assert_eq!("FreeStyle".parse::<Rule>().unwrap(), Rule::Freestyle);
        assert!("chess".parse::<Rule>().is_err());
    }
}
