//! The database file format, version 3 (`docs/db-format.md`; version 2 is read too): a fixed 28-byte header, then a
//! body of records whose fields are bincode values (standard configuration: little-endian
//! variable-length integers). A node record starts with a head byte that names its kind and
//! holds short lengths, which is what keeps a proof near 3.5 bytes per node.
//!
//! Decoding never trusts the file: every length is checked against the bytes left, every
//! field is decoded with a size limit, and every point and symmetry is range-checked, so a
//! truncated, corrupted or hostile file gives a [`DbError`] naming the problem, never a panic
//! or a huge allocation.

use bincode::config::{self, Configuration, Limit};
use serde::{Deserialize, Serialize};

use super::{Certificate, Database, DbError, Edge, Node, Root};
use crate::rules::{Color, Rule, Rules, Size, Symmetry};

mod record;

use record::NodeRecord;

/// The first 8 bytes of every database file.
pub const MAGIC: [u8; 8] = *b"RENJU-DB";
/// The format version this build writes; any change to the format bumps it.
pub const VERSION: u32 = 3;
/// The oldest version this build reads: version 2 is version 3 without the defender nodes
/// whose certificate is a proof.
pub const OLDEST_READ: u32 = 2;
/// Bytes before the body.
pub const HEADER_LEN: usize = 28;

/// The most bytes one record may take. A record is a node or a root: a few hundred points at
/// most on the largest board.
const RECORD_LIMIT: usize = 1 << 16;

fn records() -> Configuration<config::LittleEndian, config::Varint, Limit<RECORD_LIMIT>> {
    config::standard().with_limit::<RECORD_LIMIT>()
}

/// A root on disk.
#[derive(Serialize, Deserialize)]
struct RootRecord {
    black: Vec<u16>,
    white: Vec<u16>,
    /// Bit 0: White to move; bit 1: White is the attacker; bits 2 to 4: the symmetry.
    flags: u8,
    node: u32,
}

/// The file's order of `db`'s nodes (only those the roots reach), and for each node in that
/// order which of its children are inline.
pub(super) fn layout(db: &Database) -> (Vec<u32>, Vec<Vec<bool>>) {
    let mut seen = vec![false; db.nodes.len()];
    let mut order = Vec::new();
    let mut inline: Vec<Vec<bool>> = Vec::new();
    let mut stack: Vec<(u32, usize, usize)> = Vec::new(); // node, place in order, next child
    for root in &db.roots {
        let r = root.node as usize;
        if r >= db.nodes.len() || seen[r] {
            continue;
        }
        seen[r] = true;
        stack.push((root.node, order.len(), 0));
        order.push(root.node);
        inline.push(Vec::new());
        while let Some(top) = stack.last_mut() {
            let (n, at, k) = *top;
            let Some(child) = db.nodes[n as usize].children().nth(k) else {
                stack.pop();
                continue;
            };
            top.2 += 1;
            let c = child.node as usize;
            let first = c < db.nodes.len() && !seen[c];
            inline[at].push(first);
            if first {
                seen[c] = true;
                stack.push((child.node, order.len(), 0));
                order.push(child.node);
                inline.push(Vec::new());
            }
        }
    }
    (order, inline)
}

fn rule_code(rule: Rule) -> u8 {
    match rule {
        Rule::Renju => 0,
        Rule::Gomoku => 1,
        Rule::Freestyle => 2,
        Rule::Caro => 3,
    }
}

fn color_bit(c: Color) -> u8 {
    u8::from(c == Color::White)
}

fn bit_color(bit: u8) -> Color {
    if bit & 1 == 1 {
        Color::White
    } else {
        Color::Black
    }
}

