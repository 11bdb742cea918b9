//! Zobrist keys: one random number per piece-on-square, hand count, player to move, castling
//! right, en-passant square, phase, player out of the game, the pie swap, and each player's
//! count of turns in the phase, each open gate, so a position's hash changes incrementally with each part.

use crate::random::Random;

/// Hand counts above this share a key; no variant holds that many of one kind.
const HAND_SLOTS: usize = 64;

/// Counter values below this have their keys mixed once, when the rules are compiled: a
/// counter may change on every turn made. Higher values are mixed when asked.
const KEYED_COUNTS: usize = 16;

#[derive(Clone, Debug, Default)]
pub struct Zobrist {
    squares: usize,
    piece: Vec<u64>,
    hand: Vec<u64>,
    pub to_move: Vec<u64>,
    pub castling: Vec<u64>,
    pub ep: Vec<u64>,
    /// One key per phase, and one for after the last.
    phases: Vec<u64>,
    out: Vec<u64>,
    pub swapped: u64,
    /// Mixed with a player's count of turns in the phase (modulo what matters).
    turn_seed: u64,
    /// Mixed with a counter's slot and value.
    counter_seed: u64,
    /// The keys of the counter values below [`KEYED_COUNTS`], `[slot * KEYED_COUNTS + value]`.
    counter_keys: Vec<u64>,
    /// Mixed with the square of an open gate.
    gate_seed: u64,
}

impl Zobrist {
    /// Keys for a game of `squares` squares, `players` players, `kinds` kinds and `phases`
    /// phases.
    pub fn new(squares: usize, players: usize, kinds: usize, phases: usize) -> Self {
        // A fixed start, so hashes are the same on every run.
        let mut random = Random::from_state(0x9E37_79B9_7F4A_7C15);
        let mut table = |n: usize| (0..n).map(|_| random.next_u64()).collect::<Vec<u64>>();
        let piece = table(256 * squares);
        let hand = table(players * kinds * HAND_SLOTS);
        let to_move = table(players);
        let castling = table(32);
        let ep = table(squares);
        let phases = table(phases + 1);
        let out = table(players);
        let extra = table(4);
        Zobrist {
            squares,
            piece,
            hand,
            to_move,
            castling,
            ep,
            phases,
            out,
            swapped: extra[0],
            turn_seed: extra[1],
            counter_seed: extra[2],
            counter_keys: Vec::new(),
            gate_seed: extra[3],
        }
    }

    /// The keys, mixed now, of the low values of `slots` counter slots.
    pub fn with_counter_slots(mut self, slots: usize) -> Self {
        self.counter_keys = (0..slots * KEYED_COUNTS)
            .map(|i| {
                keyed(
                    self.counter_seed,
                    i / KEYED_COUNTS,
                    (i % KEYED_COUNTS) as u32,
                )
            })
            .collect();
        self
    }

    #[inline]
    pub fn piece(&self, code: u8, sq: u16) -> u64 {
        self.piece[code as usize * self.squares + sq as usize]
    }

    #[inline]
    pub fn hand(&self, slot: usize, count: u8) -> u64 {
        self.hand[slot * HAND_SLOTS + (count as usize).min(HAND_SLOTS - 1)]
    }

    pub fn castling_rights(&self, rights: u32) -> u64 {
        (0..32)
            .filter(|b| rights & (1 << b) != 0)
            .fold(0, |h, b| h ^ self.castling[b])
    }

    pub fn phase(&self, phase: u8) -> u64 {
        self.phases[(phase as usize).min(self.phases.len() - 1)]
    }

    /// The keys of the players whose bits are set in `out`.
    pub fn out(&self, out: u32) -> u64 {
        (0..self.out.len())
            .filter(|p| out & (1 << p) != 0)
            .fold(0, |h, p| h ^ self.out[p])
    }

    pub fn phase_turns(&self, player: usize, residue: u32) -> u64 {
        keyed(self.turn_seed, player, residue)
    }

    pub fn counter(&self, slot: usize, value: u16) -> u64 {
        let value = usize::from(value);
        let key = (value < KEYED_COUNTS)
            .then(|| self.counter_keys.get(slot * KEYED_COUNTS + value))
            .flatten();
        key.copied()
            .unwrap_or_else(|| keyed(self.counter_seed, slot, value as u32))
    }

    pub fn gate(&self, sq: u16) -> u64 {
        keyed(self.gate_seed, usize::from(sq), 1)
    }
}

/// A key for a pair of numbers, mixed from a seed instead of looked up in a table.
fn keyed(seed: u64, index: usize, value: u32) -> u64 {
    let mut random = Random::from_state(seed ^ ((index as u64) << 32 | u64::from(value)));
    random.next_u64() ^ random.next_u64()
}
