//! `book plan` and `book work`: the book's frontier written out as work units, and a unit's
//! positions proved on their own into a partial database (the Slurm cycle's two halves; the
//! parts come back with `db merge`).

use std::collections::HashSet;
use std::path::Path;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use renju::book::RoundOptions;
use renju::book::unit::{Heartbeat, Running, Unit, UnitPosition, WorkResult, line_name};

use super::progress::running_line;
use renju::db::Builder;
use renju::rules::{Rules, Size};

use super::subtree::starts_under;
use super::{
    PositionBudget, book_error, journal_path, lock, open, round_options, save, states_dir,
};
use crate::cli::search::interrupted;
use crate::cli::threads_of;
use crate::{Global, input_error, outln};

pub(super) fn plan(
    path: &Path,
    (shards, per_shard): (u32, u32),
    out: &Path,
    under: &[String],
    budget: &PositionBudget,
    global: &Global,
) -> Result<()> {
    if shards == 0 || per_shard == 0 {
        return Err(input_error("--shards and --per-shard must be at least 1"));
    }
    let _lock = lock(path)?;
    let mut opened = open(path, global, false)?;
    let reconciled = opened.book.reconcile(&mut opened.db).map_err(book_error)?;
    let known = opened
        .book
        .take_back_known(&mut opened.db)
        .map_err(book_error)?;
    let options = round_options(budget, 1)?;
    let count = shards as usize * per_shard as usize;
    let picked = if under.is_empty() {
        opened.book.plan(count)
    } else {
        let starts = starts_under(&opened.book, under)?;
        opened.book.plan_under(count, &starts)
    }
    .map_err(book_error)?;
    let sample = opened.book.sample();
    opened.book.history.push(sample);
    std::fs::create_dir_all(out)
        .map_err(|e| input_error(format!("cannot create `{}`: {e}", out.display())))?;
    let units = (shards as usize).min(picked.len());
    let mut written: Vec<Unit> = (0..units)
        .map(|_| Unit::new(opened.book.rules, opened.book.size, &options))
        .collect();
    for (i, (node, board)) in picked.iter().enumerate() {
        let attempts = opened.book.nodes[*node as usize].attempts;
        let line = opened.book.path(*node);
        let attacker = opened.book.searched_attacker(*node, &options);
        written[i % units].push(*node, board, &line, attempts, attacker);
    }
    for (i, unit) in written.iter().enumerate() {
        let file = out.join(format!("unit-{i}.json"));
        let mut text = serde_json::to_vec_pretty(unit)?;
        text.push(b'\n');
        renju::atomic::write_atomic(&file, &text)
            .with_context(|| format!("cannot write `{}`", file.display()))?;
    }
    save(path, &opened)?;
    #[derive(Serialize)]
    struct Planned {
        units: usize,
        positions: usize,
        taken_back: usize,
        found: usize,
        finished: bool,
    }
    let planned = Planned {
        units,
        positions: picked.len(),
        taken_back: reconciled,
        found: known,
        finished: opened.book.finished(),
    };
    if global.json {
        outln!("{}", serde_json::to_string(&planned)?)?;
    } else {
        outln!(
            "{} units, {} positions, in {} ({reconciled} planned before taken back from the database, {known} open leaf position(s) found there{})",
            planned.units,
            planned.positions,
            out.display(),
            if planned.finished {
                "; every root is settled"
            } else {
                ""
            }
        )?;
    }
    Ok(())
}

