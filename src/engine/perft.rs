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
        let nodes = self.count_below(position, self.depth);
        position.set_lists_next(false);
        nodes
    }

    /// [`Perft::count_to`], listing the turns above the last ply as the rules allow: where
    /// they are judged by the replies, the way they are counted lists them too. Chosen once
    /// per count, so that the other rules pay nothing for it on every node.
    fn count_below(&mut self, position: &mut Position<'_>, depth: usize) -> u64 {
        match position.rules().derived.replies_countable {
            true => self.count_to::<true>(position, depth),
            false => self.count_to::<false>(position, depth),
        }
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
            rows.push((turn, self.count_below(position, depth)));
            position.unmake();
        }
        position.set_lists_next(false);
        rows
    }

    /// The leaf nodes `depth` plies below the position; `SURVIVING`: the turns above the
    /// last ply may be listed by the replies' reading (see [`Position::list_surviving`]).
    fn count_to<const SURVIVING: bool>(
        &mut self,
        position: &mut Position<'_>,
        depth: usize,
    ) -> u64 {
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
        // Perft counts below each turn whatever their order.
        if !(SURVIVING && position.list_surviving(&mut list)) {
            position.legal_turns(&mut list);
        }
        let mut nodes = 0;
        for turn in &list {
            if self.stopped() || position.turns_overflowed() {
                break;
            }
            // The turns after this one are listed unless they are the last ply's, counted.
            position.set_lists_next(depth > 2);
            position.make(turn);
            nodes += self.count_to::<SURVIVING>(position, depth - 1);
            position.unmake();
        }
        self.lists[depth] = list;
        nodes
    }
}
