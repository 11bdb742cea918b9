//! Turns as compiled programs: phases, each with an ordinary turn and periodic turns, each a
//! choice of plans, each a sequence of steps. The engine runs these programs depth first and
//! never sees the syntax tree.

use super::pieces::PieceCompiler;
use super::{Gen, Kind, Mode};
use crate::syntax::ast::{self, RuleFile};

/// The most parts one turn may have. Captures by interception and other effects of a move
/// are not parts: only what the player chooses, and what a move carries along.
pub const MAX_PARTS: usize = 4;

/// When a phase hands over to the next one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhaseEnd {
    /// The last phase, played until the game ends.
    Never,
    /// Once every mover has played one turn.
    Once,
    /// Once every mover's hand is empty.
    HandEmpty,
}

/// One phase of the game.
#[derive(Clone, Debug)]
pub struct Phase {
    pub name: String,
    /// The players who move in this phase, in turn order.
    pub movers: Vec<usize>,
    pub end: PhaseEnd,
    pub ordinary: Vec<Plan>,
    /// Periodic turns, longest period first: a player's turn `n` of the phase is the first
    /// whose period divides `n`.
    pub periodic: Vec<(u32, Vec<Plan>)>,
    /// Each player's count of turns in the phase matters modulo this (1: not at all).
    pub cycle: u32,
    /// Whether an ordinary turn moves pieces on the board.
    pub moves: bool,
}

impl Phase {
    /// The plans of a player's `number`th turn of the phase (counting from 1).
    pub fn plans(&self, number: u32) -> &[Plan] {
        self.periodic
            .iter()
            .find(|(period, _)| number.is_multiple_of(*period))
            .map_or(&self.ordinary, |(_, plans)| plans)
    }
}

/// Steps carried out in order; a turn carries out one plan of its turn kind.
#[derive(Clone, Debug)]
pub struct Plan {
    pub steps: Vec<Step>,
}

#[derive(Clone, Debug)]
pub struct Step {
    /// The turn may leave this step out.
    pub optional: bool,
    /// The step is allowed only while the player's count of this counter is not zero.
    pub condition: Option<u16>,
    pub action: Action,
}

/// What one step of a turn does. Piece sets are masks of kinds.
#[derive(Clone, Debug)]
pub enum Action {
    Move {
        pieces: u64,
    },
    Drop {
        pieces: u64,
        zone: Option<DropZone>,
    },
    /// The piece that just moved shoots; the first case whose tag matches the move applies.
    Shoot(Vec<ArrowCase>),
    Unblock,
    Remove {
        enemy: bool,
        /// (kinds whose presence selects the group, kinds it may remove); the last group has
        /// no condition.
        groups: Vec<(u64, u64)>,
    },
    Pie,
    Pass,
}

/// Steps that follow a move of one of `pieces` into `zone` from outside it, after the move's
/// other captures.
#[derive(Clone, Debug)]
pub struct Trigger {
    pub zone: u16,
    pub pieces: u64,
    pub plans: Vec<Plan>,
}

/// Where a drop step may place a piece.
#[derive(Clone, Copy, Debug)]
pub enum DropZone {
    /// A zone of fixed squares.
    Fixed(u16),
    /// The squares next to the player's pieces of these kinds, as the board stands.
    NextTo(u64),
}

/// An arrow's flight after moves with one tag (any move when `tag` is `None`), per player.
#[derive(Clone, Debug)]
pub struct ArrowCase {
    pub tag: Option<u16>,
    pub flights: Vec<Vec<Gen>>,
}

/// Every kind whose piece has one of these names, promoted kinds included.
pub fn kinds_named<'n>(kinds: &[Kind], names: impl IntoIterator<Item = &'n str>) -> u64 {
    names.into_iter().fold(0, |mask, name| {
        kinds
            .iter()
            .enumerate()
            .filter(|(_, k)| k.name == name)
            .fold(mask, |m, (i, _)| m | 1 << i)
    })
}

/// Every kind, as a mask.
pub fn all_kinds(kinds: &[Kind]) -> u64 {
    (1u64 << kinds.len()) - 1
}

pub(super) struct TurnCompiler<'c, 'a> {
    pub pieces: &'c mut PieceCompiler<'a>,
    pub kinds: &'c [Kind],
    pub players: &'c [String],
    pub file: &'a RuleFile,
}

impl TurnCompiler<'_, '_> {
    pub fn phases(&mut self) -> Vec<Phase> {
        let file = self.file;
        let phases: Vec<&ast::Phase> = file.phases().collect();
        if phases.is_empty() {
            let turns: Vec<&ast::Turn> = file.turns().collect();
            return vec![self.phase("play", &[], None, &turns)];
        }
        phases
            .into_iter()
            .map(|p| {
                let turns: Vec<&ast::Turn> = p.turns.iter().collect();
                self.phase(&p.name.value, &p.movers, p.end.as_ref(), &turns)
            })
            .collect()
    }

    pub fn triggers(&mut self) -> Vec<Trigger> {
        let file = self.file;
        file.triggers()
            .map(|trigger| Trigger {
                zone: self.pieces.zone(&trigger.zone),
                pieces: self.named(&trigger.pieces),
                plans: self.plans(&trigger.body),
            })
            .collect()
    }