pub(super) fn work(
    path: &Path,
    out: &Path,
    threads: Option<u32>,
    guide: Option<&Path>,
    states: Option<&Path>,
    global: &Global,
) -> Result<()> {
    crate::cli::distinct_output(out, "--out", path, "work unit")?;
    if let Some(guide) = guide {
        crate::cli::distinct_output(out, "--out", guide, "database given to --guide")?;
    }
    crate::cli::not_a_journal(out, "--out")?;
    crate::cli::creatable(out, "--out")?;
    // A book's database is written by `book build` and `db merge` only: a part written over
    // it (through symbolic links too, as the part would be) would drop every proof the
    // book's journal counts on.
    let journal = journal_path(&renju::atomic::target(out));
    if journal.exists() {
        return Err(input_error(format!(
            "--out `{}` is a book's database (`{}` is beside it): give a new file for the part",
            out.display(),
            journal.display()
        )));
    }
    let (unit, (rules, size)) = read_unit(path)?;
    global.agrees_with(rules, size, path)?;
    let known = guide
        .map(|g| crate::cli::db::guide(g, (rules, size)))
        .transpose()?;
    let states = states.map(states_dir).transpose()?;
    if states.is_some() && !global.quiet && unit.positions.iter().all(|p| p.attacker.is_none()) {
        eprintln!(
            "work: --states keeps no state here: the unit's searches are for both sides' wins (plan with --attacker-wins-only)"
        );
    }
    let threads = threads_of(threads);
    let pool = crate::cli::batch::pool(Some(threads as u32))?;
    let options = RoundOptions {
        threads,
        stop: Some(interrupted()),
        memory_mb: Some(1024),
        known,
        states,
        ..RoundOptions::default()
    };
    let mut db = Builder::new(rules, size);
    // One line per position as its search ends: a unit at a doubled budget runs for hours.
    let total = unit.positions.len();
    let ended = std::sync::atomic::AtomicUsize::new(0);
    let progress = |_: &UnitPosition, r: &WorkResult| {
        let n = ended.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if !global.quiet {
            let working = if r.most_proving.is_empty() {
                String::new()
            } else {
                format!(", working on {}", r.most_proving.join(" "))
            };
            let why = r.why.map_or(String::new(), |w| format!(" ({w})"));
            let state = (r.state.as_ref()).map_or(String::new(), |s| format!("; state: {s}"));
            eprintln!(
                "work: {n}/{total}: {}: {}{why}, {} nodes, {:.1} s{working}{state}",
                line_name(&r.line),
                r.result,
                r.nodes,
                r.seconds
            );
        }
    };
    let running = |p: &UnitPosition, r: &Running| {
        eprintln!("work: {}", running_line(&p.line, r));
    };
    // A unit at a doubled budget runs for hours, and a Slurm log should show it alive.
    let heartbeat = Heartbeat {
        every: crate::cli::LOG_EVERY,
        report: &running,
    };
    let results = unit
        .work(
            &mut db,
            &options,
            &pool,
            &progress,
            (!global.quiet).then_some(&heartbeat),
        )
        .map_err(|e| input_error(format!("`{}`: {e}", path.display())))?;
    db.finish()
        .write(out)
        .with_context(|| format!("cannot write `{}`", out.display()))?;
    if global.json {
        for r in &results {
            outln!("{}", serde_json::to_string(r)?)?;
        }
    } else {
        let proved = results
            .iter()
            .filter(|r| matches!(r.result, "win" | "loss"))
            .count();
        outln!(
            "{proved} of {} positions proved, written to {}",
            results.len(),
            out.display()
        )?;
    }
    let stopped = results.iter().filter(|r| r.result == "stopped").count();
    if stopped > 0 {
        // The part keeps what was proved; the exit status tells the cycle that the unit did
        // not run to its budgets.
        anyhow::bail!(
            "interrupted: {stopped} of {} position(s) were cut short; `{}` holds the proofs found before the stop",
            results.len(),
            out.display()
        );
    }
    Ok(())
}

/// The work unit at `path`, with its rule set and board size once its header is checked.
fn read_unit(path: &Path) -> Result<(Unit, (Rules, Size))> {
    let text = renju::files::read_text(path)
        .map_err(|e| input_error(format!("cannot read unit `{}`: {e}", path.display())))?;
    let unit: Unit = serde_json::from_str(&text)
        .map_err(|e| input_error(format!("`{}` is not a work unit: {e}", path.display())))?;
    let rules = unit
        .rules()
        .map_err(|e| input_error(format!("`{}`: {e}", path.display())))?;
    Ok((unit, rules))
}

