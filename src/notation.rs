//! Reading and writing positions: move lists (`h8 h9 i9`, `h8h9i9`, `H8,H9,I9`) and board
//! diagrams (rank 15 first, `X` Black, `O` White, `.` or `+` empty, labels optional).
//!
//! Parsing is pure: it turns text into a [`Board`] or a [`PositionError`] that names the
//! problem and the offending token. Reading files and standard input belongs to the caller.

use std::fmt::Write as _;

use thiserror::Error;

use crate::rules::{Board, Color, Forbidden, PlayError, Point, Rules, Size};

/// Why a position could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// A token that is not a point.
    #[error("malformed move `{token}`: expected a file letter and a rank, like h8")]
    Malformed {
        /// The token.
        token: String,
    },
    /// A point that is not on the board.
    #[error("move `{token}` is off the {size} board")]
    OffBoard {
        /// The token.
        token: String,
        /// The board size.
        size: Size,
    },
    /// A point played twice.
    #[error("move {number} `{token}` repeats move {first}: the point is already taken")]
    Repeated {
        /// The token.
        token: String,
        /// Its move number, from 1.
        number: usize,
        /// Move number of the first stone there.
        first: usize,
    },
    /// A move after the game was already won.
    #[error(
        "move {number} `{token}` comes after {winner} won with move {five_at}: the game is over"
    )]
    AfterFive {
        /// The token.
        token: String,
        /// Its move number.
        number: usize,
        /// Who made the five.
        winner: Color,
        /// The move number of the five.
        five_at: usize,
    },
    /// A diagram row with the wrong number of points.
    #[error(
        "diagram row {row} (rank {rank}) has {found} points, expected {expected} for the {size} board: `{text}`"
    )]
    RowLength {
        /// Row number in the diagram, from 1 at the top.
        row: usize,
        /// The rank that row stands for.
        rank: usize,
        /// Points found.
        found: usize,
        /// Points expected.
        expected: usize,
        /// The board size.
        size: Size,
        /// The row's text.
        text: String,
    },
    /// A diagram with the wrong number of rows.
    #[error("diagram has {found} rows, expected {expected} for the {size} board")]
    RowCount {
        /// Rows found.
        found: usize,
        /// Rows expected.
        expected: usize,
        /// The board size.
        size: Size,
    },
    /// A character that has no meaning in a diagram row.
    #[error(
        "diagram row {row} has an unexpected character `{ch}`: use X for Black, O for White, . or + for empty"
    )]
    BadDiagramChar {
        /// Row number in the diagram, from 1 at the top.
        row: usize,
        /// The character.
        ch: char,
    },
    /// A rank label that does not match the row's rank.
    #[error("diagram row {row} is labelled rank {label}, but it stands for rank {rank}")]
    WrongRankLabel {
        /// Row number in the diagram, from 1 at the top.
        row: usize,
        /// The label found.
        label: String,
        /// The rank the row stands for.
        rank: usize,
    },
    /// Stone counts that no game reaches, with no side to move given.
    #[error(
        "stone counts black={black} white={white} cannot arise in a game (Black moves first, so Black has as many stones as White or one more); give the side to move with --to-move"
    )]
    UnreachableCounts {
        /// Black stones.
        black: usize,
        /// White stones.
        white: usize,
    },
    /// A move after Black's forbidden move, which lost the game.
    #[error(
        "move {number} `{token}` comes after Black's forbidden move {at} `{forbidden}` ({kind}), which loses: the game is over"
    )]
    AfterForbidden {
        /// The token.
        token: String,
        /// Its move number.
        number: usize,
        /// The forbidden move's number.
        at: usize,
        /// The forbidden move's token.
        forbidden: String,
        /// Why it is forbidden.
        kind: Forbidden,
    },
    /// A move list that ends with Black's forbidden move, which lost the game.
    #[error(
        "move {number} `{token}` is Black's forbidden move ({kind}), which loses: the game is over (leave it out to study the position before it)"
    )]
    EndsForbidden {
        /// The token.
        token: String,
        /// Its move number.
        number: usize,
        /// Why it is forbidden.
        kind: Forbidden,
    },
    /// A diagram where one side has a five but the stone counts say the other side moved after it.
    #[error(
        "{winner} has a five, but the stone counts say a move was played after it: the game was over"
    )]
    MoveAfterFive {
        /// Who has the five.
        winner: Color,
    },
    /// A diagram where both colours have a five.
    #[error("both Black and White have a five on the board: no game reaches that position")]
    TwoWinners,
    /// A renju diagram with a black overline on it.
    #[error(
        "Black has an overline on the board ({length} in a row from {start}): renju forbids Black overlines, so no game reaches that position"
    )]
    BlackOverline {
        /// The end of the run nearest `a1`.
        start: Point,
        /// Its stones.
        length: u8,
    },
}

