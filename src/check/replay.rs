//! Replaying VCF lines for the checker, under every rule set: a [`Position`] (a plain [`Grid`],
//! the [`Rule`], and each colour's five points kept up to date move by move) and
//! [`vcf_wins`], which replays the attacker's moves of a VCF, works out the defender's replies
//! itself, and says whether the attacker wins.
//!
//! Everything here is built on the checker's own rules code ([`super::rules`]): a five point is
//! found with [`wins_at`] and a forbidden point with [`black_verdict`], straight from
//! `docs/rules.md`. Nothing of the fast rules core, the threat search or the solver is used.

use super::rules::{BLACK, EMPTY, Grid, Verdict, WHITE, Win, black_verdict, wins_at};

/// A rule set, as `docs/rules.md` defines it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Renju (RIF): Black wins with exactly five and has forbidden moves (overline, double-four,
    /// double-three); White wins with five or more.
    Renju,
    /// Gomoku: exactly `k` in a row wins, for both sides.
    Gomoku {
        /// The win length.
        k: usize,
    },
    /// Freestyle: `k` or more in a row wins, for both sides.
    Freestyle {
        /// The win length.
        k: usize,
    },
    /// Caro: exactly five in a row whose two end points are not both held by the opponent wins
    /// (the board edge is not a block), for both sides.
    Caro,
}

impl Rule {
    /// What counts as a win for `stone` ([`BLACK`] or [`WHITE`]) under this rule set.
    ///
    /// # Panics
    /// If `stone` is neither [`BLACK`] nor [`WHITE`].
    #[must_use]
    pub fn win(self, stone: u8) -> Win {
        assert_colour(stone);
        match self {
            Rule::Renju if stone == BLACK => Win::Exactly(5),
            Rule::Renju => Win::AtLeast(5),
            Rule::Gomoku { k } => Win::Exactly(k),
            Rule::Freestyle { k } => Win::AtLeast(k),
            Rule::Caro => Win::Caro,
        }
    }

    /// The win length: `k`, or 5 for renju and caro.
    #[must_use]
    pub fn k(self) -> usize {
        match self {
            Rule::Renju | Rule::Caro => 5,
            Rule::Gomoku { k } | Rule::Freestyle { k } => k,
        }
    }

    /// How far along a line the cells that decide whether an empty point is a five point can
    /// be: `k` (see [`Position`] for why).
    fn radius(self) -> usize {
        self.k()
    }
}

/// The four lines through a point, as unit steps.
const DIRECTIONS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// The other colour.
fn opponent(stone: u8) -> u8 {
    if stone == BLACK { WHITE } else { BLACK }
}

/// Panics unless `stone` is [`BLACK`] or [`WHITE`].
fn assert_colour(stone: u8) {
    assert!(
        stone == BLACK || stone == WHITE,
        "{stone} is not a stone colour"
    );
}

/// Index of a colour in per-colour arrays. Panics unless `stone` is a stone colour.
fn colour_index(stone: u8) -> usize {
    assert_colour(stone);
    usize::from(stone == WHITE)
}

/// A position for the checker: a [`Grid`], the [`Rule`], and for each colour its *five
/// points*, the empty points where a stone of that colour wins (by [`wins_at`] with
/// [`Rule::win`]).
///
/// The five points are kept up to date on [`Position::play`] without a full scan. Whether an
/// empty point `p` is a five point for a colour depends only on the cells of its four lines
/// within `k` steps of `p` (5 for renju and caro). Along one line, with `p` holding the stone,
/// count the colour's stones next to `p` on each side. If a side has `k` or more, the run is
/// longer than `k` (no exact-`k` or caro five in this line, and a `k`-or-more win whatever the
/// other side holds), and that is read from cells 1..=k. Otherwise the count `a < k` on that side
/// is read from cells 1..=a+1, all within `k`. Given both counts (or "k or more"), the run length
/// is known, and for a caro five (length 5, so each count at most 4) each end point lies at
/// distance at most 5 = k. So a new stone at `s` changes the answer only for `s` itself (no
/// longer empty) and for points on the four lines through `s` within `k` steps of it: `play`
/// takes `s` out of both sets and recomputes those points, for both colours. (A radius of
/// `k + 1` would be safe too; `k` is the tight bound, and a property test checks the
/// incremental sets against a full recount. With `k - 1` it fails.)
#[derive(Clone, Debug)]
pub struct Position {
    /// The board.
    grid: Grid,
    /// The rule set.
    rule: Rule,
    /// `five[c][y * width + x]`: whether (x, y) is a five point of colour `c` (index 0 Black,
    /// 1 White).
    five: [Vec<bool>; 2],
}

