//! Turns as compiled programs: phases, each with an ordinary turn and periodic turns, each a
//! choice of plans, each a sequence of steps. The engine runs these programs depth first and
//! never sees the syntax tree.

use super::Sq;
use super::counters::{self, Counter, Headings, RoleRules};
use super::forbidden::Forbids;
use super::moves::{Gen, Mode, MoveCompiler, tag_number};
use super::pieces::kinds_of;
use super::zones::ZoneSets;
use crate::check::checked::{self, Checked, PieceId};
use crate::diagnostic::Span;

/// Everything a turn can be: the phases of the game with their turn programs, the triggers
/// that add steps after a move, and the counters that turns change.
#[derive(Clone, Debug)]
pub struct TurnTables {
    /// The phases of the game; a game without phases has one.
    pub phases: Vec<Phase>,
    pub triggers: Vec<Trigger>,
    pub counters: Vec<Counter>,
    /// The headings of moves, for the counters that count moves by direction.
    pub headings: Headings,
    /// The counters' rules as each role in a turn reads them.
    pub role_rules: RoleRules,
    /// A turn of one move of any piece: what a player could do next, for the `checked` event.
    pub move_plan: Plan,
    /// The turns `forbid` rules make illegal.
    pub forbids: Forbids,
}

impl TurnTables {
    /// Builds the turn programs, compiling their moves (arrows) through `moves`; `kinds` is
    /// every kind, as a mask.
    pub fn new(checked: &Checked, moves: &mut MoveCompiler<'_>, kinds: u64) -> TurnTables {
        let mut compiler = TurnCompiler {
            moves,
            all: kinds,
            checked,
        };
        let forms = &checked.forms;
        let counters = counters::counters(&checked.counters, |piece| kinds_of(forms, &[piece]));
        let forward = &compiler.moves.players().forward;
        TurnTables {
            phases: checked.phases.iter().map(|p| compiler.phase(p)).collect(),
            triggers: compiler.triggers(),
            headings: Headings::new(&counters, &compiler.moves.geometry, forward),
            role_rules: RoleRules::new(&counters),
            counters,
            move_plan: Plan {
                steps: vec![Step {
                    optional: false,
                    condition: None,
                    action: Action::Move { pieces: u64::MAX },
                }],
                tier: 0,
                span: Span::new(0, 0),
            },
            forbids: Forbids::new(checked),
        }
    }

    /// Whether some turn offers the pie choice.
    pub fn has_pie(&self) -> bool {
        self.phases
            .iter()
            .flat_map(|p| {
                p.ordinary
                    .iter()
                    .chain(p.periodic.iter().flat_map(|(_, plans)| plans))
            })
            .flat_map(|plan| &plan.steps)
            .any(|step| matches!(step.action, Action::Pie))
    }

    /// The zones of the gate steps (`None` for a step with no zone, open everywhere); empty
    /// when no turn gates.
    pub fn gate_zones(&self) -> Vec<Option<u16>> {
        let ordinary = self.phases.iter().flat_map(|p| &p.ordinary);
        let periodic =
            (self.phases.iter()).flat_map(|p| p.periodic.iter().flat_map(|(_, plans)| plans));
        let mut zones: Vec<Option<u16>> = (ordinary.chain(periodic))
            .flat_map(|plan| &plan.steps)
            .filter_map(|step| match step.action {
                Action::Gate { zone, .. } => Some(zone),
                _ => None,
            })
            .collect();
        zones.sort();
        zones.dedup();
        zones
    }

    /// Whether `player` may have a gate on `sq`: it lies in the zone of one of the gate steps
    /// (`zones`, from [`gate_zones`](Self::gate_zones)).
    pub fn gate_square(zones: &[Option<u16>], sets: &ZoneSets, player: usize, sq: Sq) -> bool {
        (zones.iter()).any(|zone| zone.is_none_or(|z| sets.contains(z, player, sq)))
    }

