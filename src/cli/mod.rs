//! Command implementations of the `renju` binary that are larger than a few lines.

pub mod batch;
pub mod book;
pub mod check;
pub mod db;
pub mod search;
pub mod solve;

use std::io::IsTerminal;
use std::num::NonZeroUsize;
use std::time::Duration;

use crate::Global;

/// The threads to use: `threads` if given (at least one), else one per core.
pub fn threads_of(threads: Option<u32>) -> usize {
    threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
        |n| n.max(1) as usize,
    )
}

/// A ticking spinner on stderr for long work, when stderr is a terminal and the output is not
/// `--quiet`.
pub fn spinner(global: &Global) -> Option<indicatif::ProgressBar> {
    (!global.quiet && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    })
}
