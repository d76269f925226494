//! Zobrist keys: one random 64-bit key per point and colour, plus one for White to move.
//!
//! The keys come from a fixed-seed SplitMix64 stream evaluated at compile time, so hashes are
//! the same in every build and on every machine, and can be stored in files.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock, PoisonError};

use super::geometry::{Color, Point, SLOTS, Size};
use super::symmetry::Symmetry;

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn make_keys() -> [[u64; SLOTS]; 2] {
    let mut keys = [[0u64; SLOTS]; 2];
    let mut state = 0x5245_4E4A_5530_0001; // "RENJU", version 1
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < SLOTS {
            let (s, z) = splitmix64(state);
            state = s;
            keys[c][i] = z;
            i += 1;
        }
        c += 1;
    }
    keys
}

static STONE_KEYS: [[u64; SLOTS]; 2] = make_keys();

/// The key XORed in when White is to move.
pub(crate) const WHITE_TO_MOVE: u64 = splitmix64(0x5245_4E4A_5530_0002).1;

/// The key of a `color` stone at `p`.
#[inline]
pub(crate) fn stone(color: Color, p: Point) -> u64 {
    STONE_KEYS[color.index()][p.slot()]
}

/// The keys of one stone as seen through each symmetry, indexed by [`Symmetry::index`]: one
/// cache line, which a move reads whole to update the eight keys.
#[derive(Clone, Copy)]
#[repr(align(64))]
pub(crate) struct ThroughSymmetries(pub(crate) [u64; 8]);

/// The key of each stone as seen through each symmetry of one board size,
/// `[colour][slot]`: a move updates the eight keys without mapping its point.
pub(crate) type SymmetricKeys = [[ThroughSymmetries; SLOTS]; 2];

/// The [`SymmetricKeys`] of `size`, made once per size and kept for the life of the process
/// (51 KiB each). Symmetries a rectangle lacks have zero keys.
pub(crate) fn symmetric_keys(size: Size) -> &'static SymmetricKeys {
    static MADE: OnceLock<Mutex<HashMap<Size, &'static SymmetricKeys>>> = OnceLock::new();
    let mut made = MADE
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    made.entry(size).or_insert_with(|| {
        let mut keys: Box<SymmetricKeys> = Box::new([[ThroughSymmetries([0; 8]); SLOTS]; 2]);
        for color in [Color::Black, Color::White] {
            for &s in Symmetry::of(size) {
                for p in size.points() {
                    keys[color.index()][p.slot()].0[s.index()] = stone(color, s.apply(p, size));
                }
            }
        }
        Box::leak(keys)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = STONE_KEYS.iter().flatten().copied().collect();
        all.push(WHITE_TO_MOVE);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
