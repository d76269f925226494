//! The transposition table one proof search shares between its threads: entries by canonical
//! Zobrist key, the proofs borrowed by simulation, a bound on the estimated bytes, and the marks
//! of the nodes threads are searching now (for the virtual proof and disproof numbers that
//! spread threads over different subtrees).
//!
//! Every method copies what it returns out of the maps at once: no lock of a map shard is ever
//! held across a call, so no two threads can wait on each other.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use dashmap::DashMap;
use dashmap::mapref::entry::Entry as Entry_;
use nohash_hasher::BuildNoHashHasher;

use crate::rules::Symmetry;
use crate::threat::ProofTree;

use super::{Entry, Move};

type Map<V> = DashMap<u64, V, BuildNoHashHasher<u64>>;

/// Bytes of a bucket of the table: key, entry and control byte.
const SLOT_BYTES: usize = size_of::<(u64, Entry)>() + 1;
/// Bytes of a kept move list besides its moves: reference counts and allocator overhead.
const MOVES_OVERHEAD: usize = 32;

/// Estimated bytes of a table entry's moves: the shared slice with its counts, and the
/// allocator's overhead.
fn entry_bytes(e: &Entry) -> usize {
    e.moves
        .as_ref()
        .map_or(0, |m| MOVES_OVERHEAD + m.len() * size_of::<Move>())
}

/// `key` and `round` mixed (SplitMix64's finaliser), to choose among estimates of equal work.
fn mix(key: u64, round: u64) -> u64 {
    let mut z = key ^ round.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Buckets of hash maps (hashbrown) that can hold `capacity` entries without growing.
fn buckets(capacity: usize) -> usize {
    if capacity == 0 {
        0
    } else {
        (capacity * 8 / 7).next_power_of_two()
    }
}

/// Estimated bytes `entries` take in a table of their own.
pub(super) fn bytes_of<'a>(entries: impl IntoIterator<Item = &'a Entry>) -> usize {
    let (count, moves) = entries
        .into_iter()
        .fold((0, 0), |(n, bytes), e| (n + 1, bytes + entry_bytes(e)));
    buckets(count) * SLOT_BYTES + moves
}

/// What storing an entry found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stored {
    /// There was room.
    Room,
    /// The table is full of resolved entries: the search must stop.
    Full,
}

/// The shared table.
pub(super) struct Table {
    entries: Map<Entry>,
    /// Proofs borrowed from a sibling (simulation), by the canonical key of the position they
    /// prove, with the frame they were found in.
    borrowed: Map<(Arc<ProofTree>, Symmetry)>,
    /// Threads searching each node now (only with more than one thread).
    visiting: Map<u32>,
    /// Estimated bytes of the moves kept in `entries` and of the borrowed proofs; the maps'
    /// own buckets are counted from their capacity.
    bytes: AtomicUsize,
    borrowed_bytes: AtomicUsize,
    bound: usize,
    /// Set once the table is full of resolved entries.
    full: AtomicBool,
    /// Held by the thread making room; the times room was made.
    making_room: Mutex<u64>,
    /// Tells the helper threads to stop (the end of a slice).
    pub(super) halt: AtomicBool,
    /// Calls the whole search off (the other side's search proved its win).
    cancelled: AtomicBool,
    /// More than one thread searches: mark the nodes being searched.
    parallel: AtomicBool,
}

impl Table {
    pub(super) fn new(bound: usize, parallel: bool) -> Table {
        Table {
            entries: Map::default(),
            borrowed: Map::default(),
            visiting: Map::default(),
            bytes: AtomicUsize::new(0),
            borrowed_bytes: AtomicUsize::new(0),
            bound,
            full: AtomicBool::new(false),
            making_room: Mutex::new(0),
            halt: AtomicBool::new(false),
            cancelled: AtomicBool::new(false),
            parallel: AtomicBool::new(parallel),
        }
    }

    pub(super) fn bound(&self) -> usize {
        self.bound
    }

