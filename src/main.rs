//! The `renju` command-line tool: argument parsing, input reading and output formatting over
//! the `renju` library. Usage and input errors exit with status 2, other failures with 1.

use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};
use serde::Serialize;

mod cli;

use renju::atomic::write_atomic;
use renju::notation::{self, DiagramStyle, PositionError, PositionOptions};
use renju::rules::{Board, Color, Forbidden, Point, Rule, RuleError, Rules, Size};

/// Solver and threat-search research tool for renju and gomoku.
#[derive(Debug, Parser)]
#[command(name = "renju", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    global: Global,
}

#[derive(Debug, Args)]
pub struct Global {
    /// Rule set: renju, gomoku (exactly k), freestyle (k or more) or caro (default renju).
    #[arg(long, global = true, value_parser = parse_rule)]
    rule: Option<Rule>,
    /// Board size: N for a square board, or COLSxROWS (3 to 20 each; default 15).
    #[arg(long, global = true, value_parser = parse_size)]
    size: Option<Size>,
    /// Win length for gomoku and freestyle (default 5).
    #[arg(long, global = true)]
    k: Option<u32>,
    /// Print one JSON object instead of text.
    #[arg(long, global = true)]
    pub json: bool,
    /// Print no notes or progress on stderr.
    #[arg(long, global = true)]
    pub quiet: bool,
}

impl Global {
    /// The rules named, renju by default.
    pub fn rules(&self) -> Result<Rules, RuleError> {
        Rules::new(self.rule.unwrap_or(Rule::Renju), self.k)
    }

    /// The board size named, 15x15 by default.
    pub fn size(&self) -> Size {
        self.size.unwrap_or_default()
    }

    /// Checks the rules and size named on the command line, if any, against those of an
    /// existing file: a file keeps its own, and naming others is an input error, not a silent
    /// choice of one.
    pub fn agrees_with(&self, rules: Rules, size: Size, file: &std::path::Path) -> Result<()> {
        // `--k` alone names a win length under the file's own rule.
        let named_rules = match (self.rule, self.k) {
            (Some(_), _) => self.rules()?,
            (None, Some(k)) => Rules::new(rules.rule(), Some(k))?,
            (None, None) => rules,
        };
        let named_size = self.size.unwrap_or(size);
        if (named_rules, named_size) != (rules, size) {
            return Err(input_error(format!(
                "`{}` is for {rules} on {size}, not {named_rules} on {named_size}: leave out --rule, --k and --size for an existing file",
                file.display()
            )));
        }
        Ok(())
    }
}

#[derive(Debug, Args)]
struct PositionArgs {
    /// A move list (`h8 h9 i9`, `h8h9i9`, `H8,H9,I9`), a board diagram, a file holding one, or
    /// `-` for standard input.
    position: String,
    /// Side to move, overriding the one that follows from the stone counts.
    #[arg(long, value_parser = parse_color)]
    to_move: Option<Color>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Show a position: diagram, side to move, hashes, fives and Black's forbidden points.
    Show {
        #[command(flatten)]
        position: PositionArgs,
        /// Also write a board picture (SVG) to this file.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
    },
    /// List every point forbidden for Black, whichever side is to move.
    Forbidden {
        #[command(flatten)]
        position: PositionArgs,
    },
    /// Find a forced win by consecutive fours (VCF), or prove there is none.
    Vcf {
        #[command(flatten)]
        search: cli::search::SearchArgs,
        /// Only lines with at most N attacker fours.
        #[arg(long, value_name = "N")]
        max_fours: Option<u32>,
        /// Return a line with the fewest attacker fours (under caro: of forced fours).
        #[arg(long)]
        shortest: bool,
    },
    /// Find a forced win by consecutive threats, fours and threes (VCT), with proof.
    Vct {
        #[command(flatten)]
        search: cli::search::SearchArgs,
        /// Only lines with at most N attacker moves before the final five.
        #[arg(long, value_name = "N")]
        max_depth: Option<u32>,
        /// A move is a threat only if the attacker would then have a VCF of at most N fours.
        #[arg(long, value_name = "N")]
        threat_fours: Option<u32>,
    },
    /// Prove the position won or lost for the side to move (df-pn over the whole game), or
    /// with --full-width find its exact value.
    Solve {
        #[command(flatten)]
        solve: cli::solve::SolveArgs,
    },
    /// Verify every proof of a solution database with the independent checker (exit 1 on
    /// any failure).
    Check {
        #[command(flatten)]
        check: cli::check::CheckArgs,
    },
    /// Opening books: grow a proof tree over named openings, see where it stands, and
    /// split its frontier into work units for a cluster.
    Book {
        #[command(subcommand)]
        command: cli::book::BookCommand,
    },
    /// Solution databases: info, lookups, merging and export.
    Db {
        #[command(subcommand)]
        command: cli::db::DbCommand,
    },
}

