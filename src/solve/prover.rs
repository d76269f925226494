//! A prover's set-up and its small tools: building the main worker and its helpers, counting
//! nodes against the limits, and the table and board operations the rest of the search uses.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::dfpn::Sum;
use crate::rules::{Board, Color, Point};
use crate::threat::{Line, Stopped, VcfSearch, VcfTable, VctTable};

use super::table::{Stored, Table};
use super::{
    DEFAULT_MEMORY_MB, DEFAULT_VCT_NODES, Entry, MOST_PROVING_PLIES, NARROW_DEPTHS, NarrowVct,
    Prover, SolveOptions, VCT_ENTRY_BYTES,
};

/// How a search's memory is shared out.
pub(super) struct Bounds {
    /// The search's share of `--memory`, in bytes.
    pub(super) bound: usize,
    /// The proof table's part of it.
    pub(super) table_bound: usize,
    /// Entries each thread's leaf VCT table may keep.
    pub(super) leaf_vct_entries: usize,
    /// Entries the root's VCT table may keep.
    pub(super) root_vct_entries: usize,
}

impl Bounds {
    /// The bounds of a search for `attacker` on `board` in `1 / share` of the memory bound,
    /// with `most` threads.
    pub(super) fn of(
        board: &Board,
        attacker: Color,
        options: &SolveOptions,
        share: usize,
        most: usize,
    ) -> Bounds {
        let bound =
            crate::threat::mebibytes(options.memory_mb.unwrap_or(DEFAULT_MEMORY_MB)) / share;
        let vct_nodes = options.vct_nodes.unwrap_or(DEFAULT_VCT_NODES);
        // Half the share for the shared proof table; a quarter for the VCF tables, one per
        // thread; a quarter for the VCT searches, in equal parts: each thread's table of leaf
        // searches, and the main thread's root VCT rounds (they need about a million entries
        // on the larger quintet positions). Where the root is the attacker's (outside full
        // width), its narrow VCT gets as many entries as the root's own, out of the proof
        // table's half.
        let vct_share = (bound / 4 / VCT_ENTRY_BYTES).max(1024);
        let leaf_vct_entries = (vct_share / (most + 1)).max(1024);
        let root_vct_entries = vct_share.saturating_sub(most * leaf_vct_entries).max(1024);
        let narrow = board.to_move() == attacker && vct_nodes > 0 && !options.full_width;
        let narrow_bytes = if narrow {
            root_vct_entries * VCT_ENTRY_BYTES
        } else {
            0
        };
        Bounds {
            bound,
            table_bound: (bound - bound / 4 - bound / 4).saturating_sub(narrow_bytes),
            leaf_vct_entries,
            root_vct_entries,
        }
    }
}

impl<'a> Prover<'a> {
    /// The main worker of a search for `attacker`, with `threads - 1` helpers, in `1 / share`
    /// of the memory bound. The VCF and VCT shares are split as if all of `most` threads (the
    /// solve's) worked on this search, since threads the other search is done with join it.
    pub(super) fn new(
        board: &Board,
        attacker: Color,
        options: &'a SolveOptions,
        share: usize,
        (threads, most): (usize, usize),
        searched: &Arc<AtomicU64>,
    ) -> Self {
        let Bounds {
            bound,
            table_bound,
            leaf_vct_entries,
            root_vct_entries,
        } = Bounds::of(board, attacker, options, share, most);
        let vct_nodes = options.vct_nodes.unwrap_or(DEFAULT_VCT_NODES);
        let root_vct = board.to_move() == attacker && vct_nodes > 0;
        let narrow = root_vct && !options.full_width;
        let mut main = Prover {
            board: board.clone(),
            attacker,
            full_width: options.full_width,
            limits: &options.limits,
            root_stones: board.moves().len(),
            vct_nodes,
            root_vct_open: root_vct,
            root_vct: VctTable::default(),
            root_vct_tree: None,
            root_narrow: narrow.then(|| NarrowVct {
                depth: NARROW_DEPTHS.0,
                table: VctTable::default(),
            }),
            root_vct_nodes: 0,
            leaf_vct: VctTable::default(),
            table: Arc::new(Table::new(table_bound, threads > 1)),
            root_vct_entries,
            leaf_vct_entries,
            vcf_bytes: bound / 4 / most,
            vcf_table: VcfTable::within_bytes(bound / 4 / most),
            nodes: 0,
            budget: u64::MAX,
            stopped: false,
            sum: if options.full_width {
                Sum::Weak
            } else {
                Sum::Plain
            },
            helpers: Vec::new(),
            known: options.known.as_ref(),
            searched: searched.clone(),
            spare: None,
        };
        main.helpers = (1..threads).map(|_| main.helper()).collect();
        main
    }

