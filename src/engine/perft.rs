//! Perft: the number of leaf nodes of the legal-move tree to a depth, counting the legal
//! turns at the last ply without making them.

use super::{Position, Turn};

/// Reusable move lists, one per ply, so that counting allocates nothing per node; and a
/// limit on the leaf nodes counted, past which the count stops.
pub struct Perft {
    lists: Vec<Vec<Turn>>,
    counted: u64,
    limit: u64,
}

impl Perft {
    pub fn new(depth: usize) -> Self {
        Perft {
            lists: (0..=depth).map(|_| Vec::with_capacity(256)).collect(),
            counted: 0,
            limit: u64::MAX,
        }
    }

    /// Stops counting once more than `limit` leaf nodes have been counted.
    pub fn with_limit(mut self, limit: u64) -> Self {
        self.limit = limit;
        self
    }

    /// Whether the count stopped at the limit, so that its result is short.
    pub fn stopped(&self) -> bool {
        self.counted > self.limit
    }

    pub fn count(&mut self, position: &mut Position<'_>, depth: usize) -> u64 {
        if depth == 0 {
            self.counted += 1;
            return 1;
        }
        let mut list = std::mem::take(&mut self.lists[depth]);
        position.legal_turns(&mut list);
        let nodes = if depth == 1 {
            self.counted += list.len() as u64;
            list.len() as u64
        } else {
            let mut nodes = 0;
            for turn in &list {
                if self.stopped() {
                    break;
                }
                position.make(turn);
                nodes += self.count(position, depth - 1);
                position.unmake();
            }
            nodes
        };
        self.lists[depth] = list;
        nodes
    }

    /// The count below each legal turn of the position.
    pub fn divide(&mut self, position: &mut Position<'_>, depth: usize) -> Vec<(Turn, u64)> {
        let mut list = Vec::new();
        position.legal_turns(&mut list);
        let mut rows = Vec::with_capacity(list.len());
        for turn in list {
            if self.stopped() {
                break;
            }
            position.make(&turn);
            rows.push((turn, self.count(position, depth.saturating_sub(1))));
            position.unmake();
        }
        rows
    }
}
