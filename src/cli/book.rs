//! `renju book`: growing an opening book (`build`), its standing (`status`), and the cluster
//! cycle: the frontier split into work units (`plan`), each proved on its own (`work`), the
//! parts merged back with `db merge`.
//!
//! A book is a solution database `BOOK` (every proof, checkable with `renju check BOOK`) and a
//! journal `BOOK.journal` beside it (the tree being grown). Both are written atomically, the
//! database first, at every checkpoint and at the end; a builder killed at any moment is
//! resumed by running the same command again.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use serde::Serialize;

use renju::book::{Book, BookError, RootReport, Round, RoundOptions, Searches, guide};
use renju::db::{Builder, Database};
use renju::proof::names;
use renju::rules::Color;

use crate::cli::search::interrupted;
use crate::cli::threads_of;
use crate::{Global, input_error, outln};

mod log;
mod progress;
mod roots;
mod subtree;
mod units;

use log::SearchLog;
use progress::{progress, running_line};
use roots::roots_of;
use units::{plan, release, work};

/// The subcommands of `book`.
#[derive(Debug, Subcommand)]
pub enum BookCommand {
    /// Grow a book best-first: search the most-proving frontier positions with `solve`,
    /// store every proof, expand what stays unknown. Resumes where the last run stopped.
    Build(BuildArgs),
    /// Per root: proved or not, proof nodes, frontier size, the deepest unproved line.
    Status {
        /// The book's database (its journal is BOOK.journal).
        book: PathBuf,
        /// Show instead the position these moves from a root reach (as the status names the
        /// lines, e.g. "k10 j10"; "" is the root) and each of its moves: where it stands, its
        /// proof and disproof numbers, and how often each leaf was searched. Repeatable.
        #[arg(long, value_name = "MOVES")]
        under: Vec<String>,
    },
    /// Write the most-proving frontier positions as work units DIR/unit-0.json … for
    /// `book work`, one per Slurm array task.
    Plan {
        /// The book's database.
        book: PathBuf,
        /// Units to write (fewer when the frontier is smaller).
        #[arg(long, value_name = "N")]
        shards: u32,
        /// Positions per unit.
        #[arg(long, value_name = "K", default_value_t = 4)]
        per_shard: u32,
        /// The directory the units go to (created if needed).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Plan only the leaves below the position these moves from a root reach (as `book
        /// status` names them, e.g. "j10 h10"): a unit's work spent where it is wanted, and
        /// counted in the journal as the book's own searches. Repeat it for several lines:
        /// their leaves are taken in turn.
        #[arg(long, value_name = "MOVES")]
        under: Vec<String>,
        #[command(flatten)]
        budget: PositionBudget,
    },
    /// Prove the positions of one work unit and write what was proved as a database, to be
    /// merged into the book with `renju db merge BOOK PART.db…`.
    Work {
        /// The unit file (from `book plan`).
        unit: PathBuf,
        /// The partial database written.
        #[arg(long, value_name = "PART.db")]
        out: PathBuf,
        /// Positions searched at once (default: all cores).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
        threads: Option<u32>,
        /// Guide the searches with the positions of this database (the book's own, as it
        /// stood when the unit was planned): a position it holds, met below a search's root,
        /// is taken as settled. The proofs are read out without it, so they stand on their own.
        #[arg(long, value_name = "BOOK")]
        guide: Option<PathBuf>,
        /// Keep each search for one side's win (units planned with --attacker-wins-only) in a
        /// state file in DIR (made if missing), and go on from it at the position's next
        /// search: the budget counts the nodes of every run, so each doubling pays only for
        /// its new half. A proved position's file is removed. A state takes about a tenth of
        /// its search's table.
        #[arg(long, value_name = "DIR")]
        states: Option<PathBuf>,
    },
    /// Give a work unit's positions that were not searched to their budgets (the task was
    /// killed or stopped) back to the book's frontier, with no search counted.
    Release {
        /// The book's database.
        book: PathBuf,
        /// The unit file (from `book plan`).
        unit: PathBuf,
        /// The unit's results, as `book work --json` printed them (one object per line):
        /// the positions reported `win`, `loss` or `unknown` stay planned, for the next plan
        /// to settle from the merged database or count as searched; the others go back.
        /// Those reported `narrowed_out` (the search ended before its budget, its narrowed
        /// moves holding no win) are marked exhausted: not searched again. Without it, every
        /// position of the unit goes back.
        #[arg(long, value_name = "FILE")]
        results: Option<PathBuf>,
    },
}

