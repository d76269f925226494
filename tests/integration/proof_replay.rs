//! A minimal replay check of `solve` proofs, separate from the search: it rebuilds the root
//! from the proof file and walks the tree with the rules alone (moves, fives, fours, forbidden
//! points). Every attacker move must be legal; at every defender node every legal reply must be
//! listed or lose to the certificate (a VCF line, or the proof of the pass position), replayed
//! with that reply on the board; every leaf must be
//! a real VCF, and leaves and certificates must list the defender's replies the rules force
//! there. (The full independent checker is the `check` command's job.)

use std::collections::HashSet;

use renju::proof::Certificate;
use renju::rules::{Board, Color, Defence, Point, Rule, Rules, Size};
use renju::solve::{Proof, ProofNode};

/// A defender node's certificate as this check reads it.
enum Cert {
    Line(Vec<Point>),
    Pass(usize),
}

fn point(s: &str) -> Result<Point, String> {
    s.parse().map_err(|_| format!("bad point `{s}`"))
}

/// The root position of a proof.
pub fn root_board(proof: &Proof) -> Result<Board, String> {
    let rule: Rule = proof.rule.parse().map_err(|_| "bad rule".to_string())?;
    let k = if rule == Rule::Renju || rule == Rule::Caro {
        None
    } else {
        Some(proof.k)
    };
    let rules = Rules::new(rule, k).map_err(|e| e.to_string())?;
    let size: Size = proof.size.parse().map_err(|_| "bad size".to_string())?;
    let mut board = Board::new(size, rules);
    for (stones, color) in [(&proof.black, Color::Black), (&proof.white, Color::White)] {
        for s in stones {
            board.put(point(s)?, color).map_err(|e| e.to_string())?;
        }
    }
    board.set_to_move(proof.to_move);
    Ok(board)
}

fn legal(board: &Board, p: Point, color: Color) -> bool {
    board.size().contains(p)
        && board.is_empty(p)
        && !(color == Color::Black && board.forbidden(p).is_some())
}

/// Replays the attacker moves of a VCF `line` (every other move), taking the defender's replies
/// from the rules: each attacker move must be legal and a four with one forced reply (or a
/// five, or a white four whose block is forbidden for Black), and a defender four must be
/// answered on its five point. With `literal`, each defender reply the line lists must also be
/// the forced one, and the line must end where it wins: a line written out for this position
/// must show the moves played and nothing after them. The board is left as found.
pub fn vcf_wins(board: &mut Board, attacker: Color, line: &[Point], literal: bool) -> bool {
    let defender = attacker.opponent();
    let mut played = 0;
    let mut must = board.five_points(defender).first().copied();
    let mut wins = false;
    // The length a line that wins here has: it ends with the five, with an unstoppable four, a
    // reply and the five, or with a four whose block is forbidden for Black.
    let mut end = line.len();
    for (i, &m) in line.iter().enumerate().step_by(2) {
        if !legal(board, m, attacker) {
            break;
        }
        let four = board.four_at(m, attacker);
        if four.five {
            wins = true;
            end = i + 1;
            break;
        }
        if must.is_some_and(|g| g != m) || board.five_points(defender).len() >= 2 {
            break;
        }
        let defence = board.defence(m, attacker);
        board.set_to_move(attacker);
        board.play_unchecked(m);
        played += 1;
        let f = match defence {
            Defence::Unstoppable => {
                wins = true;
                end = i + 3;
                break;
            }
            Defence::Forced(f) => f,
            Defence::NoFour | Defence::Choice(_) => break,
        };
        if literal && line.get(i + 1).is_some_and(|&listed| listed != f) {
            break;
        }
        if defender == Color::Black
            && board.rules().rule() == Rule::Renju
            && board.forbidden(f).is_some()
        {
            wins = true;
            end = i + 1;
            break;
        }
        if board.four_at(f, defender).five {
            break;
        }
        board.play_unchecked(f);
        played += 1;
        must = board.five_points(defender).first().copied();
    }
    for _ in 0..played {
        board.undo();
    }
    wins && (!literal || line.len() == end)
}

