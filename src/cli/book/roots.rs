//! The roots `book build` is given: openings by code or name, a file of positions, or the
//! lines of a RenLib library.

use std::path::Path;

use anyhow::Result;

use renju::book::{Book, openings};
use renju::notation::PositionOptions;
use renju::rules::{Board, Color, Point, Size};

use super::BuildArgs;
use crate::input_error;

/// The roots a RenLib library names: the position at the end of each of its lines, except
/// those with a five on the board. Lines that do not play out are left out, with one note.
fn roots_of_library(
    path: &Path,
    args: &BuildArgs,
    book: &Book,
    quiet: bool,
) -> Result<LibraryRoots> {
    if book.size != Size::STANDARD {
        return Err(input_error(format!(
            "`{}`: a RenLib library holds 15x15 positions, and this book is on a {} board",
            path.display(),
            book.size
        )));
    }
    let library = renju::renlib::read_file(path, args.lib_encoding).map_err(|e| match e {
        renju::renlib::RenlibError::Io { .. } => input_error(e.to_string()),
        _ => input_error(format!("`{}`: {e}", path.display())),
    })?;
    let moves = |line: &[Option<Point>]| {
        line.iter()
            .map(|p| p.map_or("pass".to_string(), |p| p.to_string()))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut roots = Vec::new();
    let (mut lines, mut fives, mut cut) = (0usize, 0usize, 0usize);
    let mut first_cut = None;
    library.for_each_position(book.rules, &mut |line, position| match position {
        Err(why) => {
            cut += 1;
            first_cut.get_or_insert_with(|| format!("{}: {why}", moves(line)));
        }
        Ok(board) if !board.fives().is_empty() => {
            lines += 1;
            fives += 1;
        }
        Ok(board) => {
            lines += 1;
            let name = format!("{}: {}", path.display(), moves(line));
            roots.push((name, board.clone(), args.attacker));
        }
    });
    let first_cut = first_cut.unwrap_or_default();
    if cut > 0 && !quiet {
        eprintln!(
            "note: `{}`: {cut} line(s) cannot be played out and are left out; the first: {first_cut}",
            path.display()
        );
    }
    if roots.is_empty() {
        let why = if lines + cut == 0 {
            "it holds no moves".to_string()
        } else if lines == 0 {
            format!("no line plays out (the first left out: {first_cut})")
        } else {
            format!("all {lines} line(s) that play out end in a five ({fives})")
        };
        return Ok(LibraryRoots::None(format!(
            "`{}`: no roots: {why}",
            path.display()
        )));
    }
    Ok(LibraryRoots::Some(roots))
}

/// What a RenLib library gives as roots.
enum LibraryRoots {
    Some(Vec<(String, Board, Color)>),
    /// None, and why: an error if the other flags give none either, else a note.
    None(String),
}

/// The roots the flags name, with their attackers.
pub(super) fn roots_of(
    args: &BuildArgs,
    book: &Book,
    quiet: bool,
) -> Result<Vec<(String, Board, Color)>> {
    let options = PositionOptions {
        size: book.size,
        rules: book.rules,
        to_move: None,
    };
    let rules = book.rules;
    let mut roots = Vec::new();
    let mut codes: Vec<String> = Vec::new();
    for o in &args.opening {
        if o.eq_ignore_ascii_case("all") {
            codes.extend(openings::all().into_iter().map(|o| o.code));
        } else {
            codes.push(o.clone());
        }
    }
    for code in codes {
        let opening = openings::find(&code).map_err(input_error)?;
        let mut board = Board::new(options.size, rules);
        for p in opening.moves {
            board
                .play(p)
                .map_err(|e| input_error(format!("opening {}: {e}", opening.code)))?;
        }
        roots.push((opening.title(), board, args.attacker));
    }
    let mut library_gave_none = None;
    if let Some(path) = &args.roots_lib {
        match roots_of_library(path, args, book, quiet)? {
            LibraryRoots::Some(found) => roots.extend(found),
            LibraryRoots::None(why) => library_gave_none = Some(why),
        }
    }
    if let Some(why) = library_gave_none {
        if roots.is_empty() && args.roots.is_none() && book.roots.is_empty() {
            return Err(input_error(why));
        }
        if !quiet {
            eprintln!("note: {why}");
        }
    }
    if let Some(path) = &args.roots {
        // A file holding one board diagram is one root.
        let text = renju::files::read_text(path)
            .map_err(|e| input_error(format!("cannot read `{}`: {e}", path.display())))?;
        if renju::notation::looks_like_diagram(&text) {
            let board = renju::notation::parse_position(&text, &options)
                .map_err(|e| input_error(format!("`{}`: {e}", path.display())))?;
            roots.push((path.display().to_string(), board, args.attacker));
            return Ok(roots);
        }
        let jobs = crate::cli::batch::read_jobs(path, "attacker", |text, color| {
            let board =
                renju::notation::parse_position(text, &options).map_err(|e| e.to_string())?;
            Ok((text.to_string(), board, color?.unwrap_or(args.attacker)))
        })?;
        for job in jobs {
            let entry = job
                .parsed
                .map_err(|e| input_error(format!("`{}`, entry {}: {e}", path.display(), job.id)))?;
            let name = match job.id {
                serde_json::Value::String(s) => s,
                _ => entry.0,
            };
            roots.push((name, entry.1, entry.2));
        }
    }
    Ok(roots)
}