/// The budget of each frontier position's search.
#[derive(Debug, Args)]
pub struct PositionBudget {
    /// Seconds per position search (default 1 unless --position-nodes is given); doubled
    /// each time a position at the ply limit is searched again.
    #[arg(long, value_name = "S")]
    position_time: Option<f64>,
    /// Nodes per position search, doubled likewise (deterministic, unlike time).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    position_nodes: Option<u64>,
    /// Memory for the searches running at once, in MiB, shared out among them.
    #[arg(long, value_name = "MB", default_value_t = 1024)]
    memory: u64,
    /// Each search looks for the attacker's win only (`solve --attacker`), not for the
    /// defender's: fewer nodes where the attacker is expected to win, but no position is then
    /// disproved.
    #[arg(long)]
    attacker_wins_only: bool,
}

/// The arguments of `book build`.
#[derive(Debug, Args)]
pub struct BuildArgs {
    /// The book's database, created if needed (its journal is BOOK.journal).
    #[arg(long = "db", value_name = "BOOK")]
    book: PathBuf,
    /// Root positions: one per line, a move list or a JSON object
    /// `{"id":..,"position":..,"attacker":..}`; or a file holding one board diagram.
    #[arg(long, value_name = "FILE")]
    roots: Option<PathBuf>,
    /// Every line of a RenLib library as a root (the position at the end of each line);
    /// lines that end in a five are left out.
    #[arg(long, value_name = "FILE.lib")]
    roots_lib: Option<PathBuf>,
    /// The code page of the library's comments: auto, utf-8, gbk, shift-jis, cp1251, cp1252.
    #[arg(long, value_name = "ENCODING", default_value = "auto")]
    lib_encoding: renju::renlib::Encoding,
    /// Standard openings as roots, by code (D1…D13, I1…I13) or name (Kagetsu); repeatable,
    /// or `all`.
    #[arg(long, value_name = "CODE", num_args = 1..)]
    opening: Vec<String>,
    /// The side the book proves a win for, at roots without their own.
    #[arg(long, value_parser = crate::parse_color, default_value = "black")]
    attacker: Color,
    /// Stop after this many seconds (default: when every root is settled, or Ctrl-C).
    #[arg(long, value_name = "S")]
    budget: Option<f64>,
    /// Expand no position this many moves below its root; such leaves are searched again
    /// with a doubled budget instead.
    #[arg(long, value_name = "N")]
    max_ply: Option<u32>,
    /// The attacker's moves opened at a time at a position (the next batch when all fail).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    width: Option<u32>,
    /// Positions searched at once (default: all cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Seconds between checkpoints (the database and journal written).
    #[arg(long, value_name = "S", default_value_t = 10.0)]
    checkpoint: f64,
    /// Append one JSON line to FILE for every leaf search: its line, which search of the leaf
    /// it was, nodes, seconds, the outcome, and the highest position it settled.
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Keep the search of each leaf at the ply limit in a state file in DIR (made if
    /// missing), and go on from it at the leaf's next search: a --position-nodes budget
    /// counts the nodes of every run, so each doubling pays only for its new half. The files
    /// of positions no longer searched again are removed. Needs --attacker-wins-only: a
    /// search for both sides' wins keeps no state.
    #[arg(long, value_name = "DIR", requires = "attacker_wins_only")]
    states: Option<PathBuf>,
    /// Search only the leaves below the position these moves from a root reach (as `book
    /// status` names them, e.g. "i7 g8"), as `book plan --under` plans them; the run ends
    /// once every such position is settled. Repeat it for several lines: their leaves are
    /// taken in turn.
    #[arg(long, value_name = "MOVES")]
    under: Vec<String>,
    #[command(flatten)]
    budget_per_position: PositionBudget,
}

/// The journal beside a book's database.
fn journal_path(book: &Path) -> PathBuf {
    let mut name = book.as_os_str().to_owned();
    name.push(".journal");
    PathBuf::from(name)
}

/// A book with its database, open for growing.
struct Opened {
    book: Book,
    db: Builder,
}

/// Reads the book at `path`: its journal and its database, if written yet. A missing journal
/// is a new book when `create`, under the database's rules if it exists, else the given ones.
fn read_book(path: &Path, global: &Global, create: bool) -> Result<(Book, Option<Database>)> {
    let journal = journal_path(path);
    let db = if path.exists() {
        Some(crate::cli::db::read(path)?)
    } else {
        None
    };
    let existed = journal.exists() || db.is_some();
    let book = if journal.exists() {
        let bytes = renju::files::read(&journal)
            .map_err(|e| input_error(format!("cannot read `{}`: {e}", journal.display())))?;
        Book::decode(&bytes).map_err(|e| input_error(format!("`{}`: {e}", journal.display())))?
    } else if create {
        match &db {
            Some(db) => Book::new(db.rules, db.size),
            None => {
                let (rules, size) = (global.rules()?, global.size());
                crate::fits(rules, size)?;
                Book::new(rules, size)
            }
        }
    } else {
        return Err(input_error(format!(
            "no book at `{}`: `{}` is missing (start one with `renju book build --db {}`)",
            path.display(),
            journal.display(),
            path.display()
        )));
    };
    if let Some(db) = &db
        && (db.rules != book.rules || db.size != book.size)
    {
        return Err(input_error(format!(
            "`{}` is for {} on {}, its journal for {} on {}",
            path.display(),
            db.rules,
            db.size,
            book.rules,
            book.size
        )));
    }
    if existed {
        global.agrees_with(book.rules, book.size, path)?;
    }
    let unbacked = book.unbacked_roots(db.as_ref());
    if let Some(first) = unbacked.first() {
        return Err(input_error(format!(
            "`{}` does not hold the proofs its journal `{}` counts as done ({} root(s) proved, such as {first}): restore the database, or move the journal away to start the book again",
            path.display(),
            journal.display(),
            unbacked.len()
        )));
    }
    Ok((book, db))
}

/// Opens the book at `path` for growing (see [`read_book`]).
fn open(path: &Path, global: &Global, create: bool) -> Result<Opened> {
    let (book, db) = read_book(path, global, create)?;
    let db = match db {
        Some(db) => Builder::extend(db),
        None => Builder::new(book.rules, book.size),
    };
    Ok(Opened { book, db })
}

/// Writes the database (compacted), then the journal, each atomically; returns the database
/// written.
fn save(path: &Path, opened: &Opened) -> Result<Database> {
    let db = opened.db.database().compacted();
    db.write(path)
        .with_context(|| format!("cannot write `{}`", path.display()))?;
    let journal = journal_path(path);
    renju::atomic::write_atomic(&journal, &opened.book.encode())
        .with_context(|| format!("cannot write `{}`", journal.display()))?;
    Ok(db)
}

/// Holds the book's update lock, or fails at once naming the other process's file.
/// The journal is written under the same lock, so its leftovers go too.
fn lock(path: &Path) -> Result<renju::atomic::UpdateLock> {
    let held = renju::atomic::try_lock_for_update(path)
        .with_context(|| format!("cannot lock `{}`", path.display()))?
        .ok_or_else(|| {
            input_error(format!(
                "`{}` is being updated by another process (its lock file `{}.lock` is held)",
                path.display(),
                path.display()
            ))
        })?;
    renju::atomic::remove_leftovers(&journal_path(path));
    Ok(held)
}

fn book_error(e: BookError) -> anyhow::Error {
    match e {
        BookError::Position(m) => input_error(m),
        other => anyhow::Error::new(other),
    }
}

/// Runs a `book` subcommand.
pub fn run(command: &BookCommand, global: &Global) -> Result<()> {
    match command {
        BookCommand::Build(args) => build(args, global),
        BookCommand::Status { book, under } => status(book, under, global),
        BookCommand::Plan {
            book,
            shards,
            per_shard,
            out,
            under,
            budget,
        } => plan(book, (*shards, *per_shard), out, under, budget, global),
        BookCommand::Work {
            unit,
            out,
            threads,
            guide,
            states,
        } => work(
            unit,
            out,
            *threads,
            guide.as_deref(),
            states.as_deref(),
            global,
        ),
        BookCommand::Release {
            book,
            unit,
            results,
        } => release(book, unit, results.as_deref(), global),
    }
}

/// The directory of `--states`, made if missing.
fn states_dir(dir: &Path) -> Result<PathBuf> {
    std::fs::create_dir_all(dir).map_err(|e| {
        input_error(format!(
            "--states `{}`: cannot make the directory: {e}",
            dir.display()
        ))
    })?;
    Ok(dir.to_path_buf())
}

fn round_options(budget: &PositionBudget, threads: usize) -> Result<RoundOptions> {
    if let Some(t) = budget.position_time
        && !(t.is_finite() && t > 0.0)
    {
        return Err(input_error(format!(
            "--position-time must be a positive number of seconds, not {t}"
        )));
    }
    let position_time = match (budget.position_time, budget.position_nodes) {
        (None, None) => Some(1.0),
        (t, _) => t,
    };
    Ok(RoundOptions {
        position_time,
        position_nodes: budget.position_nodes,
        memory_mb: Some((budget.memory / threads as u64).max(16)),
        threads,
        deadline: None,
        stop: None,
        called_off: None,
        known: None,
        attacker_wins_only: budget.attacker_wins_only,
        states: None,
    })
}

/// What `book build` and `book status` print as JSON.
#[derive(Serialize)]
struct Standing<'a> {
    book: String,
    rules: String,
    size: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped: Option<&'static str>,
    seconds: f64,
    searches: u64,
    nodes: u64,
    positions: usize,
    database_nodes: usize,
    roots: Vec<RootReport>,
    history: &'a [renju::book::Sample],
}

