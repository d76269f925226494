//! The exact renju forbidden moves for Black: overline, double-four and the recursive
//! double-three, decided with the exact-five line-pattern table of [`super::patterns`].
//!
//! The board-level decision follows `docs/rules.md`:
//!
//! 1. a move that makes a five is never forbidden;
//! 2. six or more in a row is an overline;
//! 3. two or more fours (two in one line included) is a double-four;
//! 4. two or more real threes is a double-three, where a three is real only if one of its
//!    straight-four points `q` is, with `p` on the board, neither forbidden nor a five. That
//!    test recurses with one more stone per level, so it terminates.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::geometry::{Color, Direction, Point, Size};
use super::lines::Lines;
use super::patterns::{Entry, Fives, entries};

/// Why a point is forbidden for Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Forbidden {
    /// Six or more black stones in an unbroken line.
    Overline,
    /// Two or more fours at once, two in one line included.
    DoubleFour,
    /// Two or more real threes at once.
    DoubleThree,
}

impl Forbidden {
    /// The name used in output: `overline`, `double-four` or `double-three`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Forbidden::Overline => "overline",
            Forbidden::DoubleFour => "double-four",
            Forbidden::DoubleThree => "double-three",
        }
    }

    /// The one-character board mark: `6`, `4` or `3`.
    #[must_use]
    pub const fn mark(self) -> char {
        match self {
            Forbidden::Overline => '6',
            Forbidden::DoubleFour => '4',
            Forbidden::DoubleThree => '3',
        }
    }
}

impl fmt::Display for Forbidden {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a black stone at an empty point would be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// It makes a five: never forbidden.
    Five,
    /// It is forbidden.
    Forbidden(Forbidden),
    /// It is an ordinary legal move.
    Legal,
}

/// The verdict for a black stone at the empty point `p`, or the four line entries if it takes
/// the recursive double-three test to tell (two or more lines could be threes). No stone is
/// placed. `trace` is told each point whose surroundings (five points along each line) are read.
#[inline]
fn quick_verdict(
    lines: &Lines,
    p: Point,
    trace: &mut impl FnMut(Point),
) -> Result<Verdict, [Entry; 4]> {
    trace(p);
    let entries = entries(lines, p, Color::Black, Fives::Exact);
    quick_verdict_of(&entries).ok_or(entries)
}

/// The verdict for a black stone whose four line entries (exact fives) are `entries`, if they
/// tell it without the recursive double-three test.
pub(crate) fn quick_verdict_of(entries: &[Entry; 4]) -> Option<Verdict> {
    if entries.iter().any(|e| e.five()) {
        return Some(Verdict::Five);
    }
    if entries.iter().any(|e| e.overline()) {
        return Some(Verdict::Forbidden(Forbidden::Overline));
    }
    let fours: u16 = entries.iter().map(|e| e.fours()).sum();
    if fours >= 2 {
        return Some(Verdict::Forbidden(Forbidden::DoubleFour));
    }
    let threes = entries
        .iter()
        .filter(|e| e.three_offsets().next().is_some())
        .count();
    (threes < 2).then_some(Verdict::Legal)
}

/// The verdict for a black stone at the empty point `p` of a board of `size`. `lines` is
/// borrowed mutably for the recursive three test and is left as it was found.
pub(crate) fn verdict(
    lines: &mut Lines,
    p: Point,
    size: Size,
    trace: &mut impl FnMut(Point),
) -> Verdict {
    let entries = match quick_verdict(lines, p, trace) {
        Ok(v) => return v,
        Err(entries) => entries,
    };
    lines.put(p, Color::Black);
    let mut candidates = entries
        .iter()
        .filter(|e| e.three_offsets().next().is_some())
        .count();
    let mut real = 0;
    for (d, &e) in Direction::ALL.iter().zip(&entries) {
        if e.three_offsets().next().is_none() {
            continue;
        }
        candidates -= 1;
        for offset in e.three_offsets() {
            let q = p
                .step(*d, offset, size)
                .expect("an empty window point lies on the board");
            if verdict(lines, q, size, trace) == Verdict::Legal {
                real += 1;
                break;
            }
        }
        if real >= 2 || real + candidates < 2 {
            break;
        }
    }
    lines.remove(p, Color::Black);
    if real >= 2 {
        Verdict::Forbidden(Forbidden::DoubleThree)
    } else {
        Verdict::Legal
    }
}

/// The verdict at `p` without mutating `lines`: copies them only when the recursive three test
/// is needed.
pub(crate) fn verdict_of(
    lines: &Lines,
    p: Point,
    size: Size,
    trace: &mut impl FnMut(Point),
) -> Verdict {
    match quick_verdict(lines, p, trace) {
        Ok(v) => v,
        Err(_) => verdict(&mut lines.clone(), p, size, trace),
    }
}
