//! Line-pattern tables: what one more stone does to one line, read off an 11-point window.
//!
//! For a stone of some colour at `p`, the line through `p` in one direction is read as the
//! window `p-5..=p+5`, each point empty, own, or blocked (an opponent stone or off the board).
//! The ten points other than `p` index a table of 3^10 entries, built once, that says for that
//! window whether `p` makes a five, an overline, how many fours and where their five points
//! are, or (for a line that is not a four) which empty points `q` would make a straight four
//! through `p` and `q`.
//!
//! There are two tables, one per meaning of "five": [`Fives::Exact`] (exactly five: renju's
//! Black, gomoku) and [`Fives::AtLeast`] (five or more: renju's White, freestyle). Other win
//! lengths and caro have no table; callers fall back to the board's plain run counting.

use std::sync::LazyLock;

use super::geometry::{Color, Point};
use super::lines::Lines;
use super::rule::{Rule, Rules};

/// Which runs count as a five.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fives {
    /// Exactly five; six or more is an overline.
    Exact,
    /// Five or more.
    AtLeast,
}

impl Fives {
    /// The table kind for `color` under `rules`, or `None` when no table applies (a win length
    /// other than five, or caro).
    pub(crate) fn of(rules: Rules, color: Color) -> Option<Fives> {
        if rules.k() != 5 {
            return None;
        }
        match (rules.rule(), color) {
            (Rule::Renju, Color::Black) | (Rule::Gomoku, _) => Some(Fives::Exact),
            (Rule::Renju, Color::White) | (Rule::Freestyle, _) => Some(Fives::AtLeast),
            (Rule::Caro, _) => None,
        }
    }
}

/// One table entry: the effect of a stone at `p` on one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry(u16);

const FIVE: u16 = 1;
const OVERLINE: u16 = 1 << 1;
const FOURS_SHIFT: u16 = 2; // two bits: 0, 1, 2 or 3 (3 = three or more)
const MASK_SHIFT: u16 = 4; // nine bits: window index i (1..=9) at bit MASK_SHIFT + i - 1

impl Entry {
    /// The stone makes a five in this line.
    #[inline]
    pub(crate) fn five(self) -> bool {
        self.0 & FIVE != 0
    }

    /// The stone makes six or more in a row (exact-five tables only).
    #[inline]
    pub(crate) fn overline(self) -> bool {
        self.0 & OVERLINE != 0
    }

    /// Number of fours in this line (a straight four is one; capped at 3).
    #[inline]
    pub(crate) fn fours(self) -> u16 {
        (self.0 >> FOURS_SHIFT) & 3
    }

    /// Offsets from `p` (-4..=4) marked in the entry's point mask.
    #[inline]
    fn offsets(self) -> impl Iterator<Item = i32> {
        let mut mask = self.0 >> MASK_SHIFT;
        std::iter::from_fn(move || {
            (mask != 0).then(|| {
                let i = mask.trailing_zeros() as i32;
                mask &= mask - 1;
                i - 4
            })
        })
    }

    /// Offsets of the five points of this line's fours (empty unless [`Entry::fours`] > 0).
    #[inline]
    pub(crate) fn five_point_offsets(self) -> impl Iterator<Item = i32> {
        let fours = self.fours() > 0;
        self.offsets().filter(move |_| fours)
    }

