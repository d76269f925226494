//! The VCT search's transposition table, laid out for its cache misses.
//!
//! A node reads the entries of all its children before it picks one, and in a long `solve`
//! the table holds millions of entries: nearly every read misses the cache. A general hash
//! map reads two places for one key (its control bytes, then the entry) and cannot fetch an
//! entry ahead of time. Here a key and its entry take 32 bytes, two to a cache line, so a read
//! costs one line in the common case, and [`EntryTable::prefetch`] lets a node ask for all its
//! children's entries at once, so that their misses overlap.
//!
//! Open addressing with linear probing: a key's home slot comes from its top bits, and a key
//! that finds it taken goes on to the next slot (wrapping). An entry with proof and disproof
//! numbers both 0, which no node has, marks an empty slot, and the first empty slot on a key's
//! way proves it absent. The table grows by doubling and keeps at most half its slots full,
//! which keeps a key's way short; at its largest it holds the search's cap of entries. Dropping
//! entries ([`EntryTable::retain`]) reseats the others in place, without a second array.

use super::Entry;
use crate::threat::key_table::{home_slot, prefetch};

/// A key and its entry; an empty slot has an entry with both numbers 0.
#[derive(Clone, Debug, Default)]
#[repr(C, align(32))]
struct Slot {
    key: u64,
    entry: Entry,
}

impl Slot {
    fn is_empty(&self) -> bool {
        self.entry.pn == 0 && self.entry.dn == 0
    }
}

/// Slots a new table starts with.
const FIRST_SLOTS: usize = 64;

/// A map from `u64` keys (already uniformly random) to VCT entries.
#[derive(Debug)]
pub(super) struct EntryTable {
    slots: Vec<Slot>,
    len: usize,
    /// The slot count the table grows to at most: twice the most entries it is asked to hold.
    most_slots: usize,
}

impl Default for EntryTable {
    fn default() -> EntryTable {
        EntryTable {
            slots: Vec::new(),
            len: 0,
            most_slots: usize::MAX,
        }
    }
}

impl EntryTable {
    /// Bounds the table's growth to what `cap` entries need (the search makes room before it
    /// holds more).
    pub(super) fn set_cap(&mut self, cap: usize) {
        self.most_slots = cap.max(1).saturating_mul(2).max(FIRST_SLOTS);
    }

    /// Entries held.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The home slot of `key`: its top bits scaled to the slot count (which is not zero).
    fn home(&self, key: u64) -> usize {
        home_slot(key, self.slots.len())
    }

    /// The slot holding `key`, or the empty slot where it would go.
    #[inline]
    fn find(&self, key: u64) -> usize {
        let mut i = self.home(key);
        loop {
            let slot = &self.slots[i];
            if slot.is_empty() || slot.key == key {
                return i;
            }
            i += 1;
            if i == self.slots.len() {
                i = 0;
            }
        }
    }

    /// The entry of `key`, if the table holds it.
    #[inline]
    pub(super) fn get(&self, key: u64) -> Option<&Entry> {
        if self.slots.is_empty() {
            return None;
        }
        let slot = &self.slots[self.find(key)];
        (!slot.is_empty()).then_some(&slot.entry)
    }

    /// The entry of `key`, to change in place (its numbers must not both become 0).
    pub(super) fn get_mut(&mut self, key: u64) -> Option<&mut Entry> {
        if self.slots.is_empty() {
            return None;
        }
        let i = self.find(key);
        let slot = &mut self.slots[i];
        (!slot.is_empty()).then_some(&mut slot.entry)
    }

    /// Whether the table holds `key`.
    pub(super) fn contains_key(&self, key: u64) -> bool {
        self.get(key).is_some()
    }

    /// Sets the entry of `key` (its numbers not both 0), replacing any it had.
    pub(super) fn insert(&mut self, key: u64, entry: Entry) {
        debug_assert!(
            entry.pn != 0 || entry.dn != 0,
            "both numbers 0 mark an empty slot"
        );
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let i = self.find(key);
        let slot = &mut self.slots[i];
        if slot.is_empty() {
            self.len += 1;
        }
        *slot = Slot { key, entry };
    }

