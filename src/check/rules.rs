//! The checker's own rules: fives and renju's forbidden moves for Black, written straight from
//! `docs/rules.md` ("Renju definitions"), one function per definition, with no lookup tables and
//! no cleverness. It copies the board at every level of the recursion and looks [`SCAN`] steps
//! along each line. Its shortcuts (a count of the black stones near the point on each line, which
//! passes over the lines that cannot hold a four or a three, and testing the completing points'
//! legality only where two lines are shaped like threes) are argued where they are made. It is
//! slow on purpose: its job is to be obviously right, so that the fast detector of
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

/// With black stones at both `p` and `q` (offset `tq` from `p` along `dir`), the line has a
/// straight four whose four stones include both `p` and `q`.
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

/// Number of black stones within [`SCAN`] steps of `p` on the line through it along `dir`, `p`
/// itself not counted.
fn black_stones_near(board: &Grid, p: Point, dir: Direction) -> usize {
    (-SCAN..=SCAN)
        .filter(|&t| t != 0 && board.is_black(step(p, dir, t)))
        .count()
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

    // Only a line with two or more other black stones within SCAN steps of `p` can be a four
    // or a three through `p`: a five point needs three other black stones within four steps
    // (the five holds `p`, the five point and three more), a three completion `q` two within
    // three steps (the straight four holds `p`, `q` and two more). So a line with fewer than
    // two has neither, and is not looked at further (the count reads the board through its
    // accessors, so a traced test still records every empty point that decides its answer).
    let lines: Vec<Direction> = DIRECTIONS
        .iter()
        .copied()
        .filter(|&d| black_stones_near(&after, p, d) >= 2)
        .collect();

    let fours: usize = lines.iter().map(|&d| fours_in_line(&after, p, d)).sum();
    if fours >= 2 {
        return Verdict::DoubleFour;
    }

    // Only lines shaped like a three can be real threes. Checking the shape first, and the
    // (recursive, expensive) legality of the completing points only when at least two lines have
    // the shape, gives the same answer as checking every line in full.
    let three_shaped: Vec<Direction> = lines
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
    DIRECTIONS
        .iter()
        .any(|&d| wins_along(grid, x, y, stone, win, d))
}

/// Whether the stone of colour `stone` at `(x, y)` (on the grid) is part of a winning line along
/// the line with unit step `dir` (one of (1, 0), (0, 1), (1, 1) and (1, -1)): the unbroken run
/// through it along that line has the length `win` asks for.
#[must_use]
pub fn wins_along(
    grid: &Grid,
    x: usize,
    y: usize,
    stone: u8,
    win: Win,
    dir: (isize, isize),
) -> bool {
    let p = (x as isize, y as isize);
    assert_eq!(
        grid.cell(p),
        Some(stone),
        "wins_along: ({x}, {y}) holds no such stone"
    );
    let mut ends = [false; 2];
    let mut len = 1;
    for (end, sign) in [(0, -1), (1, 1)] {
        let mut t = 1;
        loop {
            match grid.cell(step(p, dir, sign * t)) {
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
mod tests;
