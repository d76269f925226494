//! Verifying a solution database from scratch: every root is replayed with the checker's own
//! rules ([`super::replay`]), believing nothing the solver wrote:
//!
//! - every attacker move is legal (never a forbidden point for Black);
//! - at every defender node, every legal reply is either listed, with a node of its own that
//!   checks, or answered by the certificate: a VCF line, or the node of the pass position (the
//!   same stones, the attacker to move), verified once on the board as it is. A reply outside
//!   the certificate's *zone* (`docs/certificates.md`, [`super::zone`]) that makes no five is
//!   answered without more; one inside it is answered only if the certificate, verified again
//!   with the reply on the board, still wins;
//! - every leaf is a five on the board or a VCF that wins (which covers renju's white four
//!   whose only block is forbidden for Black);
//! - every line (leaf or certificate) ends where it wins, and a certificate wins after a pass
//!   even where every reply is listed; no reply is listed twice;
//! - an attacker move that makes a five leads to the five node and nothing else;
//! - every referenced node exists, and no path leads back to a node on it.
//!
//! A node reached again is verified once per position, side to move, orientation and attacker:
//! what it proves for one attacker says nothing for the other. Inside a certificate, a node is
//! verified for a number of extra defender stones its zone must stand (the *level*: 1 for a
//! certificate of the proof, one more for each certificate inside), once per level.
//!
//! The database layer is used only to read the file; its moves are mapped through the
//! symmetries by this module's own arithmetic, from the definitions in `docs/db-format.md`.

use std::collections::{HashMap, HashSet};
use std::hash::Hasher;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use super::replay::{Position, Rule, vcf_wins, vcf_zone};
use super::rules::{BLACK, EMPTY, Grid, WHITE};
use super::zone::{Zone, add_five_point};
use crate::db::{Cell, Database, Edge, Node, Root, position_name};
use crate::rules::{Color, Point};

mod defender;

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
    /// (node, orientation, position) already verified outside certificates.
    seen: &'a Mutex<HashSet<Key>>,
    /// Inside certificates: (node, orientation, position, level) verified, with the zone, or
    /// `None` where it failed.
    zones: &'a Mutex<HashMap<Key, Option<Zone>>>,
    problems: &'a Mutex<(usize, Vec<Problem>)>,
    progress: &'a (dyn Fn(usize) + Sync),
}

/// Why a node does not check: a problem to report at its position, or one already reported
/// further down.
enum Fault {
    Here(String),
    Below,
}

impl From<String> for Fault {
    fn from(problem: String) -> Self {
        Fault::Here(problem)
    }
}

impl From<&str> for Fault {
    fn from(problem: &str) -> Self {
        Fault::Here(problem.to_string())
    }
}

/// A step of a path from the root: a move, or `None` for the defender's pass into a
/// certificate's pass position.
type Step = Option<(usize, usize)>;

/// Where a node is verified: `frame` maps the node's stored orientation onto the walk's; `pos`
/// is the position with `to_move` to move, `path` the steps from the root and `open` the nodes
/// on the way here, this one included. `level` is the number of extra defender stones its zone
/// must stand (0 outside certificates, where no zone is recorded). `replayed` is set below a
/// certificate proof verified again with a defender reply on the board: there a defender node
/// may list a point that stone now takes (or, for Black, made forbidden), which is no reply and
/// is passed over, and a line may win before its last move, where that stone made a forced
/// block forbidden (`docs/certificates.md`).
struct At<'p> {
    frame: usize,
    pos: &'p Position,
    to_move: u8,
    path: &'p [Step],
    open: &'p [u32],
    level: usize,
    replayed: bool,
}

impl At<'_> {
    /// The path with `step` added.
    fn path_with(&self, step: Step) -> Vec<Step> {
        let mut path = self.path.to_vec();
        path.push(step);
        path
    }
}

