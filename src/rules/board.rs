//! The board: stones, the side to move, incremental play and undo, Zobrist keys under every
//! symmetry, fives, and Black's forbidden points.

use std::fmt;

use thiserror::Error;

use super::forbidden::{self, Forbidden, Verdict};
use super::geometry::{Color, Direction, Point, SLOTS, Size};
use super::lines::Lines;
use super::rule::Rules;
use super::symmetry::{Canonical, Symmetry};
use super::zobrist;

/// A move that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlayError {
    /// The point is not on the board.
    #[error("point {point} is off the {size} board")]
    OffBoard {
        /// The point.
        point: Point,
        /// The board size.
        size: Size,
    },
    /// The point already holds a stone.
    #[error("point {point} is already taken by {color}")]
    Occupied {
        /// The point.
        point: Point,
        /// The stone already there.
        color: Color,
    },
}

/// A winning line on the board: an unbroken run of one colour that wins under the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Five {
    /// Whose line it is.
    pub color: Color,
    /// The end of the run nearest `a1` along its direction (the lowest file, or for a vertical
    /// line the lowest rank).
    pub start: Point,
    /// Direction of the run from `start`.
    pub direction: Direction,
    /// Number of stones (5 in renju for Black; more for White's or a freestyle overline).
    pub length: u8,
}

impl Five {
    /// The stones of the line, from `start`.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        let (dx, dy) = self.direction.delta();
        (0..i32::from(self.length)).map(move |i| {
            Point::new(
                (i32::from(self.start.x()) + dx * i) as u8,
                (i32::from(self.start.y()) + dy * i) as u8,
            )
        })
    }
}

/// A position: board size, rules, stones, the side to move, and the moves played on it.
///
/// [`Board::play`] and [`Board::undo`] are incremental: they update the stone grid, Black's line
/// masks for the forbidden-move tables, and the Zobrist key under each symmetry, in constant
/// time. Set-up stones placed with [`Board::put`] are not moves and cannot be undone.
#[derive(Clone)]
pub struct Board {
    size: Size,
    rules: Rules,
    cells: [Option<Color>; SLOTS],
    lines: Lines,
    moves: Vec<Point>,
    to_move: Color,
    stones: [u16; 2],
    /// Zobrist key of the stones (not the side to move) under each symmetry in [`Symmetry::ALL`];
    /// only the identity's while `symmetries` is off.
    keys: [u64; 8],
    /// Whether play and undo keep the keys under the other symmetries too.
    symmetries: bool,
    /// The stone keys of this size under each symmetry.
    symmetric_keys: &'static zobrist::SymmetricKeys,
}

impl Board {
    /// An empty board, Black to move.
    #[must_use]
    pub fn new(size: Size, rules: Rules) -> Board {
        Board {
            size,
            rules,
            cells: [None; SLOTS],
            lines: Lines::new(size),
            moves: Vec::new(),
            to_move: Color::Black,
            stones: [0; 2],
            keys: [0; 8],
            symmetries: true,
            symmetric_keys: zobrist::symmetric_keys(size),
        }
    }

    /// The board size.
    #[must_use]
    pub fn size(&self) -> Size {
        self.size
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The side to move.
    #[must_use]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Sets the side to move (a pass, or a position set up with the other side to move).
    pub fn set_to_move(&mut self, color: Color) {
        self.to_move = color;
    }

    /// The stone at `p`, if any. Points off the board are empty.
    #[must_use]
    pub fn stone(&self, p: Point) -> Option<Color> {
        if self.size.contains(p) {
            self.cells[p.slot()]
        } else {
            None
        }
    }

    /// Whether `p` is on the board and empty.
    #[must_use]
    pub fn is_empty(&self, p: Point) -> bool {
        self.size.contains(p) && self.cells[p.slot()].is_none()
    }

    /// The moves played with [`Board::play`] that are still on the board, in order.
    #[must_use]
    pub fn moves(&self) -> &[Point] {
        &self.moves
    }

    /// Number of `color` stones on the board.
    #[must_use]
    pub fn stone_count(&self, color: Color) -> usize {
        usize::from(self.stones[color.index()])
    }

    /// Whether every point holds a stone.
    #[must_use]
    pub fn is_full(&self) -> bool {
        self.empty_count() == 0
    }

    /// Number of empty points.
    #[must_use]
    pub fn empty_count(&self) -> usize {
        self.size.area() - self.stone_count(Color::Black) - self.stone_count(Color::White)
    }

    /// Every stone on the board with its colour, file by file.
    pub fn stones(&self) -> impl Iterator<Item = (Point, Color)> + '_ {
        self.points().filter_map(|p| self.stone(p).map(|c| (p, c)))
    }

