//! `db export`: the proof trees as readable, indented text (`--format text`), or as a RenLib
//! library (`--format lib`, [`export_lib`]), each root in the orientation it was submitted in.
//! A node shown before is not shown again; its line, or its comment, says so.

use std::collections::HashMap;
use std::io::{self, Write};

use super::settled::{VcfEnd, played_vcf};
use super::{Cell, Certificate, Database, Node, Symmetry, position_name, submitted_stones};
use crate::renlib::{Library, RenlibError};
use crate::rules::{Board, Color, Point, Size};

/// Writes every root's proof tree.
///
/// # Errors
/// Any error writing to `out`.
pub fn export_text(db: &Database, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "# renju database: {}, {} roots, {} nodes",
        db.describe(),
        db.roots.len(),
        db.nodes.len()
    )?;
    writeln!(
        out,
        "# [nN] is node N; moves are shown in the orientation each root was submitted in"
    )?;
    let depths = db.depths();
    let mut shown = HashMap::new();
    for (i, root) in db.roots.iter().enumerate() {
        let (black, white) = submitted_stones(db, root);
        let depth = depths.get(root.node as usize).copied().unwrap_or(0);
        writeln!(out)?;
        writeln!(
            out,
            "root {}: `{}`, {} to move: {} wins (depth {depth})",
            i + 1,
            position_name(&black, &white, &[]),
            root.to_move,
            root.attacker
        )?;
        let mut walk = Walk {
            db,
            out: &mut *out,
            shown: &mut shown,
        };
        walk.tree(root.node, root.symmetry.inverse(), root.to_move, 1)?;
    }
    Ok(())
}

