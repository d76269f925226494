//! The search log of `book build` (`--log FILE`): one JSON line for every leaf search folded
//! into the book, appended as the run goes.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::Serialize;

use renju::book::{Book, Outcome, Searched};
use renju::proof::names;

use crate::input_error;

/// The search log: a file opened for appending, so that a resumed run adds to it.
pub struct SearchLog {
    path: PathBuf,
    file: File,
}

/// One line of the log.
#[derive(Serialize)]
struct Line<'a> {
    /// Seconds since this run started, when the search was folded in.
    at: f64,
    root: &'a str,
    /// The moves from the root to the leaf.
    line: Vec<String>,
    /// Which search of the leaf it was: 1 for the first; each later one had twice the budget
    /// of the one before it (at the ply limit).
    search: u32,
    nodes: u64,
    seconds: f64,
    /// `proved`, `unknown`, `cut short` (the run's end, a stop, or called off: it counts for
    /// nothing) or `settled meanwhile` (by another proof while it ran).
    outcome: &'static str,
    /// For an unknown outcome, where the search was working when its budget ran out: its
    /// most-proving line from the leaf.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    most_proving: Vec<String>,
    /// For an unknown outcome, why the search ended without a result: its budget ran out,
    /// its table bound was reached, or the attacker's narrowed search ended without a win.
    #[serde(skip_serializing_if = "Option::is_none")]
    why: Option<&'static str>,
    /// The side the proof wins for, when proved.
    #[serde(skip_serializing_if = "Option::is_none")]
    winner: Option<String>,
    /// Leaves its proof settled without a search of their own (siblings and cousins).
    lent: usize,
    /// The highest position settled once it was folded in, by its moves from the root (empty:
    /// the root itself); absent when the leaf is not settled.
    #[serde(skip_serializing_if = "Option::is_none")]
    settled_to: Option<Vec<String>>,
    /// With `--states`, what became of the leaf's state file: gone on from, kept, removed,
    /// or why there was none.
    #[serde(skip_serializing_if = "Option::is_none")]
    state: Option<&'a str>,
}

impl SearchLog {
    /// Opens `path` for appending, creating it if needed.
    pub fn open(path: &Path) -> Result<SearchLog> {
        let file = File::options()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| input_error(format!("--log `{}`: {e}", path.display())))?;
        Ok(SearchLog {
            path: path.to_path_buf(),
            file,
        })
    }

    /// Appends `searched` to `log`, if there is one (see [`SearchLog::write`]). A log that
    /// cannot be written is closed with a warning, and the build goes on without it: the
    /// book's work is worth more than its log.
    pub fn keep(log: &mut Option<SearchLog>, book: &Book, searched: &[Searched], at: f64) {
        if let Some(l) = log
            && let Err(e) = l.write(book, searched, at)
        {
            eprintln!("warning: {e:#}; the build goes on without its log");
            *log = None;
        }
    }

    /// Appends one line for each of `searched`, `at` seconds into the run. Each line goes
    /// out in one write, so a run killed between two leaves no line cut in half.
    pub fn write(&mut self, book: &Book, searched: &[Searched], at: f64) -> Result<()> {
        for s in searched {
            let (outcome, winner) = match s.outcome {
                Outcome::Proved(c) => ("proved", Some(c.to_string())),
                Outcome::Unknown => ("unknown", None),
                Outcome::CutShort => ("cut short", None),
                Outcome::SettledMeanwhile => ("settled meanwhile", None),
            };
            let line = Line {
                at,
                root: book
                    .roots
                    .get(s.root as usize)
                    .map_or("", |r| r.name.as_str()),
                line: names(&s.line),
                search: s.search,
                nodes: s.nodes,
                seconds: s.seconds,
                outcome,
                most_proving: names(&s.most_proving),
                why: s.why,
                winner,
                lent: s.lent,
                settled_to: s.settled_to.as_deref().map(names),
                state: s.state.as_deref(),
            };
            let mut text = serde_json::to_string(&line)?;
            text.push('\n');
            self.file
                .write_all(text.as_bytes())
                .with_context(|| format!("writing the search log `{}`", self.path.display()))?;
        }
        Ok(())
    }
}