    /// Whether a stone stands within `reach` steps of `p` in any direction (`p` itself
    /// included).
    #[must_use]
    pub fn has_stone_near(&self, p: Point, reach: i32) -> bool {
        (-reach..=reach).any(|dx| {
            (-reach..=reach).any(|dy| {
                let (x, y) = (i32::from(p.x()) + dx, i32::from(p.y()) + dy);
                x >= 0
                    && y >= 0
                    && x < i32::from(self.size.cols())
                    && y < i32::from(self.size.rows())
                    && !self.is_empty(Point::new(x as u8, y as u8))
            })
        })
    }

    /// Every point of the board, file by file from `a1` (the order of [`Point`]'s `Ord`).
    pub fn points(&self) -> impl Iterator<Item = Point> + use<> {
        let size = self.size;
        (0..size.cols()).flat_map(move |x| (0..size.rows()).map(move |y| Point::new(x, y)))
    }

    fn check_empty(&self, p: Point) -> Result<(), PlayError> {
        if !self.size.contains(p) {
            return Err(PlayError::OffBoard {
                point: p,
                size: self.size,
            });
        }
        match self.cells[p.slot()] {
            Some(color) => Err(PlayError::Occupied { point: p, color }),
            None => Ok(()),
        }
    }

    /// Puts or takes the keys of a `color` stone at `p` in or out of every symmetric key (only
    /// the identity's while the others are not kept).
    #[inline]
    fn toggle_keys(&mut self, p: Point, color: Color) {
        if !self.symmetries {
            self.keys[Symmetry::Identity.index()] ^= zobrist::stone(color, p);
            return;
        }
        toggle_stone(&mut self.keys, self.symmetric_keys, p, color);
    }

    /// Whether play and undo keep the Zobrist keys under every symmetry (the default), which
    /// [`Board::canonical`] and [`Board::hash_under`] read, or only [`Board::hash`]. A search
    /// that never asks for the others turns them off on its own copy of the board: each move
    /// then updates one key instead of eight. Turning them back on recomputes them.
    pub(crate) fn keep_symmetric_keys(&mut self, on: bool) {
        if on && !self.symmetries {
            self.keys = self.symmetric_stone_keys();
        }
        self.symmetries = on;
    }

    /// The stone keys under every symmetry: kept, or recomputed while they are not kept.
    fn symmetric_stone_keys(&self) -> [u64; 8] {
        if self.symmetries {
            return self.keys;
        }
        let mut keys = [0; 8];
        for (p, c) in self.stones() {
            toggle_stone(&mut keys, self.symmetric_keys, p, c);
        }
        keys
    }

    fn add_stone(&mut self, p: Point, color: Color) {
        self.cells[p.slot()] = Some(color);
        self.lines.put(p, color);
        self.stones[color.index()] += 1;
        self.toggle_keys(p, color);
    }

    fn remove_stone(&mut self, p: Point, color: Color) {
        self.cells[p.slot()] = None;
        self.lines.remove(p, color);
        self.stones[color.index()] -= 1;
        self.toggle_keys(p, color);
    }

    /// Places a set-up stone of `color` at `p`. It is not a move: the side to move does not
    /// change and [`Board::undo`] does not remove it.
    ///
    /// # Errors
    /// [`PlayError`] if `p` is off the board or taken.
    pub fn put(&mut self, p: Point, color: Color) -> Result<(), PlayError> {
        self.check_empty(p)?;
        self.add_stone(p, color);
        Ok(())
    }

    /// Takes away the set-up stone at `p` (placed with [`Board::put`]); nothing if `p` is empty.
    pub(crate) fn remove_setup(&mut self, p: Point) {
        if let Some(color) = self.stone(p) {
            self.remove_stone(p, color);
        }
    }

    /// Plays the side to move at `p` and passes the move to the other side.
    ///
    /// This checks only that `p` is an empty point of the board. A forbidden point is not
    /// refused: in renju it is a losing move for Black, and a caller that wants only legal moves
    /// asks [`Board::is_legal`] first.
    ///
    /// # Errors
    /// [`PlayError`] if `p` is off the board or taken.
    pub fn play(&mut self, p: Point) -> Result<(), PlayError> {
        self.check_empty(p)?;
        self.play_unchecked(p);
        Ok(())
    }

