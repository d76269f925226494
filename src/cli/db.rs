//! `renju db`: information on a solution database, lookups, merging and export; and the
//! `solve --db` step that adds a proof to one.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::{Subcommand, ValueEnum};
use renju::db::{
    Added, Builder, Database, DbError, Index, export_lib, export_text, proof_rules, query,
};
use renju::notation::PositionOptions;
use renju::proof::Proof;
use renju::renlib;
use renju::rules::{Color, Rules, Size};
use serde::Serialize;

use crate::{Global, input_error, outln};

/// The subcommands of `db`.
#[derive(Debug, Subcommand)]
pub enum DbCommand {
    /// Print the header, roots, positions, nodes, bytes and bytes per node.
    Info {
        /// The database file.
        file: PathBuf,
    },
    /// Look a position up: any symmetric form of a stored root or of a position inside a
    /// stored proof.
    Query {
        /// The database file.
        file: PathBuf,
        /// The position (see `renju show --help`); the database's rules and size apply.
        position: String,
        /// Side to move, overriding the one that follows from the stone counts.
        #[arg(long, value_parser = crate::parse_color)]
        to_move: Option<Color>,
    },
    /// Merge databases into OUT (read first if it exists), keeping the smaller proof of a
    /// position stored twice; written atomically.
    Merge {
        /// The database written.
        out: PathBuf,
        /// The databases merged into it.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Write the proof trees out: as text on standard output, or with --out to a file
    /// (written atomically); `--format lib` writes a RenLib library and needs --out.
    Export {
        /// The database file.
        file: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// The file written.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
}

/// Export formats.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Format {
    /// Indented text, one node per line.
    Text,
    /// A RenLib library (`.lib`, version 3.4; 15x15 databases only): proved moves marked,
    /// verdicts in comments (see docs/renlib.md).
    Lib,
}

/// Reads a database, a decoding problem being an input error that names the file.
pub fn read(path: &Path) -> Result<Database> {
    Database::read(path).map_err(|e| read_error(path, e))
}

/// The input error for a database at `path` that cannot be read.
fn read_error(path: &Path, e: DbError) -> anyhow::Error {
    match e {
        DbError::Io(io) => input_error(format!("cannot read `{}`: {io}", path.display())),
        other => input_error(format!("`{}`: {other}", path.display())),
    }
}

/// Runs a `db` subcommand.
pub fn run(command: &DbCommand, global: &Global) -> Result<()> {
    match command {
        DbCommand::Info { file } => info(file, global),
        DbCommand::Query {
            file,
            position,
            to_move,
        } => {
            let db = read(file)?;
            let options = PositionOptions {
                size: db.size,
                rules: db.rules,
                to_move: *to_move,
            };
            let board = crate::read_position_text(position, &options)?;
            let index = Index::build(&db);
            let answer = query(&db, &index, &db.depths(), &board);
            if global.json {
                outln!("{}", serde_json::to_string(&answer)?)?;
            } else {
                outln!("result:    {}", answer.result)?;
                outln!("to move:   {}", answer.to_move)?;
                if let Some(m) = &answer.best_move {
                    outln!("best move: {m}")?;
                }
                if let Some(d) = answer.depth {
                    outln!("depth:     {d} attacker moves to the five")?;
                }
            }
            Ok(())
        }
        DbCommand::Merge { out, inputs } => merge(out, inputs, global),
        DbCommand::Export { file, format, out } => export(file, *format, out.as_deref(), global),
    }
}

fn export(file: &Path, format: Format, out: Option<&Path>, global: &Global) -> Result<()> {
    #[derive(Serialize)]
    struct Exported {
        out: String,
        bytes: usize,
    }
    if matches!(format, Format::Lib) && out.is_none() {
        return Err(input_error(
            "`--format lib` writes a binary file: name it with --out FILE.lib",
        ));
    }
    if let Some(out) = out {
        crate::cli::distinct_output(out, "--out", file, "database exported")?;
        crate::cli::plain_output(out, "--out")?;
    }
    let db = read(file)?;
    let bytes = match format {
        Format::Text if out.is_none() => {
            let stdout = std::io::stdout();
            let mut lock = std::io::BufWriter::new(stdout.lock());
            export_text(&db, &mut lock)
                .and_then(|()| std::io::Write::flush(&mut lock))
                .map_err(crate::OutputError)?;
            return Ok(());
        }
        Format::Text => {
            let mut text = Vec::new();
            export_text(&db, &mut text)?;
            text
        }
        Format::Lib => {
            let library =
                export_lib(&db).map_err(|e| input_error(format!("`{}`: {e}", file.display())))?;
            renlib::write(&library, renlib::Encoding::Auto)
                .map_err(|e| input_error(format!("`{}`: {e}", file.display())))?
        }
    };
    let out = out.expect("stdout was handled above");
    renju::atomic::write_atomic(out, &bytes)
        .with_context(|| format!("cannot write `{}`", out.display()))?;
    let exported = Exported {
        out: out.display().to_string(),
        bytes: bytes.len(),
    };
    if global.json {
        outln!("{}", serde_json::to_string(&exported)?)?;
    } else {
        outln!("{}: {} bytes", exported.out, exported.bytes)?;
    }
    Ok(())
}

fn info(file: &Path, global: &Global) -> Result<()> {
    #[derive(Serialize)]
    struct Info {
        format: &'static str,
        version: u32,
        rule: String,
        k: u8,
        size: String,
        roots: usize,
        positions: usize,
        nodes: usize,
        bytes: u64,
        bytes_per_node: f64,
    }
    let db = read(file)?;
    let bytes = std::fs::metadata(file)
        .with_context(|| format!("cannot read `{}`", file.display()))?
        .len();
    let index = Index::build(&db);
    let info = Info {
        format: "renju-db",
        version: renju::db::VERSION,
        rule: db.rules.rule().to_string(),
        k: db.rules.k(),
        size: db.size.to_string(),
        roots: db.roots.len(),
        positions: index.len(),
        nodes: db.nodes.len(),
        bytes,
        bytes_per_node: bytes as f64 / db.nodes.len().max(1) as f64,
    };
    if global.json {
        outln!("{}", serde_json::to_string(&info)?)?;
    } else {
        outln!("format:         {} version {}", info.format, info.version)?;
        outln!("rules:          {}", db.describe())?;
        outln!("roots:          {}", info.roots)?;
        outln!("positions:      {}", info.positions)?;
        outln!("nodes:          {}", info.nodes)?;
        outln!("bytes:          {}", info.bytes)?;
        outln!("bytes per node: {:.2}", info.bytes_per_node)?;
    }
    Ok(())
}

/// What a merge or an addition did, counted.
#[derive(Debug, Default, Serialize)]
pub struct Summary {
    /// Roots not stored before.
    pub new: usize,
    /// Roots stored before with a larger proof, now replaced.
    pub replaced: usize,
    /// Roots stored before with a proof no larger, left as they were.
    pub kept: usize,
}

impl Summary {
    fn count(&mut self, added: Added) {
        match added {
            Added::New => self.new += 1,
            Added::Replaced => self.replaced += 1,
            Added::Kept => self.kept += 1,
        }
    }
}

fn builder_error(e: DbError) -> anyhow::Error {
    match e {
        DbError::Io(io) => io.into(),
        other => input_error(other.to_string()),
    }
}

/// The update lock of the database at `path` (see [`renju::atomic::lock_for_update`]). When
/// another process holds it, says so once on stderr (unless `quiet`) and waits until it is
/// free. Ctrl-C or SIGTERM during the wait ends it: at once, as always, when no search has
/// installed its handler; with an error when one has (a signal that came before the wait,
/// which stopped the search, does not also give up the proofs already found).
fn lock(path: &Path, quiet: bool) -> Result<renju::atomic::UpdateLock> {
    let context = || format!("cannot lock `{}` for the update", path.display());
    if let Some(held) = renju::atomic::try_lock_for_update(path).with_context(context)? {
        return Ok(held);
    }
    if !quiet {
        eprintln!(
            "note: waiting for `{}`: another renju process is updating it (Ctrl-C stops)",
            path.display()
        );
    }
    let before = crate::cli::search::signals();
    loop {
        std::thread::sleep(std::time::Duration::from_millis(50));
        if let Some(held) = renju::atomic::try_lock_for_update(path).with_context(context)? {
            return Ok(held);
        }
        if let Some(before) = before
            && crate::cli::search::signals().is_some_and(|now| now > before)
        {
            anyhow::bail!(
                "interrupted while waiting for `{}`, which another renju process is updating: nothing was written to it",
                path.display()
            );
        }
    }
}

fn merge(out: &Path, inputs: &[PathBuf], global: &Global) -> Result<()> {
    #[derive(Serialize)]
    struct Merged {
        #[serde(flatten)]
        summary: Summary,
        roots: usize,
        nodes: usize,
        bytes: usize,
    }
    crate::cli::creatable(out, "OUT")?;
    crate::cli::not_a_journal(out, "OUT")?;
    let _lock = lock(out, global.quiet)?;
    let existed = out.exists();
    let mut builder: Option<Builder> = if existed {
        Some(Builder::extend(read(out)?))
    } else {
        None
    };
    let mut summary = Summary::default();
    for input in inputs {
        let db = read(input)?;
        let b = builder.get_or_insert_with(|| Builder::new(db.rules, db.size));
        for added in b
            .add_database(&db)
            .map_err(|e| input_error(format!("`{}`: {e}", input.display())))?
        {
            summary.count(added);
        }
    }
    let db = builder.expect("at least one input").finish();
    let bytes = if existed && summary.new == 0 && summary.replaced == 0 {
        // Nothing to add: the file is left as it is.
        std::fs::metadata(out)
            .with_context(|| format!("cannot read `{}`", out.display()))?
            .len() as usize
    } else {
        db.write(out)
            .map_err(builder_error)
            .with_context(|| format!("cannot write `{}`", out.display()))?
    };
    let merged = Merged {
        summary,
        roots: db.roots.len(),
        nodes: db.nodes.len(),
        bytes,
    };
    if global.json {
        outln!("{}", serde_json::to_string(&merged)?)?;
    } else {
        outln!(
            "{}: {} roots, {} nodes, {} bytes ({} new, {} replaced, {} kept)",
            out.display(),
            merged.roots,
            merged.nodes,
            merged.bytes,
            merged.summary.new,
            merged.summary.replaced,
            merged.summary.kept
        )?;
    }
    Ok(())
}

/// Checks, before a search whose proofs go to the database at `path`, that they can: an
/// existing file must be a database of `options`' rules and size, and a new one needs its
/// directory. Found out after a long search, the proof would be lost.
pub fn check_target(path: &Path, options: &PositionOptions) -> Result<()> {
    if path.exists() {
        // The header is enough here; the whole file is read when the proof is added.
        let (rules, size) = Database::read_rules(path).map_err(|e| read_error(path, e))?;
        return same_rules(path, (rules, size), (options.rules, options.size), "--db");
    }
    crate::cli::creatable(path, "--db")
}

/// An input error unless the database at `path`, for the rules and board `held`, is for
/// those `wanted`; `flag` is the option that named it.
fn same_rules(
    path: &Path,
    (rules, size): (Rules, Size),
    wanted: (Rules, Size),
    flag: &str,
) -> Result<()> {
    if (rules, size) != wanted {
        return Err(input_error(format!(
            "`{}` holds {}, not {}: give another {flag}",
            path.display(),
            renju::db::describe(rules, size),
            renju::db::describe(wanted.0, wanted.1)
        )));
    }
    Ok(())
}

/// The guide a database file gives a search (`--guide`): every position it holds, with its
/// winner. The database must be for `wanted`, the rules and board of the positions searched.
pub fn guide(path: &Path, wanted: (Rules, Size)) -> Result<renju::solve::Known> {
    let db = read(path)?;
    same_rules(path, (db.rules, db.size), wanted, "--guide")?;
    Ok(renju::book::guide(Builder::extend(db).into_settled()))
}

/// Whether `proof` passes the independent checker, as a database of that one proof would;
/// `Err` names the first problem.
pub fn verified(proof: &Proof) -> std::result::Result<(), String> {
    let report = renju::check::verify::check(&of_one_proof(proof)?, &|_| {});
    match report.errors.first() {
        None if report.ok => Ok(()),
        Some(first) => Err(format!("{}: {}", first.position, first.problem)),
        None => Err("the checker found a problem".to_string()),
    }
}

/// A database of `proof` alone, under its own rules and board; `Err` names what does not
/// read.
pub fn of_one_proof(proof: &Proof) -> std::result::Result<Database, String> {
    let (rules, size) = proof_rules(proof).map_err(|e| e.to_string())?;
    let mut builder = Builder::new(rules, size);
    builder.add_proof(proof).map_err(|e| e.to_string())?;
    Ok(builder.finish())
}

/// Adds `proof` to the database at `path`, creating it if needed; returns what was done.
pub fn add_proof(path: &Path, proof: &Proof, quiet: bool) -> Result<&'static str> {
    Ok(add_proofs(path, &[proof], quiet)?[0])
}

