//! `renju vcf` and `renju vct`: one position (for `vct`, with a spinner on a terminal that
//! counts the nodes), or a batch of them in parallel.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::Args;
use serde::Serialize;
use serde_json::Value;

use renju::notation::{self, PositionOptions};
use renju::rules::{Board, Color, Point};
use renju::threat::{Ending, Limits, Outcome, Report, VcfOptions, VctOptions, vcf, vct};

use crate::{Global, input_error, parse_color};

/// Arguments shared by `vcf` and `vct`.
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// The position (see `renju show --help`); omit it with --batch.
    #[arg(required_unless_present = "batch")]
    position: Option<String>,
    /// Side to move, overriding the one that follows from the stone counts.
    #[arg(long, value_parser = parse_color)]
    to_move: Option<Color>,
    /// Who attacks: defaults to the side to move. The other side means "if the defender
    /// passed now".
    #[arg(long, value_parser = parse_color)]
    attacker: Option<Color>,
    /// Stop after this many seconds (per position in a batch); the result is then `unknown`.
    /// Ctrl-C or SIGTERM stops the same way.
    #[arg(long, value_name = "S", value_parser = parse_seconds, allow_hyphen_values = true)]
    time: Option<f64>,
    /// Solve every position of FILE (`-` for standard input): JSON lines
    /// `{"id":..,"position":..,"attacker":..}` or one position per line. Prints one JSON result
    /// per line, in input order.
    #[arg(long, value_name = "FILE", conflicts_with = "position")]
    batch: Option<PathBuf>,
    /// Threads (default: all cores). With --batch, positions run in parallel, each on one
    /// thread. `vct` on one position runs narrower searches (smaller --threat-fours) on the
    /// other threads, and the first win answers: the line and node count may then differ from
    /// run to run, the result does not. `vcf` takes --threads only with --batch.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Bound on the search tables, in MiB, shared equally by the searches running at once
    /// (the threads of one `vct`, or the positions of a batch; at least 16 MiB each). Without
    /// it each search keeps up to about 1 GB (`vct`) or 200 MB (`vcf`). A full VCT table keeps
    /// its proved and disproved positions and drops the rest.
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(16..=1 << 20))]
    memory: Option<u64>,
    /// Write the win's proof (JSON, format `renju-proof` version 2) to FILE, atomically: the
    /// line for `vcf`, the whole tree of threats and replies for `vct`, from the position with
    /// the attacker to move. Nothing is written unless the result is `win`.
    #[arg(long, value_name = "FILE", conflicts_with = "batch")]
    proof: Option<PathBuf>,
}

pub(crate) fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("`{s}` is not a positive number of seconds")),
    }
}

/// Which search, with its own options.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// VCF: `max_fours`, `shortest`.
    Vcf {
        max_fours: Option<u32>,
        shortest: bool,
    },
    /// VCT: `max_depth`, `threat_fours`.
    Vct {
        max_depth: Option<u32>,
        threat_fours: Option<u32>,
    },
}

#[derive(Serialize)]
struct Answer {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<Value>,
    result: &'static str,
    attacker: Color,
    line: Vec<String>,
    attacker_moves: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    ending: Option<Ending>,
    /// Nodes of the win's proof, which passed the independent checker (0 for anything else).
    proof_nodes: usize,
    nodes: u64,
    seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'static str>,
}

/// Why an answer is `unknown` after all: the checker refused the win's proof.
const REFUSED: &str =
    "the search's win did not pass the independent checker (a bug: please report it)";

/// The flag [`interrupted`] returns, once a handler is installed.
static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
/// Ctrl-C and SIGTERM signals received since the handler was installed.
static SIGNALS: AtomicU32 = AtomicU32::new(0);

/// Raised by Ctrl-C or SIGTERM: every search stops and reports `unknown`. The first call
/// installs the handler; until then, those signals end the process at once.
pub(crate) fn interrupted() -> Arc<AtomicBool> {
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let raised = flag.clone();
        // If a handler cannot be installed the default behaviour (exit at once) stays.
        let _ = ctrlc::set_handler(move || {
            SIGNALS.fetch_add(1, Ordering::Relaxed);
            raised.store(true, Ordering::Relaxed);
        });
        flag
    })
    .clone()
}

/// The Ctrl-C and SIGTERM signals received so far, if [`interrupted`] has installed its
/// handler; `None` while those signals still end the process at once.
pub(crate) fn signals() -> Option<u32> {
    FLAG.get().map(|_| SIGNALS.load(Ordering::Relaxed))
}