/// How to read a position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PositionOptions {
    /// Board size.
    pub size: Size,
    /// Rules (win length and forbidden moves).
    pub rules: Rules,
    /// The side to move; `None` derives it from the stone counts.
    pub to_move: Option<Color>,
}

/// Reads a position, as a diagram if the text looks like one, else as a move list.
///
/// # Errors
/// A [`PositionError`] naming the problem and the token.
pub fn parse_position(text: &str, options: &PositionOptions) -> Result<Board, PositionError> {
    if looks_like_diagram(text) {
        parse_diagram(text, options)
    } else {
        parse_moves(text, options)
    }
}

/// Whether some line, rank labels aside, is made only of diagram characters. A move list never
/// is: its tokens hold ranks after file letters.
#[must_use]
pub fn looks_like_diagram(text: &str) -> bool {
    text.lines().any(|line| {
        let body = strip_rank_labels(line).1;
        body.chars().any(|c| !c.is_whitespace())
            && body
                .chars()
                .all(|c| c.is_whitespace() || is_diagram_char(c))
            && body
                .chars()
                .any(|c| matches!(c, '.' | '+' | 'X' | 'x' | '0'))
    })
}

/// Stone and empty-point characters (the marks `3`/`4`/`6` are points too, but a line must hold
/// one of these to be taken for a diagram).
fn is_diagram_char(c: char) -> bool {
    matches!(c, 'X' | 'x' | 'O' | 'o' | '0' | '.' | '+')
}

