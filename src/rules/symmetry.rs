//! The symmetries of the board and the canonical form of a position.
//!
//! A square board has 8 symmetries (the dihedral group of the square); a rectangular one has 4
//! (identity, the two mirrors and the half turn). Colour swap is not a symmetry. The canonical
//! form of a position is the symmetric image with the smallest Zobrist key; it is reported as
//! that key plus the symmetry that maps the position onto it.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::geometry::{Point, Size};

/// One symmetry of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Symmetry {
    /// Leaves every point where it is.
    Identity,
    /// A quarter turn anticlockwise (square boards only).
    Rotate90,
    /// A half turn.
    Rotate180,
    /// Three quarter turns anticlockwise (square boards only).
    Rotate270,
    /// Mirror left to right: file `a` becomes the last file.
    FlipFiles,
    /// Mirror top to bottom: rank 1 becomes the last rank.
    FlipRanks,
    /// Mirror in the `a1` diagonal: file and rank swap (square boards only).
    Transpose,
    /// Mirror in the other diagonal (square boards only).
    AntiTranspose,
}

impl Symmetry {
    /// All 8 symmetries, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::FlipFiles,
        Symmetry::FlipRanks,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// The 4 symmetries that keep a rectangle's shape.
    pub const RECTANGULAR: [Symmetry; 4] = [
        Symmetry::Identity,
        Symmetry::Rotate180,
        Symmetry::FlipFiles,
        Symmetry::FlipRanks,
    ];

    /// The symmetries of a board of this size: 8 if square, else 4.
    #[must_use]
    pub fn of(size: Size) -> &'static [Symmetry] {
        if size.is_square() {
            &Self::ALL
        } else {
            &Self::RECTANGULAR
        }
    }

    /// Position in [`Symmetry::ALL`].
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether this symmetry swaps files and ranks (and so needs a square board).
    #[must_use]
    pub const fn swaps_axes(self) -> bool {
        matches!(
            self,
            Symmetry::Rotate90
                | Symmetry::Rotate270
                | Symmetry::Transpose
                | Symmetry::AntiTranspose
        )
    }

    /// Where `p` goes on a board of `size`.
    ///
    /// For a symmetry that swaps the axes on a rectangular board the result may fall off the
    /// board; use [`Symmetry::of`] to pick the valid ones.
    ///
    /// # Panics
    /// If `p` is not on a board of `size`, or the image falls outside the largest board.
    #[must_use]
    pub fn apply(self, p: Point, size: Size) -> Point {
        let (x, y) = (p.x(), p.y());
        let (xm, ym) = (size.cols() - 1 - x, size.rows() - 1 - y);
        let (nx, ny) = match self {
            Symmetry::Identity => (x, y),
            Symmetry::Rotate90 => (size.rows() - 1 - y, x),
            Symmetry::Rotate180 => (xm, ym),
            Symmetry::Rotate270 => (y, size.cols() - 1 - x),
            Symmetry::FlipFiles => (xm, y),
            Symmetry::FlipRanks => (x, ym),
            Symmetry::Transpose => (y, x),
            Symmetry::AntiTranspose => (size.rows() - 1 - y, size.cols() - 1 - x),
        };
        Point::new(nx, ny)
    }

    /// The symmetry that undoes this one.
    #[must_use]
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }

    /// The symmetry that applies `first`, then `self`: `self.after(first).apply(p)` is
    /// `self.apply(first.apply(p))`.
    #[must_use]
    pub fn after(self, first: Symmetry) -> Symmetry {
        // The point b3 has 8 distinct images on the standard board, so its image names the
        // composite; composition is the same on every board size.
        let size = Size::STANDARD;
        let p = Point::new(1, 2);
        let image = self.apply(first.apply(p, size), size);
        Symmetry::ALL
            .into_iter()
            .find(|s| s.apply(p, size) == image)
            .expect("the symmetries of the square form a group")
    }

    /// The name used in output, like `rotate-90`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Symmetry::Identity => "identity",
            Symmetry::Rotate90 => "rotate-90",
            Symmetry::Rotate180 => "rotate-180",
            Symmetry::Rotate270 => "rotate-270",
            Symmetry::FlipFiles => "flip-files",
            Symmetry::FlipRanks => "flip-ranks",
            Symmetry::Transpose => "transpose",
            Symmetry::AntiTranspose => "anti-transpose",
        }
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The canonical form of a position: the smallest Zobrist key over its symmetric images, and
/// the symmetry that maps the position onto that image.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Canonical {
    /// The Zobrist key of the canonical image.
    pub key: u64,
    /// Apply this to the position (and its moves) to get the canonical image.
    pub symmetry: Symmetry,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_undoes_every_symmetry() {
        for size in [Size::STANDARD, Size::new(4, 3).unwrap()] {
            for &s in Symmetry::of(size) {
                for p in size.points() {
                    let q = s.apply(p, size);
                    assert!(size.contains(q), "{s} sends {p} off the {size} board");
                    assert_eq!(s.inverse().apply(q, size), p, "{s}");
                }
            }
        }
    }

    #[test]
    fn quarter_turn_moves_corners_round() {
        let size = Size::STANDARD;
        let a1 = Point::new(0, 0);
        assert_eq!(Symmetry::Rotate90.apply(a1, size).to_string(), "o1");
        assert_eq!(Symmetry::Rotate180.apply(a1, size).to_string(), "o15");
        assert_eq!(Symmetry::Rotate270.apply(a1, size).to_string(), "a15");
        assert_eq!(Symmetry::AntiTranspose.apply(a1, size).to_string(), "o15");
    }

    #[test]
    fn after_composes_on_every_point() {
        for size in [Size::STANDARD, Size::new(6, 4).unwrap()] {
            for &a in Symmetry::of(size) {
                for &b in Symmetry::of(size) {
                    let c = a.after(b);
                    assert!(Symmetry::of(size).contains(&c), "{a} after {b} on {size}");
                    for p in size.points() {
                        assert_eq!(c.apply(p, size), a.apply(b.apply(p, size), size));
                    }
                }
            }
        }
    }

    #[test]
    fn symmetries_are_distinct() {
        let size = Size::STANDARD;
        let p = Point::new(1, 2);
        let images: std::collections::HashSet<_> =
            Symmetry::ALL.iter().map(|s| s.apply(p, size)).collect();
        assert_eq!(images.len(), 8);
    }
}