/// Encodes a database: header, then body.
///
/// # Errors
/// [`DbError::TooLarge`] past the format's 32-bit node numbers, and [`DbError::Body`] if a
/// child comes before its parent ([`super::Builder::finish`] orders them).
pub fn encode(db: &Database) -> Result<Vec<u8>, DbError> {
    let db = db.compacted();
    u32::try_from(db.nodes.len())
        .ok()
        .filter(|&n| n < u32::MAX / 8 - 1)
        .ok_or_else(|| DbError::TooLarge(format!("{} nodes", db.nodes.len())))?;
    let (_, inline) = layout(&db);
    let mut body = Vec::new();
    put(&mut body, &(db.roots.len() as u64));
    for root in &db.roots {
        put(
            &mut body,
            &RootRecord {
                black: root.black.clone(),
                white: root.white.clone(),
                flags: color_bit(root.to_move)
                    | color_bit(root.attacker) << 1
                    | (root.symmetry.index() as u8) << 2,
                node: root.node,
            },
        );
    }
    put(&mut body, &(db.nodes.len() as u64));
    for (i, node) in db.nodes.iter().enumerate() {
        let flags = &inline[i];
        let code = |k: usize, e: Edge| -> u32 {
            let s = e.symmetry.index() as u32;
            if flags[k] {
                s
            } else {
                8 + 8 * zigzag(i64::from(e.node) - i as i64) + s
            }
        };
        let plain = |k: usize, e: Edge| flags[k] && e.symmetry == Symmetry::Identity;
        let record = match node {
            Node::Five => NodeRecord::Five,
            Node::Vcf(line) => NodeRecord::Vcf(line.clone()),
            Node::Move { play, child } if plain(0, *child) => NodeRecord::Move(*play),
            Node::Move { play, child } => NodeRecord::MoveTo(*play, code(0, *child)),
            Node::Replies {
                certificate,
                replies,
            } => {
                // The pass position's node, if any, is child 0 and the replies follow.
                let first = usize::from(node.pass().is_some());
                let all_plain = replies
                    .iter()
                    .enumerate()
                    .all(|(k, &(_, e))| plain(first + k, e));
                let points = || replies.iter().map(|r| r.0).collect();
                let coded = || {
                    replies
                        .iter()
                        .enumerate()
                        .map(|(k, &(r, e))| (r, code(first + k, e)))
                        .collect()
                };
                match (certificate, all_plain) {
                    (Some(Certificate::Line(c)), true) => NodeRecord::Replies(c.clone(), points()),
                    (Some(Certificate::Line(c)), false) => {
                        NodeRecord::RepliesTo(c.clone(), coded())
                    }
                    (Some(Certificate::Proof(pass)), true) if plain(0, *pass) => {
                        NodeRecord::PassReplies(points())
                    }
                    (Some(Certificate::Proof(pass)), _) => {
                        NodeRecord::PassRepliesTo(code(0, *pass), coded())
                    }
                    (None, true) => NodeRecord::AllReplies(points()),
                    (None, false) => NodeRecord::AllRepliesTo(coded()),
                }
            }
        };
        record.write(&mut body);
    }
    let mut out = Vec::with_capacity(HEADER_LEN + body.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.push(rule_code(db.rules.rule()));
    out.push(db.rules.k());
    out.push(db.size.cols());
    out.push(db.size.rows());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(&body).to_le_bytes());
    out.extend_from_slice(&body);
    Ok(out)
}

/// Appends items to the body one after another, without a length (the head or a count
/// gives it).
pub(super) fn put_all<T: Serialize>(body: &mut Vec<u8>, items: &[T]) {
    for item in items {
        put(body, item);
    }
}

/// Appends one record or field to the body.
pub(super) fn put<T: Serialize>(body: &mut Vec<u8>, value: &T) {
    bincode::serde::encode_into_std_write(value, body, records())
        .expect("a value within the size limit always encodes into memory");
}

/// Reads records off the body one at a time.
pub(super) struct Reader<'a> {
    body: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    pub(super) fn next<T: serde::de::DeserializeOwned>(
        &mut self,
        what: &dyn Fn() -> String,
    ) -> Result<T, DbError> {
        let (value, used) = bincode::serde::decode_from_slice(&self.body[self.at..], records())
            .map_err(|e| DbError::Body(format!("{}: {e}", what())))?;
        self.at += used;
        Ok(value)
    }

    /// A count, which cannot exceed the bytes left (every item takes at least one).
    pub(super) fn count(&mut self, what: &dyn Fn() -> String) -> Result<usize, DbError> {
        let n: u64 = self.next(what)?;
        let left = (self.body.len() - self.at) as u64;
        if n > left {
            return Err(DbError::Body(format!(
                "{}: {n} items announced but only {left} bytes follow",
                what()
            )));
        }
        Ok(n as usize)
    }

    /// `n` items, one after another.
    pub(super) fn items<T: serde::de::DeserializeOwned>(
        &mut self,
        n: usize,
        what: &dyn Fn() -> String,
    ) -> Result<Vec<T>, DbError> {
        (0..n).map(|_| self.next(what)).collect()
    }
}

/// A signed distance as an unsigned number: 0, -1, 1, -2, 2, ... as 0, 1, 2, 3, 4, ...
/// Distances past `u32` (only in a damaged database) are cut to the largest.
fn zigzag(d: i64) -> u32 {
    let z = if d >= 0 { 2 * d } else { -2 * d - 1 };
    u32::try_from(z)
        .unwrap_or(u32::MAX / 8 - 2)
        .min(u32::MAX / 8 - 2)
}

