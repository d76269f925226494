//! `renju`: a solver and threat-search research tool for renju and gomoku.
//!
//! This crate is the library behind the `renju` command-line tool. It is built in layers
//! (see `docs/design.md` of the project):
//!
//! - [`rules`]: the board, points and colours, rule sets, incremental play and undo with
//!   Zobrist hashing, the board symmetries and canonical form, fives, and the exact renju
//!   forbidden moves for Black (overline, double-four, recursive double-three). Pure, no I/O.
//! - [`notation`]: reading and writing positions, as move lists (`h8 h9 i9`) or board diagrams.
//! - [`svg`]: a board picture as an SVG document.
//! - [`threat`]: threat-sequence search, VCF and VCT.
//! - [`proof`]: the proof format: AND/OR nodes with certificates, as data.
//! - [`solve`]: df-pn over the whole game, writing [`proof`]s.
//! - [`db`]: the solution database on disk: proofs stored once per position up to symmetry,
//!   as a DAG, with lookup, merging and text export.
//! - [`book`]: opening books grown best-first over `solve`, with work units for clusters.
//! - [`renlib`]: RenLib `.lib` libraries, read and written, and their lines as move sequences.
//! - [`check`]: the independent checker's own rules code, written from the definitions alone.
//! - [`atomic`]: writing files so that a kill midway never leaves a half-written one.
//!
//! ```
//! use renju::notation::{parse_position, PositionOptions};
//! use renju::rules::Forbidden;
//!
//! // Black to move; h8 would make two open threes at once.
//! let board = parse_position("h9 a1 h10 a2 i8 a3 j8 a4", &PositionOptions::default()).unwrap();
//! let h8 = "h8".parse().unwrap();
//! assert_eq!(board.forbidden(h8), Some(Forbidden::DoubleThree));
//! ```
#![deny(missing_docs)]

pub mod atomic;
pub mod book;
pub mod check;
pub mod db;
mod dfpn;
pub mod files;
pub mod notation;
pub mod proof;
pub mod renlib;
pub mod rules;
pub mod solve;
pub mod svg;
#[cfg(test)]
mod testing;
pub mod threat;