fn parse_rule(s: &str) -> Result<Rule, String> {
    s.parse().map_err(|e: RuleError| e.to_string())
}

fn parse_size(s: &str) -> Result<Size, String> {
    s.parse()
        .map_err(|e: renju::rules::SizeError| e.to_string())
}

pub fn parse_color(s: &str) -> Result<Color, String> {
    s.parse()
}

/// Writes a line to standard output, failing with [`OutputError`] (a closed pipe, a full disk)
/// instead of panicking as `println!` does.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*).map_err($crate::OutputError)
    }};
}
pub(crate) use outln;

/// Writing to standard output failed.
#[derive(Debug, thiserror::Error)]
#[error("cannot write the output: {0}")]
pub struct OutputError(pub std::io::Error);

/// An error in what the user gave: exit status 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct InputError(String);

pub fn input_error(message: impl Into<String>) -> anyhow::Error {
    InputError(message.into()).into()
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("{}", one_line_usage_error(&e));
            return ExitCode::from(2);
        }
    };
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e)
            if e.chain().any(|c| {
                c.downcast_ref::<OutputError>()
                    .is_some_and(|o| o.0.kind() == std::io::ErrorKind::BrokenPipe)
            }) =>
        {
            // The reader went away (`renju show ... | head`): nothing left to say.
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            let is_input = e
                .chain()
                .any(|c| c.is::<InputError>() || c.is::<PositionError>() || c.is::<RuleError>());
            ExitCode::from(if is_input { 2 } else { 1 })
        }
    }
}

/// Clap's error as one line: its message up to the first blank line, joined, plus a pointer
/// to the help.
fn one_line_usage_error(e: &clap::Error) -> String {
    use clap::error::ErrorKind;
    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        return "error: no command given (see `renju --help`)".to_string();
    }
    let text = e.render().to_string();
    let message: Vec<&str> = text
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    let mut line = message.join(" ");
    if !line.starts_with("error:") {
        line = format!("error: {line}");
    }
    format!("{line} (see `renju --help`)")
}

/// An input error if no line of the board is long enough for a win: a search would look for
/// one without end.
pub fn fits(rules: Rules, size: Size) -> Result<()> {
    let longest = size.cols().max(size.rows());
    if rules.k() > longest {
        return Err(input_error(format!(
            "no one can win on the {size} board: {} needs {} in a row",
            rules.rule(),
            rules.k()
        )));
    }
    Ok(())
}

fn run(cli: &Cli) -> Result<()> {
    let g = &cli.global;
    // The rules and size named, for the commands that read a position. Databases and books
    // keep their own: an existing one is checked against any named, and only a new book
    // takes them.
    let options = || -> Result<PositionOptions> {
        Ok(PositionOptions {
            size: g.size(),
            rules: g.rules()?,
            to_move: None,
        })
    };
    match &cli.command {
        Command::Show { position, svg } => {
            let options = options()?;
            if let Some(svg) = svg {
                cli::not_the_position_file(svg, "--svg", &position.position)?;
                cli::plain_output(svg, "--svg")?;
            }
            let board = read_position(position, options)?;
            show(&board, g, svg.as_deref())
        }
        Command::Forbidden { position } => {
            let board = read_position(position, options()?)?;
            forbidden(&board, g)
        }
        Command::Vcf {
            search,
            max_fours,
            shortest,
        } => {
            let kind = cli::search::Kind::Vcf {
                max_fours: *max_fours,
                shortest: *shortest,
            };
            cli::search::run(search, kind, g, options()?)
        }
        Command::Vct {
            search,
            max_depth,
            threat_fours,
        } => {
            let kind = cli::search::Kind::Vct {
                max_depth: *max_depth,
                threat_fours: *threat_fours,
            };
            cli::search::run(search, kind, g, options()?)
        }
        Command::Solve { solve } => {
            let options = options()?;
            fits(options.rules, options.size)?;
            cli::solve::run(solve, g, options)
        }
        Command::Db { command } => cli::db::run(command, g),
        Command::Check { check } => cli::check::run(check, g),
        Command::Book { command } => cli::book::run(command, g),
    }
}