fn stone(c: Color) -> u8 {
    match c {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

fn other(s: u8) -> u8 {
    if s == BLACK { WHITE } else { BLACK }
}

/// What a node is verified under: its index and a fingerprint of where ([`Walk::key`]). The
/// fingerprint's halves are kept as two `u64`s, not a `u128`, whose 16-byte alignment would
/// pad the key from 24 bytes to 32: the set of keys seen is the checker's largest table
/// (3.7M keys for Kagetsu's book).
type Key = (u32, [u64; 2]);

/// A 128-bit fingerprint of a grid and `extra`, from two differently seeded hashes.
fn fingerprint(grid: &Grid, extra: u64) -> [u64; 2] {
    let half = |seed: u64| {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        h.write_u64(seed);
        h.write_u64(extra);
        h.write(&grid.cells);
        h.finish()
    };
    [half(0x5bd1_e995), half(0x9e37_79b9)]
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

    /// The root's stones as a move list (alternating when the counts allow), then `path`
    /// (`pass` for a pass).
    fn name(&self, path: &[Step]) -> String {
        let stones = |cells: &[Cell]| -> Vec<Point> {
            let mut v: Vec<Point> = cells
                .iter()
                .filter_map(|&c| self.point(c, 0))
                .map(|p| self.submitted(p))
                .collect();
            v.sort_unstable();
            v
        };
        let mut name = position_name(&stones(&self.root.black), &stones(&self.root.white), &[]);
        for step in path {
            if !name.is_empty() {
                name.push(' ');
            }
            name.push_str(&step.map_or("pass".to_string(), |p| self.show(p)));
        }
        name
    }

    fn fail(&self, path: &[Step], problem: String) {
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

    /// Verifies node `n` at `at`, and returns its zone (empty outside certificates), or
    /// `None` if it failed (the problem is reported).
    fn node(&self, n: u32, at: &At) -> Option<Zone> {
        let Some(node) = self.db.nodes.get(n as usize) else {
            self.fail(at.path, format!("refers to node {n}, which does not exist"));
            return None;
        };
        if at.open.contains(&n) {
            self.fail(at.path, format!("node {n} leads back to itself (a cycle)"));
            return None;
        }
        let key = self.key(n, at);
        if at.level == 0 {
            if !self.first_visit(key) {
                return Some(Zone::default());
            }
        } else if let Some(known) = self.zones.lock().expect("no panic").get(&key) {
            return known.clone();
        }
        self.checked.fetch_add(1, Ordering::Relaxed);
        (self.progress)(1);
        let mut open = at.open.to_vec();
        open.push(n);
        let here = At { open: &open, ..*at };
        let verified = match node {
            Node::Five => self.five(&here),
            Node::Vcf(cells) => self.vcf_leaf(cells, &here),
            Node::Move { play, child } => self.attacker_move(*play, *child, &here),
            Node::Replies {
                certificate,
                replies,
            } => self.defender_node(certificate.as_ref(), replies, &here),
        };
        let zone = match verified {
            Ok(zone) => Some(zone),
            Err(Fault::Here(problem)) => {
                self.fail(at.path, problem);
                None
            }
            Err(Fault::Below) => None,
        };
        if at.level > 0 {
            self.zones
                .lock()
                .expect("no panic")
                .insert(key, zone.clone());
        }
        zone
    }

    /// The key a node is verified under at `at`. A node verified for one attacker proves
    /// nothing for the other: the attacker is part of what was verified, with the position,
    /// the side to move, the orientation and the level.
    fn key(&self, n: u32, at: &At) -> Key {
        let extra = u64::from(at.replayed) << 56
            | (at.level as u64) << 24
            | u64::from(self.attacker) << 16
            | u64::from(at.to_move) << 8
            | at.frame as u64;
        (n, fingerprint(at.pos.grid(), extra))
    }

    /// Whether a node is met for the first time under `key` outside certificates (and so is
    /// to be verified); marks it seen.
    fn first_visit(&self, key: Key) -> bool {
        self.seen
            .lock()
            .expect("no thread panics holding the lock")
            .insert(key)
    }

    /// A stored line (a VCF leaf's or a certificate, as `what` names it) in the walk's
    /// orientation, checked to win from `at`'s position with the attacker to move, all of it;
    /// with its zone for `extra` extra defender stones when `extra` is above 0.
    fn winning_line(
        &self,
        cells: &[Cell],
        at: &At,
        extra: usize,
        what: &str,
    ) -> Result<(Vec<(usize, usize)>, Zone), String> {
        let moves: Vec<(usize, usize)> = cells
            .iter()
            .map(|&c| self.point(c, at.frame))
            .collect::<Option<_>>()
            .ok_or_else(|| format!("a {what} move off the board"))?;
        let replayed = if extra == 0 {
            vcf_wins(at.pos, self.attacker, &moves).map(|used| (used, Zone::default()))
        } else {
            vcf_zone(at.pos, self.attacker, &moves, extra)
        };
        match replayed {
            Err(e) => Err(format!("the {what} does not win: {e}")),
            // In a certificate replayed after a reply, the reply's stone may end the line
            // early (a block it made forbidden for Black): the win is as real, and the line
            // as written was judged on the board without it. Elsewhere a longer line than
            // the win can only come from a damaged proof.
            Ok((used, _)) if used < moves.len() && !at.replayed => {
                Err(format!("the {what} {}", unplayed(used)))
            }
            Ok((_, zone)) => Ok((moves, zone)),
        }
    }

    /// A five node: the attacker has a five on the board.
    fn five(&self, at: &At) -> Result<Zone, Fault> {
        if at.pos.has_won(self.attacker) {
            Ok(Zone::default())
        } else {
            Err("a five is claimed but the attacker has none".into())
        }
    }

    /// A VCF leaf: the attacker is to move, and the line wins, all of it.
    fn vcf_leaf(&self, cells: &[Cell], at: &At) -> Result<Zone, Fault> {
        if at.to_move != self.attacker {
            return Err("a VCF leaf with the defender to move".into());
        }
        Ok(self.winning_line(cells, at, at.level, "VCF")?.1)
    }

    /// An attacker move: the attacker is to move, the move is legal, and either it makes a five
    /// and leads to the five node, or the node below it checks with the defender to move.
    fn attacker_move(&self, play: Cell, child: Edge, at: &At) -> Result<Zone, Fault> {
        let attacker = self.attacker;
        if at.to_move != attacker {
            return Err("an attacker move with the defender to move".into());
        }
        let m = self
            .point(play, at.frame)
            .ok_or(Fault::from("the attacker's move is off the board"))?;
        if !at.pos.is_empty(m.0, m.1) {
            return Err(format!("the attacker's move {} is on a stone", self.show(m)).into());
        }
        let mut zone = Zone::default();
        let forbidden = if at.level == 0 {
            !at.pos.legal(m.0, m.1, attacker)
        } else {
            zone.insert(m.1 * self.size().0 + m.0);
            attacker == BLACK && at.pos.is_forbidden_recorded(m.0, m.1, &mut zone)
        };
        if forbidden {
            return Err(format!(
                "the attacker's move {} is forbidden for Black",
                self.show(m)
            )
            .into());
        }
        if at.pos.makes_win(m.0, m.1, attacker) {
            // The game ends with this move: nothing may be stored below it but the five (the
            // database layer would serve it as proved).
            if !matches!(self.db.nodes.get(child.node as usize), Some(Node::Five)) {
                return Err(format!(
                    "the attacker's move {} makes a five, but leads to more moves",
                    self.show(m)
                )
                .into());
            }
            add_five_point(&mut zone, at.pos.grid(), self.rule, m);
            return Ok(zone);
        }
        let mut next = at.pos.clone();
        next.play(m.0, m.1, attacker);
        let path = at.path_with(Some(m));
        let below = At {
            frame: compose(at.frame, child.symmetry.index()),
            pos: &next,
            to_move: other(attacker),
            path: &path,
            ..*at
        };
        // A problem below is reported there.
        let child_zone = self.node(child.node, &below).ok_or(Fault::Below)?;
        zone.add(&child_zone);
        Ok(zone)
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
    let zones = Mutex::new(HashMap::new());
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
            zones: &zones,
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
        let at = At {
            frame: 0,
            pos: &pos,
            to_move,
            path: &[],
            open: &[],
            level: 0,
            replayed: false,
        };
        self.node(self.root.node, &at);
    }
}