/// Splits the move tokens out of a move list: separators are whitespace, commas and
/// semicolons, and moves may run together (`h8h9i9`). A run-together chunk is split only when
/// it is wholly letter-then-digits moves; anything else stays one token, to be reported whole.
fn move_tokens(text: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    for chunk in text.split(|c: char| c.is_whitespace() || c == ',' || c == ';') {
        if chunk.is_empty() {
            continue;
        }
        let bytes = chunk.as_bytes();
        let mut starts = Vec::new();
        let mut i = 0;
        let splittable = loop {
            if i == bytes.len() {
                break true;
            }
            let letters = bytes[i..]
                .iter()
                .take_while(|b| b.is_ascii_alphabetic())
                .count();
            let digits = bytes[i + letters..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            if letters != 1 || digits == 0 {
                break false;
            }
            starts.push(i);
            i += letters + digits;
        };
        if splittable {
            starts.push(bytes.len());
            tokens.extend(starts.windows(2).map(|w| &chunk[w[0]..w[1]]));
        } else {
            tokens.push(chunk);
        }
    }
    tokens
}

/// Reads one point in RIF notation on a board of `size`.
///
/// # Errors
/// [`PositionError::Malformed`] or [`PositionError::OffBoard`].
pub fn parse_point(token: &str, size: Size) -> Result<Point, PositionError> {
    let malformed = || PositionError::Malformed {
        token: token.to_string(),
    };
    let off = || PositionError::OffBoard {
        token: token.to_string(),
        size,
    };
    let (file, rank) = match token.char_indices().nth(1) {
        Some((i, _)) => token.split_at(i),
        None => return Err(malformed()),
    };
    let file = file
        .chars()
        .next()
        .filter(char::is_ascii_alphabetic)
        .ok_or_else(malformed)?;
    if rank.is_empty() || !rank.bytes().all(|b| b.is_ascii_digit()) || rank.starts_with('0') {
        return Err(malformed());
    }
    let x = i32::from(file.to_ascii_lowercase() as u8 - b'a');
    let y = if rank.len() > 3 {
        i32::MAX
    } else {
        rank.parse::<i32>().map_err(|_| malformed())? - 1
    };
    size.point(x, y).ok_or_else(off)
}

/// Reads a move list: Black first, alternating.
///
/// # Errors
/// A malformed token, a point off the board, a repeated point, a move after a five, or Black's
/// forbidden move (which loses: nothing follows it, and there is no position to search).
pub fn parse_moves(text: &str, options: &PositionOptions) -> Result<Board, PositionError> {
    let mut board = Board::new(options.size, options.rules);
    let mut five_at: Option<(usize, Color)> = None;
    // A forbidden move loses for Black (rules.md): nothing may follow it.
    let mut forbidden_at: Option<(usize, &str, Forbidden)> = None;
    for (i, token) in move_tokens(text).into_iter().enumerate() {
        let number = i + 1;
        let p = parse_point(token, options.size)?;
        if let Some((five_at, winner)) = five_at {
            return Err(PositionError::AfterFive {
                token: token.to_string(),
                number,
                winner,
                five_at,
            });
        }
        if let Some((at, forbidden, kind)) = forbidden_at {
            return Err(PositionError::AfterForbidden {
                token: token.to_string(),
                number,
                at,
                forbidden: forbidden.to_string(),
                kind,
            });
        }
        let color = board.to_move();
        if color == Color::Black && board.is_empty(p) {
            forbidden_at = board.forbidden(p).map(|kind| (number, token, kind));
        }
        match board.play(p) {
            Ok(()) => {}
            Err(PlayError::Occupied { .. }) => {
                let first = board
                    .moves()
                    .iter()
                    .position(|&m| m == p)
                    .map_or(0, |i| i + 1);
                return Err(PositionError::Repeated {
                    token: token.to_string(),
                    number,
                    first,
                });
            }
            Err(PlayError::OffBoard { .. }) => {
                return Err(PositionError::OffBoard {
                    token: token.to_string(),
                    size: options.size,
                });
            }
        }
        if board.makes_five(p, color) {
            five_at = Some((number, color));
        }
    }
    if let Some((number, token, kind)) = forbidden_at {
        return Err(PositionError::EndsForbidden {
            token: token.to_string(),
            number,
            kind,
        });
    }
    if let Some(color) = options.to_move {
        board.set_to_move(color);
    }
    Ok(board)
}

/// Splits a leading and a trailing rank number off a diagram line.
fn strip_rank_labels(line: &str) -> (Option<&str>, &str, Option<&str>) {
    let trimmed = line.trim();
    let lead_len = trimmed.bytes().take_while(u8::is_ascii_digit).count();
    let (lead, rest) = trimmed.split_at(lead_len);
    let rest = rest.trim();
    let trail_len = rest.bytes().rev().take_while(u8::is_ascii_digit).count();
    let (body, trail) = rest.split_at(rest.len() - trail_len);
    (
        (!lead.is_empty()).then_some(lead),
        body.trim(),
        (!trail.is_empty()).then_some(trail),
    )
}

/// Whether a line is a file-label line like `A B C ... O` (case and spacing free).
fn is_file_labels(line: &str, size: Size) -> bool {
    let letters: String = line.chars().filter(|c| !c.is_whitespace()).collect();
    let expected: String = (0..size.cols()).map(|x| (b'a' + x) as char).collect();
    !letters.is_empty() && letters.eq_ignore_ascii_case(&expected)
}

/// Whether a diagram line is an annotation rather than a row: a `key: value` line (as
/// `renju show` prints under its diagram) or a `#` comment.
fn is_annotation(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with('#') || t.contains(':')
}

/// Whether `c` can stand for a point in a diagram row: stones, empty points, and the forbidden
/// marks `3`, `4`, `6` that `renju show` prints on empty points.
fn is_point_char(c: char) -> bool {
    is_diagram_char(c) || matches!(c, '3' | '4' | '6')
}

/// Reads one diagram row standing for `rank`, with `cols` points. Rank labels are taken off
/// either end when they match the rank; a number that does not match is read as points
/// (`0` White, `3`/`4`/`6` marks) if it can be, so a mark at the end of a row is not lost.
fn parse_row(line: &str, row: usize, rank: isize, cols: usize) -> Result<Vec<char>, PositionError> {
    let (lead, body, trail) = strip_rank_labels(line);
    let is_label = |l: &str| l.parse::<isize>().ok() == Some(rank);
    let as_points = |l: &str| l.chars().all(is_point_char);
    let mut readings = Vec::new();
    // Reading 1: matching labels stripped. Reading 2: every number read as points.
    for strip in [true, false] {
        let mut cells = Vec::new();
        let mut ok = true;
        for (label, at_end) in [(lead, false), (trail, true)] {
            let Some(label) = label else { continue };
            if strip && is_label(label) {
                continue;
            }
            if !as_points(label) {
                if strip {
                    return Err(PositionError::WrongRankLabel {
                        row,
                        label: label.to_string(),
                        rank: rank.max(0) as usize,
                    });
                }
                ok = false;
            }
            let chars = label.chars();
            if at_end {
                cells.push((true, chars.collect::<Vec<_>>()));
            } else {
                cells.push((false, chars.collect::<Vec<_>>()));
            }
        }
        if !ok {
            continue;
        }
        let mut all: Vec<char> = cells
            .iter()
            .filter(|(end, _)| !end)
            .flat_map(|(_, c)| c.clone())
            .collect();
        all.extend(body.chars().filter(|c| !c.is_whitespace()));
        all.extend(
            cells
                .iter()
                .filter(|(end, _)| *end)
                .flat_map(|(_, c)| c.clone()),
        );
        if let Some(&ch) = all.iter().find(|&&c| !is_point_char(c)) {
            return Err(PositionError::BadDiagramChar { row, ch });
        }
        if all.len() == cols {
            return Ok(all);
        }
        readings.push(all);
    }
    let found = readings.first().map_or(0, Vec::len);
    Err(PositionError::RowLength {
        row,
        rank: rank.max(0) as usize,
        found,
        expected: cols,
        size: Size::square(3).expect("a valid size"), // replaced by the caller
        text: line.trim().to_string(),
    })
}

/// Reads a board diagram: one line per rank, top rank first. Rank numbers, a file-letter
/// line, `key: value` annotations and `#` comments may surround the rows, and the forbidden
/// marks `3`, `4`, `6` read as empty points, so the output of `renju show` reads back in, its
/// `to move: white` line included (it counts as `options.to_move` when that is `None`).
///
/// # Errors
/// A wrong row length or count, an unknown character, a wrong rank label, stone counts no game
/// reaches (without a side to move), fives for both sides, or a five followed by a move.
pub fn parse_diagram(text: &str, options: &PositionOptions) -> Result<Board, PositionError> {
    let size = options.size;
    let text = text
        .strip_prefix('\u{feff}')
        .unwrap_or(text)
        .replace("\r\n", "\n")
        .replace('\r', "\n");
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !is_file_labels(l, size) && !is_annotation(l))
        .collect();
    let expected_rows = usize::from(size.rows());
    if rows.len() != expected_rows {
        return Err(PositionError::RowCount {
            found: rows.len(),
            expected: expected_rows,
            size,
        });
    }
    let mut board = Board::new(size, options.rules);
    for (i, line) in rows.iter().enumerate() {
        put_row(&mut board, line, i)?;
    }
    if let Some(overline) = board.forbidden_overlines().first() {
        return Err(PositionError::BlackOverline {
            start: overline.start,
            length: overline.length,
        });
    }
    let fives = board.fives();
    let black_five = fives.iter().any(|f| f.color == Color::Black);
    let white_five = fives.iter().any(|f| f.color == Color::White);
    if black_five && white_five {
        return Err(PositionError::TwoWinners);
    }
    let to_move = diagram_to_move(&board, &text, options, black_five, white_five)?;
    board.set_to_move(to_move);
    Ok(board)
}

