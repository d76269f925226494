//! Node records: the head byte that names a node's kind and holds its short lengths, and how
//! a record is written, read and turned into a [`Node`] (`docs/db-format.md` has the table).

use super::{Reader, put, put_all};
use crate::db::{Certificate, DbError, Edge, Node};

/// A node on disk starts with a *head* byte naming its kind; short lines and reply lists carry
/// their lengths in it (`docs/db-format.md` has the table). The nodes come in the file's order:
/// each root's proof depth-first, children in order, every node at its first visit. A child
/// first visited through this edge is *inline*: it is the next record not yet placed (so it
/// needs no number); any other child is a reference by its distance. An edge code is the
/// symmetry (0 to 7) for an inline child, and `8 + 8 * zigzag(child - this) + symmetry` for a
/// reference (a node outside the body is missing: only a damaged database has one).
pub(super) mod head {
    /// The attacker already has a five (a root only).
    pub(crate) const FIVE: u8 = 0;
    /// A VCF leaf whose line has `head - VCF` moves, up to [`VCF_SHORT_MAX`].
    pub(crate) const VCF: u8 = 1;
    pub(crate) const VCF_SHORT_MAX: usize = 31;
    /// A VCF leaf with its line's length as a varint.
    pub(crate) const VCF_LONG: u8 = 33;
    /// A winning move; the child inline, in the same orientation.
    pub(crate) const MOVE: u8 = 34;
    /// A winning move and its child's edge code.
    pub(crate) const MOVE_TO: u8 = 35;
    /// Defender nodes whose certificate is a proof (the pass position's node, their first
    /// child), with `r` replies: plain (`base + r` for `r` below [`PASS_PACKED`]; every child
    /// inline, same orientation) or coded (`base + r` for `r` below [`PASS_TO_PACKED`]; the
    /// pass child's edge code, then each reply with its own). Version 3.
    pub(crate) const PASS_PACKED: usize = 16;
    pub(crate) const PASS_REPLIES: u8 = 36;
    pub(crate) const PASS_TO_PACKED: usize = 12;
    pub(crate) const PASS_REPLIES_TO: u8 = 52;
    /// Defender nodes with a certificate of `c` moves and `r` replies, both below
    /// [`PACKED`], as `base + c * PACKED + r`: replies plain (every child inline, same
    /// orientation) or coded (each with an edge code).
    pub(crate) const PACKED: usize = 8;
    pub(crate) const REPLIES: u8 = 64;
    pub(crate) const REPLIES_TO: u8 = 128;
    /// Defender nodes without a certificate (every legal reply listed), `base + r` for `r`
    /// below [`ALL_PACKED`].
    pub(crate) const ALL_PACKED: usize = 16;
    pub(crate) const ALL_REPLIES: u8 = 192;
    pub(crate) const ALL_REPLIES_TO: u8 = 208;
    /// Longer defender nodes: the lengths as varints (the certificate's first, if any).
    pub(crate) const REPLIES_LONG: u8 = 224;
    pub(crate) const REPLIES_TO_LONG: u8 = 225;
    pub(crate) const ALL_REPLIES_LONG: u8 = 226;
    pub(crate) const ALL_REPLIES_TO_LONG: u8 = 227;
    /// Longer defender nodes whose certificate is a proof: `r` as a varint.
    pub(crate) const PASS_REPLIES_LONG: u8 = 228;
    pub(crate) const PASS_REPLIES_TO_LONG: u8 = 229;
}

/// A node record, as [`head`] packs it.
#[derive(Debug, PartialEq)]
pub(super) enum NodeRecord {
    Five,
    Vcf(Vec<u16>),
    /// The child is inline, in the same orientation.
    Move(u16),
    MoveTo(u16, u32),
    /// With a certificate; every child is inline, in the same orientation.
    Replies(Vec<u16>, Vec<u16>),
    /// With a certificate.
    RepliesTo(Vec<u16>, Vec<(u16, u32)>),
    /// Every legal reply listed; every child inline, in the same orientation.
    AllReplies(Vec<u16>),
    /// Every legal reply listed.
    AllRepliesTo(Vec<(u16, u32)>),
    /// The certificate is a proof; every child (the pass position's first) inline, in the
    /// same orientation.
    PassReplies(Vec<u16>),
    /// The certificate is a proof, the pass position's node by its edge code.
    PassRepliesTo(u32, Vec<(u16, u32)>),
}