    /// Offsets of the points that would make a straight four through `p` (empty if the line is
    /// already a four, a five or an overline).
    #[inline]
    pub(crate) fn three_offsets(self) -> impl Iterator<Item = i32> {
        let three = self.fours() == 0 && self.0 & (FIVE | OVERLINE) == 0;
        self.offsets().filter(move |_| three)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Empty,
    Own,
    Block,
}

/// Length of the own run through window index `i` (which must be own), within the window.
/// Exact for the questions asked of it: a run that touches either end of the window contains
/// index 5 and so has six or more stones anyway.
fn run_through(w: &[Cell; 11], i: usize) -> usize {
    let left = w[..i].iter().rev().take_while(|&&c| c == Cell::Own).count();
    let right = w[i + 1..].iter().take_while(|&&c| c == Cell::Own).count();
    left + 1 + right
}

fn is_five(len: usize, fives: Fives) -> bool {
    match fives {
        Fives::Exact => len == 5,
        Fives::AtLeast => len >= 5,
    }
}

/// Five points of the window (as a bit set of indices), for a window whose centre is not yet a
/// five: the empty points where one more stone makes a five containing the centre.
fn five_points(w: &[Cell; 11], fives: Fives) -> u16 {
    let mut points = 0;
    for e in 1..=9 {
        if w[e] == Cell::Empty {
            let mut with = *w;
            with[e] = Cell::Own;
            if is_five(run_through(&with, 5), fives) {
                points |= 1 << e;
            }
        }
    }
    points
}

/// Whether five points `e` and `e+5` hold four own stones between them: a straight four.
fn straight_four_at(w: &[Cell; 11], points: u16, e: usize) -> bool {
    points & (1 << e) != 0
        && points & (1 << (e + 5)) != 0
        && w[e + 1..e + 5].iter().all(|&c| c == Cell::Own)
}

fn entry(w: &[Cell; 11], fives: Fives) -> u16 {
    let run = run_through(w, 5);
    if is_five(run, fives) {
        return FIVE;
    }
    if run >= 6 {
        return OVERLINE;
    }
    let points = five_points(w, fives);
    if points != 0 {
        let straight = (1..=4).filter(|&e| straight_four_at(w, points, e)).count() as u32;
        let fours = points.count_ones() - straight;
        return ((fours.min(3) as u16) << FOURS_SHIFT) | ((points >> 1) << MASK_SHIFT);
    }
    let mut threes = 0;
    for q in (1..=9).filter(|&q| q != 5 && w[q] == Cell::Empty) {
        let mut with = *w;
        with[q] = Cell::Own;
        if run_through(&with, 5) >= 5 {
            continue;
        }
        let points = five_points(&with, fives);
        if (1..=4).any(|e| e < q && q < e + 5 && straight_four_at(&with, points, e)) {
            threes |= 1 << (MASK_SHIFT + q as u16 - 1);
        }
    }
    threes
}

/// Window indices of the ten points other than the centre, in ternary digit order.
const DIGITS: [usize; 10] = [0, 1, 2, 3, 4, 6, 7, 8, 9, 10];

/// The ternary index of each 10-bit mask, and the two tables, built together on first use.
struct Tables {
    /// `ternary[m]`: the base-3 number whose digit `i` is bit `i` of the 10-bit mask `m`.
    ternary: [u16; 1024],
    exact: Box<[u16]>,
    at_least: Box<[u16]>,
}

fn ternary() -> [u16; 1024] {
    let mut t = [0u16; 1024];
    for (m, v) in t.iter_mut().enumerate() {
        *v = (0..10)
            .filter(|i| m & (1 << i) != 0)
            .map(|i| 3u16.pow(i))
            .sum();
    }
    t
}

fn build(fives: Fives) -> Box<[u16]> {
    (0..59049u32)
        .map(|mut index| {
            let mut w = [Cell::Empty; 11];
            w[5] = Cell::Own;
            for &i in &DIGITS {
                w[i] = match index % 3 {
                    0 => Cell::Empty,
                    1 => Cell::Own,
                    _ => Cell::Block,
                };
                index /= 3;
            }
            entry(&w, fives)
        })
        .collect()
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| Tables {
    ternary: ternary(),
    exact: build(Fives::Exact),
    at_least: build(Fives::AtLeast),
});

/// The table entry for a `color` stone at `p` on the line of direction index `di`. Inlined
/// into its callers' loops over the four directions, so that `di` is a constant there.
#[inline(always)]
pub(crate) fn pattern(lines: &Lines, di: usize, p: Point, color: Color, fives: Fives) -> Entry {
    let (own, blocked) = lines.window(di, p, color);
    // Every entry needs two own stones besides the centre (a three is the least of them), and
    // most windows hold fewer: the table is not read for those.
    if (own & !(1 << 5)).count_ones() < 2 {
        return Entry(0);
    }
    let squeeze = |m: u32| ((m & 0x1F) | ((m >> 6) << 5)) as usize;
    let tables = &*TABLES;
    let index = usize::from(tables.ternary[squeeze(own)])
        + 2 * usize::from(tables.ternary[squeeze(blocked)]);
    let table = match fives {
        Fives::Exact => &tables.exact,
        Fives::AtLeast => &tables.at_least,
    };
    Entry(table[index])
}

/// The table entries for a `color` stone at `p` on its four lines, in direction order.
#[inline(always)]
pub(crate) fn entries(lines: &Lines, p: Point, color: Color, fives: Fives) -> [Entry; 4] {
    [0, 1, 2, 3].map(|di| pattern(lines, di, p, color, fives))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(s: &str) -> [Cell; 11] {
        let cells: Vec<Cell> = s
            .chars()
            .map(|c| match c {
                'X' | 'P' => Cell::Own,
                'O' | '|' => Cell::Block,
                _ => Cell::Empty,
            })
            .collect();
        assert_eq!(cells.len(), 11);
        assert_eq!(s.as_bytes()[5], b'P', "the centre is the move");
        cells.try_into().unwrap()
    }

    fn exact(s: &str) -> Entry {
        Entry(entry(&window(s), Fives::Exact))
    }

    fn threes(s: &str) -> Vec<i32> {
        exact(s).three_offsets().collect()
    }

    #[test]
    fn entries_by_hand() {
        assert!(exact("...XXPXX...").five());
        assert!(exact("..XXXPXX...").overline());
        assert!(exact("XXXXXP.....").overline());
        // The edge of the board blocks an overline from being counted, not a five.
        assert!(exact("|XXXXP.....").five());
        // A straight four counts once, a broken four once, X.XXX.X-style lines twice.
        assert_eq!(exact("...XXP.X...").fours(), 1);
        assert_eq!(exact("....XPXX...").fours(), 1);
        assert_eq!(
            exact("....XPXX...")
                .five_point_offsets()
                .collect::<Vec<_>>(),
            [-2, 3]
        );
        assert_eq!(exact("...X.PXX.X.").fours(), 2);
        assert_eq!(exact("..X.XPX.X..").fours(), 2);
        assert_eq!(exact(".XX.XP.XX..").fours(), 2);
        assert_eq!(exact(".XX.XP.XX..").five_point_offsets().count(), 2);
        // A four whose only five point would make six is no four.
        assert_eq!(exact("X.XXXP|...."), Entry(0));
        // Open three: q at -2 or +2 makes a straight four .XXXX.
        assert_eq!(threes("....XPX...."), [-2, 2]);
        // Split three X.PX: the gap is the only straight-four point.
        assert_eq!(threes("...X.PX...."), [-1]);
        // A three blocked at one end, a four, or a straight four that would touch a sixth stone.
        assert!(threes("...OXPX.O..").is_empty());
        assert!(threes("..X.XPX.O..").is_empty());
        assert!(threes(".X..XPX..X.").is_empty());
    }

    #[test]
    fn windows_with_fewer_than_two_own_stones_have_no_entry() {
        // `pattern` returns no entry for these without reading the table: check the table
        // agrees, for every such window and both tables.
        let ternary = ternary();
        for fives in [Fives::Exact, Fives::AtLeast] {
            let table = build(fives);
            for own in (0u16..1024).filter(|m| m.count_ones() < 2) {
                for blocked in (0u16..1024).filter(|b| b & own == 0) {
                    let index = usize::from(ternary[usize::from(own)])
                        + 2 * usize::from(ternary[usize::from(blocked)]);
                    assert_eq!(
                        table[index], 0,
                        "{fives:?} own {own:#b} blocked {blocked:#b}"
                    );
                }
            }
        }
    }

    #[test]
    fn five_or_more_tables() {
        let at_least = |s: &str| Entry(entry(&window(s), Fives::AtLeast));
        assert!(at_least("..XXXPXX...").five());
        assert!(at_least("XXXXXP.....").five());
        // X.XXXP: the gap makes six, which is a five for White.
        assert_eq!(
            at_least("X.XXXP|....")
                .five_point_offsets()
                .collect::<Vec<_>>(),
            [-4]
        );
        // .XXXX.X: both ends make a five or more.
        assert_eq!(at_least("....XPXX.X.").five_point_offsets().count(), 2);
        assert_eq!(
            exact("....XPXX.X.")
                .five_point_offsets()
                .collect::<Vec<_>>(),
            [-2]
        );
    }
}