/// Adds `proofs` to the database at `path` in order, creating it if needed, with one atomic
/// write (none if nothing changed); returns what was done with each.
pub fn add_proofs(path: &Path, proofs: &[&Proof], quiet: bool) -> Result<Vec<&'static str>> {
    let Some(first) = proofs.first() else {
        return Ok(Vec::new());
    };
    // Held from the read to the write: another process adding to the same file waits.
    let _lock = lock(path, quiet)?;
    let mut builder = if path.exists() {
        Builder::extend(read(path)?)
    } else {
        let (rules, size) = proof_rules(first).map_err(|e| input_error(e.to_string()))?;
        Builder::new(rules, size)
    };
    let added = proofs
        .iter()
        .map(|proof| {
            builder
                .add_proof(proof)
                .map_err(|e| input_error(format!("`{}`: {e}", path.display())))
        })
        .collect::<Result<Vec<Added>>>()?;
    if added.iter().any(|&a| a != Added::Kept) {
        builder
            .finish()
            .write(path)
            .map_err(builder_error)
            .with_context(|| format!("cannot write `{}`", path.display()))?;
    }
    Ok(added
        .into_iter()
        .map(|added| match added {
            Added::New => "added",
            Added::Replaced => "replaced a larger proof",
            Added::Kept => "kept the stored proof (no larger, or shared by other proofs)",
        })
        .collect())
}