    pub(super) fn is_full(&self) -> bool {
        self.full.load(Ordering::Relaxed)
    }

    /// Whether more than one thread searches.
    pub(super) fn parallel(&self) -> bool {
        self.parallel.load(Ordering::Relaxed)
    }

    /// More threads have joined the search.
    pub(super) fn set_parallel(&self) {
        self.parallel.store(true, Ordering::Relaxed);
    }

    /// Calls the search off for good.
    pub(super) fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    pub(super) fn cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    /// A copy of the entry of `key`.
    pub(super) fn get(&self, key: u64) -> Option<Entry> {
        self.entries.get(&key).map(|e| e.clone())
    }

    /// A copy of every entry with its key (the kept moves are shared, not copied).
    pub(super) fn entries(&self) -> Vec<(u64, Entry)> {
        self.entries
            .iter()
            .map(|e| (*e.key(), e.value().clone()))
            .collect()
    }

    /// The proof and disproof numbers of `key`.
    pub(super) fn numbers(&self, key: u64) -> Option<(u32, u32)> {
        self.entries.get(&key).map(|e| (e.pn, e.dn))
    }

    /// Whether `key` is settled: proved or disproved.
    pub(super) fn settled(&self, key: u64) -> bool {
        self.entries.get(&key).is_some_and(|e| e.settled())
    }

    /// Whether `key` is proved.
    pub(super) fn proved(&self, key: u64) -> bool {
        self.numbers(key).is_some_and(|(pn, _)| pn == 0)
    }

    /// Bytes the table takes, about: its buckets (from the capacity), the moves it keeps and
    /// the borrowed proofs.
    pub(super) fn total_bytes(&self) -> usize {
        buckets(self.entries.capacity()) * SLOT_BYTES + self.bytes.load(Ordering::Relaxed)
    }

    /// Stores `entry` for `key`, unless `key` is settled (proved or disproved) and `entry` is
    /// not. When the table would pass its bound, it makes room: first it drops the estimates
    /// of least work ([`Table::shed`]), then, if it is still nearly full, every estimate.
    /// Settled entries are the search's results and are never dropped. If the results alone
    /// leave it nearly full, [`Stored::Full`].
    pub(super) fn store(&self, key: u64, entry: Entry) -> Stored {
        let mut stored = Stored::Room;
        // One thread makes room at a time; the others store meanwhile, a little past the bound.
        // A full table makes no more room: the search is stopping, and each store on the way
        // back up would go over every entry again.
        if !self.is_full()
            && self.peak(key) > self.bound
            && let Ok(mut rooms_made) = self.making_room.try_lock()
        {
            self.shed(*rooms_made);
            *rooms_made += 1;
            if self.nearly_full(key) {
                self.keep(|_, e| e.settled());
            }
            if self.nearly_full(key) {
                self.full.store(true, Ordering::Relaxed);
                stored = Stored::Full;
            }
        }
        let added = entry_bytes(&entry);
        match self.entries.entry(key) {
            Entry_::Occupied(mut old) => {
                // A settled entry is a result: a thread that read the children before it was
                // settled must not turn it back into an estimate.
                if old.get().settled() && !entry.settled() {
                    return stored;
                }
                let old = old.insert(entry);
                self.bytes.fetch_add(added, Ordering::Relaxed);
                self.release(entry_bytes(&old));
            }
            Entry_::Vacant(slot) => {
                slot.insert(entry);
                self.bytes.fetch_add(added, Ordering::Relaxed);
            }
        }
        stored
    }

    /// The bytes the table would take at once while storing `key`: a new key in a map at
    /// capacity makes it grow, and the old buckets and twice as many new ones are held at
    /// once.
    fn peak(&self, key: u64) -> usize {
        let capacity = self.entries.capacity();
        let grows = self.entries.len() >= capacity && !self.entries.contains_key(&key);
        if grows {
            // hashbrown's smallest bucket array has 4 buckets.
            (2 * buckets(capacity)).max(4) * SLOT_BYTES + self.total_bytes()
        } else {
            self.total_bytes()
        }
    }

