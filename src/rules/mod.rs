//! The rules of five-in-a-row games: geometry, rule sets, the board, symmetries and hashing,
//! and the exact renju forbidden moves.
//!
//! Everything here is pure: no I/O, no allocation on the hot paths of play, undo and the
//! forbidden-move test. The definitions follow `docs/rules.md` of the project word for word;
//! a separate, deliberately simple implementation in the tests holds the fast one to them.

mod board;
mod forbidden;
mod fours;
mod geometry;
mod lines;
mod patterns;
mod rule;
mod symmetry;
mod zobrist;

pub use board::{Board, Five, PlayError};
pub use forbidden::Forbidden;
pub use fours::{Defence, Four};
pub use geometry::{Color, Direction, MAX_SIDE, MIN_SIDE, Point, Size, SizeError};
pub use rule::{Rule, RuleError, Rules};
pub use symmetry::{Canonical, Symmetry};