impl Position {
    /// A position on `grid` under `rule`, with the five points found by a full scan.
    ///
    /// # Panics
    /// If `grid.cells` does not hold `width * height` cells, each [`EMPTY`], [`BLACK`] or
    /// [`WHITE`].
    #[must_use]
    pub fn new(grid: Grid, rule: Rule) -> Position {
        assert_eq!(
            grid.cells.len(),
            grid.width * grid.height,
            "Position::new: the grid has the wrong number of cells"
        );
        assert!(
            grid.cells
                .iter()
                .all(|&c| c == EMPTY || c == BLACK || c == WHITE),
            "Position::new: a cell is neither empty, black nor white"
        );
        let n = grid.cells.len();
        let mut pos = Position {
            grid,
            rule,
            five: [vec![false; n], vec![false; n]],
        };
        for i in 0..n {
            pos.refresh(i);
        }
        pos
    }

    /// The board.
    #[must_use]
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The rule set.
    #[must_use]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The cell index of (x, y), or `None` off the board.
    fn index(&self, x: usize, y: usize) -> Option<usize> {
        (x < self.grid.width && y < self.grid.height).then(|| y * self.grid.width + x)
    }

    /// Whether (x, y) is on the board and empty.
    #[must_use]
    pub fn is_empty(&self, x: usize, y: usize) -> bool {
        self.index(x, y)
            .is_some_and(|i| self.grid.cells[i] == EMPTY)
    }

    /// Recomputes the five-point flags of cell `i` for both colours from the definition: an
    /// empty cell is a five point of a colour when [`wins_at`] says a stone of that colour
    /// there wins (the stone is put in place for the test and taken away again).
    fn refresh(&mut self, i: usize) {
        let (x, y) = (i % self.grid.width, i / self.grid.width);
        for stone in [BLACK, WHITE] {
            let c = colour_index(stone);
            self.five[c][i] = if self.grid.cells[i] == EMPTY {
                self.grid.cells[i] = stone;
                let wins = wins_at(&self.grid, x, y, stone, self.rule.win(stone));
                self.grid.cells[i] = EMPTY;
                wins
            } else {
                false
            };
        }
    }

    /// The five points of `stone` ([`BLACK`] or [`WHITE`]) as (x, y), sorted by (y, x).
    ///
    /// # Panics
    /// If `stone` is not a stone colour.
    #[must_use]
    pub fn five_points(&self, stone: u8) -> Vec<(usize, usize)> {
        let w = self.grid.width;
        self.five[colour_index(stone)]
            .iter()
            .enumerate()
            .filter(|&(_, &f)| f)
            .map(|(i, _)| (i % w, i / w))
            .collect()
    }

    /// Whether `stone` has at least one five point.
    ///
    /// # Panics
    /// If `stone` is not a stone colour.
    #[must_use]
    pub fn has_five_point(&self, stone: u8) -> bool {
        self.five[colour_index(stone)].contains(&true)
    }

    /// Whether (x, y) is an empty point where a `stone` stone wins. False off the board and on
    /// taken points.
    ///
    /// # Panics
    /// If `stone` is not a stone colour.
    #[must_use]
    pub fn makes_win(&self, x: usize, y: usize, stone: u8) -> bool {
        let c = colour_index(stone);
        self.index(x, y).is_some_and(|i| self.five[c][i])
    }

    /// Whether some `stone` stone on the board is already part of a winning line.
    ///
    /// # Panics
    /// If `stone` is not a stone colour.
    #[must_use]
    pub fn has_won(&self, stone: u8) -> bool {
        let win = self.rule.win(stone);
        let w = self.grid.width;
        (0..self.grid.cells.len())
            .any(|i| self.grid.cells[i] == stone && wins_at(&self.grid, i % w, i / w, stone, win))
    }

    /// Whether a black stone at the empty point (x, y) is forbidden: only under
    /// [`Rule::Renju`], where [`black_verdict`] says overline, double-four or double-three (a
    /// five is never forbidden). False off the board, on taken points and under other rules.
    #[must_use]
    pub fn is_forbidden_for_black(&self, x: usize, y: usize) -> bool {
        self.rule == Rule::Renju
            && self.is_empty(x, y)
            && matches!(
                black_verdict(&self.grid, x, y),
                Verdict::Overline | Verdict::DoubleFour | Verdict::DoubleThree
            )
    }

