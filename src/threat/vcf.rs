//! VCF (victory by continuous fours): the attacker plays a four at every move, the defender's
//! reply is forced, and the line ends in a five.
//!
//! A depth-first search over the attacker's fours with a transposition table keyed by Zobrist
//! hashes. Each entry records that no VCF exists within some number of fours (or at all).
//! Without a length limit the search explores until no four is left, so a failure is a proof.
//! With `shortest`, it deepens the limit one four at a time, so the first line found has the
//! fewest fours.

use crate::rules::{Board, Color, Defence, Four, Point, Rule};

use super::{Ending, Limits, Line, Outcome, Report};

/// Options of a VCF search.
#[derive(Clone, Debug, Default)]
pub struct VcfOptions {
    /// Look only for lines with at most this many attacker fours.
    pub max_fours: Option<u32>,
    /// Return a line with the fewest attacker fours (iterative deepening). Under caro, the
    /// fewest among lines of forced fours: a shorter line through a four with several stops
    /// may exist.
    pub shortest: bool,
    /// When to stop.
    pub limits: Limits,
    /// Bound on the transposition table, in MiB (default: 8M entries, about 200 MB at most).
    pub memory_mb: Option<u64>,
}

/// "No VCF at any length" in the transposition table.
const PROVED_NONE: u32 = u32::MAX;
/// A length limit that is never reached.
pub(crate) const UNLIMITED: u32 = PROVED_NONE - 1;
/// Entries kept before the table is cleared (about 200 MB at most).
const TABLE_CAP: usize = 8 << 20;

/// The VCF transposition table: for a position (attacker to move), the number of fours within
/// which no VCF exists, or [`PROVED_NONE`]. The side to move is part of the key, so one table
/// serves both colours.
#[derive(Debug)]
pub(crate) struct VcfTable {
    map: super::KeyTable,
    /// Entries kept before the table is cleared.
    cap: usize,
    /// Working space of the searches that use the table, kept from one search to the next:
    /// the attacker's fours at a node, read before the node searches deeper.
    fours: Vec<(Point, Four, Option<bool>)>,
    /// The forcing fours (and their forced replies) of every node on the current path, each
    /// node's above its parent's.
    forcing: Vec<(Point, Point)>,
}

impl Default for VcfTable {
    fn default() -> VcfTable {
        VcfTable::with_cap(TABLE_CAP)
    }
}

impl VcfTable {
    /// A table that keeps at most `cap` entries (at least one) before it is cleared.
    pub(crate) fn with_cap(cap: usize) -> VcfTable {
        VcfTable {
            map: super::KeyTable::for_entries(cap.max(1)),
            cap: cap.max(1),
            fours: Vec::new(),
            forcing: Vec::new(),
        }
    }

    /// A table that never takes more than `bytes`: it keeps at most seven eighths as many
    /// entries as the largest power of two of 17-byte slots within `bytes` (the sizing of a
    /// general hash map, which the key table, at about 14.6 bytes an entry, holds in less), and
    /// is cleared when that is reached.
    pub(crate) fn within_bytes(bytes: usize) -> VcfTable {
        let slot = size_of::<(u64, u32)>() + 1;
        let buckets = (bytes / slot).max(8);
        // The largest power of two not above `buckets`.
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        VcfTable::with_cap(buckets / 8 * 7)
    }
}

/// The search was stopped by its limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stopped;

/// The result of one attacker node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    Win,
    /// No VCF here; `bounded` if that may be only because of the length limit (or a stop).
    Fail {
        bounded: bool,
    },
}

/// A VCF search over a borrowed board, which it leaves as it found it.
pub(crate) struct VcfSearch<'a> {
    board: &'a mut Board,
    attacker: Color,
    defender: Color,
    limits: &'a Limits,
    pub(crate) nodes: u64,
    stopped: bool,
    table: &'a mut VcfTable,
    /// Caro only: a four the defender could stop in several ways was passed over, or a
    /// defender four was answered only on its five point, so a failure is not a proof.
    pub(crate) incomplete: bool,
    /// The winning line, built backwards as the recursion unwinds.
    line: Vec<Point>,
    ending: Ending,
}

