//! All integration tests, compiled into one binary: golden forbidden-move data, property tests
//! of the rules core against the reference implementation, and the command-line tool.

mod cli;
mod golden;
mod props;
mod reference;
mod support;
