//! A search kept between runs (`solve --state`): the transposition table of an attacker-only
//! search ([`SolveOptions::attacker`]), written to a file when the search stops short of a
//! result, and read back by a later run to go on where it stopped. A search of billions of
//! nodes can then be spread over runs of a few hours each.
//!
//! Sound for the reason a guide is (`docs/search-state.md`): the table only steers the search.
//! A proof is read out of it by the rules: at every defender node the replies are generated
//! again from the board, and every leaf is a five, a VCF or a VCT found on the board, or a
//! kept proof replayed on it; a node the table holds as proved but cannot show is searched
//! again, and one the search would never hold as proved (a five on the board, a defender with
//! a five to make, a full board) stops the read-out. The command line then has the independent
//! checker verify the proof before it reports it. A state is refused for another position,
//! another attacker or another leaf budget, where its numbers would mislead the search, and
//! when it would not fit in the table.
//!
//! The file (`docs/search-state.md`): the 8-byte magic `RENJU-SS`, the format version (u32,
//! little-endian), the header's length (u32) and the header, then the table's entries, the
//! kept proofs' trees and the positions they are kept for, then a CRC-32 of all the bytes
//! before it. The header and the records are bincode values (standard configuration:
//! little-endian variable-length integers). Reading checks every length, point, index and the
//! checksum, so a truncated or corrupted file is an error, not a panic.

use std::io::{self, Read, Write};
use std::path::Path;
use std::sync::Arc;

use bincode::config::{self, Configuration, Limit};
use serde::{Deserialize, Serialize};

use crate::rules::{Board, Color, MAX_SIDE, Point, Rules, Size, Symmetry};
use crate::threat::ProofTree;

use super::{BORROWED_BYTES, Entry, Move, Prover, SolveOptions, TREE_NODE_BYTES};

mod lent;

/// The first 8 bytes of a state file.
pub const MAGIC: [u8; 8] = *b"RENJU-SS";
/// The format version this build writes. It reads version 1 too (entries without their
/// work, read as none).
pub const VERSION: u32 = 2;
/// The most bytes a header or an entry may take: an entry holds at most one move per point.
const RECORD_LIMIT: usize = 1 << 16;
/// The most bytes a lent proof's tree may take.
const TREE_LIMIT: usize = 1 << 26;
/// The most nodes of a kept tree written: each takes at most a few dozen bytes, so such a
/// tree is well within [`TREE_LIMIT`].
const MOST_TREE_NODES: usize = 1 << 20;

fn records() -> Configuration<config::LittleEndian, config::Varint, Limit<RECORD_LIMIT>> {
    config::standard().with_limit::<RECORD_LIMIT>()
}

fn trees() -> Configuration<config::LittleEndian, config::Varint, Limit<TREE_LIMIT>> {
    config::standard().with_limit::<TREE_LIMIT>()
}

/// What a state is a search of, and how far it went.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateHeader {
    /// The rules and board of the position.
    pub rules: Rules,
    /// See `rules`.
    pub size: Size,
    /// The stones of the position, in the order played, as (file, rank) from zero.
    pub stones: Vec<(u8, u8)>,
    /// The side to move at the root.
    pub to_move: Color,
    /// The position's Zobrist key (side to move included).
    pub hash: u64,
    /// The side whose win is searched for.
    pub attacker: Color,
    /// The leaf VCT budget of the search ([`SolveOptions::vct_nodes`]).
    pub vct_nodes: u64,
    /// The root's own VCT search was searched to the end without a win: a run going on does
    /// not search it again.
    pub root_vct_done: bool,
    /// Nodes searched by every run of this search so far.
    pub nodes: u64,
    /// Runs that searched it.
    pub runs: u32,
    /// Table entries in the file.
    pub entries: u64,
    /// Distinct proof trees the search kept to lend, in the file.
    pub trees: u64,
    /// Positions they are lent to.
    pub lent: u64,
    /// The program that wrote it (`renju` and its version).
    pub written_by: String,
}

/// The moves (file, rank, numbers) of an expanded node, on disk.
type RecordMoves = Option<Vec<(u8, u8, u32, u32)>>;
/// An entry on disk: key, numbers, work, and the moves.
type Record = (u64, u32, u32, u32, RecordMoves);
/// An entry in format version 1: key, numbers, and the moves.
type RecordV1 = (u64, u32, u32, RecordMoves);

/// A search's table, kept to go on with later.
#[derive(Clone)]
pub struct SearchState {
    header: StateHeader,
    entries: Vec<(u64, Entry)>,
    /// The proofs kept to lend, each tree once.
    trees: Vec<Arc<ProofTree>>,
    /// The positions they are lent to: key, place in `trees`, frame.
    lent: Vec<(u64, usize, Symmetry)>,
}

