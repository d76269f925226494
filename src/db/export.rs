//! `db export --format text`: the proof trees as readable, indented text, each root in the
//! orientation it was submitted in. A node shown before is not shown again; its line says so.

use std::collections::HashMap;
use std::io::{self, Write};

use super::{Cell, Database, Node, Symmetry, position_name, submitted_stones};
use crate::rules::Color;

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
        walk.node(root.node, root.symmetry.inverse(), root.to_move, 1)?;
    }
    Ok(())
}

struct Walk<'a> {
    db: &'a Database,
    out: &'a mut dyn Write,
    /// Node to the orientation it was first shown in.
    shown: &'a mut HashMap<u32, Symmetry>,
}

impl Walk<'_> {
    fn moves(&self, cells: &[Cell], frame: Symmetry) -> String {
        cells
            .iter()
            .map(|&c| match self.db.point(c) {
                Some(p) => frame.apply(p, self.db.size).to_string(),
                None => format!("?{c}"),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A VCF line as stored (the final five left out), in words.
    fn line(&self, cells: &[Cell], frame: Symmetry) -> String {
        if cells.is_empty() {
            "the five".to_string()
        } else {
            format!("VCF {}, then the five", self.moves(cells, frame))
        }
    }

    /// Shows node `n`, whose stored orientation `frame` maps onto the shown one.
    fn node(&mut self, n: u32, frame: Symmetry, to_move: Color, indent: usize) -> io::Result<()> {
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
                self.line(line, frame)
            ),
            Node::Move { play, child } => {
                writeln!(
                    self.out,
                    "{pad}[n{n}] {to_move} plays {}",
                    self.moves(&[*play], frame)
                )?;
                self.node(
                    child.node,
                    frame.after(child.symmetry),
                    to_move.opponent(),
                    indent,
                )
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
                    Some(line) => writeln!(
                        self.out,
                        "{pad}[n{n}] {to_move} to move loses: after any reply not listed, {} wins by {}",
                        to_move.opponent(),
                        self.line(line, frame)
                    )?,
                }
                for &(r, e) in replies {
                    writeln!(self.out, "{pad}  {to_move} {}:", self.moves(&[r], frame))?;
                    self.node(
                        e.node,
                        frame.after(e.symmetry),
                        to_move.opponent(),
                        indent + 2,
                    )?;
                }
                Ok(())
            }
        }
    }
}