/// The inverse of [`zigzag`].
fn unzigzag(z: u32) -> i64 {
    let z = i64::from(z);
    if z % 2 == 0 { z / 2 } else { -(z + 1) / 2 }
}

/// Points child `k` of `node` (in [`Node::children`]'s order) at `child`.
fn set_child(node: &mut Node, k: usize, child: u32) {
    match node {
        Node::Move { child: e, .. } => e.node = child,
        Node::Replies {
            certificate: Some(Certificate::Proof(pass)),
            ..
        } if k == 0 => pass.node = child,
        Node::Replies {
            certificate: Some(Certificate::Proof(_)),
            replies,
        } => replies[k - 1].1.node = child,
        Node::Replies { replies, .. } => replies[k].1.node = child,
        Node::Five | Node::Vcf(_) => unreachable!("a leaf has no children"),
    }
}

/// The header of a database file, as [`decode_header`] reads it.
pub(crate) struct Header {
    /// The format version, [`OLDEST_READ`] to [`VERSION`].
    version: u32,
    pub(crate) rules: Rules,
    pub(crate) size: Size,
    /// The body's length in bytes, as announced.
    body_len: u64,
    /// The body's CRC-32, as stored.
    crc: u32,
}

/// Reads the header at the start of `bytes` (which may hold more).
///
/// # Errors
/// A [`DbError`] for truncation, the magic, the version or a header field.
pub(crate) fn decode_header(bytes: &[u8]) -> Result<Header, DbError> {
    if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
        if bytes.len() < MAGIC.len() && MAGIC.starts_with(bytes) {
            return Err(DbError::Truncated(format!(
                "{} bytes, shorter than the {HEADER_LEN}-byte header",
                bytes.len()
            )));
        }
        return Err(DbError::Magic);
    }
    if bytes.len() < HEADER_LEN {
        return Err(DbError::Truncated(format!(
            "{} bytes, shorter than the {HEADER_LEN}-byte header",
            bytes.len()
        )));
    }
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    let version = word(8);
    if !(OLDEST_READ..=VERSION).contains(&version) {
        return Err(DbError::Version { found: version });
    }
    let rule = match bytes[12] {
        0 => Rule::Renju,
        1 => Rule::Gomoku,
        2 => Rule::Freestyle,
        3 => Rule::Caro,
        other => return Err(DbError::Header(format!("unknown rule code {other}"))),
    };
    let rules =
        Rules::new(rule, Some(u32::from(bytes[13]))).map_err(|e| DbError::Header(e.to_string()))?;
    let size = Size::new(u32::from(bytes[14]), u32::from(bytes[15]))
        .map_err(|e| DbError::Header(e.to_string()))?;
    Ok(Header {
        version,
        rules,
        size,
        body_len: u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes")),
        crc: word(24),
    })
}

/// Decodes a database file.
///
/// # Errors
/// A [`DbError`] naming what is wrong: truncation, magic, version, header field, checksum or
/// the first bad record.
pub fn decode(bytes: &[u8]) -> Result<Database, DbError> {
    let header = decode_header(bytes)?;
    let body = checked_body(bytes, &header)?;
    let bounds = Bounds::of(header.size);
    let mut reader = Reader { body, at: 0 };
    let roots = read_roots(&mut reader, &bounds)?;
    let nodes = read_nodes(&mut reader, &bounds, header.version)?;
    if reader.at != body.len() {
        return Err(DbError::Body(format!(
            "{} bytes left over after the last node",
            body.len() - reader.at
        )));
    }
    Ok(Database {
        rules: header.rules,
        size: header.size,
        roots,
        nodes,
    })
}

/// The body after the header: exactly as long as the header announces, with its checksum.
fn checked_body<'a>(bytes: &'a [u8], header: &Header) -> Result<&'a [u8], DbError> {
    let (body_len, stored) = (header.body_len, header.crc);
    let body = &bytes[HEADER_LEN..];
    if (body.len() as u64) < body_len {
        return Err(DbError::Truncated(format!(
            "the header announces a {body_len}-byte body but only {} bytes follow",
            body.len()
        )));
    }
    if (body.len() as u64) > body_len {
        return Err(DbError::Body(format!(
            "{} bytes after the {body_len}-byte body",
            body.len() as u64 - body_len
        )));
    }
    let computed = crc32fast::hash(body);
    if computed != stored {
        return Err(DbError::Checksum { stored, computed });
    }
    Ok(body)
}

/// The board the records are decoded for: what their points and symmetries are checked
/// against.
struct Bounds {
    size: Size,
    area: u32,
    symmetries: &'static [Symmetry],
}

