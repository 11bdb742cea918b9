//! Zones evaluated into square sets, once per player. Named zones are evaluated once each, in
//! an order where every zone comes after the zones it uses, so no chain or fan of references
//! costs more than its size.

use super::geometry::Geometry;
use crate::syntax::ast::*;
use std::collections::{HashMap, HashSet};

/// Every named zone of a file, evaluated for every player.
pub struct Zones<'a> {
    geometry: &'a Geometry,
    forward: &'a [Option<Compass>],
    /// `named[zone][player][square]`.
    named: HashMap<&'a str, Vec<Vec<bool>>>,
}

impl<'a> Zones<'a> {
    pub fn new(file: &'a RuleFile, geometry: &'a Geometry, forward: &'a [Option<Compass>]) -> Self {
        let mut zones = Zones {
            geometry,
            forward,
            named: HashMap::new(),
        };
        let players: Vec<&str> = file.players().map(|p| p.name.value.as_str()).collect();
        for zone in dependency_order(file) {
            let sets = (0..forward.len())
                .map(|player| match &zone.definition {
                    ZoneDefinition::Shared(expr) => zones.evaluate(expr, player),
                    ZoneDefinition::PerPlayer(cases) => cases
                        .iter()
                        .find(|(p, _)| players.get(player) == Some(&p.value.as_str()))
                        .map_or_else(
                            || vec![false; geometry.squares()],
                            |(_, e)| zones.evaluate(e, player),
                        ),
                })
                .collect();
            zones.named.insert(&zone.name.value, sets);
        }
        zones
    }

    /// The squares of `expr` for `player`.
    pub fn evaluate(&self, expr: &ZoneExpr, player: usize) -> Vec<bool> {
        let squares = self.geometry.squares();
        let each = |test: &dyn Fn(u8, u8) -> bool| -> Vec<bool> {
            self.geometry
                .coords
                .iter()
                .map(|&(f, r)| test(f, r))
                .collect()
        };
        match &expr.value {
            ZoneKind::Or(parts) => self.combine(parts, player, |a, b| a || b, false),
            ZoneKind::And(parts) => self.combine(parts, player, |a, b| a && b, true),
            ZoneKind::Not(inner) => self
                .evaluate(inner, player)
                .into_iter()
                .map(|x| !x)
                .collect(),
            ZoneKind::Ranks(low, high) => {
                let forward = self.forward[player];
                each(&|f, r| {
                    (low.value..=high.value).contains(&relative_rank(forward, self.geometry, f, r))
                })
            }
            ZoneKind::Files(low, high) => each(&|f, _| (*low..=*high).contains(&u32::from(f))),
            ZoneKind::Squares(items) => each(&|f, r| items.iter().any(|item| in_run(item, f, r))),
            ZoneKind::HalfPlane(lhs, comparison, rhs) => each(&|f, r| {
                let (x, y) = (i64::from(f) + 1, i64::from(r) + 1);
                let value = |l: &Linear| l.constant + l.x * x + l.y * y;
                compare(value(lhs), *comparison, value(rhs))
            }),
            ZoneKind::Any => vec![true; squares],
            ZoneKind::Ref(name) => self
                .named
                .get(name.value.as_str())
                .and_then(|sets| sets.get(player).cloned())
                .unwrap_or_else(|| vec![false; squares]),
            // Zones that follow pieces are for the engine to evaluate against a position.
            ZoneKind::NextTo(_) => vec![false; squares],
        }
    }

    fn combine(
        &self,
        parts: &[ZoneExpr],
        player: usize,
        op: fn(bool, bool) -> bool,
        start: bool,
    ) -> Vec<bool> {
        let mut out = vec![start; self.geometry.squares()];
        for part in parts {
            for (o, x) in out.iter_mut().zip(self.evaluate(part, player)) {
                *o = op(*o, x);
            }
        }
        out
    }
}