    /// Whether the table is still nearly full after making room: storing `key` would pass the
    /// bound, or it takes nine tenths of it. Room made leaves a tenth free, so it is not made
    /// again a few stores later.
    fn nearly_full(&self, key: u64) -> bool {
        self.peak(key) > self.bound || self.total_bytes() > self.bound / 10 * 9
    }

    /// Drops the estimates of least work: the unsettled entries in order of work, until a third
    /// of them have gone, and a third of the bytes their moves take, and the table is no more
    /// than nine tenths full (every estimate, if that is not enough). The estimates that took
    /// the search longest to reach, those near the root and of its hardest lines, stay. Many
    /// estimates share the least work and keep no moves (leaves evaluated and not searched
    /// below): a third of them by count alone may free no room. Ties are broken by key, mixed
    /// with `round`, the count of times room was made, so that the same keys do not always go.
    /// (Dropping a quarter, a third or a half; by count alone: `BENCHMARKS.md`.)
    fn shed(&self, round: u64) {
        // 16 bytes an estimate: a move list's bytes fit in a u32 (at most 225 moves).
        let mut estimates: Vec<(u32, u64, u32)> = self
            .entries
            .iter()
            .filter(|e| !e.settled())
            .map(|e| {
                let bytes = u32::try_from(entry_bytes(&e)).unwrap_or(u32::MAX);
                (e.work, mix(*e.key(), round), bytes)
            })
            .collect();
        estimates.sort_unstable();
        let count = estimates.len().div_ceil(3);
        let bytes = estimates
            .iter()
            .map(|&(.., b)| b as usize)
            .sum::<usize>()
            .div_ceil(3);
        let total = self.total_bytes();
        let mut dropped = 0;
        let enough = estimates.iter().position(|&(.., b)| {
            dropped += b as usize;
            dropped >= bytes && total.saturating_sub(dropped) <= self.bound / 10 * 9
        });
        let last = enough.map_or(estimates.len(), |i| i.max(count - 1) + 1);
        let Some(&(work, mixed, _)) = last.checked_sub(1).and_then(|i| estimates.get(i)) else {
            return;
        };
        drop(estimates);
        self.keep(|key, e| e.settled() || (e.work, mix(key, round)) > (work, mixed));
    }

    /// Drops every entry but those `kept` keeps, and counts the bytes again.
    fn keep(&self, kept: impl Fn(u64, &Entry) -> bool) {
        self.entries.retain(|&key, e| kept(key, e));
        let bytes: usize = self.entries.iter().map(|e| entry_bytes(&e)).sum();
        self.bytes.store(
            bytes + self.borrowed_bytes.load(Ordering::Relaxed),
            Ordering::Relaxed,
        );
    }

    /// Makes room to read a proof out of a table that filled up as the proof was found: drops
    /// every entry but the proved ones, which are all the read-out walks (anything else it
    /// needs, it searches again), and lets entries in again. The buckets stay as they are:
    /// where they alone fill the bound, the next entry finds the table full again.
    pub(super) fn keep_only_proved(&self) {
        self.keep(|_, e| e.pn == 0);
        self.full.store(false, Ordering::Relaxed);
    }

