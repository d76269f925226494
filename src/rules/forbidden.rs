//! The exact renju forbidden moves for Black: overline, double-four and the recursive
//! double-three, decided with line-pattern lookup tables.
//!
//! For a black move at `p`, each of the four lines through `p` is read as an 11-point window
//! `p-5..=p+5` in which every point is empty, black, or blocked (white or off the board). The
//! ten points other than `p` index a table of 3^10 entries, built once, that says for that
//! window whether `p` makes a five, an overline, how many fours, and (for a line that is not a
//! four) which empty points `q` would turn it into a straight four through `p` and `q`.
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
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use super::geometry::{Color, Direction, Point, Size};
use super::lines::Lines;

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

// Table entry layout (u16).
const FIVE: u16 = 1;
const OVERLINE: u16 = 1 << 1;
const FOURS_SHIFT: u16 = 2; // two bits: 0, 1, 2 or 3 (3 = three or more)
const THREE_SHIFT: u16 = 4; // nine bits: window index q (1..=9) at bit THREE_SHIFT + q - 1

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Empty,
    Black,
    Block,
}

/// Length of the black run through window index `i` (which must be black), within the window.
/// Exact for the questions asked of it: a run that touches either end of the window contains
/// index 5 and so has six or more stones anyway.
fn run_through(w: &[Cell; 11], i: usize) -> usize {
    let left = w[..i]
        .iter()
        .rev()
        .take_while(|&&c| c == Cell::Black)
        .count();
    let right = w[i + 1..].iter().take_while(|&&c| c == Cell::Black).count();
    left + 1 + right
}

/// Five points of the window (as a bit set of indices), for a window whose run through the
/// centre is shorter than five: the empty points where one more black stone makes exactly five
/// containing the centre.
fn five_points(w: &[Cell; 11]) -> u16 {
    let mut points = 0;
    for e in 1..=9 {
        if w[e] == Cell::Empty {
            let mut with = *w;
            with[e] = Cell::Black;
            if run_through(&with, 5) == 5 {
                points |= 1 << e;
            }
        }
    }
    points
}

/// Straight fours among the five points: pairs `e`, `e+5` with four black stones between.
fn straight_fours(w: &[Cell; 11], points: u16) -> u32 {
    (1..=4)
        .filter(|&e| {
            points & (1 << e) != 0
                && points & (1 << (e + 5)) != 0
                && w[e + 1..e + 5].iter().all(|&c| c == Cell::Black)
        })
        .count() as u32
}

fn entry(w: &[Cell; 11]) -> u16 {
    match run_through(w, 5) {
        5 => return FIVE,
        6.. => return OVERLINE,
        _ => {}
    }
    let points = five_points(w);
    if points != 0 {
        let fours = points.count_ones() - straight_fours(w, points);
        return (fours.min(3) as u16) << FOURS_SHIFT;
    }
    let mut threes = 0;
    for q in (1..=9).filter(|&q| q != 5 && w[q] == Cell::Empty) {
        let mut with = *w;
        with[q] = Cell::Black;
        if run_through(&with, 5) >= 5 {
            continue;
        }
        let points = five_points(&with);
        let makes_straight_four = (1..=4).any(|e| {
            points & (1 << e) != 0
                && points & (1 << (e + 5)) != 0
                && e < q
                && q < e + 5
                && with[e + 1..e + 5].iter().all(|&c| c == Cell::Black)
        });
        if makes_straight_four {
            threes |= 1 << (THREE_SHIFT + q as u16 - 1);
        }
    }
    threes
}

/// Window indices of the ten points other than the centre, in ternary digit order.
const DIGITS: [usize; 10] = [0, 1, 2, 3, 4, 6, 7, 8, 9, 10];

/// `TERNARY[m]`: the base-3 number whose digit `i` is bit `i` of the 10-bit mask `m`.
static TERNARY: LazyLock<[u16; 1024]> = LazyLock::new(|| {
    let mut t = [0u16; 1024];
    for (m, v) in t.iter_mut().enumerate() {
        *v = (0..10)
            .filter(|i| m & (1 << i) != 0)
            .map(|i| 3u16.pow(i))
            .sum();
    }
    t
});

static PATTERNS: LazyLock<Box<[u16]>> = LazyLock::new(|| {
    (0..59049u32)
        .map(|mut index| {
            let mut w = [Cell::Empty; 11];
            w[5] = Cell::Black;
            for &i in &DIGITS {
                w[i] = match index % 3 {
                    0 => Cell::Empty,
                    1 => Cell::Black,
                    _ => Cell::Block,
                };
                index /= 3;
            }
            entry(&w)
        })
        .collect()
});

