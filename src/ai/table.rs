//! The transposition table, shared by every thread of one search without locks. An entry is
//! three words written one at a time; its first word holds the position's hash mixed with the
//! other two, so a reader that catches an entry half rewritten by another thread sees a hash
//! that matches no position and ignores it. Relaxed atomic words compile to plain loads and
//! stores: a search of one thread pays nothing for the sharing.

use crate::engine::Turn;
use std::sync::atomic::{AtomicU64, Ordering};

/// What a score stored for a position says of its value.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub enum Bound {
    #[default]
    Exact,
    /// At least the score: the search was cut off above the window.
    Lower,
    /// At most the score: no turn reached the window.
    Upper,
}

/// What the table remembers of a position.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Entry {
    pub depth: u8,
    pub bound: Bound,
    pub score: i32,
    /// The best turn found, as its [`turn_key`]; 0 for none.
    pub best: u64,
}

pub struct Table {
    words: Vec<AtomicU64>,
    /// Entries less one, a power of two less one: a hash's low bits pick the slot.
    mask: usize,
}

const WORDS: usize = 3;

impl Table {
    /// A table of at most `bytes` (at least one entry).
    pub fn new(bytes: usize) -> Self {
        let entries = (bytes / (WORDS * 8)).max(1);
        let entries = 1 << entries.ilog2();
        let table = Table {
            words: (0..entries * WORDS).map(|_| AtomicU64::new(0)).collect(),
            mask: entries - 1,
        };
        // The allocator hands out zeroed memory the system maps only when first written:
        // written now, so that the first search does not pay for mapping it.
        table.clear();
        table
    }

    /// The entry stored for the position of `hash`, if one is whole.
    pub fn get(&self, hash: u64) -> Option<Entry> {
        let [check, data, best] = self
            .slot(hash)
            .each_ref()
            .map(|w| w.load(Ordering::Relaxed));
        let entry = Entry {
            depth: data as u8,
            bound: match (data >> 8) & 3 {
                1 => Bound::Lower,
                2 => Bound::Upper,
                _ => Bound::Exact,
            },
            score: (data >> 32) as u32 as i32,
            best,
        };
        (check ^ data ^ best == hash && check != 0).then_some(entry)
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        self.words
            .iter()
            .for_each(|w| w.store(0, Ordering::Relaxed));
    }

    /// Stores `entry` for the position of `hash`, in place of what its slot held.
    pub fn put(&self, hash: u64, entry: Entry) {
        let bound = match entry.bound {
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        let data = u64::from(entry.depth) | (bound << 8) | (u64::from(entry.score as u32) << 32);
        let words = [hash ^ data ^ entry.best, data, entry.best];
        for (word, value) in self.slot(hash).iter().zip(words) {
            word.store(value, Ordering::Relaxed);
        }
    }

    fn slot(&self, hash: u64) -> &[AtomicU64; WORDS] {
        let start = (hash as usize & self.mask) * WORDS;
        (self.words[start..start + WORDS])
            .try_into()
            .expect("a slot is three words")
    }
}

/// A turn's key in the table: distinct turns of one position have distinct keys but by a
/// chance too small to matter (a wrong match orders a legal turn first, or follows one in the
/// line the table remembers: never an illegal one), and no key is 0.
pub fn turn_key(turn: &Turn) -> u64 {
    let mut key = 0x9E37_79B9_7F4A_7C15u64;
    for part in turn.parts() {
        let word = u64::from(part.kind as u8)
            | u64::from(part.piece) << 8
            | u64::from(part.from) << 24
            | u64::from(part.to) << 40;
        key = (key ^ word)
            .wrapping_mul(0xFF51_AFD7_ED55_8CCD)
            .rotate_left(29);
    }
    key.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_comes_back_as_stored_and_only_for_its_hash() {
        let table = Table::new(1 << 10);
        let entry = Entry {
            depth: 7,
            bound: Bound::Upper,
            score: -123_456,
            best: 42,
        };
        table.put(0xDEAD_BEEF, entry);
        assert_eq!(table.get(0xDEAD_BEEF), Some(entry));
        let same_slot = 0xDEAD_BEEF + (1 << 40);
        assert_eq!(table.get(same_slot), None);
        table.clear();
        assert_eq!(table.get(0xDEAD_BEEF), None);
    }

    #[test]
    fn a_torn_entry_matches_no_position() {
        let table = Table::new(1 << 10);
        let first = Entry {
            depth: 3,
            score: 10,
            ..Entry::default()
        };
        table.put(5, first);
        // Another thread's write of a different position into the same slot, caught after its
        // first word: the slot's words now belong to neither position.
        let slot = table.slot(5);
        slot[0].store(
            (5 + (1 << 40)) ^ slot[1].load(Ordering::Relaxed) ^ 99,
            Ordering::Relaxed,
        );
        assert_eq!(table.get(5), None);
        assert_eq!(table.get(5 + (1 << 40)), None);
    }
}
