//! What the engine runs. A rule file may say more than the engine can play yet; `fairy check`
//! then says so plainly instead of accepting the rule in silence.

use super::Checker;
use crate::diagnostic::Problem;
use crate::syntax::ast::*;

/// The concepts of the language, as the engine's support is tracked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    Moves,
    Hoppers,
    Anywhere,
    EnPassant,
    Castling,
    Promotion,
    Drops,
    DropLimits,
    Grants,
    CapturesToHand,
    CompulsoryCapture,
    CustodianCapture,
    Counters,
    Phases,
    PeriodicTurns,
    Arrows,
    Unblocking,
    Removal,
    PieChoice,
    Triggers,
    Hooks,
    RoyalPieces,
    EndConditions,
}

impl Feature {
    fn describe(self) -> &'static str {
        match self {
            Feature::Moves => "piece moves",
            Feature::Hoppers => "hoppers",
            Feature::Anywhere => "moves to anywhere",
            Feature::EnPassant => "en passant",
            Feature::Castling => "castling",
            Feature::Promotion => "promotion",
            Feature::Drops => "drops",
            Feature::DropLimits => "drop limits",
            Feature::Grants => "granted moves",
            Feature::CapturesToHand => "captures to hand",
            Feature::CompulsoryCapture => "compulsory capture",
            Feature::CustodianCapture => "custodian capture",
            Feature::Counters => "counters",
            Feature::Phases => "phases",
            Feature::PeriodicTurns => "periodic turns",
            Feature::Arrows => "arrows",
            Feature::Unblocking => "unblocking",
            Feature::Removal => "removal",
            Feature::PieChoice => "the pie choice",
            Feature::Triggers => "triggers",
            Feature::Hooks => "hooks",
            Feature::RoyalPieces => "royal pieces",
            Feature::EndConditions => "end conditions",
        }
    }
}

/// The features the engine runs. There is no engine yet: every rule is checked, none is run.
const ENGINE_RUNS: &[Feature] = &[];

/// One warning naming every feature of the file that the engine does not run yet, with a
/// label at the first use of each.
pub(super) fn report_unsupported(checker: &mut Checker<'_>) {
    let mut uses = FeatureUses::default();
    uses.collect(checker.file);
    let missing: Vec<(Feature, Span)> = uses
        .first
        .into_iter()
        .filter(|(feature, _)| !ENGINE_RUNS.contains(feature))
        .collect();
    let Some(((first_feature, first_span), rest)) = missing.split_first() else {
        return;
    };
    let names: Vec<&str> = missing.iter().map(|(f, _)| f.describe()).collect();
    let mut problem = Problem::warning(
        format!("the engine does not run these rules yet: {}", names.join(", ")),
        *first_span,
        first_feature.describe(),
    )
    .with_help("the file is valid, but fairy cannot play it or count its moves until the engine runs every rule it uses");
    for (feature, span) in rest {
        problem = problem.with_note(*span, feature.describe());
    }
    checker.error(problem);
}

/// The first use of each feature in a file.
#[derive(Default)]
struct FeatureUses {
    first: Vec<(Feature, Span)>,
}

impl FeatureUses {
    fn note(&mut self, feature: Feature, span: Span) {
        if !self.first.iter().any(|(f, _)| *f == feature) {
            self.first.push((feature, span));
        }
    }

    fn collect(&mut self, file: &RuleFile) {
        for piece in file.pieces() {
            self.piece(piece);
        }
        for rule in file.captures() {
            match rule.value {
                CaptureRule::ToHand => self.note(Feature::CapturesToHand, rule.span),
                CaptureRule::Compulsory => self.note(Feature::CompulsoryCapture, rule.span),
                CaptureRule::Custodian(_) => self.note(Feature::CustodianCapture, rule.span),
                CaptureRule::None => {}
            }
        }
        for counter in file.counters() {
            self.note(Feature::Counters, counter.span);
        }
        for phase in file.phases() {
            self.note(Feature::Phases, phase.name.span);
            phase.turns.iter().for_each(|t| self.turn(t));
        }
        file.turns().for_each(|t| self.turn(t));
        for trigger in file.triggers() {
            self.note(Feature::Triggers, trigger.span);
            self.body(&trigger.body);
        }
        for rule in file.end_rules() {
            self.note(Feature::EndConditions, rule.span);
        }
        self.first.sort_by_key(|(_, span)| span.start);
    }

    fn piece(&mut self, piece: &Piece) {
        for clause in &piece.clauses {
            match clause {
                PieceClause::Royal(span) => self.note(Feature::RoyalPieces, *span),
                PieceClause::Move(rule) => self.move_rule(rule),
                PieceClause::Promote(p) => self.note(Feature::Promotion, p.span),
                PieceClause::Drop(d) => self.note(Feature::DropLimits, d.span),
                PieceClause::Grant(g) => self.note(Feature::Grants, g.span),
                PieceClause::Castle(c) => self.note(Feature::Castling, c.span),
            }
        }
    }

    fn move_rule(&mut self, rule: &MoveRule) {
        let feature = match rule.atom.value {
            Atom::Hop(..) => Feature::Hoppers,
            Atom::Anywhere => Feature::Anywhere,
            _ => Feature::Moves,
        };
        self.note(feature, rule.span);
        if rule
            .modifiers
            .iter()
            .any(|m| m.value == Modifier::EnPassant)
        {
            self.note(Feature::EnPassant, rule.span);
        }
    }

    fn turn(&mut self, turn: &Turn) {
        if turn.every.is_some() {
            self.note(Feature::PeriodicTurns, turn.span);
        }
        self.body(&turn.body);
    }

    fn body(&mut self, body: &TurnBody) {
        for step in body.plans.iter().flat_map(|p| &p.steps) {
            let span = step.action.span;
            match &step.action.value {
                Action::Drop(..) => self.note(Feature::Drops, span),
                Action::Shoot(_) => self.note(Feature::Arrows, span),
                Action::Unblock => self.note(Feature::Unblocking, span),
                Action::Remove(_) => self.note(Feature::Removal, span),
                Action::Pie => self.note(Feature::PieChoice, span),
                Action::Hook(_) => self.note(Feature::Hooks, span),
                Action::Move(_) | Action::Pass => {}
            }
        }
    }
}