impl NodeRecord {
    /// Appends the record to the body: its head, any lengths the head does not hold, then its
    /// points and edge codes, each a bincode varint.
    pub(super) fn write(&self, body: &mut Vec<u8>) {
        let packed = |base: u8, long: u8, c: usize, r: usize, body: &mut Vec<u8>| {
            if c < head::PACKED && r < head::PACKED {
                put(body, &(base + (c * head::PACKED + r) as u8));
            } else {
                put(body, &long);
                put(body, &(c as u64));
                put(body, &(r as u64));
            }
        };
        let all = |base: u8, long: u8, r: usize, body: &mut Vec<u8>| {
            if r < head::ALL_PACKED {
                put(body, &(base + r as u8));
            } else {
                put(body, &long);
                put(body, &(r as u64));
            }
        };
        match self {
            Self::Five => put(body, &head::FIVE),
            Self::Vcf(line) => {
                if line.len() <= head::VCF_SHORT_MAX {
                    put(body, &(head::VCF + line.len() as u8));
                } else {
                    put(body, &head::VCF_LONG);
                    put(body, &(line.len() as u64));
                }
                put_all(body, line);
            }
            Self::Move(play) => {
                put(body, &head::MOVE);
                put(body, play);
            }
            Self::MoveTo(play, code) => {
                put(body, &head::MOVE_TO);
                put(body, play);
                put(body, code);
            }
            Self::Replies(c, replies) => {
                packed(
                    head::REPLIES,
                    head::REPLIES_LONG,
                    c.len(),
                    replies.len(),
                    body,
                );
                put_all(body, c);
                put_all(body, replies);
            }
            Self::RepliesTo(c, replies) => {
                let (r, long) = (replies.len(), head::REPLIES_TO_LONG);
                packed(head::REPLIES_TO, long, c.len(), r, body);
                put_all(body, c);
                put_all(body, replies);
            }
            Self::AllReplies(replies) => {
                all(
                    head::ALL_REPLIES,
                    head::ALL_REPLIES_LONG,
                    replies.len(),
                    body,
                );
                put_all(body, replies);
            }
            Self::AllRepliesTo(replies) => {
                let (r, long) = (replies.len(), head::ALL_REPLIES_TO_LONG);
                all(head::ALL_REPLIES_TO, long, r, body);
                put_all(body, replies);
            }
            Self::PassReplies(replies) => {
                let r = replies.len();
                if r < head::PASS_PACKED {
                    put(body, &(head::PASS_REPLIES + r as u8));
                } else {
                    put(body, &head::PASS_REPLIES_LONG);
                    put(body, &(r as u64));
                }
                put_all(body, replies);
            }
            Self::PassRepliesTo(pass, replies) => {
                let r = replies.len();
                if r < head::PASS_TO_PACKED {
                    put(body, &(head::PASS_REPLIES_TO + r as u8));
                } else {
                    put(body, &head::PASS_REPLIES_TO_LONG);
                    put(body, &(r as u64));
                }
                put(body, pass);
                put_all(body, replies);
            }
        }
    }

