//! Generating a VCT node's moves: the attacker's threat candidates and their starting proof
//! numbers at an OR node, and at an AND node the certificate and the defender replies that
//! could break it.

use crate::rules::{Board, Color, Defence, MAX_SIDE, Point};

use super::super::Line;
use super::super::vcf::{Stopped, UNLIMITED};
use super::super::zone::breaking_replies;
use super::{DEFENDER_FOURS, Expansion, Move, Search};

/// Starting proof number of a four (see [`attack_estimate`]).
const FOUR_PN: u8 = 2;
/// Starting proof number of a three.
const THREE_PN: u8 = 3;
/// Starting proof number of any other attacker move.
const QUIET_PN: u8 = 20;

/// Starting proof number of an attacker move: a four leaves one reply but wins nothing by
/// itself, a three leaves a handful, and a quiet move that may hide a VCF is seldom a threat
/// at all. Tuned on the quintet benches (node counts in `BENCHMARKS.md`). `level` is the most
/// own stones in a clear five-point stretch through `p`: a four needs 3, a three 2.
fn attack_estimate(board: &Board, p: Point, attacker: Color, level: u32) -> u8 {
    if level < 2 {
        return QUIET_PN;
    }
    match board.four_and_three(p, attacker) {
        (true, _) if level >= 3 => FOUR_PN,
        (_, true) => THREE_PN,
        _ => QUIET_PN,
    }
}

/// An attacker's threat candidate: an empty point, its level (see [`attack_estimate`]), and
/// whether a black stone there could be forbidden at all.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    point: Point,
    level: u32,
    /// A forbidden point needs a line of level 3 (an overline or a four holds three own stones
    /// in a clear five-point stretch with it) or two lines of level 2 or more (a double three:
    /// each three holds two). Points with neither are legal for Black without a test.
    may_be_forbidden: bool,
}

/// The attacker's threat candidates: empty points with two or more own stones in one clear
/// five-point stretch, or with own stones in clear stretches of two different lines. Every
/// move that makes a four or a three is one. In point order (file by file).
fn threat_candidates(board: &Board, attacker: Color) -> Vec<Candidate> {
    let support = board.lines().support(attacker);
    let [one, two, three] = &support.once;
    let mut list = Vec::with_capacity(64);
    for x in 0..MAX_SIDE as usize {
        let mut ranks = two[x] | support.twice[0][x];
        while ranks != 0 {
            let y = ranks.trailing_zeros();
            ranks &= ranks - 1;
            let has = |set: &[u32; MAX_SIDE as usize]| set[x] >> y & 1 != 0;
            debug_assert!(has(one));
            let level = 1 + u32::from(has(two)) + u32::from(has(three));
            list.push(Candidate {
                point: Point::new(x as u8, y as u8),
                level,
                may_be_forbidden: level >= 3 || has(&support.twice[1]),
            });
        }
    }
    list
}

