//! Expanding a node: the leaf verdicts (a five, a VCF, a VCT), the attacker's moves at an OR
//! node with their starting proof numbers, and at an AND node the certificate and the replies
//! that must be searched.

use std::sync::Arc;

use crate::rules::{Color, Point};
use crate::threat::{Line, Stopped, UNLIMITED};

use super::evaluate;
use super::{
    BORROWED_BYTES, COUNTER_FOURS, Expansion, Move, PASS_VCT_LEVEL, Prover, TREE_NODE_BYTES,
};

impl<'a> Prover<'a> {
    /// The attacker's certificate at an AND node: its VCF if the defender passed.
    pub(super) fn certificate(&mut self) -> Result<Option<Line>, Stopped> {
        self.find_vcf(self.attacker, UNLIMITED)
    }

    /// The moves of the side to move that break `color`'s VCF `line` (sorted).
    pub(super) fn breaking(&mut self, color: Color, line: &Line) -> Vec<Point> {
        let mut points: Vec<Point> = crate::threat::breaking_replies(&mut self.board, color, line)
            .into_iter()
            .map(|(p, _)| p)
            .collect();
        points.sort_unstable();
        points
    }

    /// The replies an AND node must search: those that break the certificate, or every legal
    /// reply when there is none.
    pub(super) fn replies(&mut self, certificate: Option<&Line>) -> Vec<Point> {
        match certificate {
            Some(line) => self.breaking(self.attacker, line),
            None => self.legal_moves(self.defender()),
        }
    }

    /// A leaf verdict for an OR node: a five to play, a VCF or a VCT proves it, two defender
    /// fives (with no five of its own) disprove it.
    pub(super) fn or_leaf(&mut self) -> Result<Option<Expansion>, Stopped> {
        if !self.board.five_points(self.attacker).is_empty() {
            return Ok(Some(Expansion::Proved));
        }
        if self.board.five_points(self.defender()).len() >= 2 {
            return Ok(Some(Expansion::Disproved));
        }
        if self.find_vcf(self.attacker, UNLIMITED)?.is_some() {
            return Ok(Some(Expansion::Proved));
        }
        // With other threads, a VCT found within this thread's budget might not be found
        // again by the thread that reads the proof out (their VCF tables differ, and with
        // them what fits in the budget): keep its tree where every thread can borrow it.
        let parallel = self.table.parallel();
        match self.find_vct(parallel)? {
            (true, Some(tree)) if parallel => {
                let canonical = self.board.canonical();
                let bytes = BORROWED_BYTES + tree.nodes.len() * TREE_NODE_BYTES;
                let tree = Arc::new(tree);
                self.table
                    .lend(canonical.key, tree, canonical.symmetry, bytes);
                Ok(Some(Expansion::Proved))
            }
            (true, _) => Ok(Some(Expansion::Proved)),
            (false, _) => Ok(None),
        }
    }

    pub(super) fn expand_or(&mut self) -> Result<Expansion, Stopped> {
        if let Some(leaf) = self.or_leaf()? {
            return Ok(leaf);
        }
        self.or_moves()
    }

    /// The attacker's moves at an OR node that is not a leaf.
    pub(super) fn or_moves(&mut self) -> Result<Expansion, Stopped> {
        if let Some(&g) = self.board.five_points(self.defender()).first() {
            // The defender's four must be blocked at once.
            if !self.board.is_legal_for(g, self.attacker) {
                return Ok(Expansion::Disproved);
            }
            return Ok(Expansion::Moves(vec![Move {
                point: g,
                pn: 1,
                dn: 1,
            }]));
        }
        let mut points = if self.full_width {
            self.legal_moves(self.attacker)
        } else {
            self.nearby_moves()
        };
        // If the defender would have a VCF were the attacker to pass, a move that leaves it
        // working loses: keep only the moves that break it (fours among them).
        let defender = self.defender();
        if let Some(line) = self.find_vcf(defender, COUNTER_FOURS)? {
            let breaking = self.breaking(defender, &line);
            points.retain(|p| breaking.binary_search(p).is_ok());
        }
        if points.is_empty() {
            // Every move loses, or there is none: a full board is a draw, and Black with only
            // forbidden points must play one and lose (rules.md).
            return Ok(Expansion::Disproved);
        }
        // A threat's number also takes in the leaf table, which the leaf VCT this node just
        // failed (`or_leaf`) searched from and into: a threat it refuted, or left far from
        // proved, starts behind those it came close with.
        let mut scored: Vec<(u32, u32, Point)> = points
            .into_iter()
            .map(|point| {
                let (mut pn, score) = evaluate::attack_number(&self.board, point, self.attacker);
                if pn <= evaluate::THREAT_NUMBER {
                    let found = self.leaf_vct.numbers_after(&self.board, point);
                    pn = evaluate::threat_number_after_vct(pn, found);
                }
                (pn, score, point)
            })
            .collect();
        scored.sort_by_key(|&(pn, score, point)| (pn, std::cmp::Reverse(score), point));
        let moves = scored
            .into_iter()
            .map(|(pn, _, point)| Move { point, pn, dn: 1 })
            .collect();
        Ok(Expansion::Moves(moves))
    }

