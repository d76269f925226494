//! `renju check`: verifies a solution database, or one proof file, with the independent checker,
//! in parallel, with a progress bar on a terminal. Exit status 1 when anything fails, a file
//! that cannot be read as either included.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Result;
use clap::Args;
use renju::check::verify::{Problem, Report, check};
use renju::db::{Database, decode};
use renju::proof::Proof;

use crate::{Global, outln};

/// Arguments of `check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The database file, or a proof file (JSON, format `renju-proof`, as `solve --proof`,
    /// `vcf --proof` and `vct --proof` write it), checked as a database of that one proof. It
    /// is checked under its own rules and board size, from its header (printed as `rules`);
    /// --rule, --size and --k do not apply.
    file: PathBuf,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
}

/// The failure the check ended in: `main` turns it into exit status 1 after the report.
#[derive(Debug, thiserror::Error)]
#[error("the check failed: {0} problem(s)")]
pub struct CheckFailed(pub usize);

/// Runs `check`.
pub fn run(args: &CheckArgs, global: &Global) -> Result<()> {
    let start = Instant::now();
    let report = match read(&args.file) {
        Ok(db) => verify(&db, args, global)?,
        Err(e) => Report {
            ok: false,
            rules: String::new(),
            roots: 0,
            nodes_checked: 0,
            errors: vec![Problem {
                position: String::new(),
                problem: format!("cannot read `{}`: {e}", args.file.display()),
            }],
            problems: 1,
            seconds: start.elapsed().as_secs_f64(),
        },
    };
    if global.json {
        outln!("{}", serde_json::to_string(&report)?)?;
    } else {
        outln!("ok:            {}", report.ok)?;
        if !report.rules.is_empty() {
            outln!("rules:         {}", report.rules)?;
        }
        outln!("roots:         {}", report.roots)?;
        outln!("nodes checked: {}", report.nodes_checked)?;
        outln!(
            "seconds:       {:.3} ({:.0} nodes/s)",
            report.seconds,
            report.nodes_checked as f64 / report.seconds.max(1e-9)
        )?;
        if report.problems > report.errors.len() {
            outln!(
                "problems:      {} (the first {} listed)",
                report.problems,
                report.errors.len()
            )?;
        }
        for e in &report.errors {
            if e.position.is_empty() {
                outln!("error: {}", e.problem)?;
            } else {
                outln!("error: at `{}`: {}", e.position, e.problem)?;
            }
        }
    }
    if report.ok {
        Ok(())
    } else {
        Err(CheckFailed(report.problems).into())
    }
}

/// The file at `path` as a database: a solution database, or a proof file (its first byte
/// other than white space a `{`) as a database of that one proof; `Err` says why neither.
fn read(path: &Path) -> std::result::Result<Database, String> {
    let bytes = renju::files::read(path).map_err(|e| e.to_string())?;
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return decode(&bytes).map_err(|e| e.to_string());
    }
    let proof: Proof = serde_json::from_slice(&bytes)
        .map_err(|e| format!("not a proof file (JSON, format `renju-proof`): {e}"))?;
    if proof.format != renju::proof::FORMAT {
        return Err(format!(
            "not a proof file: its format is `{}`, not `{}`",
            proof.format,
            renju::proof::FORMAT
        ));
    }
    crate::cli::db::of_one_proof(&proof)
}

fn verify(db: &Database, args: &CheckArgs, global: &Global) -> Result<Report> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = args.threads {
        pool = pool.num_threads(n as usize);
    }
    let pool = pool.build()?;
    let bar = (!global.quiet && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(db.nodes.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} nodes checked, {per_sec}, {elapsed}",
            )
            .expect("a valid template"),
        );
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    });
    let report = pool.install(|| {
        check(db, &|n| {
            if let Some(bar) = &bar {
                bar.inc(n as u64);
            }
        })
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    Ok(report)
}