impl Bounds {
    fn of(size: Size) -> Self {
        Self {
            size,
            area: u32::from(size.cols()) * u32::from(size.rows()),
            symmetries: Symmetry::of(size),
        }
    }

    /// Checks that every point of `v` is on the board.
    fn cells(&self, v: &[u16], what: &dyn Fn() -> String) -> Result<(), DbError> {
        match v.iter().find(|&&c| u32::from(c) >= self.area) {
            Some(c) => Err(DbError::Body(format!(
                "{}: point {c} is off the board",
                what()
            ))),
            None => Ok(()),
        }
    }

    /// Child `k` of node `i` from its edge code; an inline child is noted in `inline` and left
    /// to be filled in when its record comes.
    fn edge(
        &self,
        i: usize,
        k: usize,
        code: u32,
        inline: &mut Vec<usize>,
    ) -> Result<Edge, DbError> {
        let symmetry = Symmetry::ALL[(code % 8) as usize];
        if !self.symmetries.contains(&symmetry) {
            return Err(DbError::Body(format!(
                "node {i}: symmetry {symmetry} on a {} board",
                self.size
            )));
        }
        if code < 8 {
            inline.push(k);
            // Filled in when the child's record comes.
            Ok(Edge {
                node: u32::MAX,
                symmetry,
            })
        } else {
            let node = i as i64 + unzigzag(code / 8 - 1);
            Ok(Edge {
                // Before the first node: missing, which the checker reports.
                node: u32::try_from(node).unwrap_or(u32::MAX),
                symmetry,
            })
        }
    }
}

/// Reads the root count and the roots, their points and flags checked.
fn read_roots(reader: &mut Reader, bounds: &Bounds) -> Result<Vec<Root>, DbError> {
    let root_count = reader.count(&|| "the root count".into())?;
    let mut roots = Vec::with_capacity(root_count);
    for r in 0..root_count {
        let what = || format!("root {r}");
        let record: RootRecord = reader.next(&what)?;
        bounds.cells(&record.black, &what)?;
        bounds.cells(&record.white, &what)?;
        let symmetry = Symmetry::ALL
            .get(usize::from(record.flags >> 2))
            .copied()
            .filter(|s| bounds.symmetries.contains(s) && record.flags >> 5 == 0)
            .ok_or_else(|| DbError::Body(format!("root {r}: bad flags {}", record.flags)))?;
        roots.push(Root {
            black: record.black,
            white: record.white,
            to_move: bit_color(record.flags),
            attacker: bit_color(record.flags >> 1),
            node: record.node,
            symmetry,
        });
    }
    Ok(roots)
}

/// Reads the node count and the nodes, each inline child placed as its record comes.
fn read_nodes(reader: &mut Reader, bounds: &Bounds, version: u32) -> Result<Vec<Node>, DbError> {
    let node_count = reader.count(&|| "the node count".into())?;
    let mut nodes: Vec<Node> = Vec::with_capacity(node_count);
    // Inline children still to come: (parent, which child), the next one last.
    let mut slots: Vec<(usize, usize)> = Vec::new();
    for i in 0..node_count {
        let mut inline = Vec::new();
        let node = read_node(reader, bounds, version, i, &mut inline)?;
        if let Some((parent, k)) = slots.pop() {
            set_child(&mut nodes[parent], k, i as u32);
        }
        slots.extend(inline.into_iter().rev().map(|k| (i, k)));
        nodes.push(node);
    }
    if let Some(&(parent, _)) = slots.last() {
        return Err(DbError::Truncated(format!(
            "node {parent} has a child the body does not hold"
        )));
    }
    Ok(nodes)
}

/// Reads node `i`, its points and symmetries checked; the children it holds inline go to
/// `inline`, by their place among its children.
fn read_node(
    reader: &mut Reader,
    bounds: &Bounds,
    version: u32,
    i: usize,
    inline: &mut Vec<usize>,
) -> Result<Node, DbError> {
    let what = || format!("node {i}");
    let mut edge = |k: usize, code: u32| bounds.edge(i, k, code, inline);
    let node = NodeRecord::read(reader, version, &what)?.into_node(&mut edge)?;
    let line: &[u16] = match &node {
        Node::Vcf(line) => line,
        Node::Replies {
            certificate: Some(Certificate::Line(c)),
            ..
        } => c,
        _ => &[],
    };
    bounds.cells(line, &what)?;
    bounds.cells(&node.moves().map(|(c, _)| c).collect::<Vec<_>>(), &what)?;
    Ok(node)
}

#[cfg(test)]
mod tests;
