//! A hash table from Zobrist keys to nonzero `u32` values, laid out for the threat searches'
//! cache misses.
//!
//! The VCF table is read at every VCF node, and in a long `solve` it holds millions of entries:
//! nearly every read misses the cache. A general hash map reads two places for one key (its
//! control bytes, then the entry) and gives no way to fetch an entry ahead of time. Here five
//! keys and their values share one 64-byte bucket, so a read costs one cache line in the common
//! case, and [`KeyTable::prefetch`] lets a node ask for its children's buckets before it reads
//! them one by one.
//!
//! Open addressing by buckets: a key's home bucket comes from its top bits, and a key that
//! finds it full goes on to the next bucket, and so on (wrapping). Nothing is ever removed but
//! all at once ([`KeyTable::clear`]), so the first empty slot on a key's way proves it absent.
//! The value 0 marks an empty slot. The table grows by doubling, like a general map, up to the
//! size that holds its largest number of entries at seven eighths of its slots.

/// Keys and values in one bucket: 5 × (8 + 4) = 60 bytes, one cache line with its padding.
const SLOTS: usize = 5;

/// One cache line of keys and values; a value of 0 is an empty slot.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct Bucket {
    keys: [u64; SLOTS],
    values: [u32; SLOTS],
}

/// A map from `u64` keys (already uniformly random) to nonzero `u32` values that holds at most
/// a set number of entries.
#[derive(Debug)]
pub(crate) struct KeyTable {
    buckets: Vec<Bucket>,
    len: usize,
    /// The bucket count the table grows to at most.
    most_buckets: usize,
}

/// Buckets a new table starts with.
const FIRST_BUCKETS: usize = 16;

impl KeyTable {
    /// An empty table that can hold `entries` entries (at least one) without a key's way
    /// growing long: its buckets never take much more than `entries` × 64 / (5 × 7/8) ≈
    /// 14.6 × `entries` bytes.
    pub(crate) fn for_entries(entries: usize) -> KeyTable {
        let slots = entries.max(1).saturating_mul(8) / 7 + 1;
        let most_buckets = slots.div_ceil(SLOTS).max(1);
        KeyTable {
            buckets: vec![Bucket::default(); FIRST_BUCKETS.min(most_buckets)],
            len: 0,
            most_buckets,
        }
    }

    /// Entries held.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The home bucket of `key`: its top bits scaled to the bucket count.
    fn home(&self, key: u64) -> usize {
        home_slot(key, self.buckets.len())
    }

    /// The value of `key`, if the table holds it.
    #[inline]
    pub(crate) fn get(&self, key: u64) -> Option<u32> {
        let mut i = self.home(key);
        loop {
            let bucket = &self.buckets[i];
            for s in 0..SLOTS {
                if bucket.values[s] == 0 {
                    return None;
                }
                if bucket.keys[s] == key {
                    return Some(bucket.values[s]);
                }
            }
            i += 1;
            if i == self.buckets.len() {
                i = 0;
            }
        }
    }

    /// Sets `key`'s value to the larger of `value` (nonzero) and the value it has. The caller
    /// keeps the entry count within the table's size (see [`KeyTable::for_entries`]), clearing
    /// it when it is full.
    pub(crate) fn raise(&mut self, key: u64, value: u32) {
        debug_assert!(value != 0, "0 marks an empty slot");
        if (self.len + 1) * 8 > self.buckets.len() * SLOTS * 7
            && self.buckets.len() < self.most_buckets
        {
            self.grow();
        }
        if self.len + 1 >= self.buckets.len() * SLOTS {
            // Only a caller past the size it asked for gets here, at the largest size: a cache
            // may forget. One slot is always left empty, where `get` of a missing key stops.
            self.clear();
        }
        let mut i = self.home(key);
        loop {
            let bucket = &mut self.buckets[i];
            for s in 0..SLOTS {
                if bucket.values[s] == 0 {
                    bucket.keys[s] = key;
                    bucket.values[s] = value;
                    self.len += 1;
                    return;
                }
                if bucket.keys[s] == key {
                    bucket.values[s] = bucket.values[s].max(value);
                    return;
                }
            }
            i += 1;
            if i == self.buckets.len() {
                i = 0;
            }
        }
    }

