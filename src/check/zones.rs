//! Zones: named and inline square sets, checked against the board and the players.

use super::checked::{self, ZoneCases, ZoneId};
use super::{Checker, graph};
use crate::diagnostic::{Code, Problem};
use crate::syntax::ast::*;

/// Whom a zone expression is evaluated for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ForPlayers {
    /// Every player in turn: a shared zone or an inline zone.
    All,
    /// One player's case of a per-player zone.
    One(usize),
}

impl Checker<'_> {
    pub(super) fn check_zone(&mut self, zone: &Zone) -> Option<checked::Zone> {
        let cases = match &zone.definition {
            ZoneDefinition::Shared(expr) => {
                ZoneCases::Shared(self.check_zone_expr(expr, ForPlayers::All)?)
            }
            ZoneDefinition::PerPlayer(cases) => self.check_zone_cases(zone, cases)?,
        };
        Some(checked::Zone {
            name: zone.name.value.clone(),
            cases,
        })
    }

    /// A zone with a case per player: the cases come out in turn order.
    fn check_zone_cases(&mut self, zone: &Zone, cases: &[(Name, ZoneExpr)]) -> Option<ZoneCases> {
        let mut by_player: Vec<Option<checked::ZoneExpr>> = vec![None; self.player_decls.len()];
        let mut seen: Vec<(&str, Span)> = Vec::new();
        for (player, expr) in cases {
            if let Some((_, first)) = seen.iter().find(|(name, _)| *name == player.value) {
                self.error(
                    Problem::error(
                        Code::ZoneCaseTwice,
                        format!(
                            "zone `{}` has two cases for `{}`",
                            zone.name.value, player.value
                        ),
                        player.span,
                        "second case",
                    )
                    .with_note(*first, "first case"),
                );
                continue;
            }
            seen.push((&player.value, player.span));
            if let Some(index) = self.players.resolve(player, &mut self.problems) {
                by_player[index] = self.check_zone_expr(expr, ForPlayers::One(index));
            }
        }
        let missing: Vec<String> = self
            .players
            .iter()
            .filter(|p| !seen.iter().any(|(name, _)| name == p))
            .map(str::to_string)
            .collect();
        for player in missing {
            self.error(
                Problem::error(
                    Code::ZoneCaseMissing,
                    format!("zone `{}` has no case for `{player}`", zone.name.value),
                    zone.name.span,
                    "a per-player zone needs a case for every player",
                )
                .with_help(format!("add `{player}: ...` to the zone")),
            );
        }
        let resolved: Option<Vec<checked::ZoneExpr>> = by_player.into_iter().collect();
        resolved.map(ZoneCases::PerPlayer)
    }

    /// Checks a zone expression, for `for_players`; resolves it when every part resolves.
    pub(super) fn check_zone_expr(
        &mut self,
        expr: &ZoneExpr,
        for_players: ForPlayers,
    ) -> Option<checked::ZoneExpr> {
        use checked::ZoneExpr as Resolved;
        match &expr.value {
            ZoneKind::Or(parts) => self.check_zone_parts(parts, for_players).map(Resolved::Or),
            ZoneKind::And(parts) => self.check_zone_parts(parts, for_players).map(Resolved::And),
            ZoneKind::Not(inner) => {
                let inner = self.check_zone_expr(inner, for_players)?;
                Some(Resolved::Not(Box::new(inner)))
            }
            ZoneKind::Ranks(low, high) => {
                self.check_ranks(expr.span, low, high, for_players);
                Some(Resolved::Ranks(low.value, high.value))
            }
            ZoneKind::Files(low, high) => {
                self.check_files(expr.span, *low, *high);
                Some(Resolved::Files(*low, *high))
            }
            ZoneKind::Squares(items) => {
                let board = self.board.clone()?;
                let cells = items
                    .iter()
                    .flat_map(|item| board.squares_of(item, &mut self.problems))
                    .map(|index| board.cell(index))
                    .collect();
                Some(Resolved::Squares(cells))
            }
            ZoneKind::NextTo(piece) => self.piece(piece).map(Resolved::NextTo),
            ZoneKind::HalfPlane(lhs, comparison, rhs) => {
                Some(Resolved::HalfPlane(*lhs, *comparison, *rhs))
            }
            ZoneKind::Any => Some(Resolved::Any),
            ZoneKind::Ref(name) => self
                .zones
                .resolve(name, &mut self.problems)
                .map(|index| Resolved::Named(ZoneId(index))),
        }
    }

    /// Checks every part, and resolves them when all resolve.
    fn check_zone_parts(
        &mut self,
        parts: &[ZoneExpr],
        for_players: ForPlayers,
    ) -> Option<Vec<checked::ZoneExpr>> {
        let resolved: Vec<Option<checked::ZoneExpr>> = parts
            .iter()
            .map(|part| self.check_zone_expr(part, for_players))
            .collect();
        resolved.into_iter().collect()
    }

    fn check_ranks(
        &mut self,
        span: Span,
        low: &Spanned<u32>,
        high: &Spanned<u32>,
        for_players: ForPlayers,
    ) {
        if low.value == 0 {
            self.error(Problem::error(
                Code::RankZero,
                "ranks count from 1",
                low.span,
                "rank 0 does not exist",
            ));
        }
        if low.value > high.value {
            self.error(Problem::error(
                Code::RankRangeEmpty,
                "empty rank range",
                span,
                format!("{} is above {}", low.value, high.value),
            ));
        }
        let players: Vec<usize> = match for_players {
            ForPlayers::All => (0..self.player_decls.len()).collect(),
            ForPlayers::One(index) => vec![index],
        };
        let facing =
            self.require_forward_of(&players, span, "ranks are counted from a player's own side");
        let Some(board) = &self.board else { return };
        // One zone is written once for all its players: report it once, naming who it fails.
        let off: Vec<(&str, Compass, u32)> = facing
            .iter()
            .map(|&(index, forward)| {
                let depth = match forward {
                    Compass::North | Compass::South => board.height,
                    Compass::East | Compass::West => board.width,
                };
                (self.player_decls[index].name.value.as_str(), forward, depth)
            })
            .filter(|&(_, _, depth)| high.value > depth)
            .collect();
        let label = match off.as_slice() {
            [] => return,
            [(_, forward, depth)] => {
                format!("facing {forward:?}, that player has {depth} ranks").to_lowercase()
            }
            [(_, _, depth), rest @ ..] if rest.iter().all(|&(_, _, d)| d == *depth) => {
                format!("they have {depth} ranks each")
            }
            _ => off
                .iter()
                .map(|(name, _, depth)| format!("`{name}` has {depth} ranks"))
                .collect::<Vec<_>>()
                .join("; "),
        };
        let who = if off.len() > 1 && off.len() == self.player_decls.len() {
            "every player".to_string()
        } else {
            let names: Vec<String> = off.iter().map(|(name, ..)| format!("`{name}`")).collect();
            match names.split_last() {
                Some((last, init)) if !init.is_empty() => format!("{} and {last}", init.join(", ")),
                _ => names.concat(),
            }
        };
        self.error(
            Problem::error(
                Code::RankOffBoard,
                format!("rank {} is off the board for {who}", high.value),
                high.span,
                label,
            )
            .local(),
        );
    }

    fn check_files(&mut self, span: Span, low: u32, high: u32) {
        let Some(board) = &self.board else { return };
        if high >= board.width || low >= board.width {
            let last = char::from(b'a' + (board.width - 1) as u8);
            self.error(
                Problem::error(
                    Code::FileOffBoard,
                    "file off the board",
                    span,
                    format!("files run from a to {last}"),
                )
                .local(),
            );
        } else if low > high {
            self.error(Problem::error(
                Code::FileRangeEmpty,
                "empty file range",
                span,
                "the files are in reverse order",
            ));
        }
    }
}

/// Reports zones defined in terms of themselves, once per cycle; gives the zones in an order
/// where each comes after the zones it uses (a cycle, reported, is broken anywhere).
pub(super) fn check_zone_cycles(checker: &mut Checker<'_>) -> Vec<ZoneId> {
    let decls = checker.zone_decls.clone();
    let refs = zone_edges(&decls);
    for cycle in graph::cycles(&refs) {
        let zone = decls[cycle[0]];
        checker.error(
            Problem::error(
                Code::ZoneCycle,
                format!("zone `{}` is defined in terms of itself", zone.name.value),
                zone.name.span,
                "this zone refers back to itself",
            )
            .with_help("a zone may use other zones, but not in a circle"),
        );
    }
    graph::dependency_order(&refs)
        .into_iter()
        .map(ZoneId)
        .collect()
}