    /// Which turns two ways of making may lead to the same position, and are then one turn:
    /// where some plan takes two steps of the player's choosing whose order or split the
    /// position does not keep (two drops, a placement and a move, two arrows), the turns of
    /// several parts; where a plan moves twice, every turn (one move may equal two). A move
    /// followed by one arrow or a gate, which follow from that move, never coincide.
    pub fn coinciding(&self) -> Coinciding {
        let periodic =
            (self.phases.iter()).flat_map(|p| p.periodic.iter().flat_map(|(_, plans)| plans));
        let plans = self.phases.iter().flat_map(|p| &p.ordinary).chain(periodic);
        plans.fold(Coinciding::Never, |most, plan| {
            let steps: Vec<&Action> = (plan.steps.iter())
                .map(|step| &step.action)
                .filter(|action| {
                    !matches!(action, Action::Pass | Action::Pie | Action::Gate { .. })
                })
                .collect();
            let moves = (steps.iter())
                .filter(|a| matches!(a, Action::Move { .. }))
                .count();
            let this = match steps.as_slice() {
                _ if moves > 1 => Coinciding::Every,
                [] | [_] | [Action::Move { .. }, Action::Shoot(_)] => Coinciding::Never,
                _ => Coinciding::SeveralParts,
            };
            most.max(this)
        })
    }

    /// Whether every turn of every phase is one move or one drop on fixed squares, never left
    /// out and never waiting on a counter: the shape of turn whose legal choices can be counted
    /// from target sets without building them.
    pub fn single_moves_or_drops(&self) -> bool {
        (self.phases.iter())
            .flat_map(|p| {
                let periodic = p.periodic.iter().flat_map(|(_, plans)| plans);
                p.ordinary.iter().chain(periodic)
            })
            .all(|plan| match plan.steps.as_slice() {
                // A plan tried only when others fail is judged after them.
                _ if plan.tier > 0 => false,
                [step] => {
                    !step.optional
                        && step.condition.is_none()
                        && matches!(
                            step.action,
                            Action::Move { .. }
                                | Action::Drop {
                                    zone: None | Some(DropZone::Fixed(_)),
                                    ..
                                }
                        )
                }
                _ => false,
            })
    }
}

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

/// The plans in the order they are tried: each tier (the plans after as many `else`) only
/// when the tiers before it give nothing.
pub fn tiers(plans: &[Plan]) -> impl Iterator<Item = impl Iterator<Item = &Plan>> {
    let last = plans.iter().map(|plan| plan.tier).max().unwrap_or(0);
    (0..=last).map(move |tier| plans.iter().filter(move |plan| plan.tier == tier))
}

/// Steps carried out in order; a turn carries out one plan of its turn kind.
#[derive(Clone, Debug)]
pub struct Plan {
    pub steps: Vec<Step>,
    /// Tried only when the plans of every lower tier give no legal turn (`else`).
    pub tier: u8,
    /// Where the file writes the plan, for what is said of it after compiling.
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Step {
    /// The turn may leave this step out.
    pub optional: bool,
    /// The step is allowed only while the player's count of this counter is not zero.
    pub condition: Option<u16>,
    pub action: Action,
}

impl Step {
    /// Whether the step takes nothing off the board (an arrow, an unblocking, a pass): once
    /// only such steps are left, a turn removes no piece.
    pub fn takes_nothing(&self) -> bool {
        matches!(
            self.action,
            Action::Shoot(_) | Action::Unblock | Action::Pass
        )
    }
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
    /// A piece of `pieces` from hand enters on a gate (of `zone`, if given) that the turn's
    /// move left empty.
    Gate {
        pieces: u64,
        zone: Option<u16>,
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

/// Which turns may lead to the same position as another made differently (see
/// [`TurnTables::coinciding`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Coinciding {
    Never,
    /// Turns that place a piece or change two squares by choice.
    SeveralParts,
    /// Every turn.
    Every,
}

/// Steps that follow a move of one of `pieces` into `zone` from outside it, after the move's
/// other captures.
#[derive(Clone, Debug)]
pub struct Trigger {
    pub zone: u16,
    pub pieces: u64,
    pub plans: Vec<Plan>,
}

impl Trigger {
    /// The groups of the enemy removal the trigger makes, if it makes one: (kinds whose
    /// presence selects the group, kinds it may remove).
    pub fn enemy_removal(&self) -> Option<&[(u64, u64)]> {
        (self.plans.iter().flat_map(|plan| &plan.steps)).find_map(|step| match &step.action {
            Action::Remove {
                enemy: true,
                groups,
            } => Some(groups.as_slice()),
            _ => None,
        })
    }
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

struct TurnCompiler<'c, 'a> {
    moves: &'c mut MoveCompiler<'a>,
    /// Every kind, as a mask.
    all: u64,
    checked: &'c Checked,
}

impl TurnCompiler<'_, '_> {
    fn triggers(&mut self) -> Vec<Trigger> {
        let checked = self.checked;
        checked
            .triggers
            .iter()
            .map(|trigger| Trigger {
                zone: self.moves.zone(&trigger.zone),
                pieces: self.named(&trigger.pieces),
                plans: self.plans(&trigger.plans),
            })
            .collect()
    }

