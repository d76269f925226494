//! Verifying a defender node: the defender is to move and cannot win at once, the certificate
//! wins were it to pass, and every legal reply is either listed with a node that checks or
//! answered by the certificate: outside the certificate's zone without more, inside it by a
//! replay (`docs/certificates.md`).

use rayon::prelude::*;

use super::super::replay::{vcf_wins, vcf_zone};
use super::super::rules::{BLACK, EMPTY};
use super::super::zone::{Zone, add_stretches};
use super::{At, Fault, Walk, compose, other};
use crate::db::{Cell, Certificate, Edge};

/// A listed reply in the walk's orientation, with the edge to its node.
type ListedReply = ((usize, usize), Edge);

/// A certificate as verified on the board without a reply: what a reply is checked against.
enum Verified {
    /// No certificate: every legal reply is listed.
    None,
    /// A line, in the walk's orientation, and its zone.
    Line(Vec<(usize, usize)>, Zone),
    /// The pass position's node, its orientation, and its zone.
    Proof(u32, usize, Zone),
}

impl Verified {
    /// The zone a reply must stay out of to be answered without a replay.
    fn zone(&self) -> Option<&Zone> {
        match self {
            Verified::None => None,
            Verified::Line(_, zone) | Verified::Proof(_, _, zone) => Some(zone),
        }
    }
}

/// What became of one reply: answered (with the zone its answer read, inside certificates),
/// or not: a problem with the reply, or `None` where a problem was reported further down.
type Answer = Result<Zone, Option<((usize, usize), String)>>;

