//! `renju solve`: runs the proof search on one position and reports, in text or JSON, with a
//! progress bar on a terminal and the proof written to a file on request; or, with `--batch`,
//! solves many positions in parallel and prints one JSON line each.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use renju::notation::{self, PositionOptions};
use renju::rules::{Board, Color, Point};
use renju::solve::{
    DEFAULT_MEMORY_MB, Known, Progress, SearchState, Solution, SolveOptions, Verdict, solve,
};
use renju::threat::Limits;
use serde::Serialize;
use serde_json::Value;

use crate::cli::search::interrupted;
use crate::cli::{Every, LOG_EVERY};
use crate::{Global, input_error};

/// Arguments of `solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The position (see `renju show --help`); omit it with --batch.
    #[arg(required_unless_present = "batch")]
    position: Option<String>,
    /// Side to move, overriding the one that follows from the stone counts (with --batch, for
    /// the lines that do not say).
    #[arg(long, value_parser = crate::parse_color)]
    to_move: Option<Color>,
    /// Stop after this many seconds (per position in a batch); the result is then `unknown`.
    /// A proof found in time is read out within a quarter more. Ctrl-C or SIGTERM stops the
    /// same way.
    #[arg(long, value_name = "S", value_parser = crate::cli::search::parse_seconds, allow_hyphen_values = true)]
    time: Option<f64>,
    /// Stop after this many nodes (per position in a batch); the result is then `unknown`.
    /// A proof found within them is read out within a quarter more.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Bound on the search tables, in MiB (default 4096; tables grow to it as they fill). With
    /// --batch it bounds the whole batch: each position gets MB divided by the thread count (at
    /// least 16).
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(16..=1 << 20))]
    memory: Option<u64>,
    /// Both sides consider every legal move: exact values (`win`, `loss` or `draw`), for
    /// small boards.
    #[arg(long)]
    full_width: bool,
    /// Node budget of the VCT search tried at each new attacker node below the root (the
    /// root's VCT runs in rounds beside the proof search instead); 0 turns both off. A VCT
    /// found proves the node.
    #[arg(long, value_name = "N", default_value_t = renju::solve::DEFAULT_VCT_NODES)]
    vct_nodes: u64,
    /// Write the proof tree (JSON, format `renju-proof` version 2) to FILE, atomically.
    #[arg(long, value_name = "FILE", conflicts_with = "batch")]
    proof: Option<PathBuf>,
    /// Add the proof to this solution database, creating it if needed (written atomically;
    /// with --batch, every proof in input order, in one write once all are solved).
    #[arg(long, value_name = "FILE")]
    db: Option<PathBuf>,
    /// Guide the search with the positions of this solution database (a book's, say): a
    /// position it holds, met below the root, is taken as settled, and the search looks
    /// elsewhere. The proof is read out without it, so it stands on its own. Not with
    /// --full-width, whose draws rest on disproofs alone.
    #[arg(long, value_name = "FILE", conflicts_with = "full_width")]
    guide: Option<PathBuf>,
    /// Search for this side's win only (`black` or `white`), not for the other's: for a
    /// position whose winner is expected, such as an opening's replies. A win or a loss is
    /// proved as ever; anything else is `unknown`. Not with --full-width.
    #[arg(long, value_name = "COLOR", conflicts_with = "full_width")]
    attacker: Option<Color>,
    /// Keep the search in FILE, to go on with it in a later run: if FILE exists, the search
    /// goes on from it (it must be of the same position, --attacker and --vct-nodes); when a
    /// limit, Ctrl-C or SIGTERM stops the search, its table is written to FILE (atomically)
    /// for the next run. Needs --attacker. The file takes about a tenth of the table's
    /// memory (1.2 GB for 9.6M entries).
    #[arg(
        long,
        value_name = "FILE",
        requires = "attacker",
        conflicts_with = "batch"
    )]
    state: Option<PathBuf>,
    /// Solve every position of FILE (`-` for standard input) in parallel: JSON lines
    /// `{"id":..,"position":..,"to_move":..}` or one position per line. Prints one JSON result
    /// per line, in input order.
    #[arg(long, value_name = "FILE", conflicts_with = "position")]
    batch: Option<PathBuf>,
    /// Threads: with --batch, positions solved at once (each on one thread); otherwise, threads
    /// searching the one position. Default: all cores.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
}

#[derive(Serialize)]
struct Answer {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<Value>,
    result: &'static str,
    to_move: Color,
    best_move: Option<String>,
    pv: Vec<String>,
    /// For an unknown result, where the search was working when it stopped.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    most_proving: Vec<String>,
    nodes: u64,
    seconds: f64,
    tt_entries: usize,
    proof_nodes: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    db: Option<&'static str>,
    /// With --state, what was read from and written to the state file.
    #[serde(skip_serializing_if = "Option::is_none")]
    state: Option<StateReport>,
}