/// Stored cells as moves in the shown orientation (`frame` maps the stored one onto it).
fn moves_text(db: &Database, cells: &[Cell], frame: Symmetry) -> String {
    cells
        .iter()
        .map(|&c| match db.point(c) {
            Some(p) => frame.apply(p, db.size).to_string(),
            None => format!("?{c}"),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A VCF line as stored (the final five left out), in words.
fn line_words(db: &Database, cells: &[Cell], frame: Symmetry) -> String {
    if cells.is_empty() {
        "the five".to_string()
    } else {
        format!("VCF {}, then the five", moves_text(db, cells, frame))
    }
}

struct Walk<'a> {
    db: &'a Database,
    out: &'a mut dyn Write,
    /// Node to the orientation it was first shown in.
    shown: &'a mut HashMap<u32, Symmetry>,
}

/// What is left to write of a tree, last first: a node (see [`Walk::node`]) or a line.
enum Step {
    Node {
        n: u32,
        frame: Symmetry,
        to_move: Color,
        indent: usize,
    },
    Line(String),
}

impl Walk<'_> {
    /// Shows the tree from node `n`, whose stored orientation `frame` maps onto the shown one,
    /// in pre-order. The walk keeps its own stack, so a damaged database with a line of any
    /// depth is shown, not a stack overflow.
    fn tree(&mut self, n: u32, frame: Symmetry, to_move: Color, indent: usize) -> io::Result<()> {
        let mut steps = vec![Step::Node {
            n,
            frame,
            to_move,
            indent,
        }];
        while let Some(step) = steps.pop() {
            match step {
                Step::Line(text) => writeln!(self.out, "{text}")?,
                Step::Node {
                    n,
                    frame,
                    to_move,
                    indent,
                } => self.node(n, frame, to_move, indent, &mut steps)?,
            }
        }
        Ok(())
    }

    /// Writes node `n`'s own line and pushes what is below it onto `steps`.
    fn node(
        &mut self,
        n: u32,
        frame: Symmetry,
        to_move: Color,
        indent: usize,
        steps: &mut Vec<Step>,
    ) -> io::Result<()> {
        let pad = "  ".repeat(indent);
        let Some(node) = self.db.nodes.get(n as usize) else {
            return writeln!(self.out, "{pad}[n{n}] missing");
        };
        if let Some(&first) = self.shown.get(&n) {
            let how = if first == frame {
                String::new()
            } else {
                ", there in another orientation".to_string()
            };
            return writeln!(self.out, "{pad}[n{n}] shown above{how}");
        }
        self.shown.insert(n, frame);
        match node {
            Node::Five => writeln!(self.out, "{pad}[n{n}] five on the board"),
            Node::Vcf(line) => writeln!(
                self.out,
                "{pad}[n{n}] {to_move} wins by {}",
                line_words(self.db, line, frame)
            ),
            Node::Move { play, child } => {
                writeln!(
                    self.out,
                    "{pad}[n{n}] {to_move} plays {}",
                    moves_text(self.db, &[*play], frame)
                )?;
                steps.push(Step::Node {
                    n: child.node,
                    frame: frame.after(child.symmetry),
                    to_move: to_move.opponent(),
                    indent,
                });
                Ok(())
            }
            Node::Replies {
                certificate,
                replies,
            } => {
                match certificate {
                    None => writeln!(
                        self.out,
                        "{pad}[n{n}] {to_move} to move loses: every legal reply is listed"
                    )?,
                    Some(Certificate::Line(line)) => writeln!(
                        self.out,
                        "{pad}[n{n}] {to_move} to move loses: after any reply not listed, {} wins by {}",
                        to_move.opponent(),
                        line_words(self.db, line, frame)
                    )?,
                    Some(Certificate::Proof(_)) => writeln!(
                        self.out,
                        "{pad}[n{n}] {to_move} to move loses: after any reply not listed, {} wins as after a pass",
                        to_move.opponent(),
                    )?,
                }
                for &(r, e) in replies.iter().rev() {
                    steps.push(Step::Node {
                        n: e.node,
                        frame: frame.after(e.symmetry),
                        to_move: to_move.opponent(),
                        indent: indent + 2,
                    });
                    steps.push(Step::Line(format!(
                        "{pad}  {to_move} {}:",
                        moves_text(self.db, &[r], frame)
                    )));
                }
                if let Some(pass) = node.pass() {
                    steps.push(Step::Node {
                        n: pass.node,
                        frame: frame.after(pass.symmetry),
                        to_move: to_move.opponent(),
                        indent: indent + 2,
                    });
                    steps.push(Step::Line(format!("{pad}  {to_move} passes:")));
                }
                Ok(())
            }
        }
    }
}

/// The database as a RenLib library (see `docs/renlib.md`): every root's stones as a line from
/// the empty board, then its proof tree below. A root's stones are ordered Black and White
/// alternately (Black's centre stone first, then by point), with a pass where one colour runs
/// out or where the side to move needs one; the order is arbitrary, since the database keeps
/// positions, not move orders.
///
/// Below a root, the winning move of a won position is marked; every reply listed for a lost
/// position follows it; a VCF is written out with the defender's forced replies (found with
/// the rules core: the one point that stops each four) and the final five, the attacker's
/// moves marked. Each node's comment gives the verdict of the position it reaches (`black wins
/// by h8`, `white to move loses`), and a lost position's multi-line comment the certificate
/// that answers the replies not written out. Nothing is said that the board shows (a five, a
/// VCF written out move by move), so the comments stay a small part of the file. A position
/// reached a second time is not
/// written out again: its comment names the line where it was (`transposition`), so the
/// library stays linear in the database's size. Roots whose lines meet share their moves.
///
/// # Errors
/// [`RenlibError::Size`] for a database of another board size than 15x15.
pub fn export_lib(db: &Database) -> Result<Library, RenlibError> {
    if db.size != Size::STANDARD {
        return Err(RenlibError::Size { size: db.size });
    }
    let mut walk = LibWalk {
        db,
        lib: Library::new(),
        expanded: HashMap::new(),
    };
    walk.note(
        Library::ROOT,
        format!("renju database: {}", db.describe()),
        Some(format!(
            "Exported by renju {} from a database of {} proved roots ({}). Marked moves are \
             proved winning moves; each comment gives the verdict of the position the move \
             reaches. The stones of a root are placed in an arbitrary order: the database \
             keeps positions, not move orders.",
            env!("CARGO_PKG_VERSION"),
            db.roots.len(),
            db.describe()
        )),
    );
    let depths = db.depths();
    for (i, root) in db.roots.iter().enumerate() {
        let (black, white) = submitted_stones(db, root);
        let mut board = Board::new(db.size, db.rules);
        let placed = black
            .iter()
            .map(|&p| (p, Color::Black))
            .chain(white.iter().map(|&p| (p, Color::White)))
            .try_for_each(|(p, c)| board.put(p, c));
        if let Err(e) = placed {
            walk.note(
                Library::ROOT,
                format!("root {} left out", i + 1),
                Some(format!("root {} left out: {e}", i + 1)),
            );
            continue;
        }
        board.set_to_move(root.to_move);
        let line = root_line(&black, &white, root.to_move, db.size);
        let at = walk.lib.add_line(Library::ROOT, &line);
        let depth = depths.get(root.node as usize).copied().unwrap_or(0);
        walk.note(
            at,
            format!("root {}", i + 1),
            Some(format!(
                "root {}: `{}`, {} to move; proved: {} wins (depth {depth})",
                i + 1,
                position_name(&black, &white, &[]),
                root.to_move,
                root.attacker
            )),
        );
        walk.node(at, root.node, root.symmetry.inverse(), &mut board);
    }
    Ok(walk.lib)
}

/// A root's stones as moves from the empty board (see [`export_lib`]).
fn root_line(black: &[Point], white: &[Point], to_move: Color, size: Size) -> Vec<Option<Point>> {
    let mut black = black.to_vec();
    if let Some(i) = black.iter().position(|&p| p == size.center()) {
        let c = black.remove(i);
        black.insert(0, c);
    }
    let n = black.len().max(white.len());
    let mut line = Vec::with_capacity(2 * n + 1);
    for i in 0..n {
        line.push(black.get(i).copied());
        if i + 1 < n || i < white.len() {
            line.push(white.get(i).copied());
        }
    }
    let next = if line.len() % 2 == 0 {
        Color::Black
    } else {
        Color::White
    };
    if next != to_move {
        line.push(None);
    }
    line
}

/// Moves as text, a pass as `pass`.
fn line_text(moves: &[Option<Point>]) -> String {
    if moves.is_empty() {
        return "the empty board".to_string();
    }
    moves
        .iter()
        .map(|m| m.map_or("pass".to_string(), |p| p.to_string()))
        .collect::<Vec<_>>()
        .join(" ")
}

struct LibWalk<'a> {
    db: &'a Database,
    lib: Library,
    /// Node to the library node and orientation where its proof was first written out.
    expanded: HashMap<u32, (usize, Symmetry)>,
}

