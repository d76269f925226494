//! The df-pn loop of a VCT search: the search's own state and tables, and `mid`, which searches
//! a node until its proof or disproof number reaches its thresholds.

use std::sync::atomic::Ordering;

use crate::dfpn::{INF, ONE_OVER_EPSILON, Sum, child_thresholds, combine};
use crate::rules::{Board, Color, Point};

use super::super::Line;
use super::super::vcf::{Stopped, VcfSearch, VcfTable, block_forbidden};
use super::super::zone::{PointSet, zone_of};
use super::{
    Entry, EntryTable, Expansion, Move, Moves, PROGRESS_EVERY, Search, VctOptions, depth_key,
    make_room,
};

impl<'a> Search<'a> {
    /// A search on its own copy of the board, which keeps only the Zobrist key it reads.
    pub(super) fn new(
        mut board: Board,
        attacker: Color,
        options: &'a VctOptions,
        vcf_table: &'a mut VcfTable,
    ) -> Search<'a> {
        board.keep_symmetric_keys(false);
        let table_cap = options.table_cap();
        let mut table = EntryTable::default();
        table.set_cap(table_cap);
        Search {
            board,
            attacker,
            defender: attacker.opponent(),
            options,
            table,
            table_cap,
            vcf_table,
            children: Vec::new(),
            nodes: 0,
            published: 0,
            stopped: false,
        }
    }

    /// Adds the nodes not yet counted to the options' progress counter, if any.
    pub(super) fn publish(&mut self) {
        if let Some(progress) = &self.options.progress {
            progress.fetch_add(self.nodes - self.published, Ordering::Relaxed);
        }
        self.published = self.nodes;
    }

    pub(super) fn is_or(&self) -> bool {
        self.board.to_move() == self.attacker
    }

    pub(super) fn block_forbidden(&mut self, f: Point) -> bool {
        block_forbidden(&mut self.board, self.defender, f, &mut |_| {})
    }

    /// A VCF for `color` (the side to move is set for the search and restored).
    pub(super) fn find_vcf(
        &mut self,
        color: Color,
        max_fours: u32,
    ) -> Result<Option<Line>, Stopped> {
        self.find_vcf_from(color, max_fours, None)
    }

    /// [`Search::find_vcf`] where the five points are known (see [`VcfSearch::run_from`]).
    pub(super) fn find_vcf_from(
        &mut self,
        color: Color,
        max_fours: u32,
        fives: Option<Option<Point>>,
    ) -> Result<Option<Line>, Stopped> {
        let limits = &self.options.limits;
        let mut search = VcfSearch::new(&mut self.board, color, limits, self.vcf_table);
        let result = search.run_from(max_fours, fives);
        self.nodes += search.nodes;
        result.map(|(line, _)| line)
    }

    /// The zone a VCF `line` for `color` depends on, on the current board.
    pub(super) fn zone_of(&mut self, color: Color, line: &Line) -> PointSet {
        zone_of(&mut self.board, color, line)
    }

    pub(super) fn key(&self, depth: Option<u32>) -> u64 {
        self.board.hash() ^ depth_key(depth)
    }

    pub(super) fn child_depth(&self, depth: Option<u32>) -> Option<u32> {
        if self.is_or() {
            depth.map(|d| d - 1)
        } else {
            depth
        }
    }

    pub(super) fn store(&mut self, key: u64, entry: Entry) {
        if self.table.len() >= self.table_cap && !self.table.contains_key(key) {
            make_room(&mut self.table, self.table_cap);
        }
        self.table.insert(key, entry);
    }

    /// df-pn's multiple iterative deepening: searches the current node until its proof or
    /// disproof number reaches the thresholds. Returns the node's (pn, dn).
    pub(super) fn mid(&mut self, depth: Option<u32>, th_pn: u32, th_dn: u32) -> (u32, u32) {
        self.nodes += 1;
        if self.nodes - self.published >= PROGRESS_EVERY {
            self.publish();
        }
        if self.options.limits.reached_at_node(self.nodes) {
            self.stopped = true;
        }
        let key = self.key(depth);
        match self.moves_of(key, depth, th_pn, th_dn) {
            Ok((moves, certificate_len)) => {
                self.search_children(key, depth, &moves, certificate_len, (th_pn, th_dn))
            }
            Err(numbers) => numbers,
        }
    }

    /// The moves of the node `key` and its certificate's length, from the table or by
    /// expanding it; or, as `Err`, the numbers to return at once: the node is settled, beyond
    /// its thresholds, or the search has stopped.
    fn moves_of(
        &mut self,
        key: u64,
        depth: Option<u32>,
        th_pn: u32,
        th_dn: u32,
    ) -> Result<(Moves, u32), (u32, u32)> {
        Ok(match self.table.get(key) {
            Some(e) if e.pn == 0 || e.dn == 0 || e.pn >= th_pn || e.dn >= th_dn || self.stopped => {
                return Err((e.pn, e.dn));
            }
            Some(Entry {
                moves: Some(moves),
                certificate_len,
                ..
            }) => (moves.clone(), *certificate_len),
            _ if self.stopped => return Err((1, 1)),
            _ => match self.expand(depth) {
                Err(Stopped) => {
                    self.stopped = true;
                    return Err((1, 1));
                }
                Ok(Expansion::Proved(len)) => {
                    self.store(key, Entry::proved(len));
                    return Err((0, INF));
                }
                Ok(Expansion::Disproved) => {
                    let entry = Entry {
                        pn: INF,
                        dn: 0,
                        len: 0,
                        certificate_len: 0,
                        moves: None,
                    };
                    self.store(key, entry);
                    return Err((INF, 0));
                }
                Ok(Expansion::Moves(moves, certificate_len)) => (moves.into(), certificate_len),
            },
        })
    }

    /// The df-pn loop at an expanded node: combine the children, search the best, until the
    /// numbers reach the thresholds.
    fn search_children(
        &mut self,
        key: u64,
        depth: Option<u32>,
        moves: &Moves,
        certificate_len: u32,
        (th_pn, th_dn): (u32, u32),
    ) -> (u32, u32) {
        let is_or = self.is_or();
        let child_depth = self.child_depth(depth);
        let child_depth_key = depth_key(child_depth);
        let lookup = |table: &EntryTable, m: &Move, key: u64| {
            table
                .get(key)
                .map_or((u32::from(m.pn), 1, 0), |e| (e.pn, e.dn, e.len))
        };
        // Each child's key and (pn, dn, len), read once; after that only the child just
        // searched is read again. A sibling's entry can change meanwhile only through a
        // transposition, and a stale copy is just a worse estimate: proved and disproved stay
        // true.
        // They are kept on the stack of children of the nodes on the path, this node's from
        // `base`.
        // The keys first, each entry asked for at once, so that the cache misses overlap; then
        // the entries.
        let base = self.children.len();
        for m in moves.iter() {
            let k = self.board.hash_after(m.point) ^ child_depth_key;
            self.table.prefetch(k);
            self.children.push((k, (0, 0, 0)));
        }
        let end = self.children.len();
        for (m, child) in moves.iter().zip(&mut self.children[base..end]) {
            child.1 = lookup(&self.table, m, child.0);
        }
        let numbers = loop {
            let children = &self.children[base..end];
            // Proof length: the quickest proved child of an OR node, the longest of an AND node.
            let mut len = if is_or { INF } else { certificate_len };
            for &(_, (cpn, _, clen)) in children {
                if cpn == 0 {
                    len = if is_or {
                        len.min(clen + 1)
                    } else {
                        len.max(clen)
                    };
                }
            }
            let combined = combine(
                is_or,
                Sum::Plain,
                children.iter().map(|&(_, (cpn, cdn, _))| (cpn, cdn)),
            );
            let (pn, dn) = (combined.pn, combined.dn);
            match self.table.get_mut(key) {
                // The entry the first pass stored (with these moves), unless it was dropped.
                Some(e) if e.moves.is_some() => (e.pn, e.dn, e.len) = (pn, dn, len),
                _ => {
                    let entry = Entry {
                        pn,
                        dn,
                        len,
                        certificate_len,
                        moves: Some(moves.clone()),
                    };
                    self.store(key, entry);
                }
            }
            if pn == 0 || dn == 0 || pn >= th_pn || dn >= th_dn || self.stopped {
                break (pn, dn);
            }
            let (c_th_pn, c_th_dn) = child_thresholds(
                is_or,
                th_pn,
                th_dn,
                &combined,
                self.options.one_over_epsilon.unwrap_or(ONE_OVER_EPSILON),
            );
            let best = combined.best;
            self.board.play_unchecked(moves[best].point);
            self.mid(child_depth, c_th_pn, c_th_dn);
            self.board.undo();
            let child = &mut self.children[base + best];
            child.1 = lookup(&self.table, &moves[best], child.0);
        };
        self.children.truncate(base);
        numbers
    }
}