    /// Whether `stone` may play at (x, y): on the board, empty, and not forbidden when the
    /// stone is Black under renju.
    ///
    /// # Panics
    /// If `stone` is not a stone colour.
    #[must_use]
    pub fn legal(&self, x: usize, y: usize, stone: u8) -> bool {
        assert_colour(stone);
        self.is_empty(x, y) && !(stone == BLACK && self.is_forbidden_for_black(x, y))
    }

    /// Every point where `stone` may play ([`Position::legal`]), sorted by (y, x).
    ///
    /// # Panics
    /// If `stone` is not a stone colour.
    #[must_use]
    pub fn legal_moves(&self, stone: u8) -> Vec<(usize, usize)> {
        let (w, h) = (self.grid.width, self.grid.height);
        (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&(x, y)| self.legal(x, y, stone))
            .collect()
    }

    /// The empty points on the four lines through (x, y) within `radius` steps of it, (x, y)
    /// itself excluded (each at most once).
    fn line_neighbours(&self, x: usize, y: usize, radius: usize) -> Vec<usize> {
        let mut found = Vec::new();
        for (dx, dy) in DIRECTIONS {
            for sign in [-1isize, 1] {
                for t in 1..=radius as isize {
                    let (px, py) = (x as isize + sign * t * dx, y as isize + sign * t * dy);
                    if px < 0 || py < 0 {
                        break;
                    }
                    let Some(i) = self.index(px as usize, py as usize) else {
                        break;
                    };
                    if self.grid.cells[i] == EMPTY {
                        found.push(i);
                    }
                }
            }
        }
        found
    }

    /// Puts a `stone` stone at (x, y) and brings both colours' five points up to date (the
    /// argument is on [`Position`]). It does not check that the move is legal or that the game
    /// is not already over.
    ///
    /// # Panics
    /// If (x, y) is off the board or taken, or `stone` is not a stone colour.
    pub fn play(&mut self, x: usize, y: usize, stone: u8) {
        assert_colour(stone);
        let Some(i) = self.index(x, y) else {
            panic!("Position::play: ({x}, {y}) is off the board");
        };
        assert_eq!(
            self.grid.cells[i], EMPTY,
            "Position::play: ({x}, {y}) is taken"
        );
        self.grid.cells[i] = stone;
        self.refresh(i);
        for j in self.line_neighbours(x, y, self.rule.radius()) {
            self.refresh(j);
        }
    }

    /// The defender's replies that stop every five point of `attacker`: the empty points where
    /// a defender stone leaves `attacker` with no five point and that the defender may play
    /// (not forbidden for Black under renju). Sorted by (y, x).
    ///
    /// Only the five points themselves and the empty points within [`Rule::radius`] steps of one
    /// on its four lines are tried: by the locality argument on [`Position`], a stone anywhere
    /// else leaves every five point a five point. Under every rule but caro the only reply
    /// that stops a five point is a stone on it (an opponent stone never changes a run's
    /// length), so this is the single five point or nothing; under caro a stone just past the
    /// end of a five whose other end is already the defender's stops it too.
    fn stops(&self, attacker: u8) -> Vec<(usize, usize)> {
        let defender = opponent(attacker);
        let mut candidates = Vec::new();
        for (fx, fy) in self.five_points(attacker) {
            candidates.push(fy * self.grid.width + fx);
            candidates.extend(self.line_neighbours(fx, fy, self.rule.radius()));
        }
        candidates.sort_unstable();
        candidates.dedup();
        let w = self.grid.width;
        candidates
            .into_iter()
            .map(|i| (i % w, i / w))
            .filter(|&(x, y)| {
                let mut after = self.clone();
                after.play(x, y, defender);
                !after.has_five_point(attacker)
            })
            .filter(|&(x, y)| self.legal(x, y, defender))
            .collect()
    }
}

