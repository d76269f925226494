//! `book status --under`: the book positions a line reaches, each with its moves, for a
//! look at what is left below a line and how often each leaf was searched.

use anyhow::Result;

use renju::book::unit::line_name;
use renju::book::{Book, MoveReport, PositionReport};
use renju::notation::parse_point;

use crate::{Global, input_error, outln};

/// The book positions `line` (`--under`) reaches from the book's open roots that still need a
/// proof ([`Book::done_with`]).
pub(super) fn reached_by(book: &Book, line: &str) -> Result<Vec<u32>> {
    let open: Vec<u32> = reached(book, line)?
        .into_iter()
        .filter(|&n| !book.done_with(n))
        .collect();
    if open.is_empty() {
        return Err(input_error(format!(
            "--under `{line}`: that position is settled already, or lies below a settled or disproved one"
        )));
    }
    Ok(open)
}

/// The unsettled book positions the `--under` lines reach, each once, in the order of the
/// lines (`book plan --under`, `book build --under`).
pub(super) fn starts_under(book: &Book, lines: &[String]) -> Result<Vec<u32>> {
    let mut starts = Vec::new();
    for line in lines {
        for start in reached_by(book, line)? {
            if !starts.contains(&start) {
                starts.push(start);
            }
        }
    }
    Ok(starts)
}

/// Prints where the positions `lines` reach stand, with their moves: one JSON object per
/// position with `--json`.
pub(super) fn print_under(book: &Book, lines: &[String], global: &Global) -> Result<()> {
    let mut reports = Vec::new();
    for line in lines {
        for node in reached(book, line)? {
            reports.push(book.report_under(node));
        }
    }
    if global.json {
        for r in &reports {
            outln!("{}", serde_json::to_string(r)?)?;
        }
        return Ok(());
    }
    for r in &reports {
        print_position(r)?;
    }
    Ok(())
}

/// Every position `line` reaches from an unsettled root, settled or not.
fn reached(book: &Book, line: &str) -> Result<Vec<u32>> {
    let moves = line
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(|t| parse_point(t, book.size))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| input_error(format!("--under `{line}`: {e}")))?;
    let reached = book.reached_by(&moves);
    if reached.is_empty() {
        return Err(input_error(format!(
            "--under `{line}`: the book has no position at that line below an unsettled root (`book status` names the open lines)"
        )));
    }
    Ok(reached)
}

/// `N times` in words for the small counts.
fn times(n: u32) -> String {
    match n {
        1 => "once".to_string(),
        2 => "twice".to_string(),
        n => format!("{n} times"),
    }
}

fn numbers(proof: Option<u64>, disproof: Option<u64>) -> String {
    match (proof, disproof) {
        (Some(p), Some(d)) => format!(", proof number {p}, disproof number {d}"),
        _ => String::new(),
    }
}

/// How often an expanded move's open replies were searched: ` (12 never searched, 3 planned,
/// searched at most 3 times)`; empty when none is open.
fn open_searches(m: &MoveReport) -> String {
    let mut said = Vec::new();
    if m.never_searched > 0 {
        said.push(format!("{} never searched", m.never_searched));
    }
    if m.planned > 0 {
        said.push(format!("{} planned", m.planned));
    }
    if m.most_searches > 0 {
        said.push(format!("searched at most {}", times(m.most_searches)));
    }
    if said.is_empty() {
        String::new()
    } else {
        format!(" ({})", said.join(", "))
    }
}

fn print_position(r: &PositionReport) -> Result<()> {
    let f = &r.figures;
    let searched = if f.searches > 0 {
        format!(", searched {} without a result", times(f.searches))
    } else {
        String::new()
    };
    outln!(
        "{}, {} ({} to move, attacker {}): {}{searched}{}, {} positions, frontier {}",
        r.root,
        line_name(&r.line),
        r.to_move,
        r.attacker,
        f.state,
        numbers(f.proof_number, f.disproof_number),
        f.positions,
        r.frontier
    )?;
    let mut settled: Vec<(&str, Vec<&str>)> = Vec::new();
    for m in &r.moves {
        let f = &m.figures;
        if f.settled() {
            match settled.iter_mut().find(|(state, _)| *state == f.state) {
                Some((_, plays)) => plays.push(&m.play),
                None => settled.push((f.state, vec![&m.play])),
            }
            continue;
        }
        let how = match f.state {
            "expanded" => format!(
                "expanded, {} of {} replies open{}, {} positions",
                m.open_replies,
                m.replies,
                open_searches(m),
                f.positions
            ),
            "searched" => format!(
                "searched {} without a result (the next search gets {} times the per-position budget)",
                times(f.searches),
                1u64.checked_shl(f.searches).unwrap_or(u64::MAX)
            ),
            "exhausted" => format!(
                "exhausted: searched {}, the last time to the end of its narrowed moves without a win (a larger budget would end the same way, so it is not searched again)",
                times(f.searches)
            ),
            state => state.to_string(),
        };
        outln!(
            "  {}: {how}{}",
            m.play,
            numbers(f.proof_number, f.disproof_number)
        )?;
    }
    for (state, plays) in settled {
        if plays.len() <= 20 {
            outln!("  {state} ({}): {}", plays.len(), plays.join(" "))?;
        } else {
            outln!("  {state}: {} moves", plays.len())?;
        }
    }
    Ok(())
}