/// What `--state` did.
#[derive(Clone, Serialize)]
struct StateReport {
    file: String,
    /// Entries the search went on from (0 for a new state).
    resumed_entries: u64,
    /// Nodes searched by the earlier runs of the search.
    nodes_before: u64,
    /// Entries written at the end; `null` when the search ended with a result, or could not
    /// go on, and the file was left as it was.
    written_entries: Option<u64>,
}

/// The progress bar's message: nodes, nodes per second, the root's proof and disproof numbers
/// (`inf` once settled), table fill and elapsed time.
fn progress_line(p: &Progress, seconds: f64) -> String {
    let number = |n: u32| {
        if n == renju::solve::INFINITE {
            "inf".to_string()
        } else {
            n.to_string()
        }
    };
    format!(
        "{} nodes, {:.0}/s, root pn {} dn {}, table {}% ({} entries), {:.1}s",
        p.nodes,
        p.nodes as f64 / seconds.max(1e-9),
        number(p.pn),
        number(p.dn),
        p.tt_bytes * 100 / p.tt_bound.max(1),
        p.tt_entries,
        seconds
    )
}

/// The search options for one position: `memory_mb` and `threads` as given, the rest from the
/// arguments, the time limit counted from now.
fn solve_options(
    args: &SolveArgs,
    memory_mb: Option<u64>,
    threads: usize,
    known: Option<&Known>,
) -> SolveOptions {
    SolveOptions {
        limits: Limits {
            nodes: args.nodes,
            stop: Some(interrupted()),
            ..Limits::with_time(args.time)
        },
        memory_mb,
        full_width: args.full_width,
        vct_nodes: Some(args.vct_nodes),
        threads: Some(threads),
        known: known.cloned(),
        attacker: args.attacker,
        resume: None,
        keep_state: args.state.is_some(),
    }
}

/// The search state `--state` names, locked for this run, and what it holds: `None` for a
/// file that does not exist yet. A state of another search is an input error.
fn open_state(
    path: &Path,
    board: &Board,
    options: &SolveOptions,
    quiet: bool,
) -> Result<(renju::atomic::UpdateLock, Option<Arc<SearchState>>)> {
    let lock = renju::atomic::try_lock_for_update(path)
        .with_context(|| format!("cannot lock the search state `{}`", path.display()))?
        .ok_or_else(|| {
            input_error(format!(
                "the search state `{}` is in use by another renju process",
                path.display()
            ))
        })?;
    if !path.exists() {
        if !quiet {
            eprintln!(
                "state: `{}` does not exist yet: the search starts afresh",
                path.display()
            );
        }
        return Ok((lock, None));
    }
    let start = Instant::now();
    let state = SearchState::read(path)
        .and_then(|state| state.fits(board, options).map(|()| state))
        .map_err(|e| {
            input_error(format!(
                "cannot go on from the search state `{}`: {e}",
                path.display()
            ))
        })?;
    if !quiet {
        let h = state.header();
        eprintln!(
            "state: going on from `{}`: {} (read in {:.1} s)",
            path.display(),
            held(h),
            start.elapsed().as_secs_f64()
        );
    }
    Ok((lock, Some(Arc::new(state))))
}

/// What a state holds, for stderr: `N entries, M nodes in K runs`.
fn held(h: &renju::solve::StateHeader) -> String {
    let runs = if h.runs == 1 { "run" } else { "runs" };
    format!(
        "{} entries, {} nodes in {} {runs}",
        h.entries, h.nodes, h.runs
    )
}

/// Writes the state of a search a limit stopped to `path`; what to report. Without a state
/// (a result, or a search that ended), the file is left as it was.
fn save_state(
    path: &Path,
    resumed: Option<&SearchState>,
    solution: &Solution,
    quiet: bool,
) -> (StateReport, Option<anyhow::Error>) {
    let mut report = StateReport {
        file: path.display().to_string(),
        resumed_entries: resumed.map_or(0, |s| s.header().entries),
        nodes_before: resumed.map_or(0, |s| s.header().nodes),
        written_entries: None,
    };
    let Some(state) = &solution.state else {
        if !quiet {
            eprintln!(
                "state: `{}` left as it was: the search ended ({})",
                path.display(),
                solution.note.unwrap_or("with a result")
            );
        }
        return (report, None);
    };
    let start = Instant::now();
    if let Err(e) = state.write(path) {
        let error = anyhow::Error::new(e).context(format!(
            "cannot write the search state `{}`",
            path.display()
        ));
        return (report, Some(error));
    }
    let h = state.header();
    report.written_entries = Some(h.entries);
    if !quiet {
        eprintln!(
            "state: wrote `{}`: {} (written in {:.1} s)",
            path.display(),
            held(h),
            start.elapsed().as_secs_f64()
        );
    }
    (report, None)
}

