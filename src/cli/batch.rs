//! What the `--batch` modes of `vcf`, `vct` and `solve` share: reading the batch (a file or
//! standard input), parsing its lines (JSON objects or plain positions), the thread pool, the
//! progress bar, and the error record of a bad line.

use std::io::IsTerminal;
use std::path::Path;

use anyhow::Result;
use rayon::prelude::*;
use serde::Serialize;
use serde_json::Value;

use renju::rules::Color;

use crate::{Global, input_error};

/// One entry of a batch: its id (the JSON `id`, or the line number) and what was made of it,
/// or why nothing could be.
pub struct Job<T> {
    /// The id its result is tagged with.
    pub id: Value,
    /// The parsed entry, or the error record's message.
    pub parsed: Result<T, String>,
}

/// The error record of a bad line.
#[derive(Serialize)]
struct Failure {
    id: Value,
    error: String,
}

/// Reads the batch at `path` (`-` for standard input); a failure is an input error. Its text
/// is checked line by line (see [`read_jobs`]).
fn read(path: &Path) -> Result<Vec<u8>> {
    if path == Path::new("-") {
        renju::files::read_stream(std::io::stdin())
            .map_err(|e| input_error(format!("cannot read the batch from standard input: {e}")))
    } else {
        renju::files::read(path)
            .map_err(|e| input_error(format!("cannot read batch file `{}`: {e}", path.display())))
    }
}

/// Reads the batch at `path` and parses each line that is neither blank nor a `#` comment.
///
/// A line is a JSON object `{"id":..,"position":"..","<color_field>":"black"|"white"}` (`id` and
/// the colour optional) or a plain position, whose id is its line number. `build` makes the
/// entry from the position text and the colour field's value (`Ok(None)` when absent, `Err`
/// when it is not a colour); it decides which of its errors comes first.
pub fn read_jobs<T>(
    path: &Path,
    color_field: &str,
    build: impl Fn(&str, Result<Option<Color>, String>) -> Result<T, String>,
) -> Result<Vec<Job<T>>> {
    let mut bytes = read(path)?;
    if bytes.starts_with(renju::files::BOM) {
        bytes.drain(..renju::files::BOM.len());
    }
    // A line that is not UTF-8 is one bad line, not a bad batch.
    let mut jobs = Vec::new();
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let number = i + 1;
        let Ok(line) = std::str::from_utf8(line) else {
            jobs.push(Job {
                id: Value::from(number),
                parsed: Err(format!("line {number} is not UTF-8 text")),
            });
            continue;
        };
        let line = line.strip_suffix('\r').unwrap_or(line);
        if !line.trim().is_empty() && !line.trim_start().starts_with('#') {
            jobs.push(parse_line(number, line, color_field, &build));
        }
    }
    Ok(jobs)
}

fn parse_line<T>(
    number: usize,
    line: &str,
    color_field: &str,
    build: impl Fn(&str, Result<Option<Color>, String>) -> Result<T, String>,
) -> Job<T> {
    let trimmed = line.trim();
    if !trimmed.starts_with('{') {
        return Job {
            id: Value::from(number),
            parsed: build(trimmed, Ok(None)),
        };
    }
    let object: Value = match serde_json::from_str(trimmed) {
        Ok(v) => v,
        Err(e) => {
            return Job {
                id: Value::from(number),
                parsed: Err(format!("line {number} is not valid JSON: {e}")),
            };
        }
    };
    let id = object
        .get("id")
        .cloned()
        .unwrap_or_else(|| Value::from(number));
    let parsed = match object.get("position").and_then(Value::as_str) {
        None => Err(format!("line {number} has no \"position\" string")),
        Some(position) => {
            let color = match object.get(color_field) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => s.parse().map(Some),
                Some(other) => Err(format!(
                    "\"{color_field}\" must be \"black\" or \"white\", not {other}"
                )),
            };
            build(position, color)
        }
    };
    Job { id, parsed }
}

/// The pool that runs a batch: `threads` threads, or one per core.
pub fn pool(threads: Option<u32>) -> Result<rayon::ThreadPool> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        pool = pool.num_threads(n as usize);
    }
    Ok(pool.build()?)
}

/// Runs `work` on every good entry of `jobs` in `pool`, with a progress bar on stderr when it
/// is a terminal and not `--quiet`. The results come back in input order: a bad entry's is its
/// error record, serialised.
pub fn run<T: Sync, R: Send>(
    pool: &rayon::ThreadPool,
    jobs: &[Job<T>],
    global: &Global,
    work: impl Fn(&Value, &T) -> R + Sync,
) -> Vec<Result<R, String>> {
    let progress = (!global.quiet && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(jobs.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} positions, {elapsed} elapsed, eta {eta}",
            )
            .expect("a valid template"),
        );
        bar
    });
    let results = pool.install(|| {
        jobs.par_iter()
            .map(|job| {
                let result = match &job.parsed {
                    Ok(entry) => Ok(work(&job.id, entry)),
                    Err(error) => Err(failure(&job.id, error)),
                };
                if let Some(bar) = &progress {
                    bar.inc(1);
                }
                result
            })
            .collect()
    });
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    results
}

/// The error record `{"id":..,"error":".."}` as one line of JSON.
fn failure(id: &Value, error: &str) -> String {
    serde_json::to_string(&Failure {
        id: id.clone(),
        error: error.to_string(),
    })
    .expect("an error record serialises")
}