    /// Doubles the slot count (at most to the most, and never leaving the table full) and
    /// puts every entry back.
    #[cold]
    fn grow(&mut self) {
        let count = (self.slots.len() * 2)
            .clamp(FIRST_SLOTS, self.most_slots)
            .max(self.len + 2);
        if count <= self.slots.len() {
            return;
        }
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); count]);
        for slot in old {
            if !slot.is_empty() {
                let i = self.find(slot.key);
                self.slots[i] = slot;
            }
        }
    }

    /// Keeps only the entries `keep` accepts, reseating the others in place.
    pub(super) fn retain(&mut self, mut keep: impl FnMut(u64, &Entry) -> bool) {
        // A slot empty before any entry is dropped lies on no entry's way (a way runs from the
        // key's home through taken slots only), so the ways, read from the slot after it
        // round to the slot before it, never wrap past it. The table always has one: it is
        // never more than half full.
        let Some(start) = self.slots.iter().position(Slot::is_empty) else {
            return;
        };
        for slot in &mut self.slots {
            if !slot.is_empty() && !keep(slot.key, &slot.entry) {
                *slot = Slot::default();
                self.len -= 1;
            }
        }
        // An entry left may now sit past an empty slot on its way. Taken out and put back in
        // that order, it lands on its way again, at or before its slot: every slot before it
        // on its way has been settled, and its own slot is free. Later steps only fill slots
        // and free slots after it, so its way stays taken.
        let n = self.slots.len();
        for step in 1..n {
            let i = (start + step) % n;
            if !self.slots[i].is_empty() {
                let slot = std::mem::take(&mut self.slots[i]);
                let j = self.find(slot.key);
                self.slots[j] = slot;
            }
        }
    }

    /// Drops every entry, keeping the slots.
    pub(super) fn clear(&mut self) {
        self.slots.fill(Slot::default());
        self.len = 0;
    }

    /// Asks the processor to fetch `key`'s home slot, so that a later read finds it in the
    /// cache. Only a hint: it changes nothing the table holds.
    #[inline]
    pub(super) fn prefetch(&self, key: u64) {
        if !self.slots.is_empty() {
            prefetch(&self.slots[self.home(key)]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::xorshift;
    use std::collections::HashMap;

    fn entry(pn: u32, dn: u32) -> Entry {
        Entry {
            pn,
            dn,
            len: pn ^ dn ^ 5,
            certificate_len: 0,
            moves: None,
        }
    }

    /// The table answers exactly as a general map does through growth, a bounded size,
    /// updates in place, dropping by [`EntryTable::retain`] (with keys sharing home slots, so
    /// that clusters are long and wrap) and clearing.
    #[test]
    fn the_table_is_a_map() {
        for (cap, rounds) in [(1, 50), (10, 500), (300, 6_000), (4_000, 60_000)] {
            let mut next = xorshift(cap as u64 * 7919 + 3);
            let mut table = EntryTable::default();
            table.set_cap(cap);
            let mut map: HashMap<u64, (u32, u32, u32)> = HashMap::new();
            let pool: Vec<u64> = (0..cap * 2 + 2)
                .map(|i| match i % 4 {
                    0 => next(u64::MAX) & 0xFFFF,
                    1 => u64::MAX - (next(u64::MAX) & 0xFFFF),
                    _ => next(u64::MAX),
                })
                .collect();
            for _ in 0..rounds {
                let key = pool[next(pool.len() as u64) as usize];
                let numbers = table.get(key).map(|e| (e.pn, e.dn, e.len));
                assert_eq!(numbers, map.get(&key).copied(), "key {key:#x}");
                table.prefetch(key);
                match next(8) {
                    0 if table.len() >= cap => {
                        // Make room as the search does: keep the facts.
                        table.retain(|_, e| e.pn == 0 || e.dn == 0);
                        map.retain(|_, &mut (pn, dn, _)| pn == 0 || dn == 0);
                        if next(4) == 0 {
                            table.clear();
                            map.clear();
                        }
                    }
                    1 => {
                        if let Some(e) = table.get_mut(key) {
                            e.pn += 1;
                            e.len += 1;
                            let m = map.get_mut(&key).expect("in both");
                            m.0 += 1;
                            m.2 += 1;
                        }
                    }
                    _ if table.len() < cap || map.contains_key(&key) => {
                        let (pn, dn) = match next(3) {
                            0 => (0, 7),
                            1 => (7, 0),
                            _ => (next(9) as u32 + 1, next(9) as u32 + 1),
                        };
                        table.insert(key, entry(pn, dn));
                        map.insert(key, (pn, dn, pn ^ dn ^ 5));
                    }
                    _ => {}
                }
                assert_eq!(table.len(), map.len());
                assert!(table.slots.len() <= table.most_slots);
            }
            for (&k, &numbers) in &map {
                let e = table.get(k).expect("held");
                assert_eq!((e.pn, e.dn, e.len), numbers);
                assert!(table.contains_key(k));
            }
        }
    }

    /// `retain` with arbitrary predicates on small tables whose clusters wrap round the end:
    /// a reseating that starts anywhere but at a slot empty before the drop loses entries here
    /// (`the_table_is_a_map` does not notice one that starts at slot 0).
    #[test]
    fn retain_keeps_every_entry_of_wrapping_clusters() {
        for seed in 1..3_000u64 {
            let mut next = xorshift(seed * 2_654_435_761 + 1);
            let cap = 8 + next(40) as usize;
            let mut table = EntryTable::default();
            table.set_cap(cap);
            let mut map: HashMap<u64, u32> = HashMap::new();
            for _ in 0..6 {
                while map.len() < cap {
                    let key = match next(3) {
                        0 => u64::MAX - next(1 << 60),
                        1 => next(1 << 59),
                        _ => next(u64::MAX),
                    };
                    let pn = next(100) as u32 + 1;
                    table.insert(key, entry(pn, 1));
                    map.insert(key, pn);
                }
                let salt = next(u64::MAX);
                let keep = |k: u64| (k ^ salt).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 63 == 0;
                table.retain(|k, _| keep(k));
                map.retain(|&k, _| keep(k));
                assert_eq!(table.len(), map.len(), "seed {seed}");
                for (&k, &pn) in &map {
                    assert_eq!(table.get(k).map(|e| e.pn), Some(pn), "seed {seed}: {k:#x}");
                }
            }
        }
    }

    #[test]
    fn a_slot_is_half_a_cache_line() {
        assert_eq!(size_of::<Slot>(), 32);
    }
}