    /// Reads the next record off the body of a file of format `version`.
    pub(super) fn read(
        reader: &mut Reader,
        version: u32,
        what: &dyn Fn() -> String,
    ) -> Result<Self, DbError> {
        let h: u8 = reader.next(what)?;
        let pass_head = (head::PASS_REPLIES..head::REPLIES).contains(&h)
            || h == head::PASS_REPLIES_LONG
            || h == head::PASS_REPLIES_TO_LONG;
        if pass_head && version < 3 {
            return Err(DbError::Body(format!(
                "{}: record kind {h} is not in format version {version}",
                what()
            )));
        }
        let short = |base: u8| usize::from(h - base);
        let packed = |base: u8| {
            let v = usize::from(h - base);
            (v / head::PACKED, v % head::PACKED)
        };
        Ok(match h {
            head::FIVE => Self::Five,
            head::VCF..head::VCF_LONG => Self::Vcf(reader.items(short(head::VCF), what)?),
            head::VCF_LONG => {
                let n = reader.count(what)?;
                Self::Vcf(reader.items(n, what)?)
            }
            head::MOVE => Self::Move(reader.next(what)?),
            head::MOVE_TO => Self::MoveTo(reader.next(what)?, reader.next(what)?),
            head::REPLIES..head::REPLIES_TO => {
                let (c, r) = packed(head::REPLIES);
                Self::Replies(reader.items(c, what)?, reader.items(r, what)?)
            }
            head::REPLIES_TO..head::ALL_REPLIES => {
                let (c, r) = packed(head::REPLIES_TO);
                Self::RepliesTo(reader.items(c, what)?, reader.items(r, what)?)
            }
            head::ALL_REPLIES..head::ALL_REPLIES_TO => {
                Self::AllReplies(reader.items(short(head::ALL_REPLIES), what)?)
            }
            head::ALL_REPLIES_TO..head::REPLIES_LONG => {
                Self::AllRepliesTo(reader.items(short(head::ALL_REPLIES_TO), what)?)
            }
            head::REPLIES_LONG | head::REPLIES_TO_LONG => {
                let (c, r) = (reader.count(what)?, reader.count(what)?);
                let certificate = reader.items(c, what)?;
                if h == head::REPLIES_LONG {
                    Self::Replies(certificate, reader.items(r, what)?)
                } else {
                    Self::RepliesTo(certificate, reader.items(r, what)?)
                }
            }
            head::ALL_REPLIES_LONG => {
                let r = reader.count(what)?;
                Self::AllReplies(reader.items(r, what)?)
            }
            head::ALL_REPLIES_TO_LONG => {
                let r = reader.count(what)?;
                Self::AllRepliesTo(reader.items(r, what)?)
            }
            head::PASS_REPLIES..head::PASS_REPLIES_TO => {
                Self::PassReplies(reader.items(short(head::PASS_REPLIES), what)?)
            }
            head::PASS_REPLIES_TO..head::REPLIES => {
                let pass = reader.next(what)?;
                Self::PassRepliesTo(pass, reader.items(short(head::PASS_REPLIES_TO), what)?)
            }
            head::PASS_REPLIES_LONG => {
                let r = reader.count(what)?;
                Self::PassReplies(reader.items(r, what)?)
            }
            head::PASS_REPLIES_TO_LONG => {
                let r = reader.count(what)?;
                let pass = reader.next(what)?;
                Self::PassRepliesTo(pass, reader.items(r, what)?)
            }
            _ => {
                return Err(DbError::Body(format!(
                    "{}: unknown record kind {h}",
                    what()
                )));
            }
        })
    }

    /// The node the record holds, each child's edge from `edge` (given the child's place and
    /// its edge code, 0 for an inline child in the same orientation).
    pub(super) fn into_node(
        self,
        edge: &mut dyn FnMut(usize, u32) -> Result<Edge, DbError>,
    ) -> Result<Node, DbError> {
        let inline_plain = |replies: Vec<u16>| replies.into_iter().map(|r| (r, 0)).collect();
        Ok(match self {
            Self::Five => Node::Five,
            Self::Vcf(line) => Node::Vcf(line),
            Self::Move(play) => Node::Move {
                play,
                child: edge(0, 0)?,
            },
            Self::MoveTo(play, code) => Node::Move {
                play,
                child: edge(0, code)?,
            },
            Self::Replies(certificate, replies) => replies_node(
                Some(Certificate::Line(certificate)),
                inline_plain(replies),
                edge,
            )?,
            Self::RepliesTo(certificate, replies) => {
                replies_node(Some(Certificate::Line(certificate)), replies, edge)?
            }
            Self::AllReplies(replies) => replies_node(None, inline_plain(replies), edge)?,
            Self::AllRepliesTo(replies) => replies_node(None, replies, edge)?,
            Self::PassReplies(replies) => {
                let pass = edge(0, 0)?;
                replies_node(Some(Certificate::Proof(pass)), inline_plain(replies), edge)?
            }
            Self::PassRepliesTo(code, replies) => {
                let pass = edge(0, code)?;
                replies_node(Some(Certificate::Proof(pass)), replies, edge)?
            }
        })
    }
}

/// A defender node from its record's parts, each reply with its edge code (after the pass
/// position's node, which is child 0 when the certificate is a proof).
fn replies_node(
    certificate: Option<Certificate>,
    replies: Vec<(u16, u32)>,
    edge: &mut dyn FnMut(usize, u32) -> Result<Edge, DbError>,
) -> Result<Node, DbError> {
    let first = usize::from(matches!(certificate, Some(Certificate::Proof(_))));
    let mut listed = Vec::with_capacity(replies.len());
    for (k, (r, code)) in replies.into_iter().enumerate() {
        listed.push((r, edge(first + k, code)?));
    }
    Ok(Node::Replies {
        certificate,
        replies: listed,
    })
}