/// Replays a VCF for `attacker` ([`BLACK`] or [`WHITE`]) on `pos`, with the attacker to move,
/// given only the attacker's moves; the defender's replies are worked out here. Returns how many
/// of the moves were used before the win (moves after it are not looked at), or what went wrong.
///
/// For each attacker move `m` (the defender is `D`):
/// 1. `m` must be legal for the attacker: on the board, empty, and not forbidden for Black
///    under renju (a five never is).
/// 2. If `m` wins (a five point of the attacker), the line wins.
/// 3. After `m`, `D` must have no five point left, else `D` wins on the next move. (Under every
///    rule but caro this means `D` had none before `m`, or exactly one and `m` took it; under
///    caro `m` may also spoil a `D` five by holding its far end, and one stone may spoil two.)
/// 4. The attacker must now have a five point, else `m` is "not a four".
/// 5. The *stops* are the points where a `D` stone leaves the attacker with no five point and
///    that `D` may play. No stop: the line wins (an open or double four; or, under renju, a white
///    four whose only block is forbidden for Black). `D` cannot answer with a five of its own,
///    since it has no five point (step 3), and any other reply loses to the attacker's five.
/// 6. Otherwise `D` plays a stop and the replay goes on with the next attacker move.
/// 7. When the moves run out, the line wins if the attacker (to move) has a five point: a
///    line may leave its final five out, and an empty line means "a five to play". Under every
///    rule but caro there is exactly one stop, the single five point. Under caro there may be
///    two or more (a four whose five would have one end already `D`'s can also be stopped past
///    that five's other end, and one stone past two fives may stop both, so even two five
///    points need not win): the same remaining moves must then win after each of them, and the
///    number returned is the largest over these replies. The work can grow exponentially with
///    the number of such fours in a line; the threat search's lines have none (it passes over
///    fours with several stops).
///
/// The simpler reading that holds under every other rule set is wrong under caro: judging `m`
/// by `D`'s five points *before* it (two of them lost, one of them lost unless `m` takes it),
/// taking two attacker five points as a win, and taking `D`'s reply to a four with one five
/// point to be that point. Hence steps 3, 5 and 6 as written.
///
/// Renju's rules need nothing more: Black's five points are exactly-five points (a stone that
/// would make six is no five point, and is forbidden unless it makes an exact five in another
/// line), White's include overlines, Black never plays a forbidden point (step 1 and the stops),
/// and White may.
///
/// # Errors
/// If `attacker` is not a stone colour, either side has already won on `pos`, a move breaks a
/// step above, or the moves run out with no five point for the attacker. The message names the move
/// (counted from 1) and its (x, y).
pub fn vcf_wins(pos: &Position, attacker: u8, moves: &[(usize, usize)]) -> Result<usize, String> {
    if attacker != BLACK && attacker != WHITE {
        return Err(format!("the attacker {attacker} is not a stone colour"));
    }
    if pos.has_won(BLACK) || pos.has_won(WHITE) {
        return Err("the game is already over".into());
    }
    replay(pos.clone(), attacker, moves, 0)
}

/// [`vcf_wins`] from the attacker move `moves[i]` on, in `pos`.
fn replay(
    mut pos: Position,
    attacker: u8,
    moves: &[(usize, usize)],
    i: usize,
) -> Result<usize, String> {
    let defender = opponent(attacker);
    let n = i + 1;
    let Some(&(x, y)) = moves.get(i) else {
        // A line may leave its final five out: the attacker, to move, plays a five point.
        if pos.has_five_point(attacker) {
            return Ok(n);
        }
        return Err(format!("the moves run out after move {i} without a win"));
    };
    if !pos.is_empty(x, y) {
        return Err(format!(
            "move {n} ({x}, {y}) is off the board or on a taken point"
        ));
    }
    if !pos.legal(x, y, attacker) {
        return Err(format!("move {n} ({x}, {y}) is forbidden for Black"));
    }
    if pos.makes_win(x, y, attacker) {
        return Ok(n);
    }
    let threats = pos.five_points(defender);
    pos.play(x, y, attacker);
    let left = pos.five_points(defender);
    if !left.is_empty() {
        return Err(format!(
            "move {n} ({x}, {y}) leaves the defender the five point(s) {left:?} \
             (before it: {threats:?})"
        ));
    }
    if !pos.has_five_point(attacker) {
        return Err(format!("move {n} ({x}, {y}) is not a four"));
    }
    let stops = pos.stops(attacker);
    if stops.is_empty() {
        return Ok(n);
    }
    let several = stops.len() > 1;
    let mut used = n;
    for &(sx, sy) in &stops {
        let mut next = pos.clone();
        next.play(sx, sy, defender);
        let result = replay(next, attacker, moves, i + 1);
        match result {
            Ok(u) => used = used.max(u),
            Err(e) if several => {
                return Err(format!(
                    "after the reply ({sx}, {sy}) to move {n}, one of the stops {stops:?}: {e}"
                ));
            }
            Err(e) => return Err(e),
        }
    }
    Ok(used)
}

#[cfg(test)]
mod tests {
    use super::super::rules::from_rows;
    use super::*;
    use proptest::prelude::*;