fn compare(a: i64, comparison: Comparison, b: i64) -> bool {
    match comparison {
        Comparison::Less => a < b,
        Comparison::LessEqual => a <= b,
        Comparison::Equal => a == b,
        Comparison::NotEqual => a != b,
        Comparison::GreaterEqual => a >= b,
        Comparison::Greater => a > b,
    }
}

fn in_run(item: &SquareItem, f: u8, r: u8) -> bool {
    let to = item.to.unwrap_or(item.from);
    let (f, r) = (u32::from(f), u32::from(r));
    let files = item.from.file.min(to.file)..=item.from.file.max(to.file);
    let ranks = item.from.rank.min(to.rank)..=item.from.rank.max(to.rank);
    files.contains(&f) && ranks.contains(&r)
}

/// The one-based rank of a square counted from the player's own side.
pub fn relative_rank(forward: Option<Compass>, geometry: &Geometry, f: u8, r: u8) -> u32 {
    let (f, r) = (u32::from(f), u32::from(r));
    match forward.unwrap_or(Compass::North) {
        Compass::North => r + 1,
        Compass::South => geometry.height - r,
        Compass::East => f + 1,
        Compass::West => geometry.width - f,
    }
}

/// Named zones, each after every zone it refers to (cycles, which the checker reports, are
/// broken anywhere). Iterative, so no chain of zones can exhaust the stack.
fn dependency_order(file: &RuleFile) -> Vec<&Zone> {
    let zones: Vec<&Zone> = file.zones().collect();
    let edges = zone_edges(&zones);
    let mut state = vec![0u8; zones.len()]; // 0 new, 1 open, 2 done
    let mut order = Vec::with_capacity(zones.len());
    for root in 0..zones.len() {
        let mut stack = vec![(root, 0usize)];
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            if state[node] == 2 {
                stack.pop();
                continue;
            }
            state[node] = 1;
            if let Some(&child) = edges[node].get(*next) {
                *next += 1;
                if state[child] == 0 {
                    stack.push((child, 0));
                }
                continue;
            }
            state[node] = 2;
            order.push(zones[node]);
            stack.pop();
        }
    }
    order
}

/// The names of zones that depend on where pieces stand, directly or through other zones.
pub fn dynamic_zones(file: &RuleFile) -> HashSet<String> {
    let zones: Vec<&Zone> = file.zones().collect();
    let mut users: HashMap<&str, Vec<&str>> = HashMap::new();
    for zone in &zones {
        for used in zone.references() {
            users.entry(used).or_default().push(&zone.name.value);
        }
    }
    let mut dynamic: HashSet<String> = HashSet::new();
    let mut queue: Vec<&str> = zones
        .iter()
        .filter(|z| match &z.definition {
            ZoneDefinition::Shared(e) => mentions_pieces(e),
            ZoneDefinition::PerPlayer(cases) => cases.iter().any(|(_, e)| mentions_pieces(e)),
        })
        .map(|z| z.name.value.as_str())
        .collect();
    while let Some(name) = queue.pop() {
        if dynamic.insert(name.to_string()) {
            queue.extend(users.get(name).into_iter().flatten());
        }
    }
    dynamic
}

/// Whether an expression itself names a piece-relative zone (not looking through names).
fn mentions_pieces(expr: &ZoneExpr) -> bool {
    match &expr.value {
        ZoneKind::Or(parts) | ZoneKind::And(parts) => parts.iter().any(mentions_pieces),
        ZoneKind::Not(inner) => mentions_pieces(inner),
        ZoneKind::NextTo(_) => true,
        _ => false,
    }
}

/// Whether an expression depends on where pieces stand, given the file's dynamic zones.
pub fn is_dynamic(expr: &ZoneExpr, dynamic: &HashSet<String>) -> bool {
    let mut names = Vec::new();
    expr.value.references(&mut names);
    mentions_pieces(expr) || names.iter().any(|n| dynamic.contains(*n))
}