/// Searches for a VCF for `attacker` in `board`. If `attacker` is not the side to move, the
/// defender is taken to pass first.
#[must_use]
pub fn vcf(board: &Board, attacker: Color, options: &VcfOptions) -> Report {
    if let Some(report) = super::decided(board, attacker) {
        return report;
    }
    let mut board = board.clone();
    board.keep_symmetric_keys(false);
    let mut table = options.memory_mb.map_or_else(VcfTable::default, |mb| {
        VcfTable::within_bytes(super::mebibytes(mb))
    });
    let mut search = VcfSearch::new(&mut board, attacker, &options.limits, &mut table);
    let mut outcome = if options.shortest {
        let mut outcome = Outcome::NoWin;
        for depth in 1..=options.max_fours.unwrap_or(UNLIMITED) {
            match search.run(depth) {
                Err(Stopped) => outcome = Outcome::Unknown,
                Ok((Some(line), _)) => outcome = Outcome::Win(line),
                Ok((None, true)) => continue,
                Ok((None, false)) => outcome = Outcome::NoWin,
            }
            break;
        }
        outcome
    } else {
        match search.run(options.max_fours.unwrap_or(UNLIMITED)) {
            Err(Stopped) => Outcome::Unknown,
            Ok((Some(line), _)) => Outcome::Win(line),
            Ok((None, _)) => Outcome::NoWin,
        }
    };
    if outcome == Outcome::NoWin && search.incomplete {
        outcome = Outcome::Unknown;
    }
    let nodes = search.nodes;
    let proof = match &outcome {
        Outcome::Win(line) => Some(super::line_proof(&board, attacker, line)),
        _ => None,
    };
    Report {
        outcome,
        nodes,
        proof,
    }
}