/// The book positions that `book work --json` reported searched to their budgets in the
/// results at `path` (`win`, `loss` or `unknown`; not `stopped`), each checked against the
/// unit's positions; and those among them whose search ended before its budget, its
/// narrowed moves holding no win (`narrowed_out`).
fn ended_in(path: &Path, unit: &Unit) -> Result<(HashSet<u32>, HashSet<u32>)> {
    #[derive(Deserialize)]
    struct Ended {
        book_node: u32,
        line: Vec<String>,
        result: String,
        #[serde(default)]
        narrowed_out: bool,
    }
    let text = renju::files::read_text(path)
        .map_err(|e| input_error(format!("cannot read results `{}`: {e}", path.display())))?;
    let mut ended = HashSet::new();
    let mut narrowed_out = HashSet::new();
    for (i, l) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let at = || format!("`{}` line {}", path.display(), i + 1);
        let r: Ended = serde_json::from_str(l)
            .map_err(|e| input_error(format!("{}: not a `book work --json` result: {e}", at())))?;
        if !unit
            .positions
            .iter()
            .any(|p| p.book_node == r.book_node && p.line == r.line)
        {
            return Err(input_error(format!(
                "{}: position {} ({}) is not one of the unit's",
                at(),
                r.book_node,
                line_name(&r.line)
            )));
        }
        match r.result.as_str() {
            "unknown" if r.narrowed_out => {
                ended.insert(r.book_node);
                narrowed_out.insert(r.book_node);
            }
            "win" | "loss" | "unknown" => {
                ended.insert(r.book_node);
            }
            "stopped" => {}
            other => {
                return Err(input_error(format!(
                    "{}: unknown result `{other}` (win, loss, unknown or stopped)",
                    at()
                )));
            }
        }
    }
    Ok((ended, narrowed_out))
}

/// `book release`: gives back to the book's frontier every position of the unit at
/// `unit_path` that its results do not report searched to its budget (all of them without
/// results), with no search counted; and marks exhausted those whose results say their
/// narrowed moves hold no win (`narrowed_out`), planned or counted since. All or nothing: a
/// position to give back that the book does not hold as planned, or any position not under
/// the unit's line, leaves the book as it was.
pub(super) fn release(
    path: &Path,
    unit_path: &Path,
    results: Option<&Path>,
    global: &Global,
) -> Result<()> {
    let (unit, (rules, size)) = read_unit(unit_path)?;
    let (ended, narrowed_out) = results
        .map(|r| ended_in(r, &unit))
        .transpose()?
        .unwrap_or_default();
    let _lock = lock(path)?;
    let mut opened = open(path, global, false)?;
    if (opened.book.rules, opened.book.size) != (rules, size) {
        return Err(input_error(format!(
            "`{}` is a unit of another game than the book `{}` ({} on {}, not {} on {})",
            unit_path.display(),
            path.display(),
            unit.rule,
            unit.size,
            opened.book.rules.rule(),
            opened.book.size
        )));
    }
    let boards = unit
        .boards()
        .map_err(|e| input_error(format!("`{}`: {e}", unit_path.display())))?;
    let mut released = Vec::new();
    let mut exhausted = Vec::new();
    for (p, board) in unit.positions.iter().zip(&boards) {
        if narrowed_out.contains(&p.book_node)
            && opened
                .book
                .exhaust_searched(p.book_node, &p.line, board)
                .map_err(|e| input_error(format!("`{}`: {e}", unit_path.display())))?
        {
            exhausted.push(p.line.clone());
        }
        if ended.contains(&p.book_node) {
            continue;
        }
        opened
            .book
            .release(p.book_node, &p.line, board)
            .map_err(|e| input_error(format!("`{}`: {e}", unit_path.display())))?;
        released.push(p.line.clone());
    }
    if !released.is_empty() || !exhausted.is_empty() {
        // Only the journal changes; the database is left as it is.
        let journal = journal_path(path);
        renju::atomic::write_atomic(&journal, &opened.book.encode())
            .with_context(|| format!("cannot write `{}`", journal.display()))?;
    }
    #[derive(Serialize)]
    struct Released {
        released: Vec<Vec<String>>,
        planned: usize,
        exhausted: Vec<Vec<String>>,
    }
    let still_planned = unit
        .positions
        .iter()
        .filter(|p| {
            opened
                .book
                .nodes
                .get(p.book_node as usize)
                .is_some_and(|n| n.status == renju::book::Status::Planned)
        })
        .count();
    let report = Released {
        planned: still_planned,
        released,
        exhausted,
    };
    if global.json {
        outln!("{}", serde_json::to_string(&report)?)?;
    } else {
        outln!(
            "{} of {} positions given back to the frontier{}; {} searched to their budgets stay planned",
            report.released.len(),
            unit.positions.len(),
            if report.released.is_empty() {
                String::new()
            } else {
                let lines: Vec<String> = report.released.iter().map(|l| line_name(l)).collect();
                format!(" ({})", lines.join(", "))
            },
            report.planned
        )?;
        if !report.exhausted.is_empty() {
            let lines: Vec<String> = report.exhausted.iter().map(|l| line_name(l)).collect();
            outln!(
                "{} marked exhausted, their narrowed moves holding no win: not searched again ({})",
                lines.len(),
                lines.join(", ")
            )?;
        }
    }
    Ok(())
}