/// Reads the position argument: `-` is standard input, an existing file is read, anything
/// else is the position itself.
fn read_position(args: &PositionArgs, options: PositionOptions) -> Result<Board> {
    read_position_text(
        &args.position,
        &PositionOptions {
            to_move: args.to_move,
            ..options
        },
    )
}

/// The most bytes a position is read from: a 20x20 diagram with labels takes under 2 KiB,
/// and the longest game a few KiB more. A larger input (`/dev/zero`) is refused rather than
/// read into memory without end.
const POSITION_BYTES: u64 = 1 << 20;

/// The text of a position read from `source` (named `what` in errors), at most
/// [`POSITION_BYTES`].
fn read_capped(source: impl Read, what: &str) -> Result<String> {
    let bytes = renju::files::read_up_to(source, POSITION_BYTES)
        .map_err(|e| input_error(format!("cannot read the {what}: {e}")))?
        .ok_or_else(|| {
            input_error(format!(
                "the {what} is over {} MiB: not a position",
                POSITION_BYTES >> 20
            ))
        })?;
    renju::files::utf8(bytes).map_err(|e| input_error(format!("cannot read the {what}: {e}")))
}

/// Reads a position argument with the given options: `-` is standard input, an existing file
/// is read, anything else is the position itself.
pub fn read_position_text(arg: &str, options: &PositionOptions) -> Result<Board> {
    let text = if arg == "-" {
        read_capped(std::io::stdin(), "standard input")?
    } else if let Ok(meta) = std::fs::metadata(arg) {
        // Any existing path is a file to read: pipes and /dev/stdin included.
        if meta.is_dir() {
            return Err(input_error(format!(
                "`{arg}` is a directory, not a position file"
            )));
        }
        let file = std::fs::File::open(arg)
            .map_err(|e| input_error(format!("cannot read position file `{arg}`: {e}")))?;
        read_capped(file, &format!("position file `{arg}`"))?
    } else {
        arg.to_string()
    };
    notation::parse_position(&text, options).map_err(|e| {
        let looks_like_path = !arg.contains(char::is_whitespace)
            && (arg.contains('/')
                || arg.contains('\\')
                || arg.rsplit_once('.').is_some_and(|(_, ext)| {
                    !ext.is_empty() && ext.chars().all(|c| c.is_ascii_alphabetic())
                }));
        if looks_like_path && matches!(e, PositionError::Malformed { .. }) {
            input_error(format!(
                "no such position file `{arg}` (and it is not a move list: {e})"
            ))
        } else {
            e.into()
        }
    })
}

#[derive(Serialize)]
struct ForbiddenPoint {
    point: String,
    kind: Forbidden,
}

fn forbidden_points(board: &Board) -> (Vec<(Point, Forbidden)>, Vec<ForbiddenPoint>) {
    let points = board.forbidden_points();
    let json = points
        .iter()
        .map(|&(p, kind)| ForbiddenPoint {
            point: p.to_string(),
            kind,
        })
        .collect();
    (points, json)
}

fn note_rule_without_forbidden(board: &Board, g: &Global) {
    if !board.rules().has_forbidden() && !g.quiet {
        eprintln!("note: {} has no forbidden moves", board.rules().rule());
    }
}

