//! Sets of points, and the zone a replay depends on: every point within reach, along the four
//! lines, of a point whose surroundings were read.

use crate::rules::{Direction, Point, Size};

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