impl<'a> VcfSearch<'a> {
    /// A search for `attacker` on `board`.
    pub(crate) fn new(
        board: &'a mut Board,
        attacker: Color,
        limits: &'a Limits,
        table: &'a mut VcfTable,
    ) -> VcfSearch<'a> {
        VcfSearch {
            board,
            attacker,
            defender: attacker.opponent(),
            limits,
            nodes: 0,
            stopped: false,
            table,
            incomplete: false,
            line: Vec::new(),
            ending: Ending::Five,
        }
    }

    /// Looks for a VCF of at most `max_fours` fours, with the attacker to move (the side to
    /// move is set for the search and restored). Returns the line, if any, and whether a
    /// failure may be due to the length limit.
    ///
    /// # Errors
    /// [`Stopped`] if the limits ran out.
    pub(crate) fn run(&mut self, max_fours: u32) -> Result<(Option<Line>, bool), Stopped> {
        self.run_from(max_fours, None)
    }

    /// [`VcfSearch::run`] where the caller knows the five points already: `None` to look for
    /// them; `Some(threat)` when the attacker has none and the defender has at most one,
    /// `threat`.
    ///
    /// # Errors
    /// [`Stopped`] if the limits ran out.
    pub(crate) fn run_from(
        &mut self,
        max_fours: u32,
        fives: Option<Option<Point>>,
    ) -> Result<(Option<Line>, bool), Stopped> {
        let to_move = self.board.to_move();
        self.board.set_to_move(self.attacker);
        let result = match fives {
            None => self.root(max_fours),
            Some(threat) => {
                debug_assert!(self.board.five_points(self.attacker).is_empty());
                debug_assert_eq!(
                    self.board.five_points(self.defender),
                    Vec::from_iter(threat)
                );
                self.root_after_fives(max_fours, threat)
            }
        };
        self.board.set_to_move(to_move);
        if self.stopped {
            return Err(Stopped);
        }
        Ok(result)
    }

    /// The root of a search, on a board with no five on it.
    fn root(&mut self, max_fours: u32) -> (Option<Line>, bool) {
        if let Some(five) = Line::five_to_play(self.board, self.attacker) {
            self.nodes += 1;
            return (Some(five), false);
        }
        let threats = self.board.five_points(self.defender);
        if threats.len() >= 2 {
            if self.board.rules().rule() == Rule::Caro {
                self.incomplete = true;
            }
            // Two defender fives waiting and no attacker five: nothing stops one of them.
            return (None, false);
        }
        self.root_after_fives(max_fours, threats.first().copied())
    }

    /// The root of a search where the attacker has no five point and the defender at most one,
    /// `threat`.
    fn root_after_fives(&mut self, max_fours: u32, threat: Option<Point>) -> (Option<Line>, bool) {
        if self.board.rules().rule() == Rule::Caro && threat.is_some() {
            self.incomplete = true;
        }
        self.line.clear();
        match self.attack(max_fours, threat) {
            Node::Win => {
                self.line.reverse();
                let moves = std::mem::take(&mut self.line);
                (
                    Some(Line {
                        moves,
                        ending: self.ending,
                    }),
                    false,
                )
            }
            Node::Fail { bounded } => (None, bounded),
        }
    }

    /// Whether the attacker may play `p` (an empty point): Black never plays a forbidden point.
    fn legal(&mut self, p: Point) -> bool {
        self.board.is_legal_in_place(p, self.attacker)
    }

    /// The attacker to move with `depth` fours left; `threat` is the defender's five point the
    /// attacker must take, if the defender has one.
    fn attack(&mut self, depth: u32, threat: Option<Point>) -> Node {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024) && self.limits.reached(self.nodes) {
            self.stopped = true;
        }
        if self.stopped || depth == 0 {
            return Node::Fail { bounded: true };
        }
        let key = self.board.hash();
        if let Some(proved) = self.table.map.get(key)
            && proved >= depth
        {
            return Node::Fail {
                bounded: proved != PROVED_NONE,
            };
        }
        // The candidates: a defender's four must be answered at once, and the answer must
        // itself be a four; otherwise every four (there are no attacker fives here: they are
        // taken first).
        let mut candidates = std::mem::take(&mut self.table.fours);
        candidates.clear();
        match threat {
            Some(g) => {
                let four = self.board.four_at(g, self.attacker);
                if four.count > 0 && !four.five {
                    candidates.push((g, four, None));
                }
            }
            None => {
                self.board
                    .four_points_legal_into(self.attacker, &mut candidates);
                candidates.retain(|(_, four, _)| !four.five);
            }
        }
        // A four no single stone can stop wins; a four with one stopping point forces it; a
        // four the defender may stop in several ways (caro) is no part of a VCF. Black never
        // plays a forbidden point.
        let base = self.table.forcing.len();
        let mut unstoppable = None;
        for &(p, four, legal) in &candidates {
            // Where the fours' reading did not tell, the recursive test does.
            if !legal.unwrap_or_else(|| self.legal(p)) {
                continue;
            }
            debug_assert_eq!(legal.unwrap_or(true), self.legal(p));
            match self.board.defence_of(p, self.attacker, four) {
                Defence::Unstoppable => {
                    unstoppable = Some(p);
                    break;
                }
                Defence::Forced(f) => self.table.forcing.push((p, f)),
                Defence::Choice(_) => self.incomplete = true,
                Defence::NoFour => {}
            }
        }
        self.table.fours = candidates;
        if let Some(p) = unstoppable {
            self.table.forcing.truncate(base);
            let (a, b) = finish(self.board, p, self.attacker);
            self.line.extend([b, a, p]);
            self.ending = Ending::Five;
            return Node::Win;
        }
        let result = self.try_forcing(depth, base);
        self.table.forcing.truncate(base);
        let bounded = match result {
            Node::Win => return Node::Win,
            Node::Fail { bounded } => bounded,
        };
        if !self.stopped {
            if self.table.map.len() >= self.table.cap {
                self.table.map.clear();
            }
            let proved = if bounded { depth } else { PROVED_NONE };
            self.table.map.raise(key, proved);
        }
        Node::Fail { bounded }
    }

    /// Plays each forcing four of the node (from `base` in `forcing`) and its forced reply and
    /// searches on, with `depth` fours left at the node.
    fn try_forcing(&mut self, depth: u32, base: usize) -> Node {
        let mut bounded = false;
        // The children's table entries, asked for at once so that their cache misses overlap.
        for &(p, f) in &self.table.forcing[base..] {
            self.table.map.prefetch(self.board.hash_after_pair(p, f));
        }
        for i in base..self.table.forcing.len() {
            let (p, f) = self.table.forcing[i];
            self.board.play_unchecked(p);
            if block_forbidden(self.board, self.defender, f, &mut |_| {}) {
                self.board.undo();
                self.line.push(p);
                self.ending = Ending::ForbiddenBlock;
                return Node::Win;
            }
            self.board.play_unchecked(f);
            let counter = self.board.four_at(f, self.defender);
            let caro = self.board.rules().rule() == Rule::Caro;
            if caro && counter.count > 0 {
                // Caro fours may be stopped off their five point; this search answers them
                // only on it (and gives up on two), which proves nothing about other answers.
                self.incomplete = true;
            }
            let result = if counter.five || counter.count >= 2 {
                // The block makes a five, or a four the attacker cannot stop in one move.
                Node::Fail { bounded: false }
            } else {
                self.attack(depth - 1, counter.single())
            };
            self.board.undo();
            self.board.undo();
            match result {
                Node::Win => {
                    self.line.extend([f, p]);
                    return Node::Win;
                }
                Node::Fail { bounded: b } => bounded |= b,
            }
        }
        Node::Fail { bounded }
    }
}

