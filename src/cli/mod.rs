//! Command implementations of the `renju` binary that are larger than a few lines.

pub mod batch;
pub mod book;
pub mod check;
pub mod db;
pub mod search;
pub mod solve;

use std::io::IsTerminal;
use std::num::NonZeroUsize;
use std::time::{Duration, Instant};

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

/// An input error unless a file can be made at `path` (named by `flag`): it exists, or its
/// directory does. Checked before work whose result goes there, which would otherwise be
/// lost at the end.
pub fn creatable(path: &std::path::Path, flag: &str) -> anyhow::Result<()> {
    let dir = renju::atomic::directory_of(path);
    if path.exists() || dir.is_dir() {
        return Ok(());
    }
    Err(crate::input_error(format!(
        "{flag} `{}`: cannot create it: `{}` is not a directory",
        path.display(),
        dir.display()
    )))
}

/// [`store_kind`] of a book's journal.
const JOURNAL: &str = "a book's journal";

/// What an existing file at `path` holds, if it is one of the tool's stores: `"a solution
/// database"` or `"a book's journal"` (read from its first bytes).
fn store_kind(path: &std::path::Path) -> Option<&'static str> {
    use std::io::Read;
    let mut head = [0u8; 8];
    let mut file = std::fs::File::open(path).ok()?;
    file.read_exact(&mut head).ok()?;
    if head == renju::db::MAGIC {
        Some("a solution database")
    } else if head == renju::book::JOURNAL_MAGIC {
        Some(JOURNAL)
    } else {
        None
    }
}

/// An input error if `out` (named by `flag`), a plain output file, is an existing solution
/// database or book journal, which writing it would destroy; and unless it can be made
/// ([`creatable`]).
pub fn plain_output(out: &std::path::Path, flag: &str) -> anyhow::Result<()> {
    refuse_store(out, flag, |_| true)?;
    creatable(out, flag)
}

/// An input error if `out` (named by `flag`) is an existing book journal.
pub fn not_a_journal(out: &std::path::Path, flag: &str) -> anyhow::Result<()> {
    refuse_store(out, flag, |kind| kind == JOURNAL)
}

/// An input error if `out` (named by `flag`) is a store whose kind `refused` names.
fn refuse_store(
    out: &std::path::Path,
    flag: &str,
    refused: impl Fn(&str) -> bool,
) -> anyhow::Result<()> {
    match store_kind(out) {
        Some(kind) if refused(kind) => Err(crate::input_error(format!(
            "{flag} `{}` is {kind}: writing it would destroy it",
            out.display()
        ))),
        _ => Ok(()),
    }
}

/// Refuses `out`, the file given to `out_flag`, when it is the file the position argument
/// `position` names (see [`crate::read_position_text`]).
pub fn not_the_position_file(
    out: &std::path::Path,
    out_flag: &str,
    position: &str,
) -> anyhow::Result<()> {
    let file = std::path::Path::new(position);
    if position == "-" || !file.exists() {
        return Ok(());
    }
    distinct_output(out, out_flag, file, "position file")
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

/// Seconds between the progress lines of long work whose stderr is not a terminal (a log file
/// or a pipe, as under Slurm), where no spinner shows: `solve`'s, and `book work`'s report on
/// each search under way.
pub const LOG_EVERY: Duration = Duration::from_secs(60);

/// A clock for progress lines in a log: due once every `every`, counted from its start.
pub struct Every {
    every: Duration,
    last: Instant,
}

impl Every {
    pub fn new(every: Duration) -> Every {
        Every {
            every,
            last: Instant::now(),
        }
    }

    /// Whether `every` has passed since the start or the last time this said so.
    pub fn due(&mut self) -> bool {
        if self.last.elapsed() < self.every {
            return false;
        }
        self.last = Instant::now();
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_is_due_once_each_period() {
        let mut hourly = Every::new(Duration::from_secs(3600));
        assert!(!hourly.due(), "not due before its first period has passed");
        let mut always = Every::new(Duration::ZERO);
        assert!(always.due());
        assert!(always.due());
        let mut short = Every::new(Duration::from_millis(30));
        assert!(!short.due());
        std::thread::sleep(Duration::from_millis(40));
        assert!(short.due());
        assert!(!short.due(), "due again only after another period");
    }
}
