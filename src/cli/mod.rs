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

/// Whether two paths name the same file (an existing file through links and `..`, or a new
/// one in the same directory under the same name).
pub fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    let resolved = |p: &std::path::Path| {
        std::fs::canonicalize(p).ok().or_else(|| {
            let name = p.file_name()?;
            let dir = renju::atomic::directory_of(p);
            std::fs::canonicalize(dir).ok().map(|d| d.join(name))
        })
    };
    match (resolved(a), resolved(b)) {
        (Some(a), Some(b)) => a == b,
        _ => a == b,
    }
}

/// An input error if an output file `out` (named by `out_flag`) is the input file `input`,
/// which writing it would destroy.
pub fn distinct_output(
    out: &std::path::Path,
    out_flag: &str,
    input: &std::path::Path,
    input_name: &str,
) -> anyhow::Result<()> {
    if same_file(out, input) {
        return Err(crate::input_error(format!(
            "{out_flag} `{}` is the {input_name}: writing it would destroy it",
            out.display()
        )));
    }
    Ok(())
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