fn standing<'a>(
    path: &Path,
    book: &'a Book,
    db: &Database,
    stopped: Option<&'static str>,
) -> Standing<'a> {
    Standing {
        book: path.display().to_string(),
        rules: book.rules.to_string(),
        size: book.size.to_string(),
        stopped,
        seconds: book.totals.seconds,
        searches: book.totals.searches,
        nodes: book.totals.nodes,
        positions: book.nodes.len(),
        database_nodes: db.nodes.len(),
        roots: book.report(db),
        history: &book.history,
    }
}

fn print_standing(s: &Standing<'_>, global: &Global) -> Result<()> {
    if global.json {
        outln!("{}", serde_json::to_string(s)?)?;
        return Ok(());
    }
    outln!(
        "book:      {} ({} on {}), {} positions, {} database nodes",
        s.book,
        s.rules,
        s.size,
        s.positions,
        s.database_nodes
    )?;
    outln!(
        "work:      {:.1} s, {} searches, {} solver nodes",
        s.seconds,
        s.searches,
        s.nodes
    )?;
    if let Some(why) = s.stopped {
        outln!("stopped:   {why}")?;
    }
    for r in &s.roots {
        let proof = match (r.proof_nodes, r.proof_depth) {
            (Some(n), Some(d)) => format!(", proof {n} nodes, depth {d}"),
            (Some(n), None) => format!(", proof {n} nodes"),
            _ => String::new(),
        };
        let winner = r.winner.map(|w| format!(" ({w} wins)")).unwrap_or_default();
        outln!(
            "{}: {}{winner}, attacker {}, {} positions, frontier {}{proof}",
            r.name,
            r.result,
            r.attacker,
            r.positions,
            r.frontier
        )?;
        if r.result == "unknown" {
            outln!(
                "  {} of {} moves at the root settled, proof number {}, disproof number {}, deepest unproved line: {}",
                r.children_settled,
                r.children,
                r.proof_number.map_or("-".to_string(), |n| n.to_string()),
                r.disproof_number.map_or("-".to_string(), |n| n.to_string()),
                if r.deepest_unproved.is_empty() {
                    "(the root)".to_string()
                } else {
                    r.deepest_unproved.join(" ")
                }
            )?;
            for c in &r.open_children {
                let number = match c.proof_number {
                    Some(n) => format!("proof number {n}"),
                    None if c.disproved => "disproved".to_string(),
                    None => "planned for work units".to_string(),
                };
                let closest = match (&c.closest, c.closest_replies) {
                    (None, _) => String::new(),
                    (Some(m), 0) => format!(", closest {m} (not expanded)"),
                    (Some(m), n) => {
                        let open = &c.closest_open;
                        let named = if open.len() <= 5 {
                            let searched: Vec<String> =
                                c.closest_searches.iter().map(u32::to_string).collect();
                            format!(
                                ": {}; searched {} times",
                                open.join(" "),
                                searched.join(", ")
                            )
                        } else {
                            String::new()
                        };
                        format!(", closest {m} ({} of {n} replies open{named})", open.len())
                    }
                };
                outln!(
                    "  open {}: {} searches without a result, {} positions, {number}{closest}",
                    c.play,
                    c.searches,
                    c.positions
                )?;
            }
            if r.plies.len() > 2 {
                for p in &r.plies {
                    outln!(
                        "  ply {}: {} positions, {} settled, frontier {}, {} expanded ({} by a VCF certificate, {} by a certificate proof)",
                        p.ply,
                        p.positions,
                        p.settled,
                        p.frontier,
                        p.expanded,
                        p.vcf_certificates,
                        p.proof_certificates
                    )?;
                }
            }
        }
    }
    Ok(())
}

