//! Command implementations of the `renju` binary that are larger than a few lines.

pub mod batch;
pub mod book;
pub mod check;
pub mod db;
pub mod search;
pub mod solve;