/// The position, for error messages: the moves played since the root.
fn here(board: &Board) -> String {
    let moves = renju::notation::format_moves(board);
    if moves.is_empty() {
        "root".to_string()
    } else {
        moves
    }
}

/// Checks a proof; returns the number of nodes visited.
pub fn check_proof(proof: &Proof) -> Result<usize, String> {
    let mut board = root_board(proof)?;
    let mut seen = HashSet::new();
    node(proof, proof.root, &mut board, &mut seen)?;
    Ok(seen.len())
}

fn node(
    proof: &Proof,
    id: usize,
    board: &mut Board,
    seen: &mut HashSet<(usize, u64)>,
) -> Result<(), String> {
    if !seen.insert((id, board.hash())) {
        return Ok(());
    }
    let attacker = proof.attacker;
    let defender = attacker.opponent();
    match proof.nodes.get(id).ok_or(format!("missing node {id}"))? {
        ProofNode::Five => {
            if !board.fives().iter().any(|f| f.color == attacker) {
                return Err(format!("{}: no five on the board", here(board)));
            }
        }
        ProofNode::Vcf { line } => {
            let line: Vec<Point> = line.iter().map(|s| point(s)).collect::<Result<_, _>>()?;
            if board.to_move() != attacker || !vcf_wins(board, attacker, &line, true) {
                return Err(format!("{}: the VCF leaf does not win", here(board)));
            }
        }
        ProofNode::Move { play, child } => {
            let m = point(play)?;
            if board.to_move() != attacker || !legal(board, m, attacker) {
                return Err(format!("{}: illegal attacker move {m}", here(board)));
            }
            board.play_unchecked(m);
            let result = node(proof, *child, board, seen);
            board.undo();
            result?;
        }
        ProofNode::Replies {
            certificate,
            replies,
        } => {
            if board.to_move() != defender {
                return Err(format!(
                    "{}: a defender node with the attacker to move",
                    here(board)
                ));
            }
            if !board.five_points(defender).is_empty() {
                return Err(format!("{}: the defender has a five to play", here(board)));
            }
            if board.is_full() {
                return Err(format!("{}: a full board is a draw", here(board)));
            }
            let certificate = match certificate {
                Some(Certificate::Line(c)) => Some(Cert::Line(
                    c.iter().map(|s| point(s)).collect::<Result<_, _>>()?,
                )),
                Some(Certificate::Proof(pass)) => Some(Cert::Pass(*pass)),
                None => None,
            };
            board.set_to_move(attacker);
            let wins = match &certificate {
                Some(Cert::Line(line)) => vcf_wins(board, attacker, line, true),
                Some(Cert::Pass(pass)) => node(proof, *pass, board, seen).is_ok(),
                None => true,
            };
            board.set_to_move(defender);
            if !wins {
                return Err(format!(
                    "{}: the certificate does not win as written",
                    here(board)
                ));
            }
            let listed: Vec<(Point, usize)> = replies
                .iter()
                .map(|(r, c)| point(r).map(|p| (p, *c)))
                .collect::<Result<_, _>>()?;
            let legal_replies: Vec<Point> = board
                .points()
                .filter(|&r| legal(board, r, defender))
                .collect();
            for r in legal_replies {
                board.play_unchecked(r);
                let result = match listed.iter().find(|(p, _)| *p == r) {
                    Some(&(_, child)) => node(proof, child, board, seen),
                    None => match &certificate {
                        Some(Cert::Line(line)) if vcf_wins(board, attacker, line, false) => Ok(()),
                        Some(Cert::Pass(pass)) => node(proof, *pass, board, seen)
                            .map_err(|e| format!("reply {r} is not covered: {e}")),
                        _ => Err(format!("{}: reply {r} is not covered", here(board))),
                    },
                };
                board.undo();
                result?;
            }
            for (r, _) in &listed {
                if !legal(board, *r, defender) {
                    return Err(format!("{}: listed reply {r} is not legal", here(board)));
                }
            }
        }
    }
    Ok(())
}