/// `book build`: adds the roots given, settles the positions planned for work units from the
/// database, and grows the book (see [`grow`]).
fn build(args: &BuildArgs, global: &Global) -> Result<()> {
    if let Some(b) = args.budget
        && !(b.is_finite() && b >= 0.0)
    {
        return Err(input_error(format!(
            "--budget must be a number of seconds, not {b}"
        )));
    }
    if !(args.checkpoint.is_finite() && args.checkpoint >= 0.0) {
        return Err(input_error("--checkpoint must be a number of seconds"));
    }
    crate::cli::creatable(&args.book, "--db")?;
    if let Some(log) = &args.log {
        // The log is appended to in place: it must be none of the files the run reads or
        // writes.
        let journal = journal_path(&args.book);
        let inputs = [
            (Some(args.book.as_path()), "book's database"),
            (Some(journal.as_path()), "book's journal"),
            (args.roots.as_deref(), "roots file"),
            (args.roots_lib.as_deref(), "roots library"),
        ];
        for (input, name) in inputs {
            if let Some(input) = input {
                crate::cli::distinct_output(log, "--log", input, name)?;
            }
        }
        crate::cli::plain_output(log, "--log")?;
    }
    let states = args.states.as_deref().map(states_dir).transpose()?;
    let log = args.log.as_deref().map(SearchLog::open).transpose()?;
    let _lock = lock(&args.book)?;
    let mut opened = open(&args.book, global, true)?;
    let added = add_roots(args, &mut opened.book, global.quiet)?;
    if let Some(m) = args.max_ply {
        opened.book.settings.max_ply = Some(m);
    }
    if let Some(w) = args.width {
        opened.book.settings.width = w;
    }
    let threads = threads_of(args.threads);
    let pool = crate::cli::batch::pool(Some(threads as u32))?;
    let started = Instant::now();
    let options = RoundOptions {
        deadline: args
            .budget
            .and_then(|b| Duration::try_from_secs_f64(b).ok())
            .and_then(|d| started.checked_add(d)),
        stop: Some(interrupted()),
        known: Some(guide(opened.db.settled())),
        states,
        ..round_options(&args.budget_per_position, threads)?
    };
    let reconciled = opened.book.reconcile(&mut opened.db).map_err(book_error)?;
    let known = opened
        .book
        .take_back_known(&mut opened.db)
        .map_err(book_error)?;
    let expanded = opened
        .book
        .expand_tried(&mut opened.db, &options)
        .map_err(book_error)?;
    // A bad --under is one error line, before any note.
    let searches = if args.under.is_empty() {
        Searches::default()
    } else {
        Searches::under(subtree::starts_under(&opened.book, &args.under)?)
    };
    if !global.quiet && (added > 0 || reconciled > 0 || known > 0) {
        eprintln!(
            "note: {added} root(s) added, {} in the book; {reconciled} planned position(s) taken back from the database, and {known} open leaf position(s) found there",
            opened.book.roots.len()
        );
    }
    if !global.quiet && expanded > 0 {
        eprintln!(
            "note: {expanded} position(s) searched at the old ply limit expanded under the new one"
        );
    }
    let sweep = |book: &Book| -> Result<()> {
        if let Some(dir) = &options.states {
            let removed = book.sweep_states(dir, &options).map_err(book_error)?;
            if !global.quiet && removed > 0 {
                eprintln!(
                    "note: {removed} state file(s) of positions not searched again removed from `{}`",
                    dir.display()
                );
            }
        }
        Ok(())
    };
    sweep(&opened.book)?;
    let (stopped, db) = grow(
        args,
        &mut opened,
        (options.clone(), searches),
        &pool,
        started,
        log,
        global,
    )?;
    sweep(&opened.book)?;
    print_standing(
        &standing(&args.book, &opened.book, &db, Some(stopped)),
        global,
    )
}

