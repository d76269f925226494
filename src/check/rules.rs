//! The checker's own rules: fives and renju's forbidden moves for Black, written straight from
//! `docs/rules.md` ("Renju definitions"), one function per definition, with no lookup tables and
//! no cleverness. It copies the board at every level of the recursion and scans whole lines. It
//! is slow on purpose: its job is to be obviously right, so that the fast detector of
//! [`crate::rules`] can be checked against it (the tests do so on external data and random
//! positions) and so that the checker never trusts the code it checks.
//!
//! The board edge blocks like a white stone: a point off the board is never black and never
//! empty.
//!
//! [`traced`] runs a test and records every empty point it read: the checker's zones
//! (`docs/certificates.md`) are built from such records. A test reads the board only through
//! [`Grid`]'s own accessors, so the record is complete.

use std::cell::{Cell, RefCell};

thread_local! {
    /// Whether the empty points read on this thread are being recorded.
    static TRACING: Cell<bool> = const { Cell::new(false) };
    /// The empty points read since [`traced`] began, as cell indices.
    static READS: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f`, and returns what it returned with the cell indices (`y * width + x`) of every
/// empty point it read through a [`Grid`]'s accessors, on this thread (with repeats).
/// Tracing does not nest: `f` must not call `traced`.
pub fn traced<R>(f: impl FnOnce() -> R) -> (R, Vec<usize>) {
    TRACING.with(|t| {
        assert!(!t.get(), "traced: tracing does not nest");
        t.set(true);
    });
    let result = f();
    TRACING.with(|t| t.set(false));
    let reads = READS.with(|r| std::mem::take(&mut *r.borrow_mut()));
    (result, reads)
}

/// A plain board: `cells[y * width + x]` is [`EMPTY`], [`BLACK`] or [`WHITE`]; x = 0 is file
/// `a`, y = 0 is rank 1 (bottom).
#[derive(Clone, Debug)]
pub struct Grid {
    /// Files.
    pub width: usize,
    /// Ranks.
    pub height: usize,
    /// The points, rank by rank from the bottom.
    pub cells: Vec<u8>,
}

/// What a black stone at an empty point would be, under renju rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Exactly five in a row: a win, never forbidden.
    Five,
    /// Six or more in a row: forbidden.
    Overline,
    /// Two or more fours: forbidden.
    DoubleFour,
    /// Two or more real threes: forbidden.
    DoubleThree,
    /// None of these.
    Legal,
}

/// An empty point of a [`Grid`].
pub const EMPTY: u8 = 0;
/// A black stone.
pub const BLACK: u8 = 1;
/// A white stone.
pub const WHITE: u8 = 2;

/// A point as signed coordinates, so that stepping off the board is easy to express.
type Point = (isize, isize);

/// A line direction as a unit step (dx, dy).
type Direction = (isize, isize);

/// The four lines through a point: horizontal, vertical, diagonal, anti-diagonal.
const DIRECTIONS: [Direction; 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

impl Grid {
    /// The cell at `p`, or `None` when `p` is off the board. An empty point read while
    /// [`traced`] runs is recorded.
    fn cell(&self, p: Point) -> Option<u8> {
        let (x, y) = p;
        if x < 0 || y < 0 || x >= self.width as isize || y >= self.height as isize {
            return None;
        }
        let i = y as usize * self.width + x as usize;
        let c = self.cells[i];
        if c == EMPTY && TRACING.with(Cell::get) {
            READS.with(|r| r.borrow_mut().push(i));
        }
        Some(c)
    }

    fn is_black(&self, p: Point) -> bool {
        self.cell(p) == Some(BLACK)
    }

    fn is_empty(&self, p: Point) -> bool {
        self.cell(p) == Some(EMPTY)
    }

    /// A copy of the board with a black stone added at the empty point `p`.
    fn with_black(&self, p: Point) -> Grid {
        assert!(
            self.is_empty(p),
            "point {p:?} is not an empty point of the board"
        );
        let mut next = self.clone();
        next.cells[p.1 as usize * self.width + p.0 as usize] = BLACK;
        next
    }
}

/// How far along a line from `p` its five points and three completions can lie: a five is five
/// points in a row, so one that contains `p` lies within four steps of it, and so does the
/// point that completes it; a straight four through `p` and a completing point lies within
/// three. The tests look no further, which gives the same answers as looking along the whole
/// line, and reads (see [`traced`]) only points that can matter.
const SCAN: isize = 4;

/// The point `t` steps from `p` along `dir` (`t` may be negative).
fn step(p: Point, dir: Direction, t: isize) -> Point {
    (p.0 + dir.0 * t, p.1 + dir.1 * t)
}

/// The unbroken run of black stones through the black stone at `s` along `dir`, as the offsets
/// (relative to `s`) of its first and last stone.
fn black_run(board: &Grid, s: Point, dir: Direction) -> (isize, isize) {
    assert!(board.is_black(s));
    let mut first = 0;
    while board.is_black(step(s, dir, first - 1)) {
        first -= 1;
    }
    let mut last = 0;
    while board.is_black(step(s, dir, last + 1)) {
        last += 1;
    }
    (first, last)
}

/// Number of black stones in the unbroken run through the black stone at `s` along `dir`.
fn run_length(board: &Grid, s: Point, dir: Direction) -> isize {
    let (first, last) = black_run(board, s, dir);
    last - first + 1
}

/// Five point: the point `t` steps from `p` along `dir` is empty, and one more black stone there
/// makes a five (exactly five unbroken black stones) in this line that contains `p`.
/// `board` already has the black stone at `p`.
fn is_five_point(board: &Grid, p: Point, dir: Direction, t: isize) -> bool {
    let e = step(p, dir, t);
    if !board.is_empty(e) {
        return false;
    }
    let after = board.with_black(e);
    let (first, last) = black_run(&after, e, dir);
    // `p` is at offset -t from `e`.
    let contains_p = first <= -t && -t <= last;
    last - first + 1 == 5 && contains_p
}

/// Offsets (relative to `p`, along `dir`) of every five point of the line through `p`.
fn five_points(board: &Grid, p: Point, dir: Direction) -> Vec<isize> {
    (-SCAN..=SCAN)
        .filter(|&t| t != 0 && is_five_point(board, p, dir, t))
        .collect()
}

/// Straight fours of the line through `p`: pairs of five points `a` and `a + 5` with the four
/// cells between them all black. Returned as the offset `a` of the lower five point of each pair.
fn straight_fours(board: &Grid, p: Point, dir: Direction) -> Vec<isize> {
    let fives = five_points(board, p, dir);
    fives
        .iter()
        .copied()
        .filter(|&a| {
            fives.contains(&(a + 5)) && (1..=4).all(|k| board.is_black(step(p, dir, a + k)))
        })
        .collect()
}

/// Fours of the line through `p`: each distinct five point is one four, except that the two five
/// points of a straight four count as one four together.
fn fours_in_line(board: &Grid, p: Point, dir: Direction) -> usize {
    five_points(board, p, dir).len() - straight_fours(board, p, dir).len()
}

/// With black stones at both `p` and `q` (offset `tq` from `p` along `dir`), the line has a straight
/// four whose four stones include both `p` and `q`.
fn has_straight_four_through(board: &Grid, p: Point, dir: Direction, tq: isize) -> bool {
    straight_fours(board, p, dir)
        .into_iter()
        .any(|a| (a + 1..=a + 4).contains(&0) && (a + 1..=a + 4).contains(&tq))
}

/// The points `q` that could make the line through `p` a three: the line is not a four, `q` is an
/// empty point of the line, and a black stone at `q` makes a straight four through `p` and `q`.
/// Whether `q` is a legal move is not checked here.
fn three_completions(board: &Grid, p: Point, dir: Direction) -> Vec<Point> {
    if !five_points(board, p, dir).is_empty() {
        return Vec::new();
    }
    (-SCAN..=SCAN)
        .filter(|&t| t != 0 && board.is_empty(step(p, dir, t)))
        .filter(|&t| {
            let after = board.with_black(step(p, dir, t));
            has_straight_four_through(&after, p, dir, t)
        })
        .map(|t| step(p, dir, t))
        .collect()
}

/// Real three: the line through `p` is not a four, and some empty point `q` makes a straight four
/// through `p` and `q` while the black move at `q` (on this board, which has `p`) is `Legal`:
/// not forbidden and making no five in any line.
fn is_real_three(board: &Grid, p: Point, dir: Direction) -> bool {
    three_completions(board, p, dir)
        .into_iter()
        .any(|q| verdict(board, q) == Verdict::Legal)
}

/// The verdict for a black move at the empty point `p` of `board`.
fn verdict(board: &Grid, p: Point) -> Verdict {
    let after = board.with_black(p);

    // A five is never forbidden, whatever else the move makes.
    if DIRECTIONS.iter().any(|&d| run_length(&after, p, d) == 5) {
        return Verdict::Five;
    }
    if DIRECTIONS.iter().any(|&d| run_length(&after, p, d) >= 6) {
        return Verdict::Overline;
    }

    let fours: usize = DIRECTIONS
        .iter()
        .map(|&d| fours_in_line(&after, p, d))
        .sum();
    if fours >= 2 {
        return Verdict::DoubleFour;
    }

    // Only lines shaped like a three can be real threes. Checking the shape first, and the
    // (recursive, expensive) legality of the completing points only when at least two lines have
    // the shape, gives the same answer as checking every line in full.
    let three_shaped: Vec<Direction> = DIRECTIONS
        .iter()
        .copied()
        .filter(|&d| !three_completions(&after, p, d).is_empty())
        .collect();
    if three_shaped.len() >= 2 {
        let real_threes = three_shaped
            .iter()
            .filter(|&&d| is_real_three(&after, p, d))
            .count();
        if real_threes >= 2 {
            return Verdict::DoubleThree;
        }
    }

    Verdict::Legal
}

/// Verdict for a black move at the empty point (x, y). Panics if the point is not empty.
pub fn black_verdict(board: &Grid, x: usize, y: usize) -> Verdict {
    let p = (x as isize, y as isize);
    assert!(
        board.is_empty(p),
        "black_verdict: ({x}, {y}) is not an empty point of the board"
    );
    verdict(board, p)
}

/// Every empty point whose verdict is `Overline`, `DoubleFour` or `DoubleThree`, sorted by (y, x).
pub fn all_forbidden(board: &Grid) -> Vec<((usize, usize), Verdict)> {
    let mut found = Vec::new();
    for y in 0..board.height {
        for x in 0..board.width {
            if board.cells[y * board.width + x] != EMPTY {
                continue;
            }
            let v = black_verdict(board, x, y);
            if matches!(
                v,
                Verdict::Overline | Verdict::DoubleFour | Verdict::DoubleThree
            ) {
                found.push(((x, y), v));
            }
        }
    }
    found
}

/// What counts as a win under a rule set (`docs/rules.md`), for one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Win {
    /// Exactly `k` in a row (gomoku; renju's Black with k = 5).
    Exactly(usize),
    /// `k` or more in a row (freestyle; renju's White with k = 5).
    AtLeast(usize),
    /// Exactly five in a row, not blocked by the opponent at both ends (caro).
    Caro,
}

/// Whether the stone of colour `stone` at `(x, y)` (on the grid) is part of a winning line: the
/// unbroken run through it along one of the four lines has the length `win` asks for.
#[must_use]
pub fn wins_at(grid: &Grid, x: usize, y: usize, stone: u8, win: Win) -> bool {
    let p = (x as isize, y as isize);
    assert_eq!(
        grid.cell(p),
        Some(stone),
        "wins_at: ({x}, {y}) holds no such stone"
    );
    DIRECTIONS.iter().any(|&d| {
        let mut ends = [false; 2];
        let mut len = 1;
        for (end, sign) in [(0, -1), (1, 1)] {
            let mut t = 1;
            loop {
                match grid.cell(step(p, d, sign * t)) {
                    Some(c) if c == stone => {
                        len += 1;
                        t += 1;
                    }
                    Some(c) if c != EMPTY => {
                        ends[end] = true;
                        break;
                    }
                    _ => break,
                }
            }
        }
        match win {
            Win::Exactly(k) => len == k,
            Win::AtLeast(k) => len >= k,
            Win::Caro => len == 5 && !(ends[0] && ends[1]),
        }
    })
}

/// Parses a diagram given top rank first: `X` black, `O` white, `.` empty, no separators.
/// Width is the row length, height the number of rows; `rows[0]` is y = height - 1.
pub fn from_rows(rows: &[&str]) -> Grid {
    let height = rows.len();
    let width = rows.first().map_or(0, |row| row.len());
    let mut cells = vec![EMPTY; width * height];
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(
            row.len(),
            width,
            "from_rows: row {i} has length {}, expected {width}",
            row.len()
        );
        let y = height - 1 - i;
        for (x, c) in row.bytes().enumerate() {
            cells[y * width + x] = match c {
                b'.' => EMPTY,
                b'X' => BLACK,
                b'O' => WHITE,
                other => panic!(
                    "from_rows: unexpected character {:?} in row {i}",
                    other as char
                ),
            };
        }
    }
    Grid {
        width,
        height,
        cells,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::*;

    /// (x, y) of a point written like `H8`.
    fn pt(name: &str) -> (usize, usize) {
        let bytes = name.as_bytes();
        let x = (bytes[0].to_ascii_lowercase() - b'a') as usize;
        let rank: usize = name[1..].parse().unwrap();
        (x, rank - 1)
    }

    fn verdict_at(board: &Grid, name: &str) -> Verdict {
        let (x, y) = pt(name);
        black_verdict(board, x, y)
    }

    /// `board` with a black stone added at the empty point `name`.
    fn placed(board: &Grid, name: &str) -> Grid {
        let (x, y) = pt(name);
        board.with_black((x as isize, y as isize))
    }

    /// `board` with the stone at `name` removed.
    fn without(board: &Grid, name: &str) -> Grid {
        let (x, y) = pt(name);
        let mut b = board.clone();
        assert_ne!(b.cells[y * b.width + x], EMPTY, "{name} is already empty");
        b.cells[y * b.width + x] = EMPTY;
        b
    }

    #[test]
    fn from_rows_puts_the_first_row_on_top() {
        let b = from_rows(&["X..", "..O"]);
        assert_eq!((b.width, b.height), (3, 2));
        assert_eq!(b.cells, vec![0, 0, 2, 1, 0, 0]);
        assert_eq!(pt("H8"), (7, 7));
        assert_eq!(pt("o15"), (14, 14));
    }

    #[test]
    #[should_panic]
    fn verdict_on_an_occupied_point_panics() {
        let b = from_rows(&["...", ".X.", "..."]);
        black_verdict(&b, 1, 1);
    }

    /// H8 joins the vertical H9 H10 and the horizontal I8 J8: two open threes. No other point of
    /// this board lies on two lines holding two black stones each, so H8 is the only forbidden point.
    #[test]
    fn open_double_three_is_forbidden() {
        let b = from_rows(&[
            //  ABCDEFGHIJKLMNO
            "...............", // 15
            "...............", // 14
            "...............", // 13
            "...............", // 12
            "...............", // 11
            ".......X.......", // 10
            ".......X.......", // 9
            "........XX.....", // 8
            "...............", // 7
            "...............", // 6
            "...............", // 5
            "...............", // 4
            "...............", // 3
            "...............", // 2
            "...............", // 1
        ]);
        assert_eq!(verdict_at(&b, "H8"), DoubleThree);
        assert_eq!(all_forbidden(&b), vec![(pt("H8"), DoubleThree)]);
        // One three alone is legal.
        assert_eq!(verdict_at(&without(&without(&b, "I8"), "J8"), "H8"), Legal);
    }

    /// A split three `X.XX` (H8 _ J8 K8, completed at I8) counts like a solid one.
    #[test]
    fn split_three_counts_as_a_three() {
        let b = from_rows(&[
            //  ABCDEFGHIJKLMNO
            "...............", // 15
            "...............", // 14
            "...............", // 13
            "...............", // 12
            "...............", // 11
            ".......X.......", // 10
            ".......X.......", // 9
            ".........XX....", // 8
            "...............", // 7
            "...............", // 6
            "...............", // 5
            "...............", // 4
            "...............", // 3
            "...............", // 2
            "...............", // 1
        ]);
        assert_eq!(verdict_at(&b, "H8"), DoubleThree);
    }

    /// White at H11 caps the vertical H8 H9 H10: H7 gives H7-H10 whose upper five point is white,
    /// and nothing else makes a straight four, so only the horizontal three is real.
    #[test]
    fn three_blocked_by_white_is_not_real() {
        let b = from_rows(&[
            //  ABCDEFGHIJKLMNO
            "...............", // 15
            "...............", // 14
            "...............", // 13
            "...............", // 12
            ".......O.......", // 11
            ".......X.......", // 10
            ".......X.......", // 9
            "........XX.....", // 8
            "...............", // 7
            "...............", // 6
            "...............", // 5
            "...............", // 4
            "...............", // 3
            "...............", // 2
            "...............", // 1
        ]);
        assert_eq!(verdict_at(&b, "H8"), Legal);
    }

    /// White one point further, at H12: H7 still makes the straight four H7-H10 (five points H6
    /// and H11, and H7-H11 is exactly five next to the white stone), so the three is real.
    #[test]
    fn three_with_white_two_points_away_is_real() {
        let b = from_rows(&[
            //  ABCDEFGHIJKLMNO
            "...............", // 15
            "...............", // 14
            "...............", // 13
            ".......O.......", // 12
            "...............", // 11
            ".......X.......", // 10
            ".......X.......", // 9
            "........XX.....", // 8
            "...............", // 7
            "...............", // 6
            "...............", // 5
            "...............", // 4
            "...............", // 3
            "...............", // 2
            "...............", // 1
        ]);
        assert_eq!(verdict_at(&b, "H8"), DoubleThree);
    }

    /// In the corner, A1 A2 A3 and A1 B1 C1 can never become straight fours (the edge takes the
    /// place of one five point), so A1 is legal. N14 is one point in from two edges: N11 makes
    /// the straight four N11-N14 (five points N10, N15) and K14 makes K14-N14 (J14, O14).
    #[test]
    fn board_edge_blocks_like_white() {
        let b = from_rows(&[
            //  ABCDEFGHIJKLMNO
            "...............", // 15
            "...........XX..", // 14
            ".............X.", // 13
            ".............X.", // 12
            "...............", // 11
            "...............", // 10
            "...............", // 9
            "...............", // 8
            "...............", // 7
            "...............", // 6
            "...............", // 5
            "...............", // 4
            "X..............", // 3
            "X..............", // 2
            ".XX............", // 1
        ]);
        assert_eq!(verdict_at(&b, "A1"), Legal);
        assert_eq!(verdict_at(&b, "N14"), DoubleThree);
    }

    /// G8 fills D8-I8: six in a row.
    #[test]
    fn overline_is_forbidden() {
        let b = from_rows(&[
            //  ABCDEFGHIJKLMNO
            "...............", // 15
            "...............", // 14
            "...............", // 13
            "...............", // 12
            "...............", // 11
            "...............", // 10
            "...............", // 9
            "...XXX.XX......", // 8
            "...............", // 7
            "...............", // 6
            "...............", // 5
            "...............", // 4
            "...............", // 3
            "...............", // 2
            "...............", // 1
        ]);
        assert_eq!(verdict_at(&b, "G8"), Overline);
        assert_eq!(all_forbidden(&b), vec![(pt("G8"), Overline)]);
    }

    /// H8 makes the exact five D8-H8 and, at the same time, seven in a row on the H file.
    /// The five wins: it is never forbidden. Without G8 the same move is only an overline.
    #[test]
    fn exact_five_is_not_forbidden_even_with_an_overline_elsewhere() {
        let b = from_rows(&[
            //  ABCDEFGHIJKLMNO
            "...............", // 15
            "...............", // 14
            "...............", // 13
            "...............", // 12
            ".......X.......", // 11
            ".......X.......", // 10
            ".......X.......", // 9
            "...XXXX........", // 8
            ".......X.......", // 7
            ".......X.......", // 6
            ".......X.......", // 5
            "...............", // 4
            "...............", // 3
            "...............", // 2
            "...............", // 1
        ]);
        assert_eq!(verdict_at(&b, "H8"), Five);
        assert_eq!(verdict_at(&without(&b, "G8"), "H8"), Overline);
    }

    /// Two fours in one line: `X.XXX.X` (five points F8, J8), `XX.XX.XX` (F8, I8) and
    /// `XXX.X.XXX` (F8, H8), with the move in the middle.
    #[test]
    fn double_four_in_one_line_is_forbidden() {
        let x_xxx_x = from_rows(&[
            //  ABCDEFGHIJKLMNO
            "...............", // 15
            "...............", // 14
            "...............", // 13
            "...............", // 12
            "...............", // 11
            "...............", // 10
            "...............", // 9
            "....X.X.X.X....", // 8
            "...............", // 7
            "...............", // 6
            "...............", // 5
            "...............", // 4
            "...............", // 3
            "...............", // 2
            "...............", // 1
        ]);
        assert_eq!(verdict_at(&x_xxx_x, "H8"), DoubleFour);

        let xx_xx_xx = from_rows(&[
            //  ABCDEFGHIJKLMNO
            "...............", // 15
            "...............", // 14
            "...............", // 13
            "...............", // 12
            "...............", // 11
            "...............", // 10
            "...............", // 9
            "...XX.X..XX....", // 8
            "...............", // 7
            "...............", // 6
            "...............", // 5
            "...............", // 4
            "...............", // 3
            "...............", // 2
            "...............", // 1
        ]);
        assert_eq!(verdict_at(&xx_xx_xx, "H8"), DoubleFour);

        let xxx_x_xxx = from_rows(&[
            //  ABCDEFGHIJKLMNO
            "...............", // 15
            "...............", // 14
            "...............", // 13
            "...............", // 12
            "...............", // 11
            "...............", // 10
            "...............", // 9
            "..XXX...XXX....", // 8
            "...............", // 7
            "...............", // 6
            "...............", // 5
            "...............", // 4
            "...............", // 3
            "...............", // 2
            "...............", // 1
        ]);
        assert_eq!(verdict_at(&xxx_x_xxx, "G8"), DoubleFour);
    }

    /// H8 makes the straight four E8-H8: two five points (D8, I8) but one four, so it is legal.
    #[test]
    fn straight_four_is_one_four() {
        let b = from_rows(&[
            //  ABCDEFGHIJKLMNO
            "...............", // 15
            "...............", // 14
            "...............", // 13
            "...............", // 12
            "...............", // 11
            "...............", // 10
            "...............", // 9
            "....XXX........", // 8
            "...............", // 7
            "...............", // 6
            "...............", // 5
            "...............", // 4
            "...............", // 3
            "...............", // 2
            "...............", // 1
        ]);
        assert_eq!(verdict_at(&b, "H8"), Legal);
    }

    /// H8 makes the four E8-H8 (white D8, five point I8) and the open three H8 H9 H10: a
    /// four-three, which is legal.
    #[test]
    fn four_three_is_legal() {
        let b = from_rows(&[
            //  ABCDEFGHIJKLMNO
            "...............", // 15
            "...............", // 14
            "...............", // 13
            "...............", // 12
            "...............", // 11
            ".......X.......", // 10
            ".......X.......", // 9
            "...OXXX........", // 8
            "...............", // 7
            "...............", // 6
            "...............", // 5
            "...............", // 4
            "...............", // 3
            "...............", // 2
            "...............", // 1
        ]);
        assert_eq!(verdict_at(&b, "H8"), Legal);
    }

    /// H8 makes the four E8-H8 (five point I8) and the four E11 F10 G9 H8 on the anti-diagonal
    /// (five point I7): a double-four across two lines.
    #[test]
    fn double_four_across_two_lines_is_forbidden() {
        let b = from_rows(&[
            //  ABCDEFGHIJKLMNO
            "...............", // 15
            "...............", // 14
            "...............", // 13
            "...O...........", // 12
            "....X..........", // 11
            ".....X.........", // 10
            "......X........", // 9
            "...OXXX........", // 8
            "...............", // 7
            "...............", // 6
            "...............", // 5
            "...............", // 4
            "...............", // 3
            "...............", // 2
            "...............", // 1
        ]);
        assert_eq!(verdict_at(&b, "H8"), DoubleFour);
    }

    /// H8 makes one four (E8-H8, five point I8) and two open threes (H8 H9 H10 and H8 I9 J10):
    /// two threes are forbidden even when the move also makes a four.
    #[test]
    fn four_three_three_is_forbidden() {
        let b = from_rows(&[
            //  ABCDEFGHIJKLMNO
            "...............", // 15
            "...............", // 14
            "...............", // 13
            "...............", // 12
            "...............", // 11
            ".......X.X.....", // 10
            ".......XX......", // 9
            "...OXXX........", // 8
            "...............", // 7
            "...............", // 6
            "...............", // 5
            "...............", // 4
            "...............", // 3
            "...............", // 2
            "...............", // 1
        ]);
        assert_eq!(verdict_at(&b, "H8"), DoubleThree);
    }

    /// Recursive case. With white at F8, the only point that turns H8 I8 J8 into a straight four
    /// is K8 (G8 gives G8-J8, whose lower five point F8 is white). With H8 placed, K8 would make
    /// the straight four H8-K8 plus the threes K6 K7 K8 and K8 L9 M10: a 4-3-3, forbidden. So
    /// the horizontal line is not a real three and H8 (with the real three H8 H9 H10) is legal.
    /// Without M10, K8 is only a four-three, legal, and H8 becomes a double-three.
    #[test]
    fn three_whose_only_completion_is_forbidden_is_not_real() {
        let b = from_rows(&[
            //  ABCDEFGHIJKLMNO
            "...............", // 15
            "...............", // 14
            "...............", // 13
            "...............", // 12
            "...............", // 11
            ".......X....X..", // 10
            ".......X...X...", // 9
            ".....O..XX.....", // 8
            "..........X....", // 7
            "..........X....", // 6
            "...............", // 5
            "...............", // 4
            "...............", // 3
            "...............", // 2
            "...............", // 1
        ]);
        let with_h8 = placed(&b, "H8");
        assert_eq!(verdict_at(&with_h8, "K8"), DoubleThree);
        assert_eq!(verdict_at(&b, "H8"), Legal);

        let without_m10 = without(&b, "M10");
        assert_eq!(verdict_at(&placed(&without_m10, "H8"), "K8"), Legal);
        assert_eq!(verdict_at(&without_m10, "H8"), DoubleThree);
    }

    /// The edge case of rules.md: as in the recursive case, K8 is the only point that makes
    /// H8 I8 J8 a straight four, but here K8 also makes the five K8-K12. A move that makes a five
    /// does not make the three real, so H8 is legal. Likewise when K8 would be an overline (add
    /// K7). With K11 and K12 removed, K8 is a plain four-three and H8 is a double-three.
    #[test]
    fn completion_that_makes_a_five_elsewhere_does_not_make_a_three() {
        let b = from_rows(&[
            //  ABCDEFGHIJKLMNO
            "...............", // 15
            "...............", // 14
            "...............", // 13
            "..........X....", // 12
            "..........X....", // 11
            ".......X..X....", // 10
            ".......X..X....", // 9
            ".....O..XX.....", // 8
            "...............", // 7
            "...............", // 6
            "...............", // 5
            "...............", // 4
            "...............", // 3
            "...............", // 2
            "...............", // 1
        ]);
        assert_eq!(verdict_at(&placed(&b, "H8"), "K8"), Five);
        assert_eq!(verdict_at(&b, "H8"), Legal);

        let with_k7 = placed(&b, "K7");
        assert_eq!(verdict_at(&placed(&with_k7, "H8"), "K8"), Overline);
        assert_eq!(verdict_at(&with_k7, "H8"), Legal);

        let short = without(&without(&b, "K12"), "K11");
        assert_eq!(verdict_at(&placed(&short, "H8"), "K8"), Legal);
        assert_eq!(verdict_at(&short, "H8"), DoubleThree);
    }
}
