//! Replaying VCF lines for the checker, under every rule set: a [`Position`] (a plain [`Grid`],
//! the [`Rule`], and each colour's five points kept up to date move by move) and
//! [`vcf_wins`], which replays the attacker's moves of a VCF, works out the defender's replies
//! itself, and says whether the attacker wins.
//!
//! Everything here is built on the checker's own rules code ([`super::rules`]): a five point is
//! found with [`wins_along`], line by line ([`wins_at`] is their union), and a forbidden point
//! with [`black_verdict`], straight from `docs/rules.md`. Nothing of the fast rules core, the
//! threat search or the solver is used.

use super::rules::{
    BLACK, EMPTY, Grid, Verdict, WHITE, Win, black_verdict, traced, wins_along, wins_at,
};
use super::zone::{Zone, add_five_point, add_stretches};

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
/// The five points are kept up to date on [`Position::play`] without a full scan, line by line:
/// an empty point `p` is a five point for a colour when a stone of that colour there wins along
/// one of its four lines ([`wins_along`]), and whether it does along one line depends only on
/// the cells of that line within `k` steps of `p` (5 for renju and caro). Along one line, with
/// `p` holding the stone, count the colour's stones next to `p` on each side. If a side has `k`
/// or more, the run is longer than `k` (no exact-`k` or caro five in this line, and a
/// `k`-or-more win whatever the other side holds), and that is read from cells 1..=k. Otherwise
/// the count `a < k` on that side is read from cells 1..=a+1, all within `k`. Given both counts
/// (or "k or more"), the run length is known, and for a caro five (length 5, so each count at
/// most 4) each end point lies at distance at most 5 = k. So a new stone at `s` changes the
/// answer only for `s` itself (no longer empty) and, for a point on one of the four lines
/// through `s` within `k` steps of it, only along that line (the point's other three lines do
/// not pass through `s`): `play` takes `s` out of both sets and recomputes those points along
/// that line, for both colours. (A radius of `k + 1` would be safe too; `k` is the tight bound,
/// and a property test checks the incremental sets against a full recount. With `k - 1` it
/// fails.)
#[derive(Clone, Debug)]
pub struct Position {
    /// The board.
    grid: Grid,
    /// The rule set.
    rule: Rule,
    /// `five[c][y * width + x]`: for the empty point (x, y), a bit for each line (bit `d` for
    /// `DIRECTIONS[d]`) along which a stone of colour `c` (index 0 Black, 1 White) there wins.
    /// The point is a five point of `c` when any bit is set.
    five: [Vec<u8>; 2],
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
            five: [vec![0; n], vec![0; n]],
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

    /// Recomputes the five-point flags of cell `i` for both colours along every line.
    fn refresh(&mut self, i: usize) {
        for d in 0..DIRECTIONS.len() {
            self.refresh_along(i, d);
        }
    }