/// Puts the stones of diagram row `i` (0 for the top rank) on `board`.
fn put_row(board: &mut Board, line: &str, i: usize) -> Result<(), PositionError> {
    let size = board.size();
    let row = i + 1;
    let rank = isize::from(size.rows()) - i as isize;
    let cells = parse_row(line, row, rank, usize::from(size.cols())).map_err(|e| match e {
        PositionError::RowLength {
            row,
            rank,
            found,
            expected,
            text,
            ..
        } => PositionError::RowLength {
            row,
            rank,
            found,
            expected,
            size,
            text,
        },
        other => other,
    })?;
    for (x, &c) in cells.iter().enumerate() {
        let color = match c {
            'X' | 'x' => Color::Black,
            'O' | 'o' | '0' => Color::White,
            _ => continue,
        };
        let p = Point::new(x as u8, (rank - 1) as u8);
        board.put(p, color).expect("each diagram point is set once");
    }
    Ok(())
}

/// The side to move of a diagram's `board`: `options.to_move`, else the diagram's own
/// `to move:` line, else what the stone counts give, where the side with a five is not the
/// one to move.
fn diagram_to_move(
    board: &Board,
    text: &str,
    options: &PositionOptions,
    black_five: bool,
    white_five: bool,
) -> Result<Color, PositionError> {
    let (black, white) = (
        board.stone_count(Color::Black),
        board.stone_count(Color::White),
    );
    // `renju show` writes the side to move as `to move: white`; it counts as `--to-move`
    // when that is not given.
    let written = text.lines().find_map(|l| {
        let value = l.trim().strip_prefix("to move:")?.trim();
        value.parse::<Color>().ok()
    });
    let given = options.to_move.or(written);
    let to_move = match given {
        Some(color) => color,
        None if black == white => Color::Black,
        None if black == white + 1 => Color::White,
        None => return Err(PositionError::UnreachableCounts { black, white }),
    };
    // The side with a five must have made the last move: the other side is to move.
    if given.is_none() {
        for (has, winner) in [(black_five, Color::Black), (white_five, Color::White)] {
            if has && to_move == winner {
                return Err(PositionError::MoveAfterFive { winner });
            }
        }
    }
    Ok(to_move)
}

