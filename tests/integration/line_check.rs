//! A small VCF line checker, separate from the search: it replays a line on the reference
//! implementation's plain board and checks each attacker move is legal and makes a four (or
//! the final five), each defender reply is forced, and the line ends as claimed. Renju rules:
//! Black wins with exactly five and never plays a forbidden point; White wins with five or more.

use renju::rules::{Board, Color, Point};
use renju::threat::{Ending, Line};

use crate::support::to_reference;
use renju::check::rules::{Grid, Verdict, Win, black_verdict, wins_at};

fn code(c: Color) -> u8 {
    match c {
        Color::Black => 1,
        Color::White => 2,
    }
}

/// Whether the stone of colour `c` at (x, y) is in a winning run (renju: Black exactly five,
/// White five or more).
fn wins(b: &Grid, x: usize, y: usize, c: Color) -> bool {
    let win = match c {
        Color::Black => Win::Exactly(5),
        Color::White => Win::AtLeast(5),
    };
    wins_at(b, x, y, code(c), win)
}

fn with(b: &Grid, p: Point, c: Color) -> Grid {
    let mut b = b.clone();
    let i = usize::from(p.y()) * b.width + usize::from(p.x());
    assert_eq!(b.cells[i], 0, "{p} is taken");
    b.cells[i] = code(c);
    b
}

/// Every empty point where `c` would complete a five.
fn five_points(b: &Grid, c: Color) -> Vec<Point> {
    let mut v = Vec::new();
    for y in 0..b.height {
        for x in 0..b.width {
            let p = Point::new(x as u8, y as u8);
            if b.cells[y * b.width + x] == 0 && wins(&with(b, p, c), x, y, c) {
                v.push(p);
            }
        }
    }
    v
}

/// Checks a VCF `line` for `attacker` from `start` (renju rules).
pub fn check_vcf(start: &Board, attacker: Color, line: &Line) -> Result<(), String> {
    let defender = attacker.opponent();
    let mut b = to_reference(start);
    let moves = &line.moves;
    if line.ending == Ending::AlreadyWon {
        return if moves.is_empty() {
            Ok(())
        } else {
            Err("an already-won line has moves".into())
        };
    }
    for (i, &m) in moves.iter().enumerate() {
        let last = i + 1 == moves.len();
        if b.cells[usize::from(m.y()) * b.width + usize::from(m.x())] != 0 {
            return Err(format!("move {m} is on a taken point"));
        }
        if i % 2 == 0 {
            // Attacker move.
            let threats = five_points(&b, defender);
            if !threats.is_empty() && !five_points(&b, attacker).contains(&m) && threats != [m] {
                return Err(format!(
                    "move {m} ignores the defender's five point(s) {threats:?}"
                ));
            }
            if attacker == Color::Black {
                let v = black_verdict(&b, usize::from(m.x()), usize::from(m.y()));
                if !matches!(v, Verdict::Five | Verdict::Legal) {
                    return Err(format!("black move {m} is forbidden ({v:?})"));
                }
            }
            let next = with(&b, m, attacker);
            if wins(&next, usize::from(m.x()), usize::from(m.y()), attacker) {
                if !last || line.ending != Ending::Five {
                    return Err(format!("five at {m} before the end of the line"));
                }
                return Ok(());
            }
            let fives = five_points(&next, attacker);
            if fives.is_empty() {
                return Err(format!("attacker move {m} is not a four"));
            }
            b = next;
            if last {
                if line.ending != Ending::ForbiddenBlock
                    || attacker != Color::White
                    || fives.len() != 1
                {
                    return Err(format!("line stops after the four {m} without a reason"));
                }
                let f = fives[0];
                let v = black_verdict(&b, usize::from(f.x()), usize::from(f.y()));
                if !matches!(
                    v,
                    Verdict::Overline | Verdict::DoubleFour | Verdict::DoubleThree
                ) {
                    return Err(format!("the block {f} is not forbidden for Black ({v:?})"));
                }
                if !five_points(&b, defender).is_empty() {
                    return Err("Black has a five of its own".into());
                }
                return Ok(());
            }
        } else {
            // Defender reply: forced to block a five point, with no five of its own.
            if !five_points(&b, defender).is_empty() {
                return Err(format!("the defender could make a five instead of {m}"));
            }
            let fives = five_points(&b, attacker);
            if !fives.contains(&m) {
                return Err(format!(
                    "reply {m} is not forced: the five points are {fives:?}"
                ));
            }
            if fives.len() == 1 && defender == Color::Black {
                let v = black_verdict(&b, usize::from(m.x()), usize::from(m.y()));
                if !matches!(v, Verdict::Five | Verdict::Legal) {
                    return Err(format!(
                        "black's block {m} is forbidden: the line should have ended"
                    ));
                }
            }
            b = with(&b, m, defender);
            if last {
                return Err("the line ends with a defender move".into());
            }
        }
    }
    Err("the line does not end in a five".into())
}
