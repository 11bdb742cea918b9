//! Cycles among named things that refer to each other (zones to zones, pieces `like` pieces),
//! found in time linear in the number of references.

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
    fn long_chains_are_fine() {
        let edges: Vec<Vec<usize>> = (0..100_000).map(|i| vec![(i + 1) % 100_000]).collect();
        assert_eq!(cycles(&edges).len(), 1);
    }
}