/// The move list of a board's played moves, like `h8 h9 i9`.
#[must_use]
pub fn format_moves(board: &Board) -> String {
    let moves: Vec<String> = board.moves().iter().map(Point::to_string).collect();
    moves.join(" ")
}

/// What to draw on a text diagram besides the stones.
#[derive(Clone, Copy, Debug, Default)]
pub struct DiagramStyle<'a> {
    /// Rank numbers on the left and file letters underneath.
    pub labels: bool,
    /// Forbidden points to mark with `3`, `4` or `6`.
    pub forbidden: &'a [(Point, Forbidden)],
}

/// A text diagram of the board, top rank first, with `X`, `O`, `.` and the forbidden marks.
/// Without labels or marks it reads back with [`parse_diagram`].
#[must_use]
pub fn format_diagram(board: &Board, style: &DiagramStyle<'_>) -> String {
    let size = board.size();
    let mut out = String::new();
    for y in (0..size.rows()).rev() {
        if style.labels {
            let _ = write!(out, "{:>2} ", y + 1);
        }
        let row: Vec<String> = (0..size.cols())
            .map(|x| {
                let p = Point::new(x, y);
                let mark = match board.stone(p) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => style
                        .forbidden
                        .iter()
                        .find(|(q, _)| *q == p)
                        .map_or('.', |(_, kind)| kind.mark()),
                };
                mark.to_string()
            })
            .collect();
        out.push_str(&row.join(if style.labels { " " } else { "" }));
        out.push('\n');
    }
    if style.labels {
        out.push_str("   ");
        let files: Vec<String> = (0..size.cols())
            .map(|x| ((b'A' + x) as char).to_string())
            .collect();
        out.push_str(&files.join(" "));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests;
