//! Sets of points, and the zone a replay depends on: every point within reach, along the four
//! lines, of a point whose surroundings were read.

use crate::rules::{Board, Color, Direction, Point, Size};

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

    /// The number of points in the set.
    pub(crate) fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub(crate) fn contains(&self, p: Point) -> bool {
        let i = Self::index(p);
        self.0[i / 64] & (1 << (i % 64)) != 0
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
    for &c in centres {
        set.insert(c);
        for d in Direction::ALL {
            for step in 1..=i32::from(reach) {
                for sign in [-1, 1] {
                    if let Some(q) = c.step(d, sign * step, size) {
                        set.insert(q);
                    }
                }
            }
        }
    }
    set
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
/// certificate winning: outside its zone a reply that makes no four cannot change the replay,
/// and inside it each reply is replayed.
pub(crate) fn breaking_replies(
    board: &mut Board,
    attacker: Color,
    certificate: &Line,
) -> Vec<(Point, bool)> {
    let defender = attacker.opponent();
    let mut tries = zone_of(board, attacker, certificate);
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

#[cfg(test)]
mod tests {
    use super::*;

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