    /// Legal attacker moves within two steps (in any direction) of a stone; the centre on an
    /// empty board.
    pub(super) fn nearby_moves(&self) -> Vec<Point> {
        let size = self.board.size();
        let moves: Vec<Point> = self
            .board
            .points()
            .filter(|&p| {
                self.board.is_legal_for(p, self.attacker) && self.board.has_stone_near(p, 2)
            })
            .collect();
        if moves.is_empty() && self.board.stones().next().is_none() {
            let centre = Point::new(size.cols() / 2, size.rows() / 2);
            return vec![centre];
        }
        moves
    }

    pub(super) fn expand_and(&mut self) -> Result<Expansion, Stopped> {
        if !self.board.five_points(self.defender()).is_empty() {
            // The defender completes a five.
            return Ok(Expansion::Disproved);
        }
        let certificate = self.certificate()?;
        if certificate.is_none() && self.find_vcf(self.defender(), COUNTER_FOURS)?.is_some() {
            return Ok(Expansion::Disproved);
        }
        let mut replies: Vec<Move> = self
            .replies(certificate.as_ref())
            .into_iter()
            .map(|point| Move {
                point,
                pn: 1,
                dn: 1,
            })
            .collect();
        if replies.is_empty() {
            // With a certificate every reply loses to it. Without one there is no legal reply:
            // a full board is a draw; otherwise the defender is Black with only forbidden
            // points, which must play one and lose (rules.md).
            return Ok(if certificate.is_some() || !self.board.is_full() {
                Expansion::Proved
            } else {
                Expansion::Disproved
            });
        }
        if certificate.is_none()
            && !self.full_width
            && replies.len() > 1
            && self.builds()
            && let Some(breaking) = self.pass_proof()?
        {
            replies.retain(|m| breaking.binary_search(&m.point).is_ok());
            if replies.is_empty() {
                return Ok(Expansion::Proved);
            }
        }
        // The replies that do least against the attacker's lines (and for the defender's)
        // first: among equal numbers df-pn searches the first, and the proof of a weak reply
        // is the one most likely to hold on its siblings, which simulation then proves
        // without a search of their own (`BENCHMARKS.md` has the other orders measured).
        // Sorted last, so only the replies left to search are scored.
        let defender = self.defender();
        replies.sort_by_cached_key(|m| evaluate::shape_score(&self.board, m.point, defender));
        Ok(Expansion::Moves(replies))
    }

    /// Whether the attacker's last move built on its lines enough to be worth trying as a
    /// threat ([`PASS_VCT_LEVEL`]); true when there is no such move to judge (a position given
    /// with its side to move). The stone itself is not counted, so this is what the lines
    /// held before it.
    pub(super) fn builds(&self) -> bool {
        match self.board.moves().last() {
            Some(&last) if self.board.stone(last) == Some(self.attacker) => {
                let level: u32 = self
                    .board
                    .potentials(last, self.attacker)
                    .iter()
                    .map(|&l| l.min(2))
                    .sum();
                level >= PASS_VCT_LEVEL
            }
            _ => true,
        }
    }

    pub(super) fn expand(&mut self) -> Result<Expansion, Stopped> {
        if self.full_width && self.out_of_reach() {
            return Ok(Expansion::Disproved);
        }
        if self.is_or() {
            self.expand_or()
        } else {
            self.expand_and()
        }
    }

    /// Whether the attacker can no longer win: every stretch of `k` points on a line holds a
    /// defender stone, or the closest one needs more stones than the attacker has moves left
    /// before the board is full. Not under renju with White attacking: White also wins when
    /// Black has only forbidden moves.
    pub(super) fn out_of_reach(&self) -> bool {
        if self.board.rules().has_forbidden() && self.attacker == Color::White {
            return false;
        }
        let empty = self.board.empty_count();
        let moves_left = if self.is_or() {
            empty.div_ceil(2)
        } else {
            empty / 2
        };
        self.board
            .fewest_stones_to_five(self.attacker)
            .is_none_or(|missing| missing as usize > moves_left)
    }
}