    /// (x, y) of a point written like `H8`.
    fn pt(name: &str) -> (usize, usize) {
        let bytes = name.as_bytes();
        let x = (bytes[0].to_ascii_lowercase() - b'a') as usize;
        let rank: usize = name[1..].parse().expect("a rank");
        (x, rank - 1)
    }

    fn pts(names: &str) -> Vec<(usize, usize)> {
        names.split_whitespace().map(pt).collect()
    }

    /// The five points of `stone` by the definition, on copies of the grid.
    fn recount(grid: &Grid, rule: Rule, stone: u8) -> Vec<(usize, usize)> {
        let mut found = Vec::new();
        for y in 0..grid.height {
            for x in 0..grid.width {
                let i = y * grid.width + x;
                if grid.cells[i] != EMPTY {
                    continue;
                }
                let mut g = grid.clone();
                g.cells[i] = stone;
                if wins_at(&g, x, y, stone, rule.win(stone)) {
                    found.push((x, y));
                }
            }
        }
        found
    }

    /// A 9x9 board (files a-i, ranks 1-9) from its rows, top rank first.
    fn pos9(rows: [&str; 9], rule: Rule) -> Position {
        Position::new(from_rows(&rows), rule)
    }

    #[test]
    fn win_follows_the_rules_table() {
        assert_eq!(Rule::Renju.win(BLACK), Win::Exactly(5));
        assert_eq!(Rule::Renju.win(WHITE), Win::AtLeast(5));
        assert_eq!(Rule::Gomoku { k: 4 }.win(WHITE), Win::Exactly(4));
        assert_eq!(Rule::Freestyle { k: 6 }.win(BLACK), Win::AtLeast(6));
        assert_eq!(Rule::Caro.win(BLACK), Win::Caro);
        assert_eq!(Rule::Caro.k(), 5);
    }

    /// Freestyle: Black's diagonal c3-f6 has the five points b2 and g7, White's a1-d1 has e1;
    /// playing stones updates them.
    #[test]
    fn five_points_legal_moves_and_play() {
        let mut p = pos9(
            [
                ".........", // 9
                ".........", // 8
                ".........", // 7
                ".....X...", // 6
                "....X....", // 5
                "...X.....", // 4
                "..X......", // 3
                ".........", // 2
                "OOOO.....", // 1
            ],
            Rule::Freestyle { k: 5 },
        );
        assert_eq!(p.five_points(BLACK), pts("b2 g7"));
        assert_eq!(p.five_points(WHITE), pts("e1"));
        assert!(p.has_five_point(WHITE));
        assert!(p.makes_win(1, 1, BLACK) && !p.makes_win(1, 1, WHITE));
        assert!(!p.makes_win(0, 0, WHITE), "a taken point");
        assert!(!p.makes_win(9, 0, WHITE), "off the board");
        assert_eq!(p.legal_moves(BLACK).len(), 81 - 8);
        assert!(!p.legal(2, 2, WHITE) && !p.legal(9, 9, WHITE));
        p.play(4, 0, BLACK);
        assert!(!p.has_five_point(WHITE));
        p.play(1, 1, WHITE);
        assert_eq!(p.five_points(BLACK), pts("g7"));
        assert!(!p.has_won(BLACK) && !p.has_won(WHITE));
        p.play(6, 6, BLACK);
        assert!(p.has_won(BLACK));
    }

    #[test]
    #[should_panic(expected = "taken")]
    fn play_on_a_taken_point_panics() {
        let mut p = pos9(["........."; 9], Rule::Renju);
        p.play(3, 3, BLACK);
        p.play(3, 3, WHITE);
    }

