//! Turns: counters, the actions of a turn, phases and triggers.

use super::checked::{self, CounterId, PlayerId, TagId};
use super::pieces::{RuleContext, RuleOrLike};
use super::zones::ForPlayers;
use super::{Checker, DirectionUse};
use crate::diagnostic::{Code, Problem};
use crate::syntax::ast::*;

/// Where a turn body stands, which limits the actions it may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BodyContext {
    Turn,
    /// A phase played once per player, where a pie choice belongs.
    OnceTurn,
    Trigger,
}

impl Checker<'_> {
    pub(super) fn check_counter(&mut self, counter: &Counter) -> Option<checked::Counter> {
        if let Some(limit) = counter.limit.as_ref().filter(|l| l.value == 0) {
            self.error(
                Problem::error(
                    Code::CounterLimitZero,
                    "a limit of 0 forbids every counted move",
                    limit.span,
                    "limit 0",
                )
                .with_help("a limit is the most a counter may reach: 1 or more"),
            );
        }
        if counter.rules.is_empty() {
            self.error(Problem::warning(
                Code::CounterNeverChanges,
                format!("counter `{}` never changes", counter.name.value),
                counter.name.span,
                "no rules inside",
            ));
        }
        let mut rules = Some(Vec::new());
        for (i, rule) in counter.rules.iter().enumerate() {
            if let Some(earlier) = counter.rules[..i]
                .iter()
                .find(|r| r.event.value == rule.event.value)
            {
                self.error(
                    Problem::error(
                        Code::CounterEventTwice,
                        "this event is already counted",
                        rule.event.span,
                        "never reached",
                    )
                    .with_note(
                        earlier.event.span,
                        "the first matching rule applies, and this one matches first",
                    ),
                );
            }
            let event = self.check_counter_event(&rule.event);
            match (event, &mut rules) {
                (Some(event), Some(rules)) => rules.push((event, rule.action.value)),
                (None, _) => rules = None,
                (Some(_), None) => {}
            }
        }
        Some(checked::Counter {
            name: counter.name.value.clone(),
            limit: counter.limit.as_ref().map(|l| l.value),
            rules: rules?,
        })
    }

    fn check_counter_event(
        &mut self,
        event: &Spanned<CounterEvent>,
    ) -> Option<checked::CounterEvent> {
        use checked::CounterEvent as Resolved;
        match &event.value {
            CounterEvent::Move(directions) => Some(Resolved::Move(self.check_directions(
                directions,
                event.span,
                DirectionUse::Lines,
            ))),
            CounterEvent::Lost(piece) => self.piece(piece).map(Resolved::Lost),
            CounterEvent::Checked => {
                if !self.has_royal() {
                    self.error(
                        Problem::error(
                            Code::CheckedWithoutRoyal,
                            "`checked` with no royal piece",
                            event.span,
                            "nothing can be checked",
                        )
                        .with_help("mark the king `royal`"),
                    );
                }
                Some(Resolved::Checked)
            }
            CounterEvent::TurnEnd => Some(Resolved::TurnEnd),
        }
    }

    /// Top-level turns form one implicit phase, named `play`, with every player; phases must not
    /// be mixed with them. A file that writes no turn moves a piece each turn.
    pub(super) fn check_turn_structure(&mut self) -> Option<Vec<checked::Phase>> {
        let file = self.file;
        let turns: Vec<&Turn> = file.turns().collect();
        let phases: Vec<&Phase> = file.phases().collect();
        if let (Some(turn), Some(phase)) = (turns.first(), phases.first()) {
            self.error(
                Problem::error(
                    Code::TurnOutsidePhases,
                    "a turn outside the phases",
                    turn.span,
                    "this turn belongs to no phase",
                )
                .with_note(phase.name.span, "the game is played in phases")
                .with_help("move the turn into the phase where it is played"),
            );
        }
        let implicit = match turns.is_empty() {
            true => Some(PhaseTurns {
                ordinary: vec![move_any_piece()],
                periodic: Vec::new(),
            }),
            false => self.check_turns(&turns, None, BodyContext::Turn),
        };
        let mut resolved = Some(Vec::new());
        for (index, phase) in phases.iter().enumerate() {
            match (self.check_phase(phase), &mut resolved) {
                (Some(phase), Some(resolved)) => resolved.push(phase),
                (None, _) => resolved = None,
                (Some(_), None) => {}
            }
            if phase.end.is_none()
                && let Some(next) = phases.get(index + 1)
            {
                self.error(
                    Problem::error(
                        Code::PhaseNeverStarts,
                        format!("phase `{}` never starts", next.name.value),
                        next.name.span,
                        "unreachable",
                    )
                    .with_note(phase.name.span, "this phase before it never ends")
                    .with_help("end the earlier phase with `once` or `until hand-empty`"),
                );
            }
        }
        if !phases.is_empty() {
            return resolved;
        }
        let PhaseTurns { ordinary, periodic } = implicit?;
        Some(vec![checked::Phase {
            name: "play".to_string(),
            movers: (0..self.player_decls.len()).map(PlayerId).collect(),
            end: None,
            ordinary,
            periodic,
        }])
    }

    fn check_phase(&mut self, phase: &Phase) -> Option<checked::Phase> {
        let mut seen: Vec<&Name> = Vec::new();
        let mut movers = Some(Vec::new());
        for mover in &phase.movers {
            if self.listed_before(&seen, mover) {
                continue;
            }
            seen.push(mover);
            match (self.player(mover), &mut movers) {
                (Some(player), Some(movers)) => movers.push(player),
                (None, _) => movers = None,
                (Some(_), None) => {}
            }
        }
        if let Some(end) = &phase.end
            && end.value == PhaseEnd::UntilHandEmpty
            && !self.hands_used
        {
            self.error(Problem::error(
                Code::HandEmptyWithoutHands,
                "this phase waits for empty hands, but no piece is ever in hand",
                end.span,
                "already true",
            ));
        }
        let turns: Vec<&Turn> = phase.turns.iter().collect();
        let context = if phase
            .end
            .as_ref()
            .is_some_and(|e| e.value == PhaseEnd::Once)
        {
            BodyContext::OnceTurn
        } else {
            BodyContext::Turn
        };
        let PhaseTurns { ordinary, periodic } = self.check_turns(&turns, Some(phase), context)?;
        let mut movers = movers?;
        // Players move in turn order, however the phase lists them; by default, all move.
        movers.sort();
        if movers.is_empty() {
            movers = (0..self.player_decls.len()).map(PlayerId).collect();
        }
        Some(checked::Phase {
            name: phase.name.value.clone(),
            movers,
            end: phase.end.as_ref().map(|e| e.value),
            ordinary,
            periodic,
        })
    }

    /// The turns of one phase: one ordinary turn, and periodic turns with distinct periods.
    fn check_turns(
        &mut self,
        turns: &[&Turn],
        phase: Option<&Phase>,
        context: BodyContext,
    ) -> Option<PhaseTurns> {
        let ordinary: Vec<&&Turn> = turns.iter().filter(|t| t.every.is_none()).collect();
        if let [first, second, ..] = ordinary.as_slice() {
            let message = match phase {
                Some(phase) => format!("two ordinary turns in phase `{}`", phase.name.value),
                None => "two ordinary turns".to_string(),
            };
            self.error(
                Problem::error(Code::OrdinaryTurnTwice, message, second.span, "second turn")
                    .with_note(first.span, "first turn")
                    .with_help("give the turn alternatives with `or` inside one `turn { ... }`"),
            );
        }
        if ordinary.is_empty() {
            let span = phase.map_or(turns[0].span, |p| p.name.span);
            self.error(Problem::error(
                Code::NoOrdinaryTurn,
                "no ordinary turn",
                span,
                "periodic turns need an ordinary turn for the other turns",
            ));
        }
        let mut ordinary_plans = None;
        let mut periodic = Some(Vec::new());
        for (index, turn) in turns.iter().enumerate() {
            if let Some(every) = &turn.every {
                self.check_period(every, &turns[..index]);
            }
            let plans = self.check_body(&turn.body, context);
            match (turn.every.as_ref(), plans) {
                (None, plans) => ordinary_plans = ordinary_plans.or(Some(plans)),
                (Some(every), Some(plans)) => {
                    if let Some(periodic) = &mut periodic {
                        periodic.push((every.value, plans));
                    }
                }
                (Some(_), None) => periodic = None,
            }
        }
        Some(PhaseTurns {
            ordinary: ordinary_plans??,
            periodic: periodic?,
        })
    }

    fn check_period(&mut self, every: &Spanned<u32>, earlier: &[&Turn]) {
        if every.value < 2 {
            self.error(
                Problem::error(
                    Code::PeriodTooShort,
                    "a period below 2 replaces every turn",
                    every.span,
                    "period too short",
                )
                .with_help("write the turn as the ordinary `turn { ... }`"),
            );
        }
        let clash = earlier
            .iter()
            .filter_map(|t| t.every.as_ref())
            .find(|e| e.value == every.value);
        if let Some(clash) = clash {
            self.error(
                Problem::error(
                    Code::PeriodTwice,
                    "two turns with the same period",
                    every.span,
                    "again",
                )
                .with_note(clash.span, "first here"),
            );
        }
    }

    fn check_body(&mut self, body: &TurnBody, context: BodyContext) -> Option<Vec<checked::Plan>> {
        let mut plans = Some(Vec::new());
        for plan in &body.plans {
            if plan.steps.iter().all(|s| s.optional) {
                self.error(
                    Problem::error(
                        Code::TurnMayDoNothing,
                        "a turn that may do nothing",
                        plan.span,
                        "every step is optional",
                    )
                    .with_help("make one step compulsory, or add `or pass` if passing is allowed"),
                );
            }
            let mut moved = false;
            let mut steps = Some(Vec::new());
            for step in &plan.steps {
                match (self.check_step(step, context, moved), &mut steps) {
                    (Some(step), Some(steps)) => steps.push(step),
                    (None, _) => steps = None,
                    (Some(_), None) => {}
                }
                moved |= matches!(step.action.value, Action::Move(_));
            }
            match (steps, &mut plans) {
                (Some(steps), Some(plans)) => plans.push(checked::Plan {
                    steps,
                    tier: plan.tier,
                    span: plan.span,
                }),
                (None, _) => plans = None,
                (Some(_), None) => {}
            }
        }
        plans
    }

    fn check_step(
        &mut self,
        step: &TurnStep,
        context: BodyContext,
        after_move: bool,
    ) -> Option<checked::Step> {
        // Resolved now, and used at the end, so that an unknown counter does not hide what
        // else is wrong with the step.
        let condition = step
            .condition
            .as_ref()
            .map(|counter| self.counters.resolve(counter, &mut self.problems));
        let span = step.action.span;
        if context == BodyContext::Trigger
            && !matches!(step.action.value, Action::Remove(_) | Action::Unblock)
        {
            self.error(
                Problem::error(
                    Code::TriggerAction,
                    "a trigger only removes or unblocks",
                    span,
                    "not here",
                )
                .with_help(
                    "triggers act on the position after a move; they make no moves themselves",
                ),
            );
            return None;
        }
        let action = match &step.action.value {
            Action::Move(pieces) => checked::Action::Move(self.piece_list(pieces)?),
            Action::Drop(pieces, zone) => self.check_drop_action(span, pieces, zone.as_ref())?,
            Action::Gate(pieces, zone) => {
                self.check_gate_action(span, pieces, zone.as_ref(), after_move)?
            }
            Action::Shoot(shot) => checked::Action::Shoot(self.check_shot(span, shot, after_move)?),
            Action::Remove(removal) => checked::Action::Remove(self.check_removal(removal)?),
            Action::Pie => {
                self.check_pie(span, context);
                checked::Action::Pie
            }
            Action::Unblock => checked::Action::Unblock,
            Action::Pass => checked::Action::Pass,
        };
        let condition = match condition {
            Some(counter) => Some(CounterId(counter?)),
            None => None,
        };
        Some(checked::Step {
            optional: step.optional,
            condition,
            action,
        })
    }

    fn check_drop_action(
        &mut self,
        span: Span,
        pieces: &[Name],
        zone: Option<&ZoneExpr>,
    ) -> Option<checked::Action> {
        let pieces = self.pieces_from_hand(span, pieces);
        let zone = zone.map(|zone| self.check_zone_expr(zone, ForPlayers::All));
        let zone = match zone {
            Some(zone) => Some(match zone? {
                checked::ZoneExpr::NextTo(piece) => checked::DropZone::NextTo(piece),
                zone => checked::DropZone::Zone(zone),
            }),
            None => None,
        };
        Some(checked::Action::Drop(pieces?, zone))
    }

    /// The pieces a step takes from hand, in a game where something can be in hand.
    fn pieces_from_hand(&mut self, span: Span, pieces: &[Name]) -> Option<Vec<checked::PieceId>> {
        let pieces = self.piece_list(pieces);
        if !self.hands_used {
            self.error(
                Problem::error(Code::DropWithoutHand, "nothing can ever be dropped", span, "no piece is ever in hand")
                    .with_help("captures go to hand with `capture to-hand`, or a setup can give a `hand { ... }`"),
            );
        }
        pieces
    }

    fn check_gate_action(
        &mut self,
        span: Span,
        pieces: &[Name],
        zone: Option<&ZoneExpr>,
        after_move: bool,
    ) -> Option<checked::Action> {
        if !after_move {
            self.error(
                Problem::error(
                    Code::GateBeforeMove,
                    "`gate` must follow `move`",
                    span,
                    "nothing has moved yet",
                )
                .with_help(
                    "a piece enters on the square the move leaves: `move then optional gate`",
                ),
            );
        }
        let pieces = self.pieces_from_hand(span, pieces);
        let zone = zone.map(|zone| self.check_zone_expr(zone, ForPlayers::All));
        let zone = match zone {
            Some(zone) => Some(zone?),
            None => None,
        };
        Some(checked::Action::Gate(pieces?, zone))
    }

    fn check_shot(
        &mut self,
        span: Span,
        shot: &Shot,
        after_move: bool,
    ) -> Option<Vec<checked::ArrowCase>> {
        if !after_move {
            self.error(
                Problem::error(
                    Code::ShootBeforeMove,
                    "`shoot` must follow `move`",
                    span,
                    "nothing has moved yet",
                )
                .with_help(
                    "the arrow is shot by the piece that just moved: `move then shoot { ... }`",
                ),
            );
        }
        match shot {
            Shot::Always(rules) => Some(vec![checked::ArrowCase {
                tag: None,
                rules: self.check_arrow_rules(rules)?,
            }]),
            Shot::ByTag(cases) => {
                let mut resolved = Some(Vec::new());
                for (index, case) in cases.iter().enumerate() {
                    if let Some(first) = cases[..index]
                        .iter()
                        .find(|c| c.tag.value == case.tag.value)
                    {
                        self.error(
                            Problem::error(
                                Code::ArrowTagTwice,
                                "this move tag already has an arrow",
                                case.tag.span,
                                "again",
                            )
                            .with_note(first.tag.span, "first here"),
                        );
                    }
                    let tag = self.tags.resolve(&case.tag, &mut self.problems);
                    let rules = self.check_arrow_rules(&case.rules);
                    match (tag.zip(rules), &mut resolved) {
                        (Some((tag, rules)), Some(resolved)) => resolved.push(checked::ArrowCase {
                            tag: Some(TagId(tag)),
                            rules,
                        }),
                        (None, _) => resolved = None,
                        (Some(_), None) => {}
                    }
                }
                resolved
            }
        }
    }

    fn check_arrow_rules(&mut self, rules: &[MoveRule]) -> Option<Vec<checked::MoveRule>> {
        let mut resolved = Some(Vec::new());
        for rule in rules {
            if matches!(
                rule.atom.value,
                Atom::Hop(..) | Atom::Anywhere | Atom::Like(_)
            ) {
                self.error(
                    Problem::error(
                        Code::ArrowAtom,
                        "an arrow flies by step, slide, leap or ride",
                        rule.atom.span,
                        "not this way",
                    )
                    .with_help("write the arrow's lines out, such as `slide all`"),
                );
                resolved = None;
                continue;
            }
            // A `like` was refused above: an arrow's flight is written out.
            let checked = self.check_move_rule(rule, RuleContext::Arrow, None);
            match (checked, &mut resolved) {
                (Some(RuleOrLike::Rule(rule)), Some(resolved)) => resolved.push(*rule),
                (Some(RuleOrLike::Rule(_)), None) => {}
                (Some(RuleOrLike::Like(_)) | None, _) => resolved = None,
            }
        }
        resolved
    }

    fn check_removal(&mut self, removal: &Removal) -> Option<checked::Removal> {
        let groups: Vec<Option<Vec<_>>> = removal
            .groups
            .iter()
            .map(|group| self.piece_list(group))
            .collect();
        let except = self.piece_list(&removal.except);
        Some(checked::Removal {
            enemy: removal.side.value == Side::Enemy,
            groups: groups.into_iter().collect::<Option<_>>()?,
            except: except?,
        })
    }

    fn check_pie(&mut self, span: Span, context: BodyContext) {
        if self.player_decls.len() != 2 {
            self.error(Problem::error(
                Code::PieNeedsTwoPlayers,
                "the pie choice is for two players",
                span,
                format!("this game has {} players", self.player_decls.len()),
            ));
        }
        if context != BodyContext::OnceTurn {
            self.error(
                Problem::error(
                    Code::PieNotOnce,
                    "`pie` belongs to a phase played once",
                    span,
                    "offered every turn here",
                )
                .with_help(
                    "put it in its own phase: `phase choice by Black once { turn { pie } }`",
                ),
            );
        }
    }

    pub(super) fn check_trigger(&mut self, trigger: &Trigger) -> Option<checked::Trigger> {
        let zone = self.check_zone_expr(&trigger.zone, ForPlayers::All);
        let pieces = self.piece_list(&trigger.pieces);
        let plans = self.check_body(&trigger.body, BodyContext::Trigger);
        Some(checked::Trigger {
            zone: zone?,
            pieces: pieces?,
            plans: plans?,
        })
    }
}

/// The turns of a phase, resolved.
struct PhaseTurns {
    ordinary: Vec<checked::Plan>,
    periodic: Vec<(u32, Vec<checked::Plan>)>,
}

/// The turn of a file that writes none: a move of any piece.
fn move_any_piece() -> checked::Plan {
    checked::Plan {
        steps: vec![checked::Step {
            optional: false,
            condition: None,
            action: checked::Action::Move(Vec::new()),
        }],
        tier: 0,
        span: Span::new(0, 0),
    }
}