    /// Plays the side to move at `p`, which must be an empty point of the board.
    ///
    /// # Panics
    /// In debug builds, if `p` is off the board or taken.
    pub fn play_unchecked(&mut self, p: Point) {
        debug_assert!(self.check_empty(p).is_ok(), "play_unchecked at {p}");
        self.add_stone(p, self.to_move);
        self.moves.push(p);
        self.to_move = self.to_move.opponent();
    }

    /// Takes back the last move played, returning it, or `None` if no move is left to undo.
    pub fn undo(&mut self) -> Option<Point> {
        let p = self.moves.pop()?;
        let color = self.cells[p.slot()].expect("a played move holds its stone");
        self.remove_stone(p, color);
        self.to_move = color;
        Some(p)
    }

    /// The Zobrist key of the position: the stones and the side to move. The board size and
    /// the rules are not part of it (the empty board hashes to 0 on every size), so a table of
    /// keys belongs to one size and rule set.
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.keys[Symmetry::Identity.index()] ^ self.side_key()
    }

    /// The Zobrist key of the position's image under `symmetry`, or `None` if the symmetry does
    /// not apply to this board (a quarter turn of a rectangle).
    #[must_use]
    pub fn hash_under(&self, symmetry: Symmetry) -> Option<u64> {
        Symmetry::of(self.size)
            .contains(&symmetry)
            .then(|| self.symmetric_stone_keys()[symmetry.index()] ^ self.side_key())
    }

    /// The Zobrist key the position would have after the side to move played `p` (an empty
    /// point), without playing it.
    #[must_use]
    pub fn hash_after(&self, p: Point) -> u64 {
        self.hash() ^ zobrist::stone(self.to_move, p) ^ zobrist::WHITE_TO_MOVE
    }

    /// The Zobrist key the position would have after the side to move played `p` and the other
    /// side `q` (two distinct empty points).
    #[must_use]
    pub fn hash_after_pair(&self, p: Point, q: Point) -> u64 {
        self.hash() ^ zobrist::stone(self.to_move, p) ^ zobrist::stone(self.to_move.opponent(), q)
    }

    fn side_key(&self) -> u64 {
        side_key(self.to_move)
    }

    /// The canonical form: the smallest key over the board's symmetries and the symmetry that
    /// gives it (the first such in [`Symmetry::ALL`] order when images coincide).
    #[must_use]
    pub fn canonical(&self) -> Canonical {
        self.canonical_of(self.symmetric_stone_keys(), self.side_key())
    }

    /// The canonical form of the position after the side to move played `p` (an empty
    /// point), without playing it: [`Board::canonical`] of that position, in eight XORs
    /// instead of a move and its undo.
    #[must_use]
    pub fn canonical_after(&self, p: Point) -> Canonical {
        let color = self.to_move;
        let mut keys = self.symmetric_stone_keys();
        toggle_stone(&mut keys, self.symmetric_keys, p, color);
        self.canonical_of(keys, side_key(color.opponent()))
    }

    /// The smallest of the stone keys `keys` (one per symmetry) with `side` added, over the
    /// board's symmetries, and the first symmetry that gives it.
    fn canonical_of(&self, keys: [u64; 8], side: u64) -> Canonical {
        Symmetry::of(self.size)
            .iter()
            .map(|&s| Canonical {
                key: keys[s.index()] ^ side,
                symmetry: s,
            })
            .min_by_key(|c| c.key)
            .expect("every board has the identity")
    }

    /// The key recomputed from scratch, for tests of the incremental one.
    #[must_use]
    pub fn recompute_hash(&self) -> u64 {
        self.stones()
            .fold(self.side_key(), |h, (p, c)| h ^ zobrist::stone(c, p))
    }

    /// The image of this position under `symmetry` (stones and moves mapped, same side to move).
    ///
    /// # Panics
    /// If `symmetry` swaps the axes of a rectangular board.
    #[must_use]
    pub fn transformed(&self, symmetry: Symmetry) -> Board {
        assert!(
            Symmetry::of(self.size).contains(&symmetry),
            "{symmetry} on a {} board",
            self.size
        );
        let mut image = Board::new(self.size, self.rules);
        let played: std::collections::HashSet<Point> = self.moves.iter().copied().collect();
        for (p, c) in self.stones().filter(|(p, _)| !played.contains(p)) {
            image.add_stone(symmetry.apply(p, self.size), c);
        }
        let mut color = self.to_move;
        if self.moves.len() % 2 == 1 {
            color = color.opponent();
        }
        image.to_move = color;
        for &p in &self.moves {
            image.play_unchecked(symmetry.apply(p, self.size));
        }
        image.to_move = self.to_move;
        image
    }

    /// The fewest stones `color` still needs for a win: the fewest empty points in a
    /// stretch of `k` points on one line holding no opponent stone. `None` when every such
    /// stretch is blocked, so `color` can never complete a five (under renju, White can still
    /// win when Black has only forbidden moves).
    pub fn fewest_stones_to_five(&self, color: Color) -> Option<u32> {
        self.lines.fewest_missing(color, u32::from(self.rules.k()))
    }

    /// The line masks, for the pattern tables.
    pub(crate) fn lines(&self) -> &Lines {
        &self.lines
    }

    /// Length of the `color` run through `p` along `d`, counting `p` itself as `color`, and
    /// whether each end of the run is held by the opponent.
    fn run(&self, p: Point, d: Direction, color: Color) -> (u32, [bool; 2]) {
        let (len, ends, _) = self.run_with(p, None, d, color);
        (len, ends)
    }

    /// Whether `color` stones at both `p` and the empty `q` (on one line along `d`) make a
    /// winning run containing both.
    pub(crate) fn completes_five_with(
        &self,
        p: Point,
        q: Point,
        d: Direction,
        color: Color,
    ) -> bool {
        let (len, ends, reach) = self.run_with(p, Some(q), d, color);
        let (dx, dy) = d.delta();
        // Signed distance from p to q along d; the run contains q if it reaches that far.
        let dist = if dx != 0 {
            (i32::from(q.x()) - i32::from(p.x())) * dx
        } else {
            (i32::from(q.y()) - i32::from(p.y())) * dy
        };
        let side = usize::from(dist > 0);
        reach[side] >= dist.abs() && self.rules.is_win(color, len, ends)
    }

    /// [`Board::run`] with an extra `color` stone at `extra`, and how many stones the run
    /// reaches from `p` backwards and forwards along `d`.
    fn run_with(
        &self,
        p: Point,
        extra: Option<Point>,
        d: Direction,
        color: Color,
    ) -> (u32, [bool; 2], [i32; 2]) {
        let mut len = 1;
        let mut ends = [false; 2];
        let mut reach = [0; 2];
        for (end, sign) in [(0, -1), (1, 1)] {
            let mut i = 1;
            loop {
                let cell = p.step(d, sign * i, self.size).map(|q| {
                    if Some(q) == extra {
                        Some(color)
                    } else {
                        self.cells[q.slot()]
                    }
                });
                match cell {
                    Some(Some(c)) if c == color => {
                        len += 1;
                        i += 1;
                    }
                    Some(Some(_)) => {
                        ends[end] = true;
                        break;
                    }
                    _ => break,
                }
            }
            reach[end] = i - 1;
        }
        (len, ends, reach)
    }

    /// Whether a `color` stone at `p` (empty, or already holding that stone) is part of a line
    /// that wins under the rules.
    #[must_use]
    pub fn makes_five(&self, p: Point, color: Color) -> bool {
        Direction::ALL.into_iter().any(|d| {
            let (len, ends) = self.run(p, d, color);
            self.rules.is_win(color, len, ends)
        })
    }

    /// Every winning line on the board.
    #[must_use]
    pub fn fives(&self) -> Vec<Five> {
        self.runs(|color, len, ends| self.rules.is_win(color, len, ends))
    }

    /// Black's overlines on the board, under rules that forbid them (renju): runs of more than
    /// k black stones, each as a [`Five`] (its start, direction and length), though it is no
    /// win. No game reaches such a board: Black may not make an overline, and a move that made
    /// one together with a five won at once.
    #[must_use]
    pub fn forbidden_overlines(&self) -> Vec<Five> {
        if !self.rules.has_forbidden() {
            return Vec::new();
        }
        let k = u32::from(self.rules.k());
        self.runs(|color, len, _| color == Color::Black && len > k)
    }

    /// Every whole run of one colour along a line (each once, from its end nearest `a1`) that
    /// `keep` accepts, given its colour, length and whether each end is the opponent's.
    fn runs(&self, keep: impl Fn(Color, u32, [bool; 2]) -> bool) -> Vec<Five> {
        let mut runs = Vec::new();
        for (p, color) in self.stones() {
            for d in Direction::ALL {
                let starts_run =
                    p.step(d, -1, self.size).and_then(|q| self.stone(q)) != Some(color);
                if !starts_run {
                    continue;
                }
                let (len, ends) = self.run(p, d, color);
                if keep(color, len, ends) {
                    runs.push(Five {
                        color,
                        start: p,
                        direction: d,
                        length: len as u8,
                    });
                }
            }
        }
        runs
    }

    /// Why a black stone at `p` would be forbidden, if it would be. `None` for a legal point,
    /// a point that makes a five, a taken point, or a rule set without forbidden moves. The
    /// answer does not depend on whose move it is.
    #[must_use]
    pub fn forbidden(&self, p: Point) -> Option<Forbidden> {
        self.forbidden_traced(p, &mut |_| {})
    }

    /// [`Board::forbidden`], telling `trace` every point whose surroundings the answer was read
    /// from: the answer depends only on the points within five steps, along the four lines, of
    /// the traced points. Used to show that a stone elsewhere cannot change it.
    pub fn forbidden_traced(&self, p: Point, trace: &mut impl FnMut(Point)) -> Option<Forbidden> {
        if !self.may_be_forbidden(p) {
            return None;
        }
        forbidden_kind(forbidden::verdict_of(&self.lines, p, self.size, trace))
    }

    /// Whether a forbidden test at `p` is needed at all: rules with forbidden moves, and an
    /// empty point.
    fn may_be_forbidden(&self, p: Point) -> bool {
        self.rules.has_forbidden() && self.is_empty(p)
    }

    /// [`Board::forbidden_traced`] for a caller that holds the board mutably: the recursive
    /// double-three test places its trial stones in the board's own lines (and takes them
    /// away again) instead of in a copy of them. The board is left as it was found.
    pub(crate) fn forbidden_in_place(
        &mut self,
        p: Point,
        trace: &mut impl FnMut(Point),
    ) -> Option<Forbidden> {
        if !self.may_be_forbidden(p) {
            return None;
        }
        forbidden_kind(forbidden::verdict(&mut self.lines, p, self.size, trace))
    }

    /// Every point forbidden for Black, file by file from `a1`.
    #[must_use]
    pub fn forbidden_points(&self) -> Vec<(Point, Forbidden)> {
        if !self.rules.has_forbidden() {
            return Vec::new();
        }
        let mut scratch = self.lines.clone();
        self.points()
            .filter(|&p| self.cells[p.slot()].is_none())
            .filter_map(|p| {
                forbidden_kind(forbidden::verdict(&mut scratch, p, self.size, &mut |_| {}))
                    .map(|kind| (p, kind))
            })
            .collect()
    }

    /// Whether the side to move may play at `p`: an empty point, and for Black in renju not a
    /// forbidden one.
    #[must_use]
    pub fn is_legal(&self, p: Point) -> bool {
        self.is_legal_for(p, self.to_move)
    }

    /// Whether `color` may play at `p`, whoever is to move: an empty point, and for Black in
    /// renju not a forbidden one.
    #[must_use]
    pub fn is_legal_for(&self, p: Point, color: Color) -> bool {
        self.is_empty(p) && (color == Color::White || self.forbidden(p).is_none())
    }

    /// [`Board::is_legal_for`], with the forbidden test done in place (see
    /// [`Board::forbidden_in_place`]).
    pub(crate) fn is_legal_in_place(&mut self, p: Point, color: Color) -> bool {
        self.is_empty(p)
            && (color == Color::White || self.forbidden_in_place(p, &mut |_| {}).is_none())
    }
}