fn forbidden(board: &Board, g: &Global) -> Result<()> {
    #[derive(Serialize)]
    struct Out {
        to_move: Color,
        forbidden: Vec<ForbiddenPoint>,
    }
    note_rule_without_forbidden(board, g);
    let (points, json) = forbidden_points(board);
    if g.json {
        outln!(
            "{}",
            serde_json::to_string(&Out {
                to_move: board.to_move(),
                forbidden: json
            })?
        )?;
    } else if points.is_empty() {
        outln!("none")?;
    } else {
        for (p, kind) in points {
            outln!("{p} {kind}")?;
        }
    }
    Ok(())
}

fn five_text(five: &renju::rules::Five) -> (String, Vec<String>) {
    let points: Vec<String> = five.points().map(|p| p.to_string()).collect();
    let text = format!("{} {}-{}", five.color, points[0], points[points.len() - 1]);
    (text, points)
}

fn show(board: &Board, g: &Global, svg: Option<&Path>) -> Result<()> {
    let (points, forbidden_json) = forbidden_points(board);
    if let Some(path) = svg {
        let picture = renju::svg::render(board, &points);
        write_atomic(path, picture.as_bytes())
            .with_context(|| format!("cannot write the picture to `{}`", path.display()))?;
    }
    if g.json {
        return show_json(board, forbidden_json);
    }
    show_text(board, &points)?;
    if let Some(path) = svg
        && !g.quiet
        && std::io::stderr().is_terminal()
    {
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}

/// `show --json`: the position as one JSON object.
fn show_json(board: &Board, forbidden: Vec<ForbiddenPoint>) -> Result<()> {
    #[derive(Serialize)]
    struct FiveOut {
        color: Color,
        points: Vec<String>,
    }
    #[derive(Serialize)]
    struct CanonicalOut {
        hash: String,
        symmetry: String,
    }
    #[derive(Serialize)]
    struct Out {
        rule: Rule,
        k: u8,
        size: String,
        to_move: Color,
        moves: Vec<String>,
        board: Vec<String>,
        hash: String,
        canonical: CanonicalOut,
        fives: Vec<FiveOut>,
        forbidden: Vec<ForbiddenPoint>,
    }
    let canonical = board.canonical();
    let plain = notation::format_diagram(board, &DiagramStyle::default());
    let out = Out {
        rule: board.rules().rule(),
        k: board.rules().k(),
        size: board.size().to_string(),
        to_move: board.to_move(),
        moves: board.moves().iter().map(Point::to_string).collect(),
        board: plain.lines().map(str::to_string).collect(),
        hash: format!("{:016x}", board.hash()),
        canonical: CanonicalOut {
            hash: format!("{:016x}", canonical.key),
            symmetry: canonical.symmetry.to_string(),
        },
        fives: board
            .fives()
            .iter()
            .map(|f| FiveOut {
                color: f.color,
                points: five_text(f).1,
            })
            .collect(),
        forbidden,
    };
    outln!("{}", serde_json::to_string(&out)?)?;
    Ok(())
}

/// `show` as text: the labelled diagram with Black's forbidden `points` marked, then one line
/// per fact.
fn show_text(board: &Board, points: &[(Point, Forbidden)]) -> Result<()> {
    let canonical = board.canonical();
    let style = DiagramStyle {
        labels: true,
        forbidden: points,
    };
    outln!("{}", notation::format_diagram(board, &style).trim_end())?;
    outln!("rule:      {} on {}", board.rules(), board.size())?;
    if !board.moves().is_empty() {
        outln!("moves:     {}", notation::format_moves(board))?;
    }
    outln!("to move:   {}", board.to_move())?;
    outln!("hash:      {:016x}", board.hash())?;
    outln!("canonical: {:016x} ({})", canonical.key, canonical.symmetry)?;
    let fives: Vec<String> = board.fives().iter().map(|f| five_text(f).0).collect();
    outln!("fives:     {}", list_or_none(&fives))?;
    if board.rules().has_forbidden() {
        let list: Vec<String> = points.iter().map(|(p, k)| format!("{p} {k}")).collect();
        outln!("forbidden: {}", list_or_none(&list))?;
    }
    Ok(())
}

/// Items joined by commas, or `none`.
fn list_or_none(items: &[String]) -> String {
    if items.is_empty() {
        "none".to_string()
    } else {
        items.join(", ")
    }
}