/// The search `kind` for `attacker` on `board`, on `threads` threads within `memory_mb` MiB;
/// a VCT adds its nodes to `progress` as it goes. A win is [`checked`]. Returns the report,
/// the answer's note, and the seconds taken, the check's included.
fn solve(
    board: &Board,
    attacker: Color,
    kind: Kind,
    time: Option<f64>,
    (threads, memory_mb): (usize, Option<u64>),
    progress: Option<Arc<AtomicU64>>,
    quiet: bool,
) -> (Report, Option<&'static str>, f64) {
    let start = Instant::now();
    let limits = Limits {
        stop: Some(interrupted()),
        ..Limits::with_time(time)
    };
    let report = match kind {
        Kind::Vcf {
            max_fours,
            shortest,
        } => vcf(
            board,
            attacker,
            &VcfOptions {
                max_fours,
                shortest,
                limits,
                memory_mb,
            },
        ),
        Kind::Vct {
            max_depth,
            threat_fours,
        } => vct(
            board,
            attacker,
            &VctOptions {
                max_depth,
                threat_fours,
                limits,
                threads: Some(threads),
                memory_mb,
                progress,
                proof: true,
                ..VctOptions::default()
            },
        ),
    };
    let mut report = report;
    let note = checked(&mut report, quiet);
    (report, note, start.elapsed().as_secs_f64())
}

/// A win is reported only once its proof passes the independent checker (`renju check`'s
/// own rules code, which replays every threat and reply of it). A win whose proof is refused
/// or missing becomes `unknown`, with the checker's first problem on stderr (unless `quiet`)
/// and [`REFUSED`] as the answer's note.
fn checked(report: &mut Report, quiet: bool) -> Option<&'static str> {
    if !matches!(report.outcome, Outcome::Win(_)) {
        return None;
    }
    let why = match &report.proof {
        Some(proof) => match crate::cli::db::verified(proof) {
            Ok(()) => return None,
            Err(why) => why,
        },
        None => "the search gave no proof".to_string(),
    };
    if !quiet {
        eprintln!("warning: the win's proof did not pass the independent checker: {why}");
    }
    report.outcome = Outcome::Unknown;
    report.proof = None;
    Some(REFUSED)
}

/// Runs `work`; with a spinner `bar`, it meanwhile shows the nodes `counter` has counted,
/// their rate and the time, and is cleared at the end.
fn with_spinner<T>(
    bar: Option<indicatif::ProgressBar>,
    counter: &AtomicU64,
    work: impl FnOnce() -> T,
) -> T {
    let Some(bar) = bar else {
        return work();
    };
    let start = Instant::now();
    let done = AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        let ticker = scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                let nodes = counter.load(Ordering::Relaxed);
                bar.set_message(progress_line(nodes, start.elapsed().as_secs_f64()));
                std::thread::park_timeout(Duration::from_millis(200));
            }
        });
        let result = work();
        done.store(true, Ordering::Relaxed);
        ticker.thread().unpark();
        result
    });
    bar.finish_and_clear();
    result
}

/// The spinner's message: nodes so far, nodes per second, seconds.
fn progress_line(nodes: u64, seconds: f64) -> String {
    format!(
        "{nodes} nodes, {:.0}/s, {seconds:.1}s",
        nodes as f64 / seconds.max(1e-9)
    )
}

