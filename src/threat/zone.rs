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