/// For an unstoppable four at `p`: a defender reply (on a five point) and the attacker's five
/// that follows it.
pub(crate) fn finish(board: &mut Board, p: Point, attacker: Color) -> (Point, Point) {
    board.play_unchecked(p);
    let a = board.four_at(p, attacker).points[0].expect("a four has a five point");
    board.play_unchecked(a);
    let b = *board
        .five_points(attacker)
        .first()
        .expect("an unstoppable four keeps a five point");
    board.undo();
    board.undo();
    (a, b)
}

/// Whether `defender` (Black, under renju) may not block at `f`.
pub(crate) fn block_forbidden(
    board: &mut Board,
    defender: Color,
    f: Point,
    trace: &mut impl FnMut(Point),
) -> bool {
    defender == Color::Black
        && board.rules().rule() == Rule::Renju
        && board.forbidden_in_place(f, trace).is_some()
}

/// Replays a VCF `line` for `attacker` on `board` (attacker to move, the defender's forced
/// replies taken from the rules rather than the line) and says whether it still wins. `threat`
/// is the defender's five point the attacker must answer first, if any. `trace` is told every
/// point whose surroundings the replay read: a stone anywhere else, that gives the defender no
/// four, cannot change the answer. The board is left as it was found.
pub(crate) fn replay(
    board: &mut Board,
    attacker: Color,
    line: &Line,
    threat: Option<Point>,
    trace: &mut impl FnMut(Point),
) -> bool {
    replay_forcing(board, attacker, line, threat, trace, &mut |_, _| {}).is_some()
}

/// `line` as it is played on `board` (see [`replay`]): a line that wins on a similar board,
/// whose forced replies may differ there, with each defender reply the rules force here
/// written in its place, and ended where it wins here, as a VCF search would end it (a five; an
/// unstoppable four, a reply and the five; or a four whose block is forbidden for Black). A line
/// that does not win here is returned with its replies rewritten as far as the replay went.
pub(crate) fn as_played(
    board: &mut Board,
    attacker: Color,
    line: &Line,
    threat: Option<Point>,
) -> Line {
    let mut played = line.clone();
    let won = replay_forcing(board, attacker, line, threat, &mut |_| {}, &mut |i, f| {
        if let Some(m) = played.moves.get_mut(i) {
            *m = f;
        }
    });
    match won {
        None => {}
        Some(Won::Five(i)) => {
            played.moves.truncate(i + 1);
            played.ending = Ending::Five;
        }
        Some(Won::ForbiddenBlock(i)) => {
            played.moves.truncate(i + 1);
            played.ending = Ending::ForbiddenBlock;
        }
        Some(Won::Unstoppable(i)) => {
            played.moves.truncate(i);
            for &m in &played.moves {
                board.play_unchecked(m);
            }
            let four = line.moves[i];
            let (a, b) = finish(board, four, attacker);
            for _ in 0..played.moves.len() {
                board.undo();
            }
            played.moves.extend([four, a, b]);
            played.ending = Ending::Five;
        }
    }
    played
}