    /// Takes `bytes` off the estimate. A thread that replaced an entry while another dropped
    /// the estimates and recounted them may take off bytes no longer counted: the estimate
    /// stops at zero rather than wrapping round.
    fn release(&self, bytes: usize) {
        // The closure always returns `Some`, so the update cannot fail.
        let _ = self
            .bytes
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| {
                Some(b.saturating_sub(bytes))
            });
    }

    /// Drops the entry of `key`.
    pub(super) fn remove(&self, key: u64) {
        if let Some((_, old)) = self.entries.remove(&key) {
            self.release(entry_bytes(&old));
        }
    }

    /// Every proof kept to lend, with the key of the position and the frame.
    pub(super) fn lent(&self) -> Vec<(u64, Arc<ProofTree>, Symmetry)> {
        self.borrowed
            .iter()
            .map(|b| (*b.key(), b.value().0.clone(), b.value().1))
            .collect()
    }

    /// The proof borrowed for `key`, with the frame it was found in.
    pub(super) fn borrowed(&self, key: u64) -> Option<(Arc<ProofTree>, Symmetry)> {
        self.borrowed.get(&key).map(|b| b.clone())
    }

    /// Keeps a borrowed proof for `key`; `bytes` (its estimate) count if it is new.
    pub(super) fn lend(
        &self,
        key: u64,
        tree: Arc<ProofTree>,
        frame: Symmetry,
        bytes: usize,
    ) -> bool {
        let new = self.borrowed.insert(key, (tree, frame)).is_none();
        if new {
            self.borrowed_bytes.fetch_add(bytes, Ordering::Relaxed);
            self.bytes.fetch_add(bytes, Ordering::Relaxed);
        }
        new
    }

    /// Marks `key` as being searched by one more thread.
    pub(super) fn enter(&self, key: u64) {
        *self.visiting.entry(key).or_insert(0) += 1;
    }

    /// Takes the mark of [`Table::enter`] off.
    pub(super) fn leave(&self, key: u64) {
        self.visiting.remove_if_mut(&key, |_, n| {
            *n -= 1;
            *n == 0
        });
    }

    /// Threads searching `key` now.
    pub(super) fn visitors(&self, key: u64) -> u32 {
        self.visiting.get(&key).map_or(0, |n| *n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dfpn::INF;
    use crate::rules::Point;

    fn open(n: u32) -> Entry {
        Entry {
            pn: n,
            dn: n,
            work: n,
            moves: Some(
                (0..8)
                    .map(|i| Move {
                        point: Point::new(i, 0),
                        pn: 1,
                        dn: 1,
                    })
                    .collect(),
            ),
        }
    }

    #[test]
    fn a_settled_entry_is_never_turned_back_into_an_estimate() {
        let table = Table::new(1 << 20, true);
        table.store(1, Entry::PROVED);
        table.store(1, open(3));
        assert_eq!(table.numbers(1), Some((0, INF)));
        table.store(2, Entry::DISPROVED);
        table.store(2, open(3));
        assert_eq!(table.numbers(2), Some((INF, 0)));
        // An estimate is replaced by a result, and by a newer estimate.
        table.store(3, open(3));
        table.store(3, open(5));
        assert_eq!(table.numbers(3), Some((5, 5)));
        table.store(3, Entry::PROVED);
        assert!(table.proved(3));
    }

    /// Past its bound the table drops estimates, never results, and says when only results
    /// are left; threads storing at once lose none of them.
    #[test]
    fn the_bound_drops_estimates_and_keeps_every_result() {
        let table = Table::new(64 << 10, true);
        std::thread::scope(|scope| {
            for t in 0..4u64 {
                let table = &table;
                scope.spawn(move || {
                    for i in 0..4000u64 {
                        let key = i * 4 + t;
                        let entry = match i % 5 {
                            0 => Entry::PROVED,
                            1 => Entry::DISPROVED,
                            _ => open(2),
                        };
                        table.store(key, entry);
                    }
                });
            }
        });
        assert!(table.total_bytes() <= 64 << 10 || table.is_full());
        for key in 0..16000u64 {
            match (key / 4) % 5 {
                0 => assert!(table.proved(key), "{key}"),
                1 => assert_eq!(table.numbers(key), Some((INF, 0)), "{key}"),
                _ => {}
            }
        }
        assert!(table.len() < 16000, "estimates were dropped");
    }

    /// Past its bound the table drops the estimates of least work first: the costly ones
    /// outlive many rounds of making room.
    #[test]
    fn the_estimates_of_most_work_are_dropped_last() {
        // Large enough that the map's own buckets are not most of it: the keys here are
        // consecutive and unhashed, and entries dropped from a small map can leave it reporting
        // a capacity as small as its length (hashbrown counts its tombstones out), so that the
        // next store looks like growth and every estimate goes.
        let table = Table::new(1 << 20, false);
        for key in 0..16u64 {
            let heavy = Entry {
                work: 1 << 20,
                ..open(3)
            };
            assert_eq!(table.store(key, heavy), Stored::Room);
        }
        let mut drops = 0;
        let mut before = table.len();
        for key in 16..20_000u64 {
            let light = Entry {
                work: (key % 100) as u32,
                ..open(2)
            };
            assert_eq!(table.store(key, light), Stored::Room);
            if table.len() <= before {
                drops += 1;
            }
            before = table.len();
        }
        assert!(drops >= 5, "room was made {drops} times");
        assert!((0..16).all(|k| table.numbers(k) == Some((3, 3))));
        assert!(table.len() < 10_000);
    }

    /// Making room frees a third of the estimates' bytes, though the estimates of least work
    /// hold none: leaves evaluated and not searched below keep no moves, and dropping only
    /// them, by count, left the table as full and so dropped every estimate.
    #[test]
    fn making_room_frees_bytes_though_the_least_work_keeps_no_moves() {
        let table = Table::new(1 << 20, false);
        let wide = |work: u32| Entry {
            work,
            moves: Some(
                (0..200)
                    .map(|i| Move {
                        point: Point::new(i % 15, i / 15),
                        pn: 1,
                        dn: 1,
                    })
                    .collect(),
            ),
            ..Entry::PROVED
        };
        let bare = Entry {
            pn: 2,
            dn: 2,
            work: 0,
            moves: None,
        };
        let mut key = 0u64;
        let mut before = 0;
        loop {
            let entry = if key.is_multiple_of(3) {
                Entry {
                    pn: 3,
                    dn: 3,
                    ..wide(key as u32)
                }
            } else {
                bare.clone()
            };
            assert_eq!(table.store(key, entry), Stored::Room);
            if table.len() <= before {
                break;
            }
            before = table.len();
            key += 1;
        }
        let wide_left = (0..key)
            .step_by(3)
            .filter(|&k| table.get(k).is_some())
            .count();
        let bare_left = (0..key)
            .filter(|k| !k.is_multiple_of(3) && table.get(*k).is_some())
            .count();
        assert!(wide_left > 0, "the estimates of most work stay");
        assert_eq!(bare_left, 0, "the least work goes first");
        assert!(table.get(key / 3 * 3).is_some(), "the most work stays");
        assert!(table.total_bytes() <= (1 << 20) / 10 * 9);
    }

    /// A table full of results makes room for a proof's read-out: it keeps only the proved
    /// entries, and takes new ones again.
    #[test]
    fn a_full_table_keeps_only_its_proofs_for_the_read_out() {
        let table = Table::new(256 << 10, false);
        let mut key = 0u64;
        while !table.is_full() {
            // Disproofs that keep their moves, as the search's do: they fill the table.
            let entry = if key.is_multiple_of(4) {
                Entry::PROVED
            } else {
                Entry {
                    pn: INF,
                    dn: 0,
                    ..open(2)
                }
            };
            table.store(key, entry);
            key += 1;
        }
        let proved = (0..key).filter(|&k| table.proved(k)).count();
        assert!(proved > 0 && table.len() > proved);
        table.keep_only_proved();
        assert!(!table.is_full());
        assert_eq!(table.len(), proved, "only the proofs are left");
        assert!((0..key).step_by(4).all(|k| table.proved(k)));
        assert_eq!(table.store(key, open(2)), Stored::Room);
        assert_eq!(table.numbers(key), Some((2, 2)));
    }

    #[test]
    fn visits_are_counted_and_taken_off() {
        let table = Table::new(1 << 20, true);
        table.enter(7);
        table.enter(7);
        assert_eq!(table.visitors(7), 2);
        table.leave(7);
        assert_eq!(table.visitors(7), 1);
        table.leave(7);
        assert_eq!(table.visitors(7), 0);
        assert!(table.visiting.is_empty());
    }
}