    fn phase(&mut self, phase: &checked::Phase) -> Phase {
        let end = match phase.end {
            None => PhaseEnd::Never,
            Some(checked::PhaseEnd::Once) => PhaseEnd::Once,
            Some(checked::PhaseEnd::UntilHandEmpty) => PhaseEnd::HandEmpty,
        };
        let ordinary = self.plans(&phase.ordinary);
        let mut periodic: Vec<(u32, Vec<Plan>)> = phase
            .periodic
            .iter()
            .map(|(period, plans)| (*period, self.plans(plans)))
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
            name: phase.name.clone(),
            movers: phase.movers.iter().map(|p| p.0).collect(),
            end,
            ordinary,
            periodic,
            cycle,
            moves,
        }
    }

    fn plans(&mut self, plans: &[checked::Plan]) -> Vec<Plan> {
        plans
            .iter()
            .map(|plan| Plan {
                steps: plan
                    .steps
                    .iter()
                    .map(|step| Step {
                        optional: step.optional,
                        condition: step.condition.map(|c| c.0 as u16),
                        action: self.action(&step.action),
                    })
                    .collect(),
                tier: plan.tier,
                span: plan.span,
            })
            .collect()
    }

    /// The kinds of a list of pieces; every kind when the list is empty.
    fn named(&self, pieces: &[PieceId]) -> u64 {
        match pieces {
            [] => self.all,
            _ => kinds_of(&self.checked.forms, pieces),
        }
    }

    fn action(&mut self, action: &checked::Action) -> Action {
        match action {
            checked::Action::Move(pieces) => Action::Move {
                pieces: self.named(pieces),
            },
            checked::Action::Drop(pieces, zone) => Action::Drop {
                pieces: self.named(pieces),
                zone: zone.as_ref().map(|zone| match zone {
                    checked::DropZone::NextTo(piece) => {
                        DropZone::NextTo(kinds_of(&self.checked.forms, &[*piece]))
                    }
                    checked::DropZone::Zone(zone) => DropZone::Fixed(self.moves.zone(zone)),
                }),
            },
            checked::Action::Gate(pieces, zone) => Action::Gate {
                pieces: self.named(pieces),
                zone: zone.as_ref().map(|zone| self.moves.zone(zone)),
            },
            checked::Action::Shoot(cases) => Action::Shoot(
                cases
                    .iter()
                    .map(|case| {
                        let tag = case.tag.map(|tag| tag_number(Some(tag)));
                        self.arrow_case(tag, &case.rules)
                    })
                    .collect(),
            ),
            checked::Action::Unblock => Action::Unblock,
            checked::Action::Remove(removal) => self.removal(removal),
            checked::Action::Pie => Action::Pie,
            checked::Action::Pass => Action::Pass,
        }
    }

    fn arrow_case(&mut self, tag: Option<u16>, rules: &[checked::MoveRule]) -> ArrowCase {
        let flights = (0..self.checked.players.len())
            .map(|player| {
                rules
                    .iter()
                    .flat_map(|r| self.moves.gens(r, player, None))
                    .map(|g| Gen {
                        mode: Mode::MoveOnly,
                        ..g
                    })
                    .collect()
            })
            .collect();
        ArrowCase { tag, flights }
    }

    fn removal(&self, removal: &checked::Removal) -> Action {
        let forms = &self.checked.forms;
        let except = kinds_of(forms, &removal.except);
        let all = self.all & !except;
        let mut groups: Vec<(u64, u64)> = removal
            .groups
            .iter()
            .map(|group| {
                let first = group
                    .first()
                    .map_or(all, |&piece| kinds_of(forms, &[piece]));
                (first, self.named(group) & !except)
            })
            .collect();
        match groups.last_mut() {
            Some(last) => last.0 = self.all,
            None => groups.push((self.all, all)),
        }
        Action::Remove {
            enemy: removal.enemy,
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