/// How a replayed line won, with the index in the line of the attacker move that won.
#[derive(Clone, Copy, Debug)]
enum Won {
    /// The move makes a five.
    Five(usize),
    /// The move makes a four no single stone stops.
    Unstoppable(usize),
    /// The move makes a four whose only block is forbidden for Black.
    ForbiddenBlock(usize),
}

/// [`replay`], telling `forced` the index in the line of each defender reply and the point
/// the rules force it to; how the line won, if it does.
fn replay_forcing(
    board: &mut Board,
    attacker: Color,
    line: &Line,
    mut threat: Option<Point>,
    trace: &mut impl FnMut(Point),
    forced: &mut impl FnMut(usize, Point),
) -> Option<Won> {
    let defender = attacker.opponent();
    let mut played = 0;
    let mut won = None;
    for (i, &m) in line.moves.iter().enumerate().step_by(2) {
        trace(m);
        if !board.is_empty(m) {
            break;
        }
        let four = four_traced(board, m, attacker, trace);
        if four.five {
            won = Some(Won::Five(i));
            break;
        }
        if threat.is_some_and(|g| g != m)
            || four.count == 0
            || (attacker == Color::Black && board.forbidden_in_place(m, trace).is_some())
        {
            break;
        }
        let defence = board.defence_of(m, attacker, four);
        board.play_unchecked(m);
        played += 1;
        let f = match defence {
            Defence::Unstoppable => {
                won = Some(Won::Unstoppable(i));
                break;
            }
            Defence::Forced(f) => f,
            Defence::NoFour | Defence::Choice(_) => break,
        };
        trace(f);
        forced(i + 1, f);
        if block_forbidden(board, defender, f, trace) {
            won = Some(Won::ForbiddenBlock(i));
            break;
        }
        board.play_unchecked(f);
        played += 1;
        let counter = four_traced(board, f, defender, trace);
        if counter.five || counter.count >= 2 {
            break;
        }
        threat = counter.single();
    }
    for _ in 0..played {
        board.undo();
    }
    won
}

fn four_traced(board: &Board, p: Point, color: Color, trace: &mut impl FnMut(Point)) -> Four {
    trace(p);
    board.four_at(p, color)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Rules, Size};

    fn board(black: &str, white: &str) -> Board {
        let mut board = Board::new(Size::STANDARD, Rules::renju());
        for (stones, color) in [(black, Color::Black), (white, Color::White)] {
            for p in stones.split_whitespace() {
                board.put(p.parse().unwrap(), color).unwrap();
            }
        }
        board.set_to_move(Color::Black);
        board
    }

    fn line(moves: &str) -> Line {
        Line {
            moves: moves
                .split_whitespace()
                .map(|m| m.parse().unwrap())
                .collect(),
            ending: Ending::Five,
        }
    }

    /// A line lent from a similar board is written as played here: it ends where it wins here,
    /// as a VCF search would end it, and nothing the replay never reached is kept.
    #[test]
    fn a_line_as_played_ends_where_it_wins() {
        // Black's open four: h8-k8, five at g8 or l8. A line with moves after the five.
        let four = board("h8 i8 j8 k8", "a1 a2 a3");
        let played = as_played(&mut four.clone(), Color::Black, &line("l8 a4 o15"), None);
        assert_eq!(played, line("l8"));
        // An open three: k8 is an open four here, though the line (found where g8 was White's)
        // treats it as a four forced at l8 and goes on. Here it ends with a reply and the five.
        let three = board("h8 i8 j8", "a1 a2");
        let played = as_played(&mut three.clone(), Color::Black, &line("k8 l8 o15"), None);
        assert_eq!(played.moves.len(), 3);
        assert_eq!(played.moves[0], "k8".parse().unwrap());
        let mut after = three.clone();
        after.play_unchecked(played.moves[0]);
        after.play_unchecked(played.moves[1]);
        assert!(after.makes_five(played.moves[2], Color::Black));
        assert!(replay(
            &mut three.clone(),
            Color::Black,
            &played,
            None,
            &mut |_| {}
        ));
        // A line that does not win here comes back with its moves.
        let lost = as_played(&mut three.clone(), Color::Black, &line("a4 b4 o15"), None);
        assert_eq!(lost, line("a4 b4 o15"));
    }
}
