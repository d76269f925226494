//! Verifying a solution database from scratch: every root is replayed with the checker's own
//! rules ([`super::replay`]), believing nothing the solver wrote:
//!
//! - every attacker move is legal (never a forbidden point for Black);
//! - at every defender node, every legal reply is either listed, with a node of its own that
//!   checks, or answered by the certificate, replayed with that reply on the board;
//! - every leaf is a five on the board or a VCF that wins (which covers renju's white four
//!   whose only block is forbidden for Black);
//! - every line (leaf or certificate) ends where it wins, and a certificate wins after a pass
//!   even where every reply is listed; no reply is listed twice;
//! - an attacker move that makes a five leads to the five node and nothing else;
//! - every referenced node exists, and no path leads back to a node on it.
//!
//! A node reached again is verified once per position, side to move, orientation and attacker:
//! what it proves for one attacker says nothing for the other.
//!
//! The database layer is used only to read the file; its moves are mapped through the
//! symmetries by this module's own arithmetic, from the definitions in `docs/db-format.md`.

use std::collections::HashSet;
use std::hash::Hasher;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use super::replay::{Position, Rule, vcf_wins};
use super::rules::{BLACK, EMPTY, Grid, WHITE};
use crate::db::{Cell, Database, Edge, Node, Root, position_name};
use crate::rules::{Color, Point};

/// The most problems a report lists; checking goes on, but only the count grows.
const MAX_LISTED: usize = 100;

/// The checker's verdict on a database.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Whether everything checked.
    pub ok: bool,
    /// The rules and board the database was checked under: its own, from its header (like
    /// `renju on 15x15`); empty when the file could not be read.
    pub rules: String,
    /// Roots verified.
    pub roots: usize,
    /// Nodes verified (a node reached in two positions counts twice).
    pub nodes_checked: usize,
    /// What failed (the first [`MAX_LISTED`]).
    pub errors: Vec<Problem>,
    /// How many problems there were in all.
    pub problems: usize,
    /// Seconds taken.
    pub seconds: f64,
}

/// One failure.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Problem {
    /// Where: the root's stones as a move list and the moves from the root, in the orientation
    /// the root was submitted in.
    pub position: String,
    /// What is wrong.
    pub problem: String,
}

/// Where a symmetry (numbered as in `docs/db-format.md`) sends `(x, y)` on a `w` by `h` board.
/// Codes 1, 3, 6 and 7 swap the axes and apply to square boards only.
fn transform(code: usize, (x, y): (usize, usize), w: usize, h: usize) -> (usize, usize) {
    match code {
        0 => (x, y),
        1 => (h - 1 - y, x),
        2 => (w - 1 - x, h - 1 - y),
        3 => (y, w - 1 - x),
        4 => (w - 1 - x, y),
        5 => (x, h - 1 - y),
        6 => (y, x),
        _ => (h - 1 - y, w - 1 - x),
    }
}

/// The symmetry that applies `inner`, then `outer`, found by where it sends a probe point
/// whose 8 images on a square board are distinct (composition is the same on every size).
fn compose(outer: usize, inner: usize) -> usize {
    let probe = (1, 2);
    let target = transform(outer, transform(inner, probe, 20, 20), 20, 20);
    (0..8)
        .find(|&c| transform(c, probe, 20, 20) == target)
        .expect("the symmetries of the square form a group")
}

/// The symmetry that undoes `code`.
fn inverse(code: usize) -> usize {
    (0..8)
        .find(|&c| compose(c, code) == 0)
        .expect("every symmetry has an inverse")
}

/// What a walk carries down the tree.
struct Walk<'a> {
    db: &'a Database,
    root: &'a Root,
    attacker: u8,
    rule: Rule,
    checked: &'a AtomicUsize,
    /// (node, orientation, position) already verified.
    seen: &'a Mutex<HashSet<(u32, u128)>>,
    problems: &'a Mutex<(usize, Vec<Problem>)>,
    progress: &'a (dyn Fn(usize) + Sync),
}

/// Where a node is verified: `frame` maps the node's stored orientation onto the walk's; `pos`
/// is the position with `to_move` to move, `path` the moves from the root and `open` the nodes
/// on the way here, this one included.
struct At<'p> {
    frame: usize,
    pos: &'p Position,
    to_move: u8,
    path: &'p [(usize, usize)],
    open: &'p [u32],
}

/// A listed reply in the walk's orientation, with the edge to its node.
type ListedReply = ((usize, usize), Edge);