    /// A helper for this (main) worker's search, at the root.
    pub(super) fn helper(&self) -> Prover<'a> {
        Prover {
            board: self.board.clone(),
            attacker: self.attacker,
            full_width: self.full_width,
            limits: self.limits,
            root_stones: self.root_stones,
            vct_nodes: self.vct_nodes,
            root_vct_open: false,
            root_vct: VctTable::default(),
            root_vct_tree: None,
            root_narrow: None,
            root_vct_nodes: 0,
            leaf_vct: VctTable::default(),
            table: self.table.clone(),
            root_vct_entries: 0,
            leaf_vct_entries: self.leaf_vct_entries,
            vcf_bytes: self.vcf_bytes,
            vcf_table: VcfTable::within_bytes(self.vcf_bytes),
            nodes: 0,
            budget: u64::MAX,
            stopped: false,
            sum: self.sum,
            helpers: Vec::new(),
            known: self.known,
            searched: self.searched.clone(),
            spare: None,
        }
    }

    /// Takes the threads the other search is done with, if any, as helpers.
    pub(super) fn take_spare_threads(&mut self) {
        let Some(spare) = &self.spare else { return };
        let n = spare.swap(0, Ordering::Relaxed);
        if n > 0 {
            self.table.set_parallel();
            for _ in 0..n {
                let helper = self.helper();
                self.helpers.push(helper);
            }
        }
    }

    /// Counts `n` nodes searched by this worker; the limits see every thread's, of both
    /// searches.
    pub(super) fn count(&mut self, n: u64) {
        self.nodes += n;
        self.searched.fetch_add(n, Ordering::Relaxed);
    }

    /// Nodes searched by every thread of both searches.
    pub(super) fn searched(&self) -> u64 {
        self.searched.load(Ordering::Relaxed)
    }

    /// Whether a limit is reached, counting every thread's nodes in both searches.
    pub(super) fn limit_reached(&self) -> bool {
        self.limits.reached(self.searched())
    }

    /// Whether the board is at the search's root (where the root's VCT rounds stand in for the
    /// leaf budget).
    pub(super) fn at_root(&self) -> bool {
        self.board.moves().len() == self.root_stones
    }

    pub(super) fn defender(&self) -> Color {
        self.attacker.opponent()
    }

    pub(super) fn is_or(&self) -> bool {
        self.board.to_move() == self.attacker
    }

    pub(super) fn legal_moves(&self, color: Color) -> Vec<Point> {
        self.board
            .points()
            .filter(|&p| self.board.is_legal_for(p, color))
            .collect()
    }

    /// A VCF for `color`, as if it were to move (the side to move is restored).
    pub(super) fn find_vcf(
        &mut self,
        color: Color,
        max_fours: u32,
    ) -> Result<Option<Line>, Stopped> {
        let to_move = self.board.to_move();
        self.board.set_to_move(color);
        let mut search = VcfSearch::new(&mut self.board, color, self.limits, &mut self.vcf_table);
        let result = search.run(max_fours);
        let searched = search.nodes;
        self.count(searched);
        self.board.set_to_move(to_move);
        result.map(|(line, _)| line)
    }

    /// The most-proving line from the current node, on a copy of the board: the child df-pn
    /// would search next at each node the table holds open with its moves, until a node it
    /// does not hold, a settled one, or a position met before on the line. At most
    /// [`MOST_PROVING_PLIES`] moves.
    pub(super) fn most_proving_line(&self) -> Vec<Point> {
        let mut board = self.board.clone();
        let size = board.size();
        let mut line = Vec::new();
        let mut seen = std::collections::HashSet::new();
        while line.len() < MOST_PROVING_PLIES {
            let canonical = board.canonical();
            if !seen.insert(canonical.key) {
                break;
            }
            let Some(Entry {
                pn,
                dn,
                moves: Some(moves),
                ..
            }) = self.table.get(canonical.key)
            else {
                break;
            };
            if pn == 0 || dn == 0 || moves.is_empty() {
                break;
            }
            let back = canonical.symmetry.inverse();
            let points: Vec<Point> = moves.iter().map(|m| back.apply(m.point, size)).collect();
            let numbers = points.iter().zip(moves.iter()).map(|(&p, m)| {
                let key = board.canonical_after(p).key;
                self.table.numbers(key).unwrap_or((m.pn, m.dn))
            });
            let numbers: Vec<(u32, u32)> = numbers.collect();
            let is_or = board.to_move() == self.attacker;
            let best = crate::dfpn::combine(is_or, self.sum, numbers.into_iter()).best;
            board.play_unchecked(points[best]);
            line.push(points[best]);
        }
        line
    }

    /// The canonical key of the position after `m`.
    pub(super) fn key_after(&self, m: Point) -> u64 {
        self.board.canonical_after(m).key
    }

    pub(super) fn store(&mut self, key: u64, entry: Entry) {
        if self.table.store(key, entry) == Stored::Full {
            self.stopped = true;
        }
    }

    /// The entry the guide ([`SolveOptions::known`]) gives the current position, below the
    /// root: proved if it is known won for the attacker, disproved if for the defender. Not in
    /// full width, where a draw is concluded from two disproofs, with no proof to read out.
    pub(super) fn known_entry(&self) -> Option<Entry> {
        if self.at_root() || self.full_width {
            return None;
        }
        let winner = self.known?.winner(&self.board)?;
        Some(if winner == self.attacker {
            Entry::PROVED
        } else {
            Entry::DISPROVED
        })
    }

    /// Drops the current node's entry, so that it is searched again.
    pub(super) fn forget(&mut self) {
        let key = self.board.canonical().key;
        self.table.remove(key);
    }
}