/// Adds the roots `args` name (see [`roots_of`]) to `book`; returns how many were new. A
/// book left without roots is an error.
fn add_roots(args: &BuildArgs, book: &mut Book, quiet: bool) -> Result<usize> {
    let roots = roots_of(args, book, quiet)?;
    let mut added = 0;
    for (name, board, attacker) in &roots {
        if board.size() != book.size {
            return Err(input_error(format!(
                "root `{name}` is on a {} board, the book on {}",
                board.size(),
                book.size
            )));
        }
        if book.add_root(name, board, *attacker).map_err(book_error)? {
            added += 1;
        }
    }
    if book.roots.is_empty() {
        return Err(input_error(
            "the book has no roots: give --opening CODE, --roots FILE or --roots-lib FILE.lib",
        ));
    }
    Ok(added)
}

/// Grows the book, one leaf search on each thread of `pool` at all times (a thread whose search
/// ends takes the next leaf at once; below the positions `searches` keeps to, with `--under`),
/// with a checkpoint every `args.checkpoint` seconds and one at the end, until every root (or
/// every position `--under` names) is settled, the run is stopped or its budget spent, or
/// nothing is left to search; returns why it stopped and the database written last. Every
/// search folded in goes to `log`, if given.
fn grow(
    args: &BuildArgs,
    opened: &mut Opened,
    (mut options, mut searches): (RoundOptions, Searches),
    pool: &rayon::ThreadPool,
    started: Instant,
    mut log: Option<SearchLog>,
    global: &Global,
) -> Result<(&'static str, Database)> {
    let bar = crate::cli::spinner(global);
    // Without a terminal for the spinner, the progress line goes to stderr at each checkpoint,
    // and a line on each search under way every `LOG_EVERY` (a leaf search at a doubled
    // budget runs for hours, and a log should show it alive).
    let plain_progress = bar.is_none() && !global.quiet;
    let mut last_checkpoint = Instant::now();
    let mut last_report = Instant::now();
    let mut run = Round::default();
    let stopped = loop {
        if opened.book.finished() {
            break "every root settled";
        }
        if searches
            .starts()
            .is_some_and(|s| opened.book.all_done_with(s))
        {
            break "every position --under names settled";
        }
        if options.interrupted() {
            break "interrupted";
        }
        if options.deadline.is_some_and(|d| Instant::now() >= d) {
            break "budget spent";
        }
        let mut round = opened
            .book
            .start(&mut opened.db, &options, pool, &mut searches)
            .map_err(book_error)?;
        if searches.running() == 0 && opened.book.finished() {
            // Settled by look-ups and twins alone.
            break "every root settled";
        }
        if searches.running() == 0 && round.looked_up == 0 {
            break "nothing left to search (the rest is planned for work units)";
        }
        let wait = crate::cli::LOG_EVERY.saturating_sub(last_report.elapsed());
        round.add(
            &opened
                .book
                .fold_within(&mut opened.db, &mut searches, Some(wait))
                .map_err(book_error)?,
        );
        if last_report.elapsed() >= crate::cli::LOG_EVERY {
            last_report = Instant::now();
            if plain_progress {
                for (root, line, r) in opened.book.underway(&searches) {
                    let book = &opened.book;
                    let root = book
                        .roots
                        .get(root as usize)
                        .map_or("", |x| x.name.as_str());
                    eprintln!("build: {root}, {}", running_line(&names(&line), &r));
                }
            }
        }
        if round.is_empty() {
            // No search ended and nothing was settled: nothing to fold in or write.
            continue;
        }
        let seconds = started.elapsed().as_secs_f64().max(1e-9);
        SearchLog::keep(&mut log, &opened.book, &round.log, seconds);
        round.log.clear();
        run.add(&round);
        if let Some(bar) = &bar {
            bar.set_message(progress(&opened.book, seconds, &run, options.threads));
        }
        if last_checkpoint.elapsed().as_secs_f64() >= args.checkpoint {
            if plain_progress {
                eprintln!(
                    "progress: {seconds:.0} s: {}",
                    progress(&opened.book, seconds, &run, options.threads)
                );
            }
            checkpoint(&args.book, opened, &mut last_checkpoint)?;
            // The searches started from now on are guided by what the database holds now.
            options.known = Some(guide(opened.db.settled()));
        }
    };
    // Searches still under way (the run stopped, or their roots are settled): called off, and
    // taken in: their nodes are counted, their leaves stay as they were.
    searches.call_off();
    while searches.running() > 0 {
        let round = opened
            .book
            .fold(&mut opened.db, &mut searches)
            .map_err(book_error)?;
        let seconds = started.elapsed().as_secs_f64();
        SearchLog::keep(&mut log, &opened.book, &round.log, seconds);
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let db = checkpoint(&args.book, opened, &mut last_checkpoint)?;
    Ok((stopped, db))
}

/// Adds the time since `since` to the book's total, takes a history sample, and saves the
/// book (see [`save`]); returns the database written.
fn checkpoint(path: &Path, opened: &mut Opened, since: &mut Instant) -> Result<Database> {
    opened.book.totals.seconds += since.elapsed().as_secs_f64();
    *since = Instant::now();
    let sample = opened.book.sample();
    opened.book.history.push(sample);
    save(path, opened)
}

fn status(path: &Path, under: &[String], global: &Global) -> Result<()> {
    let (book, db) = read_book(path, global, false)?;
    if !under.is_empty() {
        return subtree::print_under(&book, under, global);
    }
    let db = db.unwrap_or_else(|| Database::new(book.rules, book.size));
    print_standing(&standing(path, &book, &db, None), global)
}