    /// Doubles the bucket count (up to the most) and puts every entry back.
    #[cold]
    fn grow(&mut self) {
        let count = (self.buckets.len() * 2).min(self.most_buckets);
        let old = std::mem::replace(&mut self.buckets, vec![Bucket::default(); count]);
        self.len = 0;
        for bucket in old {
            for s in 0..SLOTS {
                if bucket.values[s] != 0 {
                    self.raise(bucket.keys[s], bucket.values[s]);
                }
            }
        }
    }

    /// Drops every entry, keeping the buckets.
    pub(crate) fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
        self.len = 0;
    }

    /// Asks the processor to fetch `key`'s home bucket, so that a later [`KeyTable::get`] finds
    /// it in the cache. Only a hint: it changes nothing the table holds.
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        prefetch(&self.buckets[self.home(key)]);
    }
}

/// The slot of a table of `slots` slots (not zero) where `key` (uniformly random) starts its
/// way: its top bits scaled to the slot count.
#[inline]
pub(crate) fn home_slot(key: u64, slots: usize) -> usize {
    // Lossless: the product's top word is below `slots`.
    ((u128::from(key) * slots as u128) >> 64) as usize
}

/// Asks the processor to fetch the cache line that holds `item`, so that a later read finds it
/// there. Only a hint: it reads nothing into the program and changes nothing.
#[inline]
pub(crate) fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let line: *const T = item;
        // SAFETY: a prefetch never faults; the pointer comes from a reference anyway.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(line.cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::xorshift;
    use std::collections::HashMap;

    /// The table answers exactly as a general map does through growth, long ways (a table
    /// kept at its largest size, nearly full), keys sharing a home bucket, and clearing.
    #[test]
    fn the_table_is_a_map() {
        for (entries, rounds) in [(1, 50), (7, 200), (100, 2_000), (5_000, 40_000)] {
            let mut next = xorshift(entries as u64 * 7919 + 1);
            let mut table = KeyTable::for_entries(entries);
            let mut map: HashMap<u64, u32> = HashMap::new();
            // Few distinct keys, many with the same top bits (the same home bucket).
            let pool: Vec<u64> = (0..entries * 2)
                .map(|i| {
                    let k = next(u64::MAX);
                    if i % 3 == 0 { k & 0xFFFF } else { k }
                })
                .collect();
            for _ in 0..rounds {
                let key = pool[next(pool.len() as u64) as usize];
                assert_eq!(table.get(key), map.get(&key).copied(), "key {key:#x}");
                if next(2) == 0 {
                    if table.len() >= entries && !map.contains_key(&key) {
                        table.clear();
                        map.clear();
                    }
                    let value = next(40) as u32 + 1;
                    table.raise(key, value);
                    let e = map.entry(key).or_insert(0);
                    *e = (*e).max(value);
                    table.prefetch(key);
                }
                assert_eq!(table.len(), map.len());
                assert!(table.buckets.len() <= table.most_buckets);
            }
            for (&k, &v) in &map {
                assert_eq!(table.get(k), Some(v));
            }
        }
    }

    /// A table filled to its last slot (a caller past the size it asked for) still answers
    /// a key it lacks: `get` stops at an empty slot, so one must always be left.
    #[test]
    fn a_full_table_answers_a_missing_key() {
        let (sent, answer) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut table = KeyTable::for_entries(1); // one bucket of five slots
            for key in 1..=5 {
                table.raise(key, 1);
            }
            let _ = sent.send(table.get(6));
        });
        let found = answer.recv_timeout(std::time::Duration::from_secs(10));
        assert_eq!(found, Ok(None), "get on a full table did not return");
    }

    #[test]
    fn a_bucket_is_one_cache_line() {
        assert_eq!(size_of::<Bucket>(), 64);
    }
}