impl LibWalk<'_> {
    /// Adds to library node `at`'s comments: `one_line` to the one-line comment, `detail` as a
    /// line of the multi-line one.
    fn note(&mut self, at: usize, one_line: String, detail: Option<String>) {
        let node = self.lib.node_mut(at).texts_mut();
        node.comment = Some(match node.comment.take() {
            Some(old) => format!("{old}; {one_line}"),
            None => one_line,
        });
        if let Some(detail) = detail {
            node.multi_line_comment = Some(match node.multi_line_comment.take() {
                Some(old) => format!("{old}\r\n{detail}"),
                None => detail,
            });
        }
    }

    /// The shown point of a stored cell.
    fn point(&self, c: Cell, frame: Symmetry) -> Option<Point> {
        self.db.point(c).map(|p| frame.apply(p, self.db.size))
    }

    /// Plays `p` below library node `at` if it can be: the new library node.
    fn play(&mut self, at: usize, p: Option<Point>, c: Cell, board: &mut Board) -> Option<usize> {
        match p {
            Some(p) if board.is_empty(p) => {
                board.play_unchecked(p);
                Some(self.lib.add_child(at, Some(p)))
            }
            _ => {
                self.note(
                    at,
                    "damaged".to_string(),
                    Some(format!("the move {c} cannot be played: damaged database")),
                );
                None
            }
        }
    }

    /// Writes out database node `n` below library node `at`, the position on `board`, whose
    /// stored orientation `frame` maps onto the shown one.
    fn node(&mut self, at: usize, n: u32, frame: Symmetry, board: &mut Board) {
        let Some(node) = self.db.nodes.get(n as usize) else {
            self.note(
                at,
                "damaged".to_string(),
                Some(format!("node {n} is missing: damaged database")),
            );
            return;
        };
        if let Some(&(first, first_frame)) = self.expanded.get(&n) {
            if first != at {
                let how = if first_frame == frame {
                    ""
                } else {
                    ", there in another orientation"
                };
                let path = line_text(&self.lib.path(first));
                self.note(
                    at,
                    "transposition".to_string(),
                    Some(format!(
                        "transposition: the position after `{path}`{how}, proved there"
                    )),
                );
            }
            return;
        }
        self.expanded.insert(n, (at, frame));
        let to_move = board.to_move();
        match node {
            // The five is on the board: nothing to say.
            Node::Five => {}
            Node::Vcf(cells) => {
                // The line follows move by move: the one-line verdict says it all.
                self.note(at, format!("{to_move} wins by VCF"), None);
                self.vcf(at, cells, frame, board);
            }
            Node::Move { play, child } => {
                let p = self.point(*play, frame);
                let shown = p.map_or(format!("?{play}"), |p| p.to_string());
                self.note(at, format!("{to_move} wins by {shown}"), None);
                if let Some(next) = self.play(at, p, *play, board) {
                    self.lib.node_mut(next).mark = true;
                    self.node(next, child.node, frame.after(child.symmetry), board);
                    board.undo();
                }
            }
            Node::Replies {
                certificate,
                replies,
            } => self.defender_node(at, (certificate.as_ref(), replies), frame, board),
        }
    }

    /// Writes out a defender node below library node `at`: its verdict and certificate in the
    /// comments, each listed reply, and the pass into the certificate's proof, if it has one.
    fn defender_node(
        &mut self,
        at: usize,
        (certificate, replies): (Option<&Certificate>, &[(Cell, super::Edge)]),
        frame: Symmetry,
        board: &mut Board,
    ) {
        let to_move = board.to_move();
        let attacker = to_move.opponent();
        // The certificate, which answers the replies not written out; a five's needs no
        // words (the only other reply is the stop, written out).
        let why = match certificate {
            Some(Certificate::Line(line)) if !line.is_empty() => Some(format!(
                "any other reply loses to VCF {}",
                moves_text(self.db, line, frame)
            )),
            Some(Certificate::Proof(_)) => {
                Some("any other reply loses as after the pass".to_string())
            }
            _ => None,
        };
        self.note(at, format!("{to_move} to move loses"), why);
        for &(r, e) in replies {
            let p = self.point(r, frame);
            if let Some(next) = self.play(at, p, r, board) {
                self.node(next, e.node, frame.after(e.symmetry), board);
                board.undo();
            }
        }
        if let Some(Certificate::Proof(pass)) = certificate {
            let next = self.lib.add_child(at, None);
            self.note(next, format!("{to_move} passes"), None);
            board.set_to_move(attacker);
            self.node(next, pass.node, frame.after(pass.symmetry), board);
            board.set_to_move(to_move);
        }
    }

    /// Writes out a VCF below library node `at`: each attacker four (marked) and the
    /// defender's forced reply, then the final five; where the line stops short, why.
    fn vcf(&mut self, mut at: usize, cells: &[Cell], frame: Symmetry, board: &mut Board) {
        let played = played_vcf(self.db, cells, frame, board);
        for (i, &p) in played.moves.iter().enumerate() {
            at = self.lib.add_child(at, Some(p));
            // The attacker's moves: every other one, from the first.
            if i % 2 == 0 {
                self.lib.node_mut(at).mark = true;
            }
        }
        match played.end {
            VcfEnd::Five | VcfEnd::Open => {}
            VcfEnd::Unstoppable(why) | VcfEnd::Broken(why) => self.note(at, why, None),
            VcfEnd::Unplayable(c) => self.note(
                at,
                "damaged".to_string(),
                Some(format!("the move {c} cannot be played: damaged database")),
            ),
        }
    }
}
