//! Zones for the checker (`docs/certificates.md`): sets of empty points a verification
//! depended on. A certificate's zone is recorded while the certificate is verified once; a
//! reply outside it is then answered by the certificate without a replay.
//!
//! A zone is recorded for a number of *extra* defender stones it must stand (`extra`): the
//! defender's nearly complete stretches (kind 4 of the document) are recorded down to
//! `k - 1 - extra` defender stones.

use super::replay::Rule;
use super::rules::{EMPTY, Grid};

/// A set of points of a board up to 20x20, by cell index (`y * width + x`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Zone([u64; 7]);

impl Zone {
    /// Adds the point of cell index `i`.
    pub fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    /// Whether the point of cell index `i` is in the zone.
    #[must_use]
    pub fn contains(&self, i: usize) -> bool {
        self.0[i / 64] & (1 << (i % 64)) != 0
    }

    /// Adds every point of `other`.
    pub fn add(&mut self, other: &Zone) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
    }

    /// The number of points.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the zone has no point.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
}

/// The four lines through a point, as unit steps.
const DIRECTIONS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Adds to `zone` every empty point of every stretch of `k` points of `grid` that holds no
/// `attacker` stone and at least `k - 1 - extra` stones of `defender` (kind 4 of
/// `docs/certificates.md`): the stretches where `extra` more defender stones could make a
/// five point.
pub fn add_stretches(
    zone: &mut Zone,
    grid: &Grid,
    rule: Rule,
    attacker: u8,
    defender: u8,
    extra: usize,
) {
    let k = rule.k() as isize;
    let need = (k as usize).saturating_sub(1 + extra);
    let (w, h) = (grid.width as isize, grid.height as isize);
    let at = |x: isize, y: isize| grid.cells[(y * w + x) as usize];
    for (dx, dy) in DIRECTIONS {
        for y0 in 0..h {
            for x0 in 0..w {
                let (x1, y1) = (x0 + dx * (k - 1), y0 + dy * (k - 1));
                if x1 < 0 || x1 >= w || y1 < 0 || y1 >= h {
                    continue;
                }
                let mut own = 0;
                let mut blocked = false;
                for t in 0..k {
                    match at(x0 + dx * t, y0 + dy * t) {
                        c if c == attacker => blocked = true,
                        c if c == defender => own += 1,
                        _ => {}
                    }
                }
                if blocked || own < need {
                    continue;
                }
                for t in 0..k {
                    let (x, y) = (x0 + dx * t, y0 + dy * t);
                    if at(x, y) == EMPTY {
                        zone.insert((y * w + x) as usize);
                    }
                }
            }
        }
    }
}

/// Adds to `zone` the point `(x, y)`, and under caro every point within five of it along its
/// four lines (kind 3 of `docs/certificates.md`: a caro five also fails when both its ends are
/// the defender's).
pub fn add_five_point(zone: &mut Zone, grid: &Grid, rule: Rule, (x, y): (usize, usize)) {
    zone.insert(y * grid.width + x);
    if rule != Rule::Caro {
        return;
    }
    let (w, h) = (grid.width as isize, grid.height as isize);
    for (dx, dy) in DIRECTIONS {
        for t in -5..=5isize {
            let (px, py) = (x as isize + dx * t, y as isize + dy * t);
            if px >= 0 && px < w && py >= 0 && py < h {
                zone.insert((py * w + px) as usize);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::rules::{BLACK, WHITE, from_rows};
    use super::*;

    #[test]
    fn a_zone_is_a_set_of_cells() {
        let mut z = Zone::default();
        assert!(z.is_empty());
        for i in [0, 63, 64, 399, 63] {
            z.insert(i);
        }
        assert_eq!(z.len(), 4);
        assert!(z.contains(399) && !z.contains(1));
        let mut other = Zone::default();
        other.insert(1);
        z.add(&other);
        assert!(z.contains(1) && z.len() == 5);
    }

    /// White's three stones on the bottom rank make its stretches of five count from three
    /// stones; one black stone spoils those that hold it.
    #[test]
    fn stretches_count_the_defenders_stones_and_skip_the_attackers() {
        let grid = from_rows(&[
            ".........", // 9
            ".........", // 8
            ".........", // 7
            ".........", // 6
            ".........", // 5
            ".........", // 4
            ".........", // 3
            ".........", // 2
            ".OOO...X.", // 1
        ]);
        let mut zone = Zone::default();
        add_stretches(&mut zone, &grid, Rule::Renju, BLACK, WHITE, 1);
        // Stretches a1-e1, b1-f1 and c1-g1 hold three white stones and no black one; d1-h1
        // holds the black h1.
        let on_rank_1: Vec<usize> = (0..9).filter(|&x| zone.contains(x)).collect();
        assert_eq!(on_rank_1, vec![0, 4, 5]);
        assert_eq!(zone.len(), 3);
        // Standing two extra stones, stretches with two white stones count too.
        let mut wider = Zone::default();
        add_stretches(&mut wider, &grid, Rule::Renju, BLACK, WHITE, 2);
        assert!(wider.contains(6) && !wider.contains(8));
    }
}