fn stone(c: Color) -> u8 {
    match c {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

fn other(s: u8) -> u8 {
    if s == BLACK { WHITE } else { BLACK }
}

/// A 128-bit fingerprint of a grid and `extra`, from two differently seeded hashes.
fn fingerprint(grid: &Grid, extra: u64) -> u128 {
    let half = |seed: u64| {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        h.write_u64(seed);
        h.write_u64(extra);
        h.write(&grid.cells);
        h.finish()
    };
    u128::from(half(0x5bd1_e995)) << 64 | u128::from(half(0x9e37_79b9))
}

impl Walk<'_> {
    fn size(&self) -> (usize, usize) {
        (
            usize::from(self.db.size.cols()),
            usize::from(self.db.size.rows()),
        )
    }

    /// The point of a stored cell in the walk's (the root's stored) orientation.
    fn point(&self, c: Cell, frame: usize) -> Option<(usize, usize)> {
        let (w, h) = self.size();
        let c = usize::from(c);
        (c < w * h).then(|| transform(frame, (c % w, c / w), w, h))
    }

    /// A point of the walk in the orientation the root was submitted in.
    fn submitted(&self, p: (usize, usize)) -> Point {
        let (w, h) = self.size();
        let (x, y) = transform(inverse(self.root.symmetry.index()), p, w, h);
        Point::new(x as u8, y as u8)
    }

    fn show(&self, p: (usize, usize)) -> String {
        self.submitted(p).to_string()
    }

    /// The root's stones as a move list (alternating when the counts allow), then `path`.
    fn name(&self, path: &[(usize, usize)]) -> String {
        let stones = |cells: &[Cell]| -> Vec<Point> {
            let mut v: Vec<Point> = cells
                .iter()
                .filter_map(|&c| self.point(c, 0))
                .map(|p| self.submitted(p))
                .collect();
            v.sort_unstable();
            v
        };
        let path: Vec<Point> = path.iter().map(|&p| self.submitted(p)).collect();
        position_name(&stones(&self.root.black), &stones(&self.root.white), &path)
    }

    fn fail(&self, path: &[(usize, usize)], problem: String) {
        let mut p = self
            .problems
            .lock()
            .expect("no thread panics holding the lock");
        p.0 += 1;
        if p.1.len() < MAX_LISTED {
            p.1.push(Problem {
                position: self.name(path),
                problem,
            });
        }
    }

    /// Verifies node `n` on `pos`, with `to_move` to move; `frame` maps the node's stored
    /// orientation onto the walk's; `path` holds the moves from the root and `open` the nodes
    /// on the way here.
    fn node(
        &self,
        n: u32,
        frame: usize,
        pos: &Position,
        to_move: u8,
        path: &[(usize, usize)],
        open: &[u32],
    ) {
        let Some(node) = self.db.nodes.get(n as usize) else {
            self.fail(path, format!("refers to node {n}, which does not exist"));
            return;
        };
        if open.contains(&n) {
            self.fail(path, format!("node {n} leads back to itself (a cycle)"));
            return;
        }
        if !self.first_visit(n, frame, pos, to_move) {
            return;
        }
        self.checked.fetch_add(1, Ordering::Relaxed);
        (self.progress)(1);
        let mut open = open.to_vec();
        open.push(n);
        let at = At {
            frame,
            pos,
            to_move,
            path,
            open: &open,
        };
        let verified = match node {
            Node::Five => self.five(&at),
            Node::Vcf(cells) => self.vcf_leaf(cells, &at),
            Node::Move { play, child } => self.attacker_move(*play, *child, &at),
            Node::Replies {
                certificate,
                replies,
            } => self.defender_node(certificate.as_deref(), replies, &at),
        };
        if let Err(problem) = verified {
            self.fail(path, problem);
        }
    }

    /// Whether node `n` is met here for the first time with this position, side to move,
    /// orientation and attacker (and so is to be verified); marks it seen.
    fn first_visit(&self, n: u32, frame: usize, pos: &Position, to_move: u8) -> bool {
        // A node verified for one attacker proves nothing for the other: the attacker is part
        // of what was verified, with the position, the side to move and the orientation.
        let extra = (u64::from(self.attacker) << 16) | (u64::from(to_move) << 8) | frame as u64;
        let key = (n, fingerprint(pos.grid(), extra));
        self.seen
            .lock()
            .expect("no thread panics holding the lock")
            .insert(key)
    }

    /// A stored line (a VCF leaf's or a certificate, as `what` names it) in the walk's
    /// orientation, checked to win from `at`'s position with the attacker to move, all of it.
    fn winning_line(
        &self,
        cells: &[Cell],
        at: &At,
        what: &str,
    ) -> Result<Vec<(usize, usize)>, String> {
        let moves: Vec<(usize, usize)> = cells
            .iter()
            .map(|&c| self.point(c, at.frame))
            .collect::<Option<_>>()
            .ok_or_else(|| format!("a {what} move off the board"))?;
        match vcf_wins(at.pos, self.attacker, &moves) {
            Err(e) => Err(format!("the {what} does not win: {e}")),
            Ok(used) if used < moves.len() => Err(format!("the {what} {}", unplayed(used))),
            Ok(_) => Ok(moves),
        }
    }

    /// A five node: the attacker has a five on the board.
    fn five(&self, at: &At) -> Result<(), String> {
        if at.pos.has_won(self.attacker) {
            Ok(())
        } else {
            Err("a five is claimed but the attacker has none".into())
        }
    }

    /// A VCF leaf: the attacker is to move, and the line wins, all of it.
    fn vcf_leaf(&self, cells: &[Cell], at: &At) -> Result<(), String> {
        if at.to_move != self.attacker {
            return Err("a VCF leaf with the defender to move".into());
        }
        self.winning_line(cells, at, "VCF")?;
        Ok(())
    }

    /// An attacker move: the attacker is to move, the move is legal, and either it makes a five
    /// and leads to the five node, or the node below it checks with the defender to move.
    fn attacker_move(&self, play: Cell, child: Edge, at: &At) -> Result<(), String> {
        let attacker = self.attacker;
        if at.to_move != attacker {
            return Err("an attacker move with the defender to move".into());
        }
        let m = self
            .point(play, at.frame)
            .ok_or("the attacker's move is off the board")?;
        if !at.pos.is_empty(m.0, m.1) {
            return Err(format!(
                "the attacker's move {} is on a stone",
                self.show(m)
            ));
        }
        if !at.pos.legal(m.0, m.1, attacker) {
            return Err(format!(
                "the attacker's move {} is forbidden for Black",
                self.show(m)
            ));
        }
        if at.pos.makes_win(m.0, m.1, attacker) {
            // The game ends with this move: nothing may be stored below it but the five (the
            // database layer would serve it as proved).
            if !matches!(self.db.nodes.get(child.node as usize), Some(Node::Five)) {
                return Err(format!(
                    "the attacker's move {} makes a five, but leads to more moves",
                    self.show(m)
                ));
            }
            return Ok(());
        }
        let mut next = at.pos.clone();
        next.play(m.0, m.1, attacker);
        let mut path = at.path.to_vec();
        path.push(m);
        let frame = compose(at.frame, child.symmetry.index());
        self.node(child.node, frame, &next, other(attacker), &path, at.open);
        Ok(())
    }

    /// A defender node: the defender is to move and cannot win at once, the certificate wins
    /// were it to pass, and every legal reply is either listed with a node that checks or
    /// answered by the certificate.
    fn defender_node(
        &self,
        certificate: Option<&[Cell]>,
        replies: &[(Cell, Edge)],
        at: &At,
    ) -> Result<(), String> {
        if at.to_move != other(self.attacker) {
            return Err("a defender node with the attacker to move".into());
        }
        let legal = self.defender_moves(at)?;
        let certificate = self.certificate(certificate, at)?;
        let listed = self.listed_replies(replies, &legal, at)?;
        self.every_reply(&legal, certificate.as_deref(), &listed, at)
    }

    /// The defender's legal moves, where it has no five to play and the board is not full.
    fn defender_moves(&self, at: &At) -> Result<Vec<(usize, usize)>, String> {
        let defender = other(self.attacker);
        if at.pos.has_five_point(defender) {
            return Err("the defender has a five to play".into());
        }
        let legal = at.pos.legal_moves(defender);
        if legal.is_empty() && !at.pos.grid().cells.contains(&EMPTY) {
            return Err("the board is full: a draw, not a loss".into());
        }
        Ok(legal)
    }

    /// The defender node's certificate in the walk's orientation, checked to win, all of it,
    /// were the defender to pass.
    fn certificate(
        &self,
        certificate: Option<&[Cell]>,
        at: &At,
    ) -> Result<Option<Vec<(usize, usize)>>, String> {
        // A certificate is the attacker's VCF were the defender to pass: it must win so, all
        // of it, even where every reply is listed and none needs it.
        certificate
            .map(|cells| self.winning_line(cells, at, "certificate"))
            .transpose()
    }

    /// The listed replies in the walk's orientation, each with its edge: on the board, legal
    /// and listed once.
    fn listed_replies(
        &self,
        replies: &[(Cell, Edge)],
        legal: &[(usize, usize)],
        at: &At,
    ) -> Result<Vec<ListedReply>, String> {
        let mut listed: Vec<ListedReply> = Vec::with_capacity(replies.len());
        for &(r, e) in replies {
            match self.point(r, at.frame) {
                Some(p) if listed.iter().any(|&(q, _)| q == p) => {
                    return Err(format!("reply {} is listed twice", self.show(p)));
                }
                Some(p) if legal.contains(&p) => listed.push((p, e)),
                Some(p) => return Err(format!("listed reply {} is not legal", self.show(p))),
                None => return Err("a listed reply off the board".into()),
            }
        }
        Ok(listed)
    }

    /// Every legal reply: a listed one is verified at its own node; any other must lose to
    /// the certificate. Failures of the latter are reported once per node.
    fn every_reply(
        &self,
        legal: &[(usize, usize)],
        certificate: Option<&[(usize, usize)]>,
        listed: &[ListedReply],
        at: &At,
    ) -> Result<(), String> {
        let attacker = self.attacker;
        let defender = other(attacker);
        let failures: Vec<((usize, usize), String)> = legal
            .par_iter()
            .filter_map(|&r| {
                let mut next = at.pos.clone();
                next.play(r.0, r.1, defender);
                if next.has_won(defender) {
                    return Some((r, "it makes a five for the defender".to_string()));
                }
                if let Some(&(_, e)) = listed.iter().find(|(p, _)| *p == r) {
                    let mut here = at.path.to_vec();
                    here.push(r);
                    let frame = compose(at.frame, e.symmetry.index());
                    self.node(e.node, frame, &next, attacker, &here, at.open);
                    return None;
                }
                match certificate {
                    Some(c) => vcf_wins(&next, attacker, c)
                        .err()
                        .map(|e| (r, format!("the certificate fails: {e}"))),
                    None => Some((r, "no certificate covers it".to_string())),
                }
            })
            .collect();
        match failures.first() {
            None => Ok(()),
            Some((r, e)) => Err(format!(
                "{} defender repl{} not answered; the first, {}: {e}",
                failures.len(),
                if failures.len() == 1 {
                    "y is"
                } else {
                    "ies are"
                },
                self.show(*r)
            )),
        }
    }
}

/// The problem of a line that has won after `used` of its moves and lists more.
fn unplayed(used: usize) -> String {
    format!("goes on after it has won with move {used}: the moves after it are never played")
}

/// The checker's rule set for the database's.
fn rule_of(db: &Database) -> Rule {
    let k = usize::from(db.rules.k());
    match db.rules.rule() {
        crate::rules::Rule::Renju => Rule::Renju,
        crate::rules::Rule::Gomoku => Rule::Gomoku { k },
        crate::rules::Rule::Freestyle => Rule::Freestyle { k },
        crate::rules::Rule::Caro => Rule::Caro,
    }
}

/// Verifies every root of `db`, on the current rayon pool; `progress` is told of each node
/// verified.
#[must_use]
pub fn check(db: &Database, progress: &(dyn Fn(usize) + Sync)) -> Report {
    let start = Instant::now();
    let checked = AtomicUsize::new(0);
    let seen = Mutex::new(HashSet::new());
    let problems = Mutex::new((0, Vec::new()));
    let rule = rule_of(db);
    db.roots.par_iter().for_each(|root| {
        let walk = Walk {
            db,
            root,
            attacker: stone(root.attacker),
            rule,
            checked: &checked,
            seen: &seen,
            problems: &problems,
            progress,
        };
        walk.root();
    });
    let (count, errors) = problems.into_inner().expect("no thread panicked");
    Report {
        ok: count == 0,
        rules: db.describe(),
        roots: db.roots.len(),
        nodes_checked: checked.into_inner(),
        errors,
        problems: count,
        seconds: start.elapsed().as_secs_f64(),
    }
}

impl Walk<'_> {
    fn root(&self) {
        let (w, h) = self.size();
        let mut grid = Grid {
            width: w,
            height: h,
            cells: vec![EMPTY; w * h],
        };
        for (cells, s) in [(&self.root.black, BLACK), (&self.root.white, WHITE)] {
            for &c in cells {
                let c = usize::from(c);
                if c >= w * h || grid.cells[c] != EMPTY {
                    self.fail(&[], format!("root stone {c} is off the board or doubled"));
                    return;
                }
                grid.cells[c] = s;
            }
        }
        let pos = Position::new(grid, self.rule);
        let to_move = stone(self.root.to_move);
        if pos.has_won(other(self.attacker)) {
            self.fail(&[], "the defender has already won".into());
            return;
        }
        let claim_ok = match self.db.nodes.get(self.root.node as usize) {
            Some(Node::Five) | None => true,
            Some(Node::Replies { .. }) => to_move != self.attacker,
            Some(_) => to_move == self.attacker,
        };
        if !claim_ok {
            self.fail(&[], "the root's node does not fit the side to move".into());
            return;
        }
        self.node(self.root.node, 0, &pos, to_move, &[], &[]);
    }
}