impl std::fmt::Debug for SearchState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchState")
            .field("header", &self.header)
            .finish_non_exhaustive()
    }
}

/// Why a state file cannot be read, or cannot go on with a search.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// Reading or writing the file failed.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The file is not a state this build reads: wrong magic or version, truncated, or
    /// corrupted.
    #[error("not a search state this build reads: {0}")]
    Format(String),
    /// The state is of another search.
    #[error("{0}")]
    Mismatch(String),
}

fn format_error(what: impl std::fmt::Display) -> StateError {
    StateError::Format(what.to_string())
}

/// An error reading: the end of the file is a format error (the file is truncated).
fn truncated(e: io::Error) -> StateError {
    if e.kind() == io::ErrorKind::UnexpectedEof {
        format_error("the file ends early")
    } else {
        StateError::Io(e)
    }
}

/// A reader that keeps the CRC-32 of what it reads.
struct Summed<R> {
    inner: R,
    crc: crc32fast::Hasher,
}

impl<R: Read> Read for Summed<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }
}

/// A writer that keeps the CRC-32 of what it writes.
struct Summing<'w> {
    inner: &'w mut dyn Write,
    crc: crc32fast::Hasher,
}

impl Write for Summing<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl SearchState {
    /// What the state is a search of, and how far it went.
    #[must_use]
    pub fn header(&self) -> &StateHeader {
        &self.header
    }

    /// The state of `prover`'s search after this run: its table, with the nodes and runs of
    /// the state it went on from (`before`), if any.
    pub(super) fn of(prover: &Prover<'_>, before: Option<&StateHeader>) -> SearchState {
        let entries = prover.table.entries();
        // A tree too large for a record is left out: what it proved is searched again.
        let kept: Vec<_> = prover
            .table
            .lent()
            .into_iter()
            .filter(|(_, tree, _)| tree.nodes.len() <= MOST_TREE_NODES)
            .collect();
        let (trees, lent) = lent::records(&kept);
        let lent: Vec<_> = lent
            .into_iter()
            .map(|(key, place, frame)| (key, place as usize, Symmetry::ALL[frame as usize]))
            .collect();
        let board = &prover.board;
        SearchState {
            header: StateHeader {
                rules: board.rules(),
                size: board.size(),
                stones: board.moves().iter().map(|p| (p.x(), p.y())).collect(),
                to_move: board.to_move(),
                hash: board.hash(),
                attacker: prover.attacker,
                vct_nodes: prover.vct_nodes,
                root_vct_done: !prover.root_vct_open,
                nodes: before.map_or(0, |b| b.nodes) + prover.searched(),
                runs: before.map_or(0, |b| b.runs) + 1,
                entries: entries.len() as u64,
                trees: trees.len() as u64,
                lent: lent.len() as u64,
                written_by: concat!("renju ", env!("CARGO_PKG_VERSION")).to_string(),
            },
            entries,
            trees,
            lent,
        }
    }

    /// Whether a search of `board` with `options` can go on from this state.
    ///
    /// # Errors
    /// [`StateError::Mismatch`], naming what differs: the rules, the position, the side to
    /// move, the attacker ([`SolveOptions::attacker`], which a state needs), the leaf budget,
    /// or full-width mode (which has no state).
    pub fn fits(&self, board: &Board, options: &SolveOptions) -> Result<(), StateError> {
        let h = &self.header;
        let mismatch = |what: String| Err(StateError::Mismatch(what));
        if options.full_width {
            return mismatch("a full-width search does not go on from a state".into());
        }
        let Some(attacker) = options.attacker else {
            return mismatch("a search goes on from a state only for one side's win".into());
        };
        if h.rules != board.rules() || h.size != board.size() {
            return mismatch(format!(
                "the state is for {} on {}, not {} on {}",
                h.rules,
                h.size,
                board.rules(),
                board.size()
            ));
        }
        if h.hash != board.hash() || h.to_move != board.to_move() {
            let stones: Vec<String> = h
                .stones
                .iter()
                .map(|&(x, y)| Point::new(x, y).to_string())
                .collect();
            return mismatch(format!(
                "the state is for another position: `{}`, {} to move",
                stones.join(" "),
                h.to_move
            ));
        }
        if h.attacker != attacker {
            return mismatch(format!(
                "the state is of a search for {}'s win, not {}'s",
                h.attacker, attacker
            ));
        }
        let vct_nodes = options.vct_nodes.unwrap_or(super::DEFAULT_VCT_NODES);
        if h.vct_nodes != vct_nodes {
            return mismatch(format!(
                "the state is of a search with --vct-nodes {}, not {vct_nodes}",
                h.vct_nodes
            ));
        }
        // An attacker-only search has half the bound (the other search's half unused, as
        // `solve` sets it up), on all the threads.
        let threads = options.threads.unwrap_or(1).max(1);
        let bound = super::prover::Bounds::of(board, attacker, options, 2, threads).table_bound;
        // The estimates make room as the table fills (the least work first); the results and
        // the kept proofs cannot, and need room beside them to search in.
        let needed = self.kept_bytes();
        if needed > bound / 2 {
            let memory = options.memory_mb.unwrap_or(super::DEFAULT_MEMORY_MB).max(1);
            let enough = (memory as u128 * needed as u128 * 2 / (bound as u128).max(1)) as u64 + 1;
            return mismatch(format!(
                "the state's results and kept proofs take about {} MiB of table, more than half of what --memory {memory} leaves it: give --memory {enough} or more",
                needed >> 20
            ));
        }
        Ok(())
    }

