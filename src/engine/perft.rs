//! Perft: the number of leaf nodes of the legal-move tree to a depth, counting the legal
//! turns at the last ply without making them.

use super::{Position, Turn};

/// Reusable move lists, one per ply, so that counting allocates nothing per node.
pub struct Perft {
    lists: Vec<Vec<Turn>>,
}

impl Perft {
    pub fn new(depth: usize) -> Self {
        Perft {
            lists: (0..=depth).map(|_| Vec::with_capacity(256)).collect(),
        }
    }

    pub fn count(&mut self, position: &mut Position<'_>, depth: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut list = std::mem::take(&mut self.lists[depth]);
        position.legal_turns(&mut list);
        let nodes = if depth == 1 {
            list.len() as u64
        } else {
            list.iter()
                .map(|turn| {
                    position.make(turn);
                    let n = self.count(position, depth - 1);
                    position.unmake();
                    n
                })
                .sum()
        };
        self.lists[depth] = list;
        nodes
    }

    /// The count below each legal turn of the position.
    pub fn divide(&mut self, position: &mut Position<'_>, depth: usize) -> Vec<(Turn, u64)> {
        let mut list = Vec::new();
        position.legal_turns(&mut list);
        list.into_iter()
            .map(|turn| {
                position.make(&turn);
                let n = self.count(position, depth.saturating_sub(1));
                position.unmake();
                (turn, n)
            })
            .collect()
    }
}