    /// Freestyle: Black's f6 makes the four c3-f6 (five point b2; g7 is White's), White
    /// blocks on b2, and e7 makes the open four b7-e7. Broken versions of the line fail.
    #[test]
    fn freestyle_simple_vcf_passes_and_broken_lines_fail() {
        let p = pos9(
            [
                ".........", // 9
                ".........", // 8
                ".XXX..O..", // 7
                ".........", // 6
                "....X....", // 5
                "...X.....", // 4
                "..X......", // 3
                ".........", // 2
                ".........", // 1
            ],
            Rule::Freestyle { k: 5 },
        );
        assert_eq!(vcf_wins(&p, BLACK, &pts("f6 e7")), Ok(2));
        assert_eq!(
            vcf_wins(&p, BLACK, &pts("e7")),
            Ok(1),
            "b7-e7 is open at once"
        );
        assert_eq!(
            vcf_wins(&p, BLACK, &pts("f6 e7 f7")),
            Ok(2),
            "moves after the win are not read"
        );
        let e = vcf_wins(&p, BLACK, &pts("f6")).unwrap_err();
        assert!(e.contains("run out after move 1"), "{e}");
        let e = vcf_wins(&p, BLACK, &pts("i1 e7")).unwrap_err();
        assert!(e.contains("move 1 (8, 0) is not a four"), "{e}");
        let e = vcf_wins(&p, BLACK, &pts("f6 b2")).unwrap_err();
        assert!(e.contains("move 2 (1, 1)") && e.contains("taken"), "{e}");
        assert!(vcf_wins(&p, BLACK, &[]).is_err());
        assert!(vcf_wins(&p, EMPTY, &pts("f6")).is_err());
        assert!(
            vcf_wins(&p, BLACK, &[(9, 2)]).is_err(),
            "off the board: an error"
        );
        // With b2 White's, f6 leaves c3-f6 with no five point.
        let mut q = p.clone();
        q.play(1, 1, WHITE);
        let e = vcf_wins(&q, BLACK, &pts("f6")).unwrap_err();
        assert!(e.contains("not a four"), "{e}");
        // A finished game has no line.
        let mut done = p.clone();
        done.play(1, 1, BLACK);
        done.play(5, 5, BLACK);
        assert!(done.has_won(BLACK));
        let e = vcf_wins(&done, WHITE, &pts("a1")).unwrap_err();
        assert!(e.contains("already over"), "{e}");
    }

    /// Gomoku (exactly five): Black's e5 makes b5-e5 (a5 is White's: one five point, f5).
    /// White's forced f5 makes the four f2-f5 (five point f6; f1 is Black's), so Black must
    /// answer on f6, which here is an open four e5-h8. With f1 empty White's block makes two
    /// five points and the line is lost.
    #[test]
    fn gomoku_counter_four_must_be_blocked() {
        let rows = [
            ".........", // 9
            ".......X.", // 8
            "......X..", // 7
            ".........", // 6
            "OXXX.....", // 5
            ".....O...", // 4
            ".....O...", // 3
            ".....O...", // 2
            ".....X...", // 1
        ];
        let p = pos9(rows, Rule::Gomoku { k: 5 });
        assert_eq!(vcf_wins(&p, BLACK, &pts("e5 f6")), Ok(2));
        let e = vcf_wins(&p, BLACK, &pts("e5 d4")).unwrap_err();
        assert!(
            e.contains("move 2 (3, 3) leaves the defender the five point(s) [(5, 5)]"),
            "{e}"
        );

        let mut open = p.grid().clone();
        open.cells[5] = EMPTY; // f1
        let q = Position::new(open, Rule::Gomoku { k: 5 });
        let e = vcf_wins(&q, BLACK, &pts("e5 f6")).unwrap_err();
        assert!(
            e.contains("leaves the defender the five point(s) [(5, 0)]"),
            "{e}"
        );
    }

    /// Renju: e5 is a double-three for Black, and it is the only point that stops White's
    /// b2-d4 with f6 (or a1): White's four wins at once. With e7 gone, e5 is an ordinary
    /// point, Black blocks there, and the one-move line runs out.
    #[test]
    fn renju_white_four_blocked_only_by_a_forbidden_point_wins() {
        let p = pos9(
            [
                ".........", // 9
                ".........", // 8
                "....X....", // 7
                "....X....", // 6
                "...X.X...", // 5
                "...O.....", // 4
                "..O......", // 3
                ".O.......", // 2
                ".........", // 1
            ],
            Rule::Renju,
        );
        assert!(p.is_forbidden_for_black(4, 4), "e5 is a double-three");
        assert!(!p.legal(4, 4, BLACK) && p.legal(4, 4, WHITE));
        assert!(!p.legal_moves(BLACK).contains(&(4, 4)));
        assert!(p.legal_moves(WHITE).contains(&(4, 4)));
        assert_eq!(vcf_wins(&p, WHITE, &pts("f6")), Ok(1));
        assert_eq!(vcf_wins(&p, WHITE, &pts("a1")), Ok(1));

        let mut grid = p.grid().clone();
        grid.cells[6 * 9 + 4] = EMPTY; // e7
        let q = Position::new(grid, Rule::Renju);
        assert!(!q.is_forbidden_for_black(4, 4));
        let e = vcf_wins(&q, WHITE, &pts("f6")).unwrap_err();
        assert!(e.contains("run out"), "{e}");
        // Freestyle has no forbidden points either.
        let f = Position::new(p.grid().clone(), Rule::Freestyle { k: 5 });
        assert!(!f.is_forbidden_for_black(4, 4));
        assert!(vcf_wins(&f, WHITE, &pts("f6")).is_err());
    }