impl Walk<'_> {
    /// A defender node. Inside a certificate (`at.level` above 0) its zone is the defender's
    /// nearly complete stretches, its certificate's zone for one more extra stone, and
    /// everything its listed replies, its replays and its forbidden-move tests read.
    pub(super) fn defender_node(
        &self,
        certificate: Option<&Certificate>,
        replies: &[(Cell, Edge)],
        at: &At,
    ) -> Result<Zone, Fault> {
        let (attacker, defender) = (self.attacker, other(self.attacker));
        if at.to_move != defender {
            return Err("a defender node with the attacker to move".into());
        }
        if at.pos.has_five_point(defender) {
            return Err("the defender has a five to play".into());
        }
        if !at.pos.grid().cells.contains(&EMPTY) {
            return Err("the board is full: a draw, not a loss".into());
        }
        let mut zone = Zone::default();
        if at.level > 0 {
            add_stretches(
                &mut zone,
                at.pos.grid(),
                self.rule,
                attacker,
                defender,
                at.level,
            );
        }
        let verified = self.certificate(certificate, at)?;
        if let Some(cert_zone) = verified.zone() {
            zone.add(cert_zone);
        }
        let listed = self.listed_replies(replies, at, &mut zone)?;
        zone.add(&self.every_reply(&verified, &listed, at)?);
        if at.level > 0 && matches!(verified, Verified::None) {
            // Every legal reply is listed: any stone of the defender's is on a point read.
            for (i, _) in at
                .pos
                .grid()
                .cells
                .iter()
                .enumerate()
                .filter(|c| *c.1 == EMPTY)
            {
                zone.insert(i);
            }
        }
        Ok(zone)
    }

    /// The defender node's certificate, verified on the board as it is were the defender to
    /// pass, all of it (even where every reply is listed and none needs it), with its zone for
    /// one more extra defender stone than the node stands.
    fn certificate(&self, certificate: Option<&Certificate>, at: &At) -> Result<Verified, Fault> {
        let extra = at.level + 1;
        Ok(match certificate {
            None => Verified::None,
            Some(Certificate::Line(cells)) => {
                let (line, zone) = self.winning_line(cells, at, extra, "certificate")?;
                Verified::Line(line, zone)
            }
            Some(Certificate::Proof(pass)) => {
                let path = at.path_with(None);
                let frame = compose(at.frame, pass.symmetry.index());
                let passed = At {
                    frame,
                    to_move: self.attacker,
                    path: &path,
                    level: extra,
                    ..*at
                };
                // A problem in the certificate is reported at its own position.
                let zone = self.node(pass.node, &passed).ok_or(Fault::Below)?;
                Verified::Proof(pass.node, frame, zone)
            }
        })
    }

    /// The listed replies in the walk's orientation, each with its edge: on the board, legal
    /// and listed once (in a certificate replayed after a reply, one no longer legal is passed
    /// over). Inside a certificate each is added to `zone`, with what its forbidden-move test
    /// read.
    fn listed_replies(
        &self,
        replies: &[(Cell, Edge)],
        at: &At,
        zone: &mut Zone,
    ) -> Result<Vec<ListedReply>, Fault> {
        let mut listed: Vec<ListedReply> = Vec::with_capacity(replies.len());
        for &(r, e) in replies {
            let p = self
                .point(r, at.frame)
                .ok_or(Fault::from("a listed reply off the board"))?;
            if listed.iter().any(|&(q, _)| q == p) {
                return Err(format!("reply {} is listed twice", self.show(p)).into());
            }
            if !self.may_play(at, p, zone) {
                if at.replayed {
                    // The reply this certificate is replayed after may stand here: a point
                    // taken (or forbidden) is no reply, and needs no answer.
                    continue;
                }
                return Err(format!("listed reply {} is not legal", self.show(p)).into());
            }
            if at.level > 0 {
                zone.insert(p.1 * at.pos.grid().width + p.0);
            }
            listed.push((p, e));
        }
        Ok(listed)
    }

    /// Whether the defender may play at `p`: an empty point, not forbidden for Black. Inside
    /// a certificate, what the forbidden-move test read is added to `zone`.
    fn may_play(&self, at: &At, p: (usize, usize), zone: &mut Zone) -> bool {
        let defender = other(self.attacker);
        if !at.pos.is_empty(p.0, p.1) {
            return false;
        }
        if defender != BLACK {
            return true;
        }
        if at.level == 0 {
            at.pos.legal(p.0, p.1, defender)
        } else {
            !at.pos.is_forbidden_recorded(p.0, p.1, zone)
        }
    }

    /// Every reply: a listed one is verified at its own node; any other must lose to the
    /// certificate, without more outside its zone, by a replay inside it. Failures of the
    /// latter are reported once per node. Returns what the replies read (inside certificates).
    fn every_reply(
        &self,
        verified: &Verified,
        listed: &[ListedReply],
        at: &At,
    ) -> Result<Zone, Fault> {
        let defender = other(self.attacker);
        let (w, h) = (at.pos.grid().width, at.pos.grid().height);
        // The points that need work: listed replies, fives, and points of the certificate's
        // zone (or, without a certificate, every empty point).
        let work: Vec<(usize, usize)> = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&(x, y)| at.pos.is_empty(x, y))
            .filter(|&(x, y)| {
                listed.iter().any(|&(q, _)| q == (x, y))
                    || at.pos.makes_win(x, y, defender)
                    || verified.zone().is_none_or(|z| z.contains(y * w + x))
            })
            .collect();
        let answers: Vec<Answer> = work
            .par_iter()
            .map(|&r| self.reply(r, verified, listed, at))
            .collect();
        let mut zone = Zone::default();
        let mut failures = Vec::new();
        let mut below = false;
        for answer in answers {
            match answer {
                Ok(z) => zone.add(&z),
                Err(Some(failure)) => failures.push(failure),
                Err(None) => below = true,
            }
        }
        match failures.first() {
            None if below => Err(Fault::Below),
            None => Ok(zone),
            Some((r, e)) => Err(format!(
                "{} defender repl{} not answered; the first, {}: {e}",
                failures.len(),
                if failures.len() == 1 {
                    "y is"
                } else {
                    "ies are"
                },
                self.show(*r)
            )
            .into()),
        }
    }

    /// One reply `r` that needs work (see [`Walk::every_reply`]).
    fn reply(
        &self,
        r: (usize, usize),
        verified: &Verified,
        listed: &[ListedReply],
        at: &At,
    ) -> Answer {
        let (attacker, defender) = (self.attacker, other(self.attacker));
        let mut zone = Zone::default();
        let listed_edge = listed.iter().find(|(p, _)| *p == r).map(|&(_, e)| e);
        if listed_edge.is_none() && !self.may_play(at, r, &mut zone) {
            // Not a legal reply (Black's forbidden point): nothing to answer.
            return Ok(zone);
        }
        if at.pos.makes_win(r.0, r.1, defender) {
            return Err(Some((r, "it makes a five for the defender".to_string())));
        }
        let mut next = at.pos.clone();
        next.play(r.0, r.1, defender);
        let path = at.path_with(Some(r));
        let after = |frame: usize| At {
            frame,
            pos: &next,
            to_move: attacker,
            path: &path,
            ..*at
        };
        let answered = match (listed_edge, verified) {
            (Some(e), _) => {
                let frame = compose(at.frame, e.symmetry.index());
                // A problem below is reported there.
                self.node(e.node, &after(frame)).ok_or(String::new())
            }
            (None, Verified::None) => Err("no certificate covers it".to_string()),
            (None, Verified::Line(line, _)) => {
                let replayed = if at.level == 0 {
                    vcf_wins(&next, attacker, line).map(|_| Zone::default())
                } else {
                    vcf_zone(&next, attacker, line, at.level).map(|(_, z)| z)
                };
                replayed.map_err(|e| format!("the certificate fails: {e}"))
            }
            (None, Verified::Proof(n, frame, _)) => self
                .node(
                    *n,
                    &At {
                        replayed: true,
                        ..after(*frame)
                    },
                )
                .ok_or("the certificate fails after it (see the problem reported there)".into()),
        };
        match answered {
            Ok(z) => {
                zone.add(&z);
                Ok(zone)
            }
            // A listed reply's problem is reported at its own node.
            Err(e) if e.is_empty() => Err(None),
            Err(e) => Err(Some((r, e))),
        }
    }
}