impl Search<'_> {
    /// Generates the moves of an OR node (attacker to move) with `depth` attacker moves left.
    pub(super) fn expand_or(&mut self, depth: Option<u32>) -> Result<Expansion, Stopped> {
        let threat = match self.settle_or(depth)? {
            Ok(settled) => return Ok(settled),
            Err(threat) => threat,
        };
        if let Some(g) = threat {
            // The defender's four must be answered at once.
            if !self.board.is_legal_for(g, self.attacker) {
                return Ok(Expansion::Disproved);
            }
            return Ok(Expansion::Moves(vec![Move { point: g, pn: 1 }], 0));
        }
        // Threat candidates: moves with two or more own stones in one clear five-point stretch,
        // or in stretches of two lines. Whether each is a threat is decided at its AND node.
        let mut points = threat_candidates(&self.board, self.attacker);
        points.retain(|c| !c.may_be_forbidden || self.board.is_legal_for(c.point, self.attacker));
        // If the defender could win by VCF were it to move, only fours and moves that can
        // break that VCF are worth trying: any other move lets it run.
        self.board.set_to_move(self.defender);
        // Neither side has a five point here.
        let defender_vcf = self.find_vcf_from(self.defender, DEFENDER_FOURS, Some(None));
        self.board.set_to_move(self.attacker);
        if let Some(line) = defender_vcf? {
            let zone = self.zone_of(self.defender, &line);
            points.retain(|c| {
                zone.contains(c.point)
                    || (c.level >= 3 && self.board.four_at(c.point, self.attacker).count > 0)
            });
        }
        // Fours, then threes, then quiet moves, each in point order (the candidates' order).
        let mut moves = Vec::with_capacity(points.len());
        let mut rest = Vec::with_capacity(points.len());
        for c in points {
            let pn = attack_estimate(&self.board, c.point, self.attacker, c.level);
            let m = Move { point: c.point, pn };
            match pn {
                FOUR_PN => moves.push(m),
                _ => rest.push(m),
            }
        }
        moves.extend(rest.iter().filter(|m| m.pn == THREE_PN));
        moves.extend(rest.iter().filter(|m| m.pn == QUIET_PN));
        debug_assert!(moves.is_sorted_by_key(|m| (m.pn, m.point)));
        Ok(Expansion::Moves(moves, 0))
    }

    /// The quick verdicts on an OR node (attacker to move) with `depth` attacker moves left: a
    /// five to play, two defender fives, no moves left, or a VCF. Without one, the defender's
    /// five point (there is at most one), which the attacker must take.
    pub(super) fn settle_or(
        &mut self,
        depth: Option<u32>,
    ) -> Result<Result<Expansion, Option<Point>>, Stopped> {
        if !self.board.five_points(self.attacker).is_empty() {
            return Ok(Ok(Expansion::Proved(0)));
        }
        let threats = self.board.five_points(self.defender);
        if threats.len() >= 2 || depth == Some(0) {
            return Ok(Ok(Expansion::Disproved));
        }
        let threat = threats.first().copied();
        let max_fours = depth.unwrap_or(UNLIMITED);
        if let Some(line) = self.find_vcf_from(self.attacker, max_fours, Some(threat))? {
            return Ok(Ok(Expansion::Proved(line.fours() as u32)));
        }
        if depth == Some(1) {
            // One move left and no VCF of one four: a threat would need another move to win.
            return Ok(Ok(Expansion::Disproved));
        }
        Ok(Err(threat))
    }

    /// Generates the moves of an AND node (defender to move) with `depth` attacker moves left.
    pub(super) fn expand_and(&mut self, depth: Option<u32>) -> Result<Expansion, Stopped> {
        let last = *self
            .board
            .moves()
            .last()
            .expect("an AND node follows an attacker move");
        match self.board.defence(last, self.attacker) {
            Defence::Unstoppable => return Ok(Expansion::Proved(0)),
            Defence::Forced(f) if self.block_forbidden(f) => return Ok(Expansion::Proved(0)),
            Defence::Forced(f) => {
                return Ok(Expansion::Moves(vec![Move { point: f, pn: 1 }], 0));
            }
            Defence::Choice(stops) => {
                // Caro: every stone that stops the four is a reply to search.
                let replies = stops.into_iter().map(|point| Move { point, pn: 1 });
                return Ok(Expansion::Moves(replies.collect(), 0));
            }
            Defence::NoFour => {}
        }
        // The attacker's move made no four, and the defender's five point, if it had one,
        // was the attacker's move: neither side has a five point.
        let Some(certificate) = self.certificate_from(depth, Some(None))? else {
            return Ok(Expansion::Disproved);
        };
        if self
            .find_vcf_from(self.defender, DEFENDER_FOURS, Some(None))?
            .is_some()
        {
            return Ok(Expansion::Disproved);
        }
        let mut replies = breaking_replies(&mut self.board, self.attacker, &certificate);
        let certificate_len = certificate.fours() as u32;
        if replies.is_empty() {
            return Ok(Expansion::Proved(certificate_len));
        }
        // Every reply starts with the same numbers, so the order is the order df-pn tries them
        // in: the strongest defences first, to refute a weak threat soon. The certificate's
        // first four point (the most direct block), then counter-fours, then the points on the
        // certificate in its order, then the rest. Tuned on the quintet cases (BENCHMARKS.md).
        let rank = |p: Point| {
            certificate
                .moves
                .iter()
                .position(|&m| m == p)
                .unwrap_or(usize::MAX)
        };
        replies.sort_by_key(|&(p, counter)| {
            let rank = rank(p);
            (rank != 0, !counter, rank, p)
        });
        let replies = replies.into_iter().map(|(point, _)| Move { point, pn: 1 });
        Ok(Expansion::Moves(replies.collect(), certificate_len))
    }

    /// The attacker's VCF if the defender passed here, within the threat and depth limits.
    pub(super) fn certificate(&mut self, depth: Option<u32>) -> Result<Option<Line>, Stopped> {
        self.certificate_from(depth, None)
    }

    /// [`Search::certificate`] where the five points are known (see [`VcfSearch::run_from`]).
    pub(super) fn certificate_from(
        &mut self,
        depth: Option<u32>,
        fives: Option<Option<Point>>,
    ) -> Result<Option<Line>, Stopped> {
        let max = self
            .options
            .threat_fours
            .unwrap_or(UNLIMITED)
            .min(depth.unwrap_or(UNLIMITED));
        if max == 0 {
            return Ok(None);
        }
        self.board.set_to_move(self.attacker);
        let line = self.find_vcf_from(self.attacker, max, fives);
        self.board.set_to_move(self.defender);
        line
    }

    pub(super) fn expand(&mut self, depth: Option<u32>) -> Result<Expansion, Stopped> {
        if self.is_or() {
            self.expand_or(depth)
        } else {
            self.expand_and(depth)
        }
    }
}