/// The table entry for the line through `p` in direction index `di`, with `p` read as black.
#[inline]
fn pattern(lines: &Lines, di: usize, p: Point) -> u16 {
    let (black, blocked) = lines.window(di, p);
    let squeeze = |m: u32| ((m & 0x1F) | ((m >> 6) << 5)) as usize;
    let ternary = &*TERNARY;
    let index = ternary[squeeze(black)] as usize + 2 * ternary[squeeze(blocked)] as usize;
    PATTERNS[index]
}

/// The verdict for a black stone at the empty point `p`, or `None` if it takes the recursive
/// double-three test to tell (two or more lines could be threes). No stone is placed.
#[inline]
fn quick_verdict(lines: &Lines, p: Point) -> Result<Verdict, [u16; 4]> {
    let entries = [0, 1, 2, 3].map(|di| pattern(lines, di, p));
    let all = entries[0] | entries[1] | entries[2] | entries[3];
    if all & FIVE != 0 {
        return Ok(Verdict::Five);
    }
    if all & OVERLINE != 0 {
        return Ok(Verdict::Forbidden(Forbidden::Overline));
    }
    let fours: u16 = entries.iter().map(|e| (e >> FOURS_SHIFT) & 3).sum();
    if fours >= 2 {
        return Ok(Verdict::Forbidden(Forbidden::DoubleFour));
    }
    let threes = entries.iter().filter(|&&e| e >> THREE_SHIFT != 0).count();
    if threes < 2 {
        return Ok(Verdict::Legal);
    }
    Err(entries)
}

/// The verdict for a black stone at the empty point `p` of a board of `size`. `lines` is
/// borrowed mutably for the recursive three test and is left as it was found.
pub(crate) fn verdict(lines: &mut Lines, p: Point, size: Size) -> Verdict {
    let entries = match quick_verdict(lines, p) {
        Ok(v) => return v,
        Err(entries) => entries,
    };
    lines.put(p, Color::Black);
    let mut candidates = entries.iter().filter(|&&e| e >> THREE_SHIFT != 0).count();
    let mut real = 0;
    for (d, &e) in Direction::ALL.iter().zip(&entries) {
        let mut qs = e >> THREE_SHIFT;
        if qs == 0 {
            continue;
        }
        candidates -= 1;
        while qs != 0 {
            let q_index = qs.trailing_zeros() as i32 + 1;
            qs &= qs - 1;
            let q = p
                .step(*d, q_index - 5, size)
                .expect("an empty window point lies on the board");
            if verdict(lines, q, size) == Verdict::Legal {
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
pub(crate) fn verdict_of(lines: &Lines, p: Point, size: Size) -> Verdict {
    match quick_verdict(lines, p) {
        Ok(v) => v,
        Err(_) => verdict(&mut lines.clone(), p, size),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(s: &str) -> [Cell; 11] {
        let cells: Vec<Cell> = s
            .chars()
            .map(|c| match c {
                'X' | 'P' => Cell::Black,
                'O' | '|' => Cell::Block,
                _ => Cell::Empty,
            })
            .collect();
        assert_eq!(cells.len(), 11);
        assert_eq!(s.as_bytes()[5], b'P', "the centre is the move");
        cells.try_into().unwrap()
    }

    #[test]
    fn entries_by_hand() {
        let fours = |s: &str| entry(&window(s)) >> FOURS_SHIFT & 3;
        let threes = |s: &str| entry(&window(s)) >> THREE_SHIFT;
        assert_eq!(entry(&window("...XXPXX...")), FIVE);
        assert_eq!(entry(&window("..XXXPXX...")), OVERLINE);
        assert_eq!(entry(&window("XXXXXP.....")), OVERLINE);
        // The edge of the board blocks an overline from being counted, not a five.
        assert_eq!(entry(&window("|XXXXP.....")), FIVE);
        // A straight four counts once, a broken four once, X.XXX.X-style lines twice.
        assert_eq!(fours("...XXP.X..."), 1);
        assert_eq!(fours("....XPXX..."), 1);
        assert_eq!(fours("...X.PXX.X."), 2);
        assert_eq!(fours("..X.XPX.X.."), 2);
        assert_eq!(fours(".XX.XP.XX.."), 2);
        // A four whose only five point would make six is no four.
        assert_eq!(entry(&window("X.XXXP|....")), 0);
        // Open three: q at 3 or 7 makes a straight four .XXXX.
        assert_eq!(threes("....XPX...."), (1 << 2) | (1 << 6));
        // Split three X.PX: the gap is the only straight-four point.
        assert_eq!(threes("...X.PX...."), 1 << 3);
        // A three blocked at one end, or whose straight four would touch a sixth stone.
        assert_eq!(threes("...OXPX.O.."), 0);
        assert_eq!(threes("..X.XPX.O.."), 0);
        assert_eq!(threes(".X..XPX..X."), 0);
    }
}