/// Adds a `color` stone at `p` to `keys`, the stone keys under each symmetry, or takes it
/// away.
#[inline]
fn toggle_stone(keys: &mut [u64; 8], table: &zobrist::SymmetricKeys, p: Point, color: Color) {
    let through = &table[color.index()][p.slot()].0;
    for (key, stone) in keys.iter_mut().zip(through) {
        *key ^= stone;
    }
}

/// The part of a position's Zobrist key that says whose move it is.
fn side_key(to_move: Color) -> u64 {
    match to_move {
        Color::Black => 0,
        Color::White => zobrist::WHITE_TO_MOVE,
    }
}

/// The forbidden kind a verdict names, if it names one.
fn forbidden_kind(verdict: Verdict) -> Option<Forbidden> {
    match verdict {
        Verdict::Forbidden(kind) => Some(kind),
        Verdict::Five | Verdict::Legal => None,
    }
}

impl PartialEq for Board {
    /// Two boards are equal when they have the same size, rules, stones, side to move and moves.
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size
            && self.rules == other.rules
            && self.to_move == other.to_move
            && self.moves == other.moves
            && self.cells[..] == other.cells[..]
    }
}

impl Eq for Board {}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Board({}, {}, {} to move)",
            self.size, self.rules, self.to_move
        )?;
        for y in (0..self.size.rows()).rev() {
            let row: String = (0..self.size.cols())
                .map(|x| match self.cells[Point::new(x, y).slot()] {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                })
                .collect();
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