/// The guide `--guide` names: every position of the database, with its winner. The database
/// must be for the rules and board of the positions solved.
fn guide_of(args: &SolveArgs, options: &PositionOptions) -> Result<Option<Known>> {
    let Some(path) = &args.guide else {
        return Ok(None);
    };
    crate::cli::db::guide(path, (options.rules, options.size)).map(Some)
}

/// The answer for `board`, without its database step.
fn answer(id: Option<Value>, board: &Board, solution: &Solution, seconds: f64) -> Answer {
    Answer {
        id,
        result: solution.verdict.name(),
        to_move: board.to_move(),
        best_move: solution.best_move.map(|p| p.to_string()),
        pv: solution.pv.iter().map(Point::to_string).collect(),
        most_proving: solution.most_proving.iter().map(Point::to_string).collect(),
        nodes: solution.nodes,
        seconds,
        tt_entries: solution.tt_entries,
        proof_nodes: solution.proof.as_ref().map_or(0, |p| p.nodes.len()),
        note: solution.note,
        db: None,
        state: None,
    }
}

/// What `--db` did for a position without a proof.
const NO_PROOF: &str = "nothing added: no proof";

/// Runs `solve` as the arguments say.
pub fn run(args: &SolveArgs, global: &Global, options: PositionOptions) -> Result<()> {
    let options = PositionOptions {
        to_move: args.to_move,
        ..options
    };
    if let Some(db) = &args.db {
        if let Some(batch) = &args.batch {
            crate::cli::distinct_output(db, "--db", batch, "batch file")?;
        }
        crate::cli::db::check_target(db, &options)?;
    }
    if let Some(path) = &args.batch {
        return batch(path, args, global, options);
    }
    let position = args
        .position
        .as_deref()
        .expect("clap requires a position without --batch");
    if let (Some(proof), Some(db)) = (&args.proof, &args.db) {
        crate::cli::distinct_output(proof, "--proof", db, "database given to --db")?;
    }
    for (out, flag) in [(&args.proof, "--proof"), (&args.state, "--state")] {
        if let Some(out) = out {
            crate::cli::not_the_position_file(out, flag, position)?;
            crate::cli::creatable(out, flag)?;
        }
    }
    if let Some(proof) = &args.proof {
        crate::cli::plain_output(proof, "--proof")?;
        if let Some(guide) = &args.guide {
            crate::cli::distinct_output(proof, "--proof", guide, "database given to --guide")?;
        }
    }
    let board = crate::read_position_text(position, &options)?;
    let known = guide_of(args, &options)?;
    let threads = crate::cli::threads_of(args.threads);
    let mut solve_options = solve_options(args, args.memory, threads, known.as_ref());
    let state = match &args.state {
        Some(path) => {
            if let Some(proof) = &args.proof {
                crate::cli::distinct_output(proof, "--proof", path, "search state")?;
            }
            if let Some(db) = &args.db {
                crate::cli::distinct_output(db, "--db", path, "search state")?;
            }
            let (lock, resumed) = open_state(path, &board, &solve_options, global.quiet)?;
            solve_options.resume = resumed;
            Some((path, lock))
        }
        None => None,
    };
    let (mut solution, seconds) = solve_with_spinner(&board, &solve_options, global);
    let resumed = solve_options.resume.take();
    if resumed.is_some() || known.is_some() {
        check_steered(&mut solution, global.quiet);
    }
    let (state_report, state_error) = match &state {
        Some((path, _)) => {
            let (report, error) = save_state(path, resumed.as_deref(), &solution, global.quiet);
            (Some(report), error)
        }
        None => (None, None),
    };
    drop(state);
    if let (Some(path), Some(proof)) = (&args.proof, &solution.proof) {
        let mut text = serde_json::to_vec(proof)?;
        text.push(b'\n');
        renju::atomic::write_atomic(path, &text)
            .with_context(|| format!("cannot write the proof to `{}`", path.display()))?;
    }
    // The answer is printed even when the database cannot take the proof.
    let (db, db_error) = add_to_db(args, &solution, global.quiet);
    let answer = Answer {
        db,
        state: state_report,
        ..answer(None, &board, &solution, seconds)
    };
    if global.json {
        crate::outln!("{}", serde_json::to_string(&answer)?)?;
    } else {
        print_answer(&answer, args.db.as_deref())?;
    }
    if args.proof.is_some() && solution.proof.is_none() && !global.quiet {
        let why = match solution.verdict {
            Verdict::Draw => "a draw is shown by two disproofs, which carry no proof tree",
            _ => "nothing was proved",
        };
        eprintln!("note: no proof written: {why}");
    }
    match (db_error, state_error) {
        (Some(db), Some(state)) => {
            // Both failed: the state's error here, the database's as the exit status.
            eprintln!("error: {state:#}");
            Err(db)
        }
        (db, state) => db.or(state).map_or(Ok(()), Err),
    }
}