    /// Renju: d4 would give Black six (no five, and forbidden: an overline), so it is neither
    /// a win nor a legal move; d2 gives White six, which wins.
    #[test]
    fn renju_black_overline_is_not_a_win() {
        let rows = [
            ".........", // 9
            ".........", // 8
            ".........", // 7
            ".........", // 6
            ".........", // 5
            "XXX.XX...", // 4
            ".........", // 3
            "OOO.OO...", // 2
            ".........", // 1
        ];
        let p = pos9(rows, Rule::Renju);
        assert!(!p.makes_win(3, 3, BLACK), "six is no five for Black");
        assert!(p.is_forbidden_for_black(3, 3), "an overline");
        let e = vcf_wins(&p, BLACK, &pts("d4")).unwrap_err();
        assert!(e.contains("forbidden"), "{e}");
        assert!(p.makes_win(3, 1, WHITE), "White's six wins");
        assert_eq!(vcf_wins(&p, WHITE, &pts("d2")), Ok(1));
        // Gomoku (exactly five) refuses both sixes; freestyle takes both.
        let g = pos9(rows, Rule::Gomoku { k: 5 });
        assert!(!g.makes_win(3, 3, BLACK) && !g.makes_win(3, 1, WHITE));
        assert!(!g.is_forbidden_for_black(3, 3));
        let f = pos9(rows, Rule::Freestyle { k: 5 });
        assert!(f.makes_win(3, 3, BLACK) && f.makes_win(3, 1, WHITE));
    }

    /// Renju: d5 makes seven on the d-file (an overline, forbidden) and, once e5 is Black's,
    /// the exact five a5-e5 as well, which is never forbidden and wins.
    #[test]
    fn renju_black_five_with_an_overline_elsewhere_wins() {
        let p = pos9(
            [
                "...X.....", // 9
                "...X.....", // 8
                "...X.....", // 7
                "...X.....", // 6
                "XXX......", // 5
                "...X.....", // 4
                "...X.....", // 3
                ".........", // 2
                ".........", // 1
            ],
            Rule::Renju,
        );
        assert!(p.is_forbidden_for_black(3, 4));
        assert!(vcf_wins(&p, BLACK, &pts("d5")).is_err());
        let mut q = p.clone();
        q.play(4, 4, BLACK); // e5
        assert!(q.makes_win(3, 4, BLACK));
        assert!(!q.is_forbidden_for_black(3, 4));
        assert_eq!(vcf_wins(&q, BLACK, &pts("d5")), Ok(1));
    }

    /// Caro: f5 would give Black b5-f5 with both ends (a5, g5) White's: no win. f3 gives
    /// b3-f3 with g3 open: a win. The board edge does not block.
    #[test]
    fn caro_five_blocked_at_both_ends_is_not_a_win() {
        let p = pos9(
            [
                ".........", // 9
                ".........", // 8
                ".........", // 7
                ".........", // 6
                "OXXXX.O..", // 5
                ".........", // 4
                "OXXXX....", // 3
                ".........", // 2
                ".........", // 1
            ],
            Rule::Caro,
        );
        assert!(!p.makes_win(5, 4, BLACK));
        assert!(p.makes_win(5, 2, BLACK));
        assert_eq!(p.five_points(BLACK), pts("f3"));
        let f = Position::new(p.grid().clone(), Rule::Freestyle { k: 5 });
        assert_eq!(f.five_points(BLACK), pts("f3 f5"));
        let edge = pos9(
            [
                ".........", // 9
                ".........", // 8
                ".........", // 7
                ".........", // 6
                "XXXX.O...", // 5
                ".........", // 4
                ".........", // 3
                ".........", // 2
                ".........", // 1
            ],
            Rule::Caro,
        );
        assert!(edge.makes_win(4, 4, BLACK));
        assert_eq!(vcf_wins(&edge, BLACK, &pts("e5")), Ok(1));
    }