    /// Estimated bytes in a table of what it never drops: the settled entries and the kept
    /// proofs.
    fn kept_bytes(&self) -> usize {
        let trees: usize = self
            .trees
            .iter()
            .map(|t| t.nodes.len() * TREE_NODE_BYTES)
            .sum();
        let settled = self.entries.iter().map(|(_, e)| e).filter(|e| e.settled());
        super::table::bytes_of(settled) + self.lent.len() * BORROWED_BYTES + trees
    }

    /// Puts the state's entries into `prover`'s table, which is new.
    pub(super) fn load_into(&self, prover: &mut Prover<'_>) {
        // The results first, then the estimates, the most work first: a state larger than
        // this run's bound keeps its results, and the table makes room by dropping the
        // estimates of least work (see `Table::store`).
        let mut order: Vec<&(u64, Entry)> = self.entries.iter().collect();
        order.sort_by_key(|(_, e)| (!e.settled(), std::cmp::Reverse(e.work)));
        for (key, entry) in order {
            prover.table.store(*key, entry.clone());
        }
        let mut counted = vec![false; self.trees.len()];
        for &(key, place, frame) in &self.lent {
            let tree = &self.trees[place];
            // A tree's nodes count once, however many positions it is lent to.
            let bytes = if std::mem::replace(&mut counted[place], true) {
                BORROWED_BYTES
            } else {
                BORROWED_BYTES + tree.nodes.len() * TREE_NODE_BYTES
            };
            prover.table.lend(key, tree.clone(), frame, bytes);
        }
        if self.header.root_vct_done {
            prover.root_vct_open = false;
            prover.root_narrow = None;
        }
    }

    /// Writes the state to `path`, atomically: a run killed while writing leaves the file
    /// it would have replaced.
    ///
    /// # Errors
    /// Any I/O error.
    pub fn write(&self, path: &Path) -> Result<(), StateError> {
        crate::atomic::write_atomic_with(path, |out| self.write_to(out))?;
        Ok(())
    }

    fn write_to(&self, out: &mut dyn Write) -> io::Result<()> {
        let encode_error = |e: bincode::error::EncodeError| io::Error::other(e.to_string());
        let mut out = Summing {
            inner: out,
            crc: crc32fast::Hasher::new(),
        };
        let header =
            bincode::serde::encode_to_vec(&self.header, records()).map_err(encode_error)?;
        out.write_all(&MAGIC)?;
        out.write_all(&VERSION.to_le_bytes())?;
        let len = u32::try_from(header.len()).map_err(io::Error::other)?;
        out.write_all(&len.to_le_bytes())?;
        out.write_all(&header)?;
        for (key, entry) in &self.entries {
            let moves = entry.moves.as_ref().map(|m| {
                m.iter()
                    .map(|m| (m.point.x(), m.point.y(), m.pn, m.dn))
                    .collect()
            });
            let record: Record = (*key, entry.pn, entry.dn, entry.work, moves);
            bincode::serde::encode_into_std_write(&record, &mut out, records())
                .map_err(encode_error)?;
        }
        for tree in &self.trees {
            bincode::serde::encode_into_std_write(lent::tree_record(tree), &mut out, trees())
                .map_err(encode_error)?;
        }
        for &(key, place, frame) in &self.lent {
            let record: lent::LentRecord = (key, place as u32, frame.index() as u8);
            bincode::serde::encode_into_std_write(record, &mut out, records())
                .map_err(encode_error)?;
        }
        let crc = out.crc.clone().finalize();
        out.inner.write_all(&crc.to_le_bytes())
    }

    /// Reads the state at `path`.
    ///
    /// # Errors
    /// [`StateError::Io`] if it cannot be read, [`StateError::Format`] if it is not a state
    /// this build reads (another format or version, truncated, a point off the board, or a
    /// checksum that does not match).
    pub fn read(path: &Path) -> Result<SearchState, StateError> {
        let file = std::fs::File::open(path)?;
        SearchState::read_from(io::BufReader::with_capacity(1 << 20, file))
    }