fn answer(
    id: Option<Value>,
    attacker: Color,
    (report, note): (&Report, Option<&'static str>),
    seconds: f64,
) -> Answer {
    let (line, ending) = match &report.outcome {
        Outcome::Win(line) => (
            line.moves.iter().map(Point::to_string).collect(),
            Some(line.ending),
        ),
        Outcome::NoWin | Outcome::Unknown => (Vec::new(), None),
    };
    let attacker_moves = match &report.outcome {
        Outcome::Win(line) => line.attacker_moves(),
        _ => 0,
    };
    Answer {
        id,
        result: report.outcome.name(),
        attacker,
        line,
        attacker_moves,
        ending,
        proof_nodes: report.proof.as_ref().map_or(0, |p| p.nodes.len()),
        nodes: report.nodes,
        seconds,
        note,
    }
}

/// Runs `vcf` or `vct` as the arguments say.
pub fn run(args: &SearchArgs, kind: Kind, global: &Global, options: PositionOptions) -> Result<()> {
    let options = PositionOptions {
        to_move: args.to_move,
        ..options
    };
    if args.threads.is_some() && args.batch.is_none() && matches!(kind, Kind::Vcf { .. }) {
        return Err(input_error(
            "--threads applies to vcf only with --batch (one VCF search runs on one thread)",
        ));
    }
    if let Some(path) = &args.batch {
        return batch(path, args, kind, global, options);
    }
    let position = args
        .position
        .as_deref()
        .expect("clap requires a position without --batch");
    if let Some(proof) = &args.proof {
        crate::cli::not_the_position_file(proof, "--proof", position)?;
        crate::cli::plain_output(proof, "--proof")?;
    }
    let board = crate::read_position_text(position, &options)?;
    let attacker = args.attacker.unwrap_or(board.to_move());
    let threads = crate::cli::threads_of(args.threads);
    let counter = Arc::new(AtomicU64::new(0));
    let (report, note, seconds) = with_spinner(crate::cli::spinner(global), &counter, || {
        let progress = Some(counter.clone());
        solve(
            &board,
            attacker,
            kind,
            args.time,
            (threads, args.memory),
            progress,
            global.quiet,
        )
    });
    if let (Some(path), Some(proof)) = (&args.proof, &report.proof) {
        let mut text = serde_json::to_vec(proof)?;
        text.push(b'\n');
        renju::atomic::write_atomic(path, &text)
            .with_context(|| format!("cannot write the proof to `{}`", path.display()))?;
    }
    let a = answer(None, attacker, (&report, note), seconds);
    if args.proof.is_some() && report.proof.is_none() && !global.quiet {
        eprintln!("note: no proof written: the result is not a win");
    }
    if global.json {
        crate::outln!("{}", serde_json::to_string(&a)?)?;
        return Ok(());
    }
    crate::outln!("result:         {}", a.result)?;
    crate::outln!("attacker:       {attacker}")?;
    if !a.line.is_empty() || matches!(report.outcome, Outcome::Win(_)) {
        crate::outln!("line:           {}", a.line.join(" "))?;
        let how = match a.ending {
            Some(Ending::Five) => "the last is the five",
            Some(Ending::ForbiddenBlock) => {
                "White's last four can only be blocked on a point forbidden for Black"
            }
            Some(Ending::AlreadyWon) => "the attacker already has a five",
            None => "",
        };
        crate::outln!("attacker moves: {} ({how})", a.attacker_moves)?;
    }
    if a.proof_nodes > 0 {
        let nodes = if a.proof_nodes == 1 { "node" } else { "nodes" };
        crate::outln!(
            "proof:          {} {nodes}, passed the independent checker",
            a.proof_nodes
        )?;
    }
    if let Some(note) = a.note {
        crate::outln!("note:           {note}")?;
    }
    crate::outln!("nodes:          {}", a.nodes)?;
    crate::outln!("seconds:        {:.3}", a.seconds)?;
    Ok(())
}

fn batch(
    path: &Path,
    args: &SearchArgs,
    kind: Kind,
    global: &Global,
    options: PositionOptions,
) -> Result<()> {
    let jobs = crate::cli::batch::read_jobs(path, "attacker", |position, attacker| {
        let board = notation::parse_position(position, &options).map_err(|e| e.to_string())?;
        let attacker = attacker?.or(args.attacker).unwrap_or(board.to_move());
        Ok((board, attacker))
    })?;
    let pool = crate::cli::batch::pool(args.threads)?;
    let memory = args
        .memory
        .map(|total| renju::threat::memory_share(total, pool.current_num_threads()));
    let results = crate::cli::batch::run(&pool, &jobs, global, |id, (board, attacker)| {
        let (report, note, seconds) = solve(
            board,
            *attacker,
            kind,
            args.time,
            (1, memory),
            None,
            global.quiet,
        );
        serde_json::to_string(&answer(
            Some(id.clone()),
            *attacker,
            (&report, note),
            seconds,
        ))
        .expect("results serialise")
    });
    for line in results {
        crate::outln!("{}", line.unwrap_or_else(|failure| failure))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A win whose proof the checker refuses (here: the first threat moved to a point that
    /// threatens nothing), or that came without one, becomes `unknown` with nothing to write;
    /// one it accepts stands.
    #[test]
    fn a_win_the_checker_refuses_is_not_reported() {
        let board = crate::read_position_text(
            include_str!("../../data/examples/vct.txt"),
            &PositionOptions::default(),
        )
        .unwrap();
        let kind = Kind::Vct {
            max_depth: None,
            threat_fours: None,
        };
        let (mut good, note, _) = solve(&board, Color::Black, kind, None, (1, None), None, true);
        assert!(
            matches!(good.outcome, Outcome::Win(_)),
            "{:?}",
            good.outcome
        );
        assert_eq!(note, None);
        let mut bad = good.clone();
        let mut missing = good.clone();
        assert_eq!(checked(&mut good, true), None);
        assert!(matches!(good.outcome, Outcome::Win(_)) && good.proof.is_some());

        let proof = bad.proof.as_mut().unwrap();
        let root = proof.root;
        let renju::proof::ProofNode::Move { play, .. } = &mut proof.nodes[root] else {
            panic!("the root of this win is a threat");
        };
        *play = "a1".to_string();
        assert_eq!(checked(&mut bad, true), Some(REFUSED));
        assert_eq!(bad.outcome, Outcome::Unknown);
        assert!(bad.proof.is_none());

        missing.proof = None;
        assert_eq!(checked(&mut missing, true), Some(REFUSED));
        assert_eq!(missing.outcome, Outcome::Unknown);
    }

    #[test]
    fn the_progress_line_shows_nodes_rate_and_time() {
        assert_eq!(
            progress_line(3_000_000, 2.0),
            "3000000 nodes, 1500000/s, 2.0s"
        );
        assert_eq!(progress_line(0, 0.0), "0 nodes, 0/s, 0.0s");
    }
}
