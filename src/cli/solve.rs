//! `renju solve`: runs the proof search on one position and reports, in text or JSON, with a
//! progress bar on a terminal and the proof written to a file on request.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::Args;
use renju::notation::PositionOptions;
use renju::rules::{Color, Point};
use renju::solve::{Progress, SolveOptions, Verdict, solve};
use renju::threat::Limits;
use serde::Serialize;

use crate::Global;
use crate::cli::search::interrupted;

/// Arguments of `solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The position (see `renju show --help`).
    position: String,
    /// Side to move, overriding the one that follows from the stone counts.
    #[arg(long, value_parser = crate::parse_color)]
    to_move: Option<Color>,
    /// Stop after this many seconds; the result is then `unknown`. Ctrl-C or SIGTERM stops
    /// the same way.
    #[arg(long, value_name = "S", value_parser = crate::cli::search::parse_seconds, allow_hyphen_values = true)]
    time: Option<f64>,
    /// Stop after this many nodes; the result is then `unknown`.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Bound on the search tables, in MiB (default 1024).
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
    /// Write the proof tree (JSON, format `renju-proof` version 1) to FILE, atomically.
    #[arg(long, value_name = "FILE")]
    proof: Option<PathBuf>,
    /// Add the proof to this solution database, creating it if needed (written atomically).
    #[arg(long, value_name = "FILE")]
    db: Option<PathBuf>,
}

#[derive(Serialize)]
struct Answer {
    result: &'static str,
    to_move: Color,
    best_move: Option<String>,
    pv: Vec<String>,
    nodes: u64,
    seconds: f64,
    tt_entries: usize,
    proof_nodes: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    db: Option<&'static str>,
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

/// Runs `solve` as the arguments say.
pub fn run(args: &SolveArgs, global: &Global, options: PositionOptions) -> Result<()> {
    let options = PositionOptions {
        to_move: args.to_move,
        ..options
    };
    let board = crate::read_position_text(&args.position, &options)?;
    let limits = Limits {
        nodes: args.nodes,
        stop: Some(interrupted()),
        ..Limits::with_time(args.time)
    };
    let solve_options = SolveOptions {
        limits,
        memory_mb: args.memory,
        full_width: args.full_width,
        vct_nodes: Some(args.vct_nodes),
        threads: None,
    };
    let bar = (!global.quiet && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    });
    let start = Instant::now();
    let solution = solve(&board, &solve_options, &mut |p| {
        if let Some(bar) = &bar {
            bar.set_message(progress_line(p, start.elapsed().as_secs_f64()));
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let seconds = start.elapsed().as_secs_f64();
    if let (Some(path), Some(proof)) = (&args.proof, &solution.proof) {
        let mut text = serde_json::to_vec(proof)?;
        text.push(b'\n');
        renju::atomic::write_atomic(path, &text)
            .with_context(|| format!("cannot write the proof to `{}`", path.display()))?;
    }
    let db = match (&args.db, &solution.proof) {
        (Some(path), Some(proof)) => Some(crate::cli::db::add_proof(path, proof)?),
        (Some(_), None) => Some("nothing added: no proof"),
        (None, _) => None,
    };
    let answer = Answer {
        result: solution.verdict.name(),
        to_move: board.to_move(),
        best_move: solution.best_move.map(|p| p.to_string()),
        pv: solution.pv.iter().map(Point::to_string).collect(),
        nodes: solution.nodes,
        seconds,
        tt_entries: solution.tt_entries,
        proof_nodes: solution.proof.as_ref().map_or(0, |p| p.nodes.len()),
        note: solution.note,
        db,
    };
    if global.json {
        crate::outln!("{}", serde_json::to_string(&answer)?)?;
    } else {
        crate::outln!("result:      {}", answer.result)?;
        crate::outln!("to move:     {}", answer.to_move)?;
        if let Some(m) = &answer.best_move {
            crate::outln!("best move:   {m}")?;
        }
        if !answer.pv.is_empty() {
            crate::outln!("pv:          {}", answer.pv.join(" "))?;
        }
        crate::outln!(
            "nodes:       {} in {:.3} s ({} table entries, {} proof nodes)",
            answer.nodes,
            seconds,
            answer.tt_entries,
            answer.proof_nodes
        )?;
        if let Some(note) = answer.note {
            crate::outln!("note:        {note}")?;
        }
        if let (Some(done), Some(path)) = (answer.db, &args.db) {
            crate::outln!("database:    {done} ({})", path.display())?;
        }
    }
    if args.proof.is_some() && solution.proof.is_none() && !global.quiet {
        let why = match solution.verdict {
            Verdict::Draw => "a draw is shown by two disproofs, which carry no proof tree",
            _ => "nothing was proved",
        };
        eprintln!("note: no proof written: {why}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
