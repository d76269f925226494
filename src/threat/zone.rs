//! Sets of points, and the zone a replay depends on: every point within reach, along the four
//! lines, of a point whose surroundings were read.

use crate::rules::{Board, Color, Direction, Point, Rule, Size};

use super::Line;
use super::vcf::replay;

/// A set of points of a board up to 20x20.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PointSet([u64; 7]);

impl PointSet {
    fn index(p: Point) -> usize {
        usize::from(p.y()) * 20 + usize::from(p.x())
    }

    pub(crate) fn insert(&mut self, p: Point) {
        let i = Self::index(p);
        self.0[i / 64] |= 1 << (i % 64);
    }

    pub(crate) fn contains(&self, p: Point) -> bool {
        let i = Self::index(p);
        self.0[i / 64] & (1 << (i % 64)) != 0
    }

    /// Adds every point of `other`.
    pub(crate) fn add(&mut self, other: &PointSet) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
    }

    /// The points of the set, row by row.
    pub(crate) fn iter(&self) -> impl Iterator<Item = Point> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let i = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    Point::new((i % 20) as u8, (i / 20) as u8)
                })
            })
        })
    }
}

/// The zone around `centres`: every point within `reach` steps of one of them along one of
/// the four lines, the centres included.
pub(crate) fn zone(centres: &[Point], reach: u8, size: Size) -> PointSet {
    let mut set = PointSet::default();
    add_stars(&mut set, centres, reach, size);
    set
}

/// Adds to `set` every point within `reach` steps of one of `centres` along any line.
pub(crate) fn add_stars(set: &mut PointSet, centres: &[Point], reach: u8, size: Size) {
    for &c in centres {
        for d in Direction::ALL {
            add_line(set, c, d, reach, size);
        }
    }
}

/// Adds to `set` the points within `reach` steps of `c` along direction `d`, `c` included.
fn add_line(set: &mut PointSet, c: Point, d: Direction, reach: u8, size: Size) {
    let reach = i32::from(reach);
    for step in -reach..=reach {
        if let Some(q) = c.step(d, step, size) {
            set.insert(q);
        }
    }
}

/// The zone a VCF `line` for `color` depends on, on the current board: every point within
/// reach of a point the replay read.
pub(crate) fn zone_of(board: &mut Board, color: Color, line: &Line) -> PointSet {
    let mut centres = Vec::new();
    let to_move = board.to_move();
    board.set_to_move(color);
    replay(board, color, line, None, &mut |p| centres.push(p));
    board.set_to_move(to_move);
    zone(&centres, board.reach(), board.size())
}

/// Whether `attacker`'s VCF `certificate` still wins after the defender (to move) plays `r`;
/// `threat` is the defender's five point `r` makes, if any.
pub(crate) fn still_wins(
    board: &mut Board,
    attacker: Color,
    certificate: &Line,
    r: Point,
    threat: Option<Point>,
) -> bool {
    board.play_unchecked(r);
    let wins = replay(board, attacker, certificate, threat, &mut |_| {});
    board.undo();
    wins
}

/// The defender's legal replies (the defender is to move) that break `attacker`'s VCF
/// `certificate`, each with whether it makes a four. Every other legal reply leaves the
/// certificate winning: a reply that makes no four and stands outside the certificate's
/// [`sensitive_points`] (or, where those are not worked out, outside its zone) cannot change the
/// replay, and every other reply is replayed. Builds with debug assertions (the tests) also
/// replay every reply of the zone and require the same answer.
pub(crate) fn breaking_replies(
    board: &mut Board,
    attacker: Color,
    certificate: &Line,
) -> Vec<(Point, bool)> {
    let tries = sensitive_points(board, attacker, certificate)
        .unwrap_or_else(|| zone_of(board, attacker, certificate));
    let replies = replies_breaking_among(board, attacker, certificate, tries);
    #[cfg(debug_assertions)]
    {
        let zone = zone_of(board, attacker, certificate);
        debug_assert_eq!(
            replies,
            replies_breaking_among(board, attacker, certificate, zone),
            "the sensitive points of {:?} miss a reply its zone finds",
            certificate.moves
        );
    }
    replies
}