/// Why an answer is `unknown` after all: the checker refused its proof.
const REFUSED: &str = "the proof read out did not pass the independent checker (a damaged --state or --guide file, or a bug: please report it); nothing was written";

/// Where a state or a guide steered the search (inputs that may be damaged or hostile), the
/// proof is verified by the independent checker before it is reported or written: the
/// read-out builds it from the board, and this makes sure of it (`docs/search-state.md`). A
/// proof the checker refuses turns the answer into `unknown`, with the checker's first
/// problem on stderr.
fn check_steered(solution: &mut Solution, quiet: bool) {
    let Some(proof) = &solution.proof else {
        return;
    };
    let Err(why) = crate::cli::db::verified(proof) else {
        return;
    };
    if !quiet {
        eprintln!("warning: the proof read out did not pass the independent checker: {why}");
    }
    solution.verdict = Verdict::Unknown;
    solution.best_move = None;
    solution.pv.clear();
    solution.proof = None;
    solution.note = Some(REFUSED);
}

/// Solves `board` on all the threads asked for, with a progress bar on a terminal (a line a
/// minute in a log); the solution and the seconds it took.
fn solve_with_spinner(
    board: &Board,
    solve_options: &SolveOptions,
    global: &Global,
) -> (Solution, f64) {
    let bar = crate::cli::spinner(global);
    // Without a terminal for the spinner, a progress line goes to stderr now and then: a
    // search at a large budget runs for hours, in a log.
    let mut log = (bar.is_none() && !global.quiet).then(|| Every::new(LOG_EVERY));
    let start = Instant::now();
    let solution = solve(board, solve_options, &mut |p| {
        if let Some(bar) = &bar {
            bar.set_message(progress_line(p, start.elapsed().as_secs_f64()));
        } else if let Some(log) = &mut log
            && log.due()
        {
            eprintln!(
                "progress: {}",
                progress_line(p, start.elapsed().as_secs_f64())
            );
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    (solution, start.elapsed().as_secs_f64())
}

/// The `--db` step for one position: what was done (`None` without `--db`), and the error
/// if the database could not take the proof.
fn add_to_db(
    args: &SolveArgs,
    solution: &Solution,
    quiet: bool,
) -> (Option<&'static str>, Option<anyhow::Error>) {
    match (&args.db, &solution.proof) {
        (Some(path), Some(proof)) => match crate::cli::db::add_proof(path, proof, quiet) {
            Ok(done) => (Some(done), None),
            Err(e) => (Some("not added: see the error"), Some(e)),
        },
        (Some(_), None) => (Some(NO_PROOF), None),
        (None, _) => (None, None),
    }
}

/// The answer for one position as text; `db` is the database given to `--db`.
fn print_answer(answer: &Answer, db: Option<&Path>) -> Result<()> {
    crate::outln!("result:      {}", answer.result)?;
    crate::outln!("to move:     {}", answer.to_move)?;
    if let Some(m) = &answer.best_move {
        crate::outln!("best move:   {m}")?;
    }
    if !answer.pv.is_empty() {
        crate::outln!("pv:          {}", answer.pv.join(" "))?;
    }
    if !answer.most_proving.is_empty() {
        crate::outln!("working on:  {}", answer.most_proving.join(" "))?;
    }
    crate::outln!(
        "nodes:       {} in {:.3} s ({} table entries, {} proof nodes)",
        answer.nodes,
        answer.seconds,
        answer.tt_entries,
        answer.proof_nodes
    )?;
    if let Some(note) = answer.note {
        crate::outln!("note:        {note}")?;
    }
    if let (Some(done), Some(path)) = (answer.db, db) {
        crate::outln!("database:    {done} ({})", path.display())?;
    }
    Ok(())
}

/// `solve --batch`: every position on its own thread of the pool, each with its share of the
/// memory bound; then, with `--db`, every proof added in input order in one write; then one
/// JSON line per entry, in input order.
fn batch(path: &Path, args: &SolveArgs, global: &Global, options: PositionOptions) -> Result<()> {
    let jobs = crate::cli::batch::read_jobs(path, "to_move", |position, to_move| {
        let options = PositionOptions {
            to_move: to_move?.or(options.to_move),
            ..options
        };
        notation::parse_position(position, &options).map_err(|e| e.to_string())
    })?;
    let known = guide_of(args, &options)?;
    let pool = crate::cli::batch::pool(args.threads)?;
    let memory = renju::threat::memory_share(
        args.memory.unwrap_or(DEFAULT_MEMORY_MB),
        pool.current_num_threads(),
    );
    let stop = interrupted();
    let results = crate::cli::batch::run(&pool, &jobs, global, |id, board| {
        if stop.load(Ordering::Relaxed) {
            // Stopped before this position started: not searched at all.
            return (None, unsearched(id.clone(), board));
        }
        let start = Instant::now();
        let options = solve_options(args, Some(memory), 1, known.as_ref());
        let mut solution = solve(board, &options, &mut |_| {});
        if known.is_some() {
            check_steered(&mut solution, global.quiet);
        }
        let answer = answer(
            Some(id.clone()),
            board,
            &solution,
            start.elapsed().as_secs_f64(),
        );
        (solution.proof, answer)
    });
    let mut db_error = None;
    let mut done = match &args.db {
        Some(db) => {
            let proofs: Vec<_> = results
                .iter()
                .filter_map(|r| r.as_ref().ok()?.0.as_ref())
                .collect();
            match crate::cli::db::add_proofs(db, &proofs, global.quiet) {
                Ok(done) => Some(done.into_iter()),
                Err(e) => {
                    db_error = Some(e);
                    None
                }
            }
        }
        None => None,
    };
    for result in results {
        let line = match result {
            Ok((proof, mut answer)) => {
                if let Some(done) = &mut done {
                    answer.db = if proof.is_some() {
                        done.next()
                    } else {
                        Some(NO_PROOF)
                    };
                }
                serde_json::to_string(&answer)?
            }
            Err(failure) => failure,
        };
        crate::outln!("{line}")?;
    }
    // The answers are printed even when the database could not be written.
    db_error.map_or(Ok(()), Err)
}

/// The answer for a position the batch never searched, having been stopped first.
fn unsearched(id: Value, board: &Board) -> Answer {
    Answer {
        id: Some(id),
        result: Verdict::Unknown.name(),
        to_move: board.to_move(),
        best_move: None,
        pv: Vec::new(),
        most_proving: Vec::new(),
        nodes: 0,
        seconds: 0.0,
        tt_entries: 0,
        proof_nodes: 0,
        note: Some("stopped (Ctrl-C or SIGTERM) before this position was searched"),
        db: None,
        state: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A proved answer whose proof the checker refuses (here: the winning move changed to
    /// one that wins nothing) becomes `unknown`, with nothing left to write; one it accepts
    /// stands.
    #[test]
    fn a_proof_the_checker_refuses_is_not_reported() {
        let board = crate::read_position_text(
            include_str!("../../data/examples/vct.txt"),
            &PositionOptions::default(),
        )
        .unwrap();
        let options = SolveOptions {
            threads: Some(1),
            ..SolveOptions::default()
        };
        let mut good = solve(&board, &options, &mut |_| {});
        assert_eq!(good.verdict, Verdict::Win);
        let mut bad = good.clone();
        check_steered(&mut good, true);
        assert_eq!(good.verdict, Verdict::Win);
        assert!(good.proof.is_some());

        let proof = bad.proof.as_mut().unwrap();
        let root = proof.root;
        let renju::solve::ProofNode::Move { play, .. } = &mut proof.nodes[root] else {
            panic!("the root of a win is the attacker's move");
        };
        *play = "a1".to_string();
        check_steered(&mut bad, true);
        assert_eq!(bad.verdict, Verdict::Unknown);
        assert!(bad.proof.is_none() && bad.best_move.is_none() && bad.pv.is_empty());
        assert_eq!(bad.note, Some(REFUSED));
    }

    #[test]
    fn the_progress_line_shows_every_statistic() {
        let p = Progress {
            nodes: 1_500_000,
            pn: 12,
            dn: renju::solve::INFINITE,
            tt_entries: 4321,
            tt_bytes: 250,
            tt_bound: 1000,
        };
        assert_eq!(
            progress_line(&p, 2.0),
            "1500000 nodes, 750000/s, root pn 12 dn inf, table 25% (4321 entries), 2.0s"
        );
    }
}
