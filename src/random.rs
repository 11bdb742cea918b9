//! The one pseudo-random generator of the project (xorshift64*): small, fast and seeded, so a
//! seed replays the same keys, walks and games on every run and machine. Zobrist keys, the
//! computer player's tie-breaks, random players and the consistency walks all draw from it.

#[derive(Clone, Debug)]
pub struct Random(u64);

/// Multiplying by it spreads nearby seeds over the whole state space (it is 2⁶⁴ over the golden
/// ratio, odd).
const SPREAD: u64 = 0x9E37_79B9_7F4A_7C15;

impl Random {
    /// A generator for a seed; nearby seeds give unrelated sequences.
    pub fn new(seed: u64) -> Self {
        // Zero is xorshift's one fixed point: the low bit keeps the state away from it.
        Random(seed.wrapping_mul(SPREAD) | 1)
    }

    /// A generator started from exactly this state (not zero), for tables that must stay the
    /// same from one version to the next.
    pub const fn from_state(state: u64) -> Self {
        Random(state)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (which is not 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_replays_its_sequence_and_zero_is_not_stuck() {
        let first: Vec<u64> = (0..4)
            .map({
                let mut r = Random::new(7);
                move |_| r.next_u64()
            })
            .collect();
        let mut again = Random::new(7);
        assert!(first.iter().all(|&n| n == again.next_u64()));
        let mut zero = Random::new(0);
        assert_ne!(zero.next_u64(), zero.next_u64());
    }

    #[test]
    fn below_stays_below() {
        let mut random = Random::new(1);
        assert!((0..1000).all(|_| random.below(7) < 7));
    }
}