/// The replies among `tries` and the defender's four points that break `certificate` (see
/// [`breaking_replies`]), row by row.
fn replies_breaking_among(
    board: &mut Board,
    attacker: Color,
    certificate: &Line,
    mut tries: PointSet,
) -> Vec<(Point, bool)> {
    let defender = attacker.opponent();
    for (p, _) in board.four_points(defender) {
        tries.insert(p);
    }
    let mut replies = Vec::new();
    for r in tries.iter() {
        if !board.size().contains(r) || !board.is_legal_for(r, defender) {
            continue;
        }
        let counter = board.four_at(r, defender);
        if counter.count < 2 && still_wins(board, attacker, certificate, r, counter.single()) {
            continue;
        }
        replies.push((r, counter.count > 0));
    }
    replies
}

/// The points where a stone of the defender (to move) that makes no four could change how
/// `attacker`'s VCF `line`, which wins on `board`, replays: a subset of its zone. `None` under
/// rules without the five-point pattern tables (caro, other win lengths), or if the line does
/// not win here.
///
/// Why a defender stone anywhere else leaves every answer the replay reads as it was:
/// - An attacker's four and its five points are read from runs of the attacker's stones, which
///   an opponent stone neither lengthens nor shortens: it takes a five point only by standing
///   on it. The line's own points and each four's five points are kept.
/// - Black's legality of an attacker move (renju): overlines, fours and the lines that could be
///   threes never grow with a White stone (the move's four stops being one, and its line could
///   become a three, only with a stone on a five point, which is kept), so a move with fewer
///   than two such lines stays legal; where the recursive double-three test ran, every line
///   through each point it read is kept: a White stone there can make a three real.
/// - A counter-four (or five) at a forced reply `f` made with the new stone needs a clear
///   five-point stretch through `f` holding it, `f` and two more defender stones, and a Black
///   five spoiled into an overline needs a four there already: so along each line where a clear
///   stretch through `f` holds two defender stones besides `f`, the points within five of `f`
///   are kept.
/// - Black's legality of a forced reply (renju, White attacking) may change with a Black stone
///   wherever its test read: every line through each point it read is kept.
pub(crate) fn sensitive_points(
    board: &mut Board,
    attacker: Color,
    line: &Line,
) -> Option<PointSet> {
    sensitive_points_for(board, attacker, line, None, 1)
}

