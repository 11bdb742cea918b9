//! Turns: counters, the actions of a turn, phases and triggers.

use super::pieces::RuleContext;
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
    pub(super) fn check_counter(&mut self, counter: &Counter) {
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
            match &rule.event.value {
                CounterEvent::Move(directions) => {
                    self.check_directions(directions, rule.event.span, DirectionUse::Lines)
                }
                CounterEvent::Lost(piece) => {
                    self.pieces.resolve(piece, &mut self.problems);
                }
                CounterEvent::Checked if !self.has_royal() => self.error(
                    Problem::error(
                        Code::CheckedWithoutRoyal,
                        "`checked` with no royal piece",
                        rule.event.span,
                        "nothing can be checked",
                    )
                    .with_help("mark the king `royal`"),
                ),
                CounterEvent::Checked | CounterEvent::TurnEnd => {}
            }
        }
    }

    /// Top-level turns form one implicit phase; phases must not be mixed with them.
    pub(super) fn check_turn_structure(&mut self) {
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
        if !turns.is_empty() {
            self.check_turns(&turns, None, BodyContext::Turn);
        }
        for (index, phase) in phases.iter().enumerate() {
            self.check_phase(phase);
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
    }

    fn check_phase(&mut self, phase: &Phase) {
        let mut seen: Vec<&Name> = Vec::new();
        for mover in &phase.movers {
            if let Some(first) = seen.iter().find(|n| n.value == mover.value) {
                self.error(
                    Problem::error(
                        Code::ListedTwice,
                        format!("`{}` listed twice", mover.value),
                        mover.span,
                        "again",
                    )
                    .with_note(first.span, "first here"),
                );
                continue;
            }
            seen.push(mover);
            self.players.resolve(mover, &mut self.problems);
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
        self.check_turns(&turns, Some(phase), context);
    }

    /// The turns of one phase: one ordinary turn, and periodic turns with distinct periods.
    fn check_turns(&mut self, turns: &[&Turn], phase: Option<&Phase>, context: BodyContext) {
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
        for (index, turn) in turns.iter().enumerate() {
            if let Some(every) = &turn.every {
                self.check_period(every, &turns[..index]);
            }
            self.check_body(&turn.body, context);
        }
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

    fn check_body(&mut self, body: &TurnBody, context: BodyContext) {
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
            for step in &plan.steps {
                self.check_step(step, context, moved);
                moved |= matches!(step.action.value, Action::Move(_));
            }
        }
    }

    fn check_step(&mut self, step: &TurnStep, context: BodyContext, after_move: bool) {
        if let Some(counter) = &step.condition {
            self.counters.resolve(counter, &mut self.problems);
        }
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
            return;
        }
        match &step.action.value {
            Action::Move(pieces) => self.resolve_pieces(pieces),
            Action::Drop(pieces, zone) => self.check_drop_action(span, pieces, zone.as_ref()),
            Action::Shoot(shot) => self.check_shot(span, shot, after_move),
            Action::Remove(removal) => self.check_removal(removal),
            Action::Pie => self.check_pie(span, context),
            Action::Unblock | Action::Pass => {}
        }
    }

    fn resolve_pieces(&mut self, pieces: &[Name]) {
        for piece in pieces {
            self.pieces.resolve(piece, &mut self.problems);
        }
    }

    fn check_drop_action(&mut self, span: Span, pieces: &[Name], zone: Option<&ZoneExpr>) {
        self.resolve_pieces(pieces);
        if let Some(zone) = zone {
            self.check_zone_expr(zone, ForPlayers::All);
        }
        if !self.hands_used {
            self.error(
                Problem::error(Code::DropWithoutHand, "nothing can ever be dropped", span, "no piece is ever in hand")
                    .with_help("captures go to hand with `capture to-hand`, or a setup can give a `hand { ... }`"),
            );
        }
    }

    fn check_shot(&mut self, span: Span, shot: &Shot, after_move: bool) {
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
            Shot::Always(rules) => self.check_arrow_rules(rules),
            Shot::ByTag(cases) => {
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
                    self.tags.resolve(&case.tag, &mut self.problems);
                    self.check_arrow_rules(&case.rules);
                }
            }
        }
    }

    fn check_arrow_rules(&mut self, rules: &[MoveRule]) {
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
                continue;
            }
            self.check_move_rule(rule, RuleContext::Arrow, None);
        }
    }

    fn check_removal(&mut self, removal: &Removal) {
        for group in &removal.groups {
            self.resolve_pieces(group);
        }
        self.resolve_pieces(&removal.except);
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

    pub(super) fn check_trigger(&mut self, trigger: &Trigger) {
        self.check_zone_expr(&trigger.zone, ForPlayers::All);
        self.resolve_pieces(&trigger.pieces);
        self.check_body(&trigger.body, BodyContext::Trigger);
    }
}