    fn read_from(source: impl Read) -> Result<SearchState, StateError> {
        let mut input = Summed {
            inner: source,
            crc: crc32fast::Hasher::new(),
        };
        let decode_error = |e: bincode::error::DecodeError| match e {
            bincode::error::DecodeError::UnexpectedEnd { .. } => {
                format_error("the file ends early")
            }
            bincode::error::DecodeError::Io { inner, .. } => truncated(inner),
            other => format_error(format!("a record: {other}")),
        };
        let mut start = [0u8; 16];
        input.read_exact(&mut start).map_err(truncated)?;
        if start[..8] != MAGIC {
            return Err(format_error("it does not start with `RENJU-SS`"));
        }
        let word =
            |i: usize| u32::from_le_bytes([start[i], start[i + 1], start[i + 2], start[i + 3]]);
        let version = word(8);
        if version != VERSION && version != 1 {
            return Err(format_error(format!(
                "format version {version}, and this build reads versions 1 to {VERSION}"
            )));
        }
        let len = word(12) as usize;
        if len > RECORD_LIMIT {
            return Err(format_error(format!("a header of {len} bytes")));
        }
        let mut header = vec![0u8; len];
        input.read_exact(&mut header).map_err(truncated)?;
        let (header, used): (StateHeader, usize) =
            bincode::serde::decode_from_slice(&header, records())
                .map_err(|e| format_error(format!("its header: {e}")))?;
        if used != len {
            return Err(format_error("its header has bytes left over"));
        }
        let size = Size::new(u32::from(header.size.cols()), u32::from(header.size.rows()))
            .map_err(|e| format_error(format!("its board: {e}")))?;
        let on_board =
            |x: u8, y: u8| x < size.cols() && y < size.rows() && x < MAX_SIDE && y < MAX_SIDE;
        if !header.stones.iter().all(|&(x, y)| on_board(x, y)) {
            return Err(format_error("a stone of its position is off the board"));
        }
        let mut entries =
            Vec::with_capacity(usize::try_from(header.entries.min(1 << 16)).unwrap_or(0));
        for _ in 0..header.entries {
            let (key, pn, dn, work, moves): Record = if version == 1 {
                let (key, pn, dn, moves): RecordV1 =
                    bincode::serde::decode_from_std_read(&mut input, records())
                        .map_err(decode_error)?;
                (key, pn, dn, 0, moves)
            } else {
                bincode::serde::decode_from_std_read(&mut input, records()).map_err(decode_error)?
            };
            let moves = match moves {
                None => None,
                Some(moves) => {
                    if !moves.iter().all(|&(x, y, _, _)| on_board(x, y)) {
                        return Err(format_error("a move of an entry is off the board"));
                    }
                    Some(
                        moves
                            .into_iter()
                            .map(|(x, y, pn, dn)| Move {
                                point: Point::new(x, y),
                                pn,
                                dn,
                            })
                            .collect::<Arc<[Move]>>(),
                    )
                }
            };
            entries.push((
                key,
                Entry {
                    pn,
                    dn,
                    work,
                    moves,
                },
            ));
        }
        let mut trees = Vec::with_capacity(usize::try_from(header.trees.min(1 << 16)).unwrap_or(0));
        for _ in 0..header.trees {
            let record: lent::TreeRecord =
                bincode::serde::decode_from_std_read(&mut input, self::trees())
                    .map_err(decode_error)?;
            let tree = lent::tree(record, on_board)
                .ok_or_else(|| format_error("a lent proof's tree is malformed"))?;
            trees.push(Arc::new(tree));
        }
        let mut lent = Vec::with_capacity(usize::try_from(header.lent.min(1 << 16)).unwrap_or(0));
        for _ in 0..header.lent {
            let (key, place, frame): lent::LentRecord =
                bincode::serde::decode_from_std_read(&mut input, records())
                    .map_err(decode_error)?;
            let place = usize::try_from(place).ok().filter(|&p| p < trees.len());
            // Only a symmetry of this board: another would map points off it.
            let frame = Symmetry::ALL
                .get(usize::from(frame))
                .copied()
                .filter(|f| Symmetry::of(size).contains(f));
            let (Some(place), Some(frame)) = (place, frame) else {
                return Err(format_error(
                    "a lent proof points at no tree, or at no frame",
                ));
            };
            lent.push((key, place, frame));
        }
        let crc = input.crc.clone().finalize();
        let mut end = [0u8; 4];
        input.inner.read_exact(&mut end).map_err(truncated)?;
        if u32::from_le_bytes(end) != crc {
            return Err(format_error(
                "its checksum does not match: the file is corrupted",
            ));
        }
        let mut rest = [0u8; 1];
        if input.inner.read(&mut rest)? != 0 {
            return Err(format_error("it has bytes after its checksum"));
        }
        Ok(SearchState {
            header,
            entries,
            trees,
            lent,
        })
    }
}

#[cfg(test)]
mod tests;