/// [`sensitive_points`] for `extra` (1 or 2) more defender stones at once, none making a four
/// and no two making one together, with `threat` the defender's five point the line must
/// answer first, if any. The reasons are those of [`sensitive_points`], with one change: a
/// counter-four at a forced reply `f` with two new stones needs only one more defender stone
/// in the stretch, so with `extra` 2 every line through `f` where a clear stretch holds one
/// defender stone besides `f` is kept. An answer the replay reads at the threat (it must be
/// the first move) is read from the attacker's stones there, as any move's.
pub(crate) fn sensitive_points_for(
    board: &mut Board,
    attacker: Color,
    line: &Line,
    threat: Option<Point>,
    extra: u32,
) -> Option<PointSet> {
    debug_assert!((1..=2).contains(&extra));
    let rules = board.rules();
    if rules.k() != 5 || rules.rule() == Rule::Caro {
        return None;
    }
    let (size, reach) = (board.size(), board.reach());
    let defender = attacker.opponent();
    let forbidden_for = |color: Color| color == Color::Black && rules.has_forbidden();
    let mut set = PointSet::default();
    // Points whose every line, within reach, is kept.
    let mut read = Vec::new();
    let mut traced = Vec::new();
    let to_move = board.to_move();
    board.set_to_move(attacker);
    let mut played = 0;
    let mut threat = threat;
    let mut won = false;
    for &m in line.moves.iter().step_by(2) {
        if !board.is_empty(m) {
            break;
        }
        set.insert(m);
        let four = board.four_at(m, attacker);
        // A five wins first, as the replay has it, even past a threat of the defender.
        if four.five {
            won = true;
            break;
        }
        if four.count == 0 || threat.is_some_and(|g| g != m) {
            break;
        }
        for q in four.points.into_iter().flatten() {
            set.insert(q);
        }
        if forbidden_for(attacker) {
            traced.clear();
            if board
                .forbidden_in_place(m, &mut |p| traced.push(p))
                .is_some()
            {
                break;
            }
            // One traced point: the quick test decided, on counts no White stone can raise.
            if traced.len() > 1 {
                read.extend_from_slice(&traced);
            }
        }
        let Some(f) = four.single() else {
            // Two five points: unstoppable (both are kept above).
            won = true;
            break;
        };
        board.play_unchecked(m);
        played += 1;
        set.insert(f);
        if forbidden_for(defender) && board.forbidden_in_place(f, &mut |p| read.push(p)).is_some() {
            won = true;
            break;
        }
        for (d, level) in Direction::ALL
            .into_iter()
            .zip(board.potentials(f, defender))
        {
            if level + extra >= 3 {
                add_line(&mut set, f, d, reach, size);
            }
        }
        board.play_unchecked(f);
        played += 1;
        let counter = board.four_at(f, defender);
        if counter.five || counter.count >= 2 {
            break;
        }
        threat = counter.single();
    }
    for _ in 0..played {
        board.undo();
    }
    board.set_to_move(to_move);
    if !won {
        return None;
    }
    add_stars(&mut set, &read, reach, size);
    Some(set)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::threat::testing::{crowded_renju_board, vcf_line};

    #[test]
    fn iteration_returns_every_member_once() {
        let mut set = PointSet::default();
        let members = ["a1", "t1", "c3", "a20", "t20", "k10"].map(|p| p.parse::<Point>().unwrap());
        for p in members {
            set.insert(p);
            set.insert(p);
        }
        let mut got: Vec<Point> = set.iter().collect();
        let mut want = members.to_vec();
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want);
    }

    /// Every legal reply outside `attacker`'s line's sensitive points (the defender to move on
    /// `board`) that makes no four leaves the line winning, and the points lie in its zone.
    /// Returns the number of replies replayed.
    fn assert_outside_is_harmless(board: &mut Board, attacker: Color, line: &Line) -> usize {
        let defender = attacker.opponent();
        let sensitive = sensitive_points(board, attacker, line).expect("a winning line");
        let zone = zone_of(board, attacker, line);
        let mut replayed = 0;
        for r in board.points() {
            if sensitive.contains(r) {
                assert!(zone.contains(r), "{r} outside the zone");
                continue;
            }
            let counter = board.four_at(r, defender);
            if !board.is_legal_for(r, defender) || counter.five || counter.count > 0 {
                continue;
            }
            replayed += 1;
            assert!(
                still_wins(board, attacker, line, r, None),
                "{r} breaks {:?} for {attacker} after {:?}",
                line.moves,
                board.moves()
            );
        }
        replayed
    }

    /// [`assert_outside_is_harmless`] for a VCF of each colour on `position` (of at most
    /// `max_fours` fours), where there is one: the lines checked and the replies replayed.
    fn check_both_attackers(position: &Board, max_fours: Option<u32>) -> (usize, usize) {
        let (mut lines, mut replies) = (0, 0);
        for attacker in [Color::Black, Color::White] {
            let mut board = position.clone();
            if let Some(line) = vcf_line(&mut board, attacker, max_fours) {
                lines += 1;
                replies += assert_outside_is_harmless(&mut board, attacker, &line);
            }
        }
        (lines, replies)
    }

    /// The claim [`sensitive_points`] rests on, checked by replaying: on every quintet
    /// position and along its published solution, for a VCF of either colour.
    #[test]
    fn replies_outside_the_sensitive_points_leave_the_line_winning() {
        use crate::notation::{PositionOptions, parse_diagram};

        let (mut lines, mut replies) = (0, 0);
        for (case, diagram) in crate::threat::quintet_cases() {
            let mut board = parse_diagram(&diagram, &PositionOptions::default()).unwrap();
            let mut positions = vec![board.clone()];
            for m in case["expect_solution"].as_array().into_iter().flatten() {
                let m: Point = m.as_str().unwrap().to_lowercase().parse().unwrap();
                if !board.is_legal(m) || board.play(m).is_err() {
                    break;
                }
                positions.push(board.clone());
            }
            for position in &positions {
                let (l, r) = check_both_attackers(position, None);
                (lines, replies) = (lines + l, replies + r);
            }
        }
        assert!(
            lines >= 100 && replies >= 10_000,
            "{lines} lines, {replies} replies"
        );
    }

    /// The same claim on random crowded boards (seeded), where Black's forbidden points and
    /// their recursive double-three tests come up far more often than in games.
    #[test]
    fn replies_outside_the_sensitive_points_leave_the_line_winning_on_random_boards() {
        let mut random = crate::testing::xorshift(0x1234_5678_9abc_def1);
        let (mut lines, mut replies) = (0, 0);
        for _ in 0..20_000 {
            let board = crowded_renju_board(&mut random);
            let (l, r) = check_both_attackers(&board, Some(6));
            (lines, replies) = (lines + l, replies + r);
        }
        assert!(
            lines >= 1_000 && replies >= 100_000,
            "{lines} lines, {replies} replies"
        );
    }

    /// A White stone can make Black's move forbidden by making a point of one of its threes
    /// legal, far from the line: f7 spoils d10's double-four after f8, so f8's second three
    /// becomes real and f8 a double-three. The recursive test's points keep f7.
    #[test]
    fn a_stone_that_makes_a_three_real_is_sensitive() {
        use crate::notation::{PositionOptions, parse_diagram};

        let diagram = "\
            ...............\n\
            ...............\n\
            ..X.........O..\n\
            ..O.OXO..OO.X..\n\
            ....O......O...\n\
            ..........O....\n\
            ....X.....O....\n\
            ..XX...........\n\
            ...X..XX...O...\n\
            ...X...X..X....\n\
            ..XO...O.X.O...\n\
            ......X...OOX..\n\
            ..X...O..O.....\n\
            ...............\n\
            ...............";
        let options = PositionOptions {
            to_move: Some(Color::White),
            ..PositionOptions::default()
        };
        let mut board = parse_diagram(diagram, &options).unwrap();
        let p = |s: &str| s.parse::<Point>().unwrap();
        let line = vcf_line(&mut board, Color::Black, None).unwrap();
        assert_eq!(line.moves, [p("f8"), p("d10"), p("i5")]);
        assert!(!still_wins(&mut board, Color::Black, &line, p("f7"), None));
        let sensitive = sensitive_points(&mut board, Color::Black, &line).unwrap();
        assert!(sensitive.contains(p("f7")));
        let breaking = breaking_replies(&mut board, Color::Black, &line);
        assert!(breaking.contains(&(p("f7"), false)));
        assert_outside_is_harmless(&mut board, Color::Black, &line);
    }

    #[test]
    fn zone_is_a_star_of_lines() {
        let size = Size::STANDARD;
        let h8: Point = "h8".parse().unwrap();
        let z = zone(&[h8], 5, size);
        for (p, inside) in [
            ("h8", true),
            ("h13", true),
            ("h14", false),
            ("m13", true),
            ("i10", false),
            ("c3", true),
            ("b2", false),
        ] {
            assert_eq!(z.contains(p.parse().unwrap()), inside, "{p}");
        }
    }
}