    fn phase(
        &mut self,
        name: &str,
        movers: &[ast::Name],
        end: Option<&ast::Spanned<ast::PhaseEnd>>,
        turns: &[&ast::Turn],
    ) -> Phase {
        let movers = match movers {
            [] => (0..self.players.len()).collect(),
            named => {
                let mut listed: Vec<usize> = named
                    .iter()
                    .filter_map(|n| self.players.iter().position(|p| *p == n.value))
                    .collect();
                listed.sort();
                listed
            }
        };
        let end = match end.map(|e| e.value) {
            None => PhaseEnd::Never,
            Some(ast::PhaseEnd::Once) => PhaseEnd::Once,
            Some(ast::PhaseEnd::UntilHandEmpty) => PhaseEnd::HandEmpty,
        };
        let ordinary = match turns.iter().find(|t| t.every.is_none()) {
            Some(turn) => self.plans(&turn.body),
            // A file that writes no turn moves a piece each turn.
            None => vec![Plan {
                steps: vec![Step {
                    optional: false,
                    condition: None,
                    action: Action::Move {
                        pieces: all_kinds(self.kinds),
                    },
                }],
            }],
        };
        let mut periodic: Vec<(u32, Vec<Plan>)> = turns
            .iter()
            .filter_map(|t| t.every.as_ref().map(|e| (e.value, self.plans(&t.body))))
            .collect();
        periodic.sort_by_key(|&(period, _)| std::cmp::Reverse(period));
        let mut cycle = periodic.iter().fold(1, |c, &(p, _)| lcm(c, p));
        if end == PhaseEnd::Once {
            cycle = lcm(cycle, 2);
        }
        let moves = ordinary.iter().any(|plan| {
            plan.steps
                .iter()
                .any(|s| matches!(s.action, Action::Move { .. }))
        });
        Phase {
            name: name.to_string(),
            movers,
            end,
            ordinary,
            periodic,
            cycle,
            moves,
        }
    }

    fn plans(&mut self, body: &ast::TurnBody) -> Vec<Plan> {
        body.plans
            .iter()
            .map(|plan| Plan {
                steps: plan
                    .steps
                    .iter()
                    .map(|step| Step {
                        optional: step.optional,
                        condition: step.condition.as_ref().and_then(|name| {
                            self.file
                                .counters()
                                .position(|c| c.name.value == name.value)
                                .map(|i| i as u16)
                        }),
                        action: self.action(&step.action.value),
                    })
                    .collect(),
            })
            .collect()
    }

    fn named(&self, names: &[ast::Name]) -> u64 {
        match names {
            [] => all_kinds(self.kinds),
            _ => kinds_named(self.kinds, names.iter().map(|n| n.value.as_str())),
        }
    }

    fn action(&mut self, action: &ast::Action) -> Action {
        match action {
            ast::Action::Move(pieces) => Action::Move {
                pieces: self.named(pieces),
            },
            ast::Action::Drop(pieces, zone) => Action::Drop {
                pieces: self.named(pieces),
                zone: zone.as_ref().map(|z| match &z.value {
                    ast::ZoneKind::NextTo(piece) => {
                        DropZone::NextTo(kinds_named(self.kinds, [piece.value.as_str()]))
                    }
                    _ => DropZone::Fixed(self.pieces.zone(z)),
                }),
            },
            ast::Action::Shoot(ast::Shot::Always(rules)) => {
                Action::Shoot(vec![self.arrow_case(None, rules)])
            }
            ast::Action::Shoot(ast::Shot::ByTag(cases)) => Action::Shoot(
                cases
                    .iter()
                    .map(|case| {
                        let tag = self.pieces.tag(&case.tag.value);
                        self.arrow_case(Some(tag), &case.rules)
                    })
                    .collect(),
            ),
            ast::Action::Unblock => Action::Unblock,
            ast::Action::Remove(removal) => self.removal(removal),
            ast::Action::Pie => Action::Pie,
            ast::Action::Pass => Action::Pass,
        }
    }

    fn arrow_case(&mut self, tag: Option<u16>, rules: &[ast::MoveRule]) -> ArrowCase {
        let flights = (0..self.players.len())
            .map(|player| {
                rules
                    .iter()
                    .flat_map(|r| self.pieces.gens(r, player, None))
                    .map(|g| Gen {
                        mode: Mode::MoveOnly,
                        ..g
                    })
                    .collect()
            })
            .collect();
        ArrowCase { tag, flights }
    }

    fn removal(&self, removal: &ast::Removal) -> Action {
        let except = kinds_named(self.kinds, removal.except.iter().map(|n| n.value.as_str()));
        let all = all_kinds(self.kinds) & !except;
        let mut groups: Vec<(u64, u64)> = removal
            .groups
            .iter()
            .map(|group| {
                let first = group
                    .first()
                    .map_or(all, |n| kinds_named(self.kinds, [n.value.as_str()]));
                (first, self.named(group) & !except)
            })
            .collect();
        match groups.last_mut() {
            Some(last) => last.0 = all_kinds(self.kinds),
            None => groups.push((all_kinds(self.kinds), all)),
        }
        Action::Remove {
            enemy: removal.side.value == ast::Side::Enemy,
            groups,
        }
    }
}

fn lcm(a: u32, b: u32) -> u32 {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    (a / x).saturating_mul(b)
}
