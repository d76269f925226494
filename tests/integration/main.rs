//! All integration tests, compiled into one binary: golden forbidden-move data, property tests
//! of the rules core against the checker's own rules, threat search on external
//! positions with an independent line checker, and the command-line tool.

mod check_replay;
mod cli;
mod cli_book;
mod cli_book_units;
mod cli_db;
mod cli_outputs;
mod cli_proof_files;
mod cli_search;
mod cli_solve;
mod cli_solve_batch;
mod cli_solve_state;
mod database;
mod golden;
mod ladder;
mod line_check;
mod minimax;
mod parallel;
mod proof_replay;
mod props;
mod renlib;
mod solve;
mod support;
mod threat_props;
mod threats;
mod vct_check;
