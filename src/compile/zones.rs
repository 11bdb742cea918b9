//! Zones evaluated into square sets, once per player.

use super::geometry::Geometry;
use crate::syntax::ast::*;

/// Evaluates `expr` for `player` (who faces `forward`), over every square of the board.
pub fn evaluate(
    expr: &ZoneExpr,
    player: usize,
    forward: Option<Compass>,
    geometry: &Geometry,
    file: &RuleFile,
) -> Vec<bool> {
    (0..geometry.squares())
        .map(|sq| contains(expr, player, forward, geometry, file, sq))
        .collect()
}

fn contains(
    expr: &ZoneExpr,
    player: usize,
    forward: Option<Compass>,
    geometry: &Geometry,
    file: &RuleFile,
    sq: usize,
) -> bool {
    let (f, r) = geometry.coords[sq];
    let (x, y) = (i64::from(f) + 1, i64::from(r) + 1);
    let inside = |e: &ZoneExpr| contains(e, player, forward, geometry, file, sq);
    match &expr.value {
        ZoneKind::Or(parts) => parts.iter().any(inside),
        ZoneKind::And(parts) => parts.iter().all(inside),
        ZoneKind::Not(inner) => !inside(inner),
        ZoneKind::Ranks(low, high) => {
            let rank = relative_rank(forward, geometry, f, r);
            (low.value..=high.value).contains(&rank)
        }
        ZoneKind::Files(low, high) => (*low..=*high).contains(&u32::from(f)),
        ZoneKind::Squares(items) => items.iter().any(|item| in_run(item, f, r)),
        ZoneKind::HalfPlane(lhs, comparison, rhs) => {
            let value = |l: &Linear| l.constant + l.x * x + l.y * y;
            let (a, b) = (value(lhs), value(rhs));
            match comparison {
                Comparison::Less => a < b,
                Comparison::LessEqual => a <= b,
                Comparison::Equal => a == b,
                Comparison::NotEqual => a != b,
                Comparison::GreaterEqual => a >= b,
                Comparison::Greater => a > b,
            }
        }
        ZoneKind::Any => true,
        ZoneKind::Ref(name) => {
            let Some(zone) = file.zones().find(|z| z.name.value == name.value) else {
                return false;
            };
            match &zone.definition {
                ZoneDefinition::Shared(e) => inside(e),
                ZoneDefinition::PerPlayer(cases) => {
                    let players: Vec<_> = file.players().collect();
                    cases
                        .iter()
                        .find(|(p, _)| players.get(player).is_some_and(|d| d.name.value == p.value))
                        .is_some_and(|(_, e)| inside(e))
                }
            }
        }
        // Zones that follow pieces are evaluated by the engine against a position.
        ZoneKind::NextTo(_) => false,
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

/// Whether a zone expression depends on where pieces stand. Zones defined in a circle (which
/// the checker reports) are followed only so deep.
pub fn is_dynamic(expr: &ZoneExpr, file: &RuleFile) -> bool {
    depends_on_pieces(expr, file, 0)
}

fn depends_on_pieces(expr: &ZoneExpr, file: &RuleFile, depth: usize) -> bool {
    let deeper = |e: &ZoneExpr| depth < 32 && depends_on_pieces(e, file, depth + 1);
    match &expr.value {
        ZoneKind::Or(parts) | ZoneKind::And(parts) => parts.iter().any(deeper),
        ZoneKind::Not(inner) => deeper(inner),
        ZoneKind::NextTo(_) => true,
        ZoneKind::Ref(name) => {
            file.zones()
                .filter(|z| z.name.value == name.value)
                .any(|z| match &z.definition {
                    ZoneDefinition::Shared(e) => deeper(e),
                    ZoneDefinition::PerPlayer(cases) => cases.iter().any(|(_, e)| deeper(e)),
                })
        }
        _ => false,
    }
}
