//! Reading a proved VCT search out of its table: the principal line (`vct`'s answer) and the
//! proof tree ([`super::ProofTree`]) that `solve` grafts into its proofs.

use crate::dfpn::INF;
use crate::rules::{Defence, Point};

use super::super::tree::{Certificate, TreeNode};
use super::super::vcf::{Stopped, UNLIMITED, finish};
use super::super::zone::{breaking_replies, still_wins};
use super::super::{Ending, Line};
use super::{Moves, Search, depth_key};

impl Search<'_> {
    /// The proof length of the child reached by `m`, if the table holds it as proved; with
    /// `search`, a child the table does not hold is searched first.
    pub(super) fn proved_len(
        &mut self,
        m: Point,
        child_depth: Option<u32>,
        search: bool,
    ) -> Option<u32> {
        let key = self.board.hash_after(m) ^ depth_key(child_depth);
        if search && !self.table.contains_key(key) {
            self.board.play_unchecked(m);
            self.mid(child_depth, INF - 1, INF - 1);
            self.board.undo();
        }
        self.table.get(key).filter(|e| e.pn == 0).map(|e| e.len)
    }

    /// The proved children of the current (proved) node with their proof lengths. An OR node
    /// needs one: children are searched again only if the table lost them all. An AND node
    /// needs all of its explicit replies: any the table lost are searched again.
    pub(super) fn proved_children(
        &mut self,
        moves: Option<&Moves>,
        child_depth: Option<u32>,
    ) -> Vec<(u32, Point)> {
        let Some(moves) = moves else {
            return Vec::new();
        };
        let is_or = self.is_or();
        let found: Vec<(u32, Point)> = moves
            .iter()
            .filter_map(|m| {
                self.proved_len(m.point, child_depth, !is_or)
                    .map(|l| (l, m.point))
            })
            .collect();
        if !found.is_empty() || !is_or {
            return found;
        }
        moves
            .iter()
            .find_map(|m| {
                self.proved_len(m.point, child_depth, true)
                    .map(|l| (l, m.point))
            })
            .into_iter()
            .collect()
    }

    /// The winning line from a proved root: at each attacker move the quickest proved move, at
    /// each defender move the reply with the longest proof (a reply the certificate refutes
    /// when that is the longest), and the VCF that finishes it.
    pub(super) fn principal_line(&mut self, depth: Option<u32>) -> Result<Line, Stopped> {
        let start = self.board.moves().len();
        let mut depth = depth;
        let mut line = Vec::new();
        let ending = loop {
            let key = self.key(depth);
            if !self.table.contains_key(key) {
                self.mid(depth, INF - 1, INF - 1);
            }
            let entry = self.table.get(key).cloned();
            let moves = entry.as_ref().and_then(|e| e.moves.clone());
            let child_depth = self.child_depth(depth);
            if self.is_or() {
                let best = self
                    .proved_children(moves.as_ref(), child_depth)
                    .into_iter()
                    .min();
                let Some((_, m)) = best else {
                    // Proved on evaluation: a five or a VCF.
                    let Some(finish) = self.find_vcf(self.attacker, depth.unwrap_or(UNLIMITED))?
                    else {
                        // The table lost this proof and it could not be rebuilt: say unknown
                        // rather than print a line that is not shown to win.
                        return Err(Stopped);
                    };
                    line.extend(&finish.moves);
                    break finish.ending;
                };
                line.push(m);
                self.board.play_unchecked(m);
                depth = child_depth;
            } else {
                let last = *self.board.moves().last().expect("an attacker move");
                let defence = self.board.defence(last, self.attacker);
                match defence {
                    Defence::Unstoppable => {
                        self.board.undo();
                        let (a, b) = finish(&mut self.board, last, self.attacker);
                        self.board.play_unchecked(last);
                        line.extend([a, b]);
                        break Ending::Five;
                    }
                    Defence::Forced(f) if self.block_forbidden(f) => break Ending::ForbiddenBlock,
                    _ => {}
                }
                let forced = match defence {
                    Defence::Forced(f) => Some(f),
                    _ => None,
                };
                let explicit = self
                    .proved_children(moves.as_ref(), child_depth)
                    .into_iter()
                    .max_by_key(|&(l, p)| (l, std::cmp::Reverse(p)));
                let certificate_len = entry.map_or(0, |e| e.certificate_len);
                let four_reply = !matches!(defence, Defence::NoFour);
                let reply = match (explicit, forced) {
                    (Some((l, r)), _)
                        if moves.is_some() && (l >= certificate_len || four_reply) =>
                    {
                        r
                    }
                    (_, Some(f)) => f,
                    (explicit, None) => match (self.refuted_reply(depth)?, explicit) {
                        (Some(r), _) | (None, Some((_, r))) => r,
                        (None, None) => {
                            // The defender has no legal move at all (every empty point is
                            // forbidden for Black): the certificate wins as after a pass.
                            let certificate = self.certificate(depth)?;
                            let finish = certificate.expect("a proved threat has a certificate");
                            line.extend(&finish.moves);
                            break finish.ending;
                        }
                    },
                };
                line.push(reply);
                self.board.play_unchecked(reply);
            }
            if self.stopped {
                return Err(Stopped);
            }
        };
        while self.board.moves().len() > start {
            self.board.undo();
        }
        Ok(Line {
            moves: line,
            ending,
        })
    }

    /// Rebuilds the proof of the current (proved) node as [`ProofTree`] nodes; a node the table
    /// lost is searched again. Positions met twice are one node.
    pub(super) fn tree_node(
        &mut self,
        depth: Option<u32>,
        nodes: &mut Vec<TreeNode>,
        ids: &mut std::collections::HashMap<u64, usize>,
    ) -> Result<usize, Stopped> {
        let key = self.key(depth);
        if let Some(&id) = ids.get(&key) {
            return Ok(id);
        }
        if self.table.get(key).is_none_or(|e| e.pn != 0) {
            let (pn, _) = self.mid(depth, INF - 1, INF - 1);
            if pn != 0 || self.stopped {
                return Err(Stopped);
            }
        }
        let id = nodes.len();
        nodes.push(TreeNode::Replies {
            certificate: Certificate::None,
            replies: Vec::new(),
        });
        ids.insert(key, id);
        let child_depth = self.child_depth(depth);
        let made = if self.is_or() {
            if let Some(line) = Line::five_to_play(&self.board, self.attacker) {
                TreeNode::Vcf(line)
            } else if let Some(line) = self.find_vcf(self.attacker, depth.unwrap_or(UNLIMITED))? {
                TreeNode::Vcf(line)
            } else {
                let moves = self.table.get(key).and_then(|e| e.moves.clone());
                let Some((_, play)) = self
                    .proved_children(moves.as_ref(), child_depth)
                    .into_iter()
                    .min()
                else {
                    return Err(Stopped);
                };
                self.board.play_unchecked(play);
                let child = self.tree_node(child_depth, nodes, ids);
                self.board.undo();
                TreeNode::Move {
                    play,
                    child: child?,
                }
            }
        } else {
            let last = *self.board.moves().last().ok_or(Stopped)?;
            let certificate = match self.board.defence(last, self.attacker) {
                Defence::NoFour => self.certificate(depth)?,
                _ => Line::five_to_play(&self.board, self.attacker),
            }
            .ok_or(Stopped)?;
            let mut replies = Vec::new();
            for (r, _) in breaking_replies(&mut self.board, self.attacker, &certificate) {
                self.board.play_unchecked(r);
                let child = self.tree_node(child_depth, nodes, ids);
                self.board.undo();
                replies.push((r, child?));
            }
            TreeNode::Replies {
                certificate: Certificate::Line(certificate),
                replies,
            }
        };
        nodes[id] = made;
        Ok(id)
    }

    /// A defender reply that the certificate refutes, for the principal line: one inside the
    /// certificate's zone if there is one (a natural try that fails), else any; `None` if every
    /// legal reply was searched on its own (or there is none).
    pub(super) fn refuted_reply(&mut self, depth: Option<u32>) -> Result<Option<Point>, Stopped> {
        let certificate = self
            .certificate(depth)?
            .expect("a proved threat has a certificate");
        let zone = self.zone_of(self.attacker, &certificate);
        let mut fallback = None;
        for r in self.board.points() {
            if !self.board.is_legal_for(r, self.defender) {
                continue;
            }
            let counter = self.board.four_at(r, self.defender);
            if counter.count == 0
                && still_wins(&mut self.board, self.attacker, &certificate, r, None)
            {
                if zone.contains(r) {
                    return Ok(Some(r));
                }
                fallback.get_or_insert(r);
            }
        }
        Ok(fallback)
    }
}
