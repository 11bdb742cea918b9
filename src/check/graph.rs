//! Named things that refer to each other (zones to zones, pieces `like` pieces): their cycles,
//! and an order where each comes after what it refers to, found in time linear in the number of
//! references and without recursion, so that no chain can exhaust the stack.

/// The strongly connected components of the graph that contain a cycle, each with its nodes in
/// increasing order. `edges[n]` lists the nodes `n` refers to.
pub fn cycles(edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut tarjan = Tarjan {
        edges,
        index: vec![usize::MAX; edges.len()],
        low: vec![0; edges.len()],
        on_stack: vec![false; edges.len()],
        stack: Vec::new(),
        next: 0,
        found: Vec::new(),
    };
    for node in 0..edges.len() {
        if tarjan.index[node] == usize::MAX {
            tarjan.visit(node);
        }
    }
    tarjan.found
}

/// Every node, each after the nodes it refers to; a cycle is broken where the search first
/// meets it again.
pub fn dependency_order(edges: &[Vec<usize>]) -> Vec<usize> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        New,
        Open,
        Done,
    }
    let mut state = vec![State::New; edges.len()];
    let mut order = Vec::with_capacity(edges.len());
    for root in 0..edges.len() {
        let mut stack = vec![(root, 0usize)];
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            if state[node] == State::Done {
                stack.pop();
                continue;
            }
            state[node] = State::Open;
            if let Some(&child) = edges[node].get(*next) {
                *next += 1;
                if state[child] == State::New {
                    stack.push((child, 0));
                }
                continue;
            }
            state[node] = State::Done;
            order.push(node);
            stack.pop();
        }
    }
    order
}

struct Tarjan<'a> {
    edges: &'a [Vec<usize>],
    index: Vec<usize>,
    low: Vec<usize>,
    on_stack: Vec<bool>,
    stack: Vec<usize>,
    next: usize,
    found: Vec<Vec<usize>>,
}

impl Tarjan<'_> {
    /// Depth-first search without recursion, so that long chains cannot exhaust the stack.
    fn visit(&mut self, root: usize) {
        let mut path: Vec<(usize, usize)> = vec![(root, 0)];
        self.enter(root);
        while let Some(&mut (node, ref mut edge)) = path.last_mut() {
            if let Some(&next) = self.edges[node].get(*edge) {
                *edge += 1;
                if self.index[next] == usize::MAX {
                    self.enter(next);
                    path.push((next, 0));
                } else if self.on_stack[next] {
                    self.low[node] = self.low[node].min(self.index[next]);
                }
                continue;
            }
            path.pop();
            if let Some(&(parent, _)) = path.last() {
                self.low[parent] = self.low[parent].min(self.low[node]);
            }
            if self.low[node] == self.index[node] {
                self.close(node);
            }
        }
    }

    fn enter(&mut self, node: usize) {
        self.index[node] = self.next;
        self.low[node] = self.next;
        self.next += 1;
        self.stack.push(node);
        self.on_stack[node] = true;
    }

    fn close(&mut self, root: usize) {
        let mut component = Vec::new();
        while let Some(node) = self.stack.pop() {
            self.on_stack[node] = false;
            component.push(node);
            if node == root {
                break;
            }
        }
        let looped = component.len() > 1 || self.edges[root].contains(&root);
        if looped {
            component.sort_unstable();
            self.found.push(component);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_each_cycle_once() {
        // 0 → 1 → 2 → 0, 3 → 3, 4 → 0 (not in a cycle).
        let edges = vec![vec![1], vec![2], vec![0], vec![3], vec![0]];
        let mut found = cycles(&edges);
        found.sort();
        assert_eq!(found, vec![vec![0, 1, 2], vec![3]]);
    }

    #[test]
    fn dependencies_come_first() {
        // 0 uses 1 and 2, 1 uses 2; 3 and 4 use each other.
        let edges = vec![vec![1, 2], vec![2], vec![], vec![4], vec![3]];
        let order = dependency_order(&edges);
        let at = |n: usize| order.iter().position(|&x| x == n).unwrap();
        assert_eq!(order.len(), 5);
        assert!(at(2) < at(1) && at(1) < at(0));
    }

    #[test]
    fn long_chains_are_fine() {
        let edges: Vec<Vec<usize>> = (0..100_000).map(|i| vec![(i + 1) % 100_000]).collect();
        assert_eq!(cycles(&edges).len(), 1);
    }
}
