//! Perft: the number of leaf nodes of the legal-move tree to a depth, counting the legal
//! turns at the last ply without making them.

use super::{Position, Turn};

/// A count to one depth, with reusable move lists (one per ply, so that counting allocates
/// nothing per node) and a limit on the leaf nodes counted, past which the count stops.
pub struct Perft {
    depth: usize,
    lists: Vec<Vec<Turn>>,
    counted: u64,
    limit: u64,
}

impl Perft {
    pub fn new(depth: usize) -> Self {
        Perft {
            depth,
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

    /// Why the count of `position` is short, if it is: the node limit, or a position with more
    /// turns than fairy holds.
    pub fn shortfall(&self, position: &Position<'_>) -> Option<String> {
        if position.turns_overflowed() {
            return Some(crate::limits::too_many_turns());
        }
        (self.stopped()).then(|| {
            format!(
                "stopped after counting more than {} leaf nodes (--max-nodes)",
                self.limit
            )
        })
    }

    /// The leaf nodes below the position.
    pub fn count(&mut self, position: &mut Position<'_>) -> u64 {
        let nodes = self.count_to(position, self.depth);
        position.set_lists_next(false);
        nodes
    }

    /// The count below each legal turn of the position.
    pub fn divide(&mut self, position: &mut Position<'_>) -> Vec<(Turn, u64)> {
        let mut list = Vec::new();
        position.legal_turns(&mut list);
        let mut rows = Vec::with_capacity(list.len());
        for turn in list {
            if self.stopped() || position.turns_overflowed() {
                break;
            }
            let depth = self.depth.saturating_sub(1);
            position.set_lists_next(depth >= 2);
            position.make(&turn);
            rows.push((turn, self.count_to(position, depth)));
            position.unmake();
        }
        position.set_lists_next(false);
        rows
    }

    fn count_to(&mut self, position: &mut Position<'_>, depth: usize) -> u64 {
        if depth == 0 {
            self.counted += 1;
            return 1;
        }
        if depth == 1 {
            let nodes = position.count_legal();
            self.counted += nodes;
            return nodes;
        }
        let mut list = std::mem::take(&mut self.lists[depth]);
        position.legal_turns(&mut list);
        let mut nodes = 0;
        for turn in &list {
            if self.stopped() || position.turns_overflowed() {
                break;
            }
            // The turns after this one are listed unless they are the last ply's, counted.
            position.set_lists_next(depth > 2);
            position.make(turn);
            nodes += self.count_to(position, depth - 1);
            position.unmake();
        }
        self.lists[depth] = list;
        nodes
    }
}