    /// Caro: Black's e3 makes b3-e3 (a3 is White's), whose five f3 White may stop on f3 or,
    /// past its end, on g3. The line must win after both: f7 (the open four c7-f7) does; g3
    /// (an open four g3-g6 after White's f3, but taken after White's g3) does not.
    #[test]
    fn caro_four_stopped_past_its_end_needs_every_reply_answered() {
        let p = pos9(
            [
                ".........", // 9
                ".........", // 8
                "..XXX....", // 7
                "......X..", // 6
                "......X..", // 5
                "......X..", // 4
                "OXXX.....", // 3
                ".........", // 2
                ".........", // 1
            ],
            Rule::Caro,
        );
        let mut after = p.clone();
        after.play(4, 2, BLACK);
        assert_eq!(after.five_points(BLACK), pts("f3"));
        assert_eq!(after.stops(BLACK), pts("f3 g3"));
        let freestyle = Position::new(after.grid().clone(), Rule::Freestyle { k: 5 });
        assert_eq!(freestyle.stops(BLACK), pts("f3"));

        assert_eq!(vcf_wins(&p, BLACK, &pts("e3 f7")), Ok(2));
        let mut f3 = after.clone();
        f3.play(5, 2, WHITE);
        assert_eq!(vcf_wins(&f3, BLACK, &pts("g3")), Ok(1));
        let e = vcf_wins(&p, BLACK, &pts("e3 g3")).unwrap_err();
        assert!(e.contains("after the reply (6, 2) to move 1"), "{e}");
        assert!(e.contains("taken"), "{e}");
    }

    /// Caro: an open four can still have a stop. After f8, Black's f5-f8 has the five points
    /// f4 (with f3 White's, its far end f9 decides) and f9 (the edge does not block). White's
    /// f9 spoils both: f4-f8 would have both ends White's.
    #[test]
    fn caro_one_stone_can_stop_two_five_points() {
        let p = pos9(
            [
                ".........", // 9
                ".........", // 8
                ".....X...", // 7
                ".....X...", // 6
                ".....X...", // 5
                ".........", // 4
                ".....O...", // 3
                ".........", // 2
                ".........", // 1
            ],
            Rule::Caro,
        );
        let mut q = p.clone();
        q.play(5, 7, BLACK);
        assert_eq!(q.five_points(BLACK), pts("f4 f9"));
        assert_eq!(q.stops(BLACK), pts("f9"));
        assert!(vcf_wins(&p, BLACK, &pts("f8")).is_err());
        let f = Position::new(q.grid().clone(), Rule::Freestyle { k: 5 });
        assert!(f.stops(BLACK).is_empty());
    }

    /// Caro: the attacker may spoil the defender's five without taking its point. White's
    /// b7-e7 has the five point f7 (a7 Black's, g7 open); Black's g7 makes the open four
    /// g4-g7 and holds the far end of White's five, so it wins. Under freestyle it does not.
    #[test]
    fn caro_attacker_spoils_the_defenders_five_past_its_end() {
        let rows = [
            ".........", // 9
            ".........", // 8
            "XOOOO....", // 7
            "......X..", // 6
            "......X..", // 5
            "......X..", // 4
            ".........", // 3
            ".........", // 2
            ".........", // 1
        ];
        let p = pos9(rows, Rule::Caro);
        assert_eq!(p.five_points(WHITE), pts("f7"));
        assert_eq!(vcf_wins(&p, BLACK, &pts("g7")), Ok(1));
        let f = pos9(rows, Rule::Freestyle { k: 5 });
        let e = vcf_wins(&f, BLACK, &pts("g7")).unwrap_err();
        assert!(
            e.contains("leaves the defender the five point(s) [(5, 6)]"),
            "{e}"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// After any sequence of stones, the incrementally kept five points equal a recount
        /// from the definition, under every rule set, several win lengths and board shapes.
        #[test]
        fn incremental_five_points_equal_a_recount(
            rule in prop_oneof![
                Just(Rule::Renju),
                Just(Rule::Caro),
                (3usize..=7).prop_map(|k| Rule::Gomoku { k }),
                (3usize..=7).prop_map(|k| Rule::Freestyle { k }),
            ],
            width in 5usize..=13,
            height in 5usize..=13,
            stones in proptest::collection::vec((0usize..13, 0usize..13, any::<bool>()), 0..140),
        ) {
            let grid = Grid { width, height, cells: vec![EMPTY; width * height] };
            let mut pos = Position::new(grid, rule);
            for (x, y, white) in stones {
                let (x, y) = (x % width, y % height);
                if !pos.is_empty(x, y) {
                    continue;
                }
                pos.play(x, y, if white { WHITE } else { BLACK });
                for stone in [BLACK, WHITE] {
                    prop_assert_eq!(pos.five_points(stone), recount(pos.grid(), rule, stone));
                }
            }
            let fresh = Position::new(pos.grid().clone(), rule);
            for stone in [BLACK, WHITE] {
                prop_assert_eq!(pos.five_points(stone), fresh.five_points(stone));
            }
        }
    }
}