    /// Recomputes the five-point flag of cell `i` along the line `DIRECTIONS[d]` for both
    /// colours, from the definition: an empty cell wins along it for a colour when
    /// [`wins_along`] says a stone of that colour there wins (the stone is put in place for the
    /// test and taken away again); a taken cell wins along no line.
    fn refresh_along(&mut self, i: usize, d: usize) {
        let (x, y) = (i % self.grid.width, i / self.grid.width);
        let bit = 1u8 << d;
        for stone in [BLACK, WHITE] {
            let c = colour_index(stone);
            let wins = self.grid.cells[i] == EMPTY && {
                self.grid.cells[i] = stone;
                let wins = wins_along(&self.grid, x, y, stone, self.rule.win(stone), DIRECTIONS[d]);
                self.grid.cells[i] = EMPTY;
                wins
            };
            if wins {
                self.five[c][i] |= bit;
            } else {
                self.five[c][i] &= !bit;
            }
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
            .filter(|&(_, &f)| f != 0)
            .map(|(i, _)| (i % w, i / w))
            .collect()
    }

    /// Whether `stone` has at least one five point.
    ///
    /// # Panics
    /// If `stone` is not a stone colour.
    #[must_use]
    pub fn has_five_point(&self, stone: u8) -> bool {
        self.five[colour_index(stone)].iter().any(|&f| f != 0)
    }

    /// Whether (x, y) is an empty point where a `stone` stone wins. False off the board and on
    /// taken points.
    ///
    /// # Panics
    /// If `stone` is not a stone colour.
    #[must_use]
    pub fn makes_win(&self, x: usize, y: usize, stone: u8) -> bool {
        let c = colour_index(stone);
        self.index(x, y).is_some_and(|i| self.five[c][i] != 0)
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

    /// [`Position::is_forbidden_for_black`], with every empty point the test read added to
    /// `zone` (kind 2 of `docs/certificates.md`).
    #[must_use]
    pub fn is_forbidden_recorded(&self, x: usize, y: usize, zone: &mut Zone) -> bool {
        if self.rule != Rule::Renju || !self.is_empty(x, y) {
            return false;
        }
        let (verdict, reads) = traced(|| black_verdict(&self.grid, x, y));
        for i in reads {
            zone.insert(i);
        }
        matches!(
            verdict,
            Verdict::Overline | Verdict::DoubleFour | Verdict::DoubleThree
        )
    }

    /// [`Position::legal`], with the point and what its forbidden-move test read added to
    /// `zone` when there is one.
    fn legal_recorded(&self, x: usize, y: usize, stone: u8, zone: Option<&mut Zone>) -> bool {
        match zone {
            None => self.legal(x, y, stone),
            Some(zone) => {
                if let Some(i) = self.index(x, y) {
                    zone.insert(i);
                }
                self.is_empty(x, y) && !(stone == BLACK && self.is_forbidden_recorded(x, y, zone))
            }
        }
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
        for d in 0..DIRECTIONS.len() {
            self.on_line(x, y, d, radius, &mut found);
        }
        found
    }

    /// Pushes onto `found` the empty points on the line `DIRECTIONS[d]` through (x, y) within
    /// `radius` steps of it, (x, y) itself excluded.
    fn on_line(&self, x: usize, y: usize, d: usize, radius: usize, found: &mut Vec<usize>) {
        let (dx, dy) = DIRECTIONS[d];
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
        let mut near = Vec::with_capacity(2 * self.rule.radius());
        for d in 0..DIRECTIONS.len() {
            near.clear();
            self.on_line(x, y, d, self.rule.radius(), &mut near);
            for &j in &near {
                self.refresh_along(j, d);
            }
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
    ///
    /// With a `zone`, every point that leaves the attacker no five point is added to it, with
    /// what its forbidden-move test read.
    fn stops(&self, attacker: u8, mut zone: Option<&mut Zone>) -> Vec<(usize, usize)> {
        let defender = opponent(attacker);
        let fives = self.five_points(attacker);
        let stopping = if self.rule == Rule::Caro {
            self.stopping(attacker, &fives)
        } else {
            // The single five point, or nothing (above). Debug builds (the tests) also try
            // every candidate and require the same answer.
            let single = match fives[..] {
                [(x, y)] => vec![(x, y)],
                _ => Vec::new(),
            };
            debug_assert_eq!(single, self.stopping(attacker, &fives), "{fives:?}");
            single
        };
        stopping
            .into_iter()
            .filter(|&(x, y)| self.legal_recorded(x, y, defender, zone.as_deref_mut()))
            .collect()
    }

    /// The empty points where a defender stone leaves `attacker` none of its five points
    /// `fives`, trying each five point and the points within [`Rule::radius`] of one on its
    /// lines. Sorted by (y, x).
    fn stopping(&self, attacker: u8, fives: &[(usize, usize)]) -> Vec<(usize, usize)> {
        let defender = opponent(attacker);
        let mut candidates = Vec::new();
        for &(fx, fy) in fives {
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
            .collect()
    }

    /// Adds `stone`'s five points to `zone` (kind 3 of `docs/certificates.md`).
    fn record_five_points(&self, stone: u8, zone: &mut Zone) {
        for p in self.five_points(stone) {
            add_five_point(zone, &self.grid, self.rule, p);
        }
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
    replay(pos.clone(), attacker, moves, 0, None)
}

/// What a replay records: the zone (`docs/certificates.md`) and the extra defender stones it
/// must stand.
pub struct Recording {
    /// The points recorded so far.
    pub zone: Zone,
    /// The extra defender stones the zone must stand.
    pub extra: usize,
}

/// [`vcf_wins`], recording the line's zone for `extra` extra defender stones
/// (`docs/certificates.md`): the zone is returned with the moves used.
///
/// # Errors
/// As [`vcf_wins`].
pub fn vcf_zone(
    pos: &Position,
    attacker: u8,
    moves: &[(usize, usize)],
    extra: usize,
) -> Result<(usize, Zone), String> {
    let mut recording = Recording {
        zone: Zone::default(),
        extra,
    };
    if attacker != BLACK && attacker != WHITE {
        return Err(format!("the attacker {attacker} is not a stone colour"));
    }
    if pos.has_won(BLACK) || pos.has_won(WHITE) {
        return Err("the game is already over".into());
    }
    let used = replay(pos.clone(), attacker, moves, 0, Some(&mut recording))?;
    Ok((used, recording.zone))
}

/// [`vcf_wins`] from the attacker move `moves[i]` on, in `pos`, recording what the zone needs
/// into `rec` when there is one.
fn replay(
    mut pos: Position,
    attacker: u8,
    moves: &[(usize, usize)],
    i: usize,
    mut rec: Option<&mut Recording>,
) -> Result<usize, String> {
    let defender = opponent(attacker);
    let n = i + 1;
    let Some(&(x, y)) = moves.get(i) else {
        // A line may leave its final five out: the attacker, to move, plays a five point.
        if pos.has_five_point(attacker) {
            if let Some(r) = rec {
                pos.record_five_points(attacker, &mut r.zone);
            }
            return Ok(n);
        }
        return Err(format!("the moves run out after move {i} without a win"));
    };
    if !pos.is_empty(x, y) {
        return Err(format!(
            "move {n} ({x}, {y}) is off the board or on a taken point"
        ));
    }
    if !pos.legal_recorded(x, y, attacker, rec.as_deref_mut().map(|r| &mut r.zone)) {
        return Err(format!("move {n} ({x}, {y}) is forbidden for Black"));
    }
    if pos.makes_win(x, y, attacker) {
        if let Some(r) = rec {
            add_five_point(&mut r.zone, &pos.grid, pos.rule, (x, y));
        }
        return Ok(n);
    }
    // The defender's five points before the move, for the message below (listed only when
    // there are some: most moves have none to list).
    let threats = if pos.has_five_point(defender) {
        pos.five_points(defender)
    } else {
        Vec::new()
    };
    pos.play(x, y, attacker);
    if pos.has_five_point(defender) {
        let left = pos.five_points(defender);
        return Err(format!(
            "move {n} ({x}, {y}) leaves the defender the five point(s) {left:?} \
             (before it: {threats:?})"
        ));
    }
    if !pos.has_five_point(attacker) {
        return Err(format!("move {n} ({x}, {y}) is not a four"));
    }
    if let Some(r) = rec.as_deref_mut() {
        add_stretches(
            &mut r.zone,
            &pos.grid,
            pos.rule,
            attacker,
            defender,
            r.extra,
        );
        pos.record_five_points(attacker, &mut r.zone);
    }
    let stops = pos.stops(attacker, rec.as_deref_mut().map(|r| &mut r.zone));
    if stops.is_empty() {
        return Ok(n);
    }
    let several = stops.len() > 1;
    let mut used = n;
    for &(sx, sy) in &stops {
        let mut next = pos.clone();
        next.play(sx, sy, defender);
        let result = replay(next, attacker, moves, i + 1, rec.as_deref_mut());
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
mod tests;
