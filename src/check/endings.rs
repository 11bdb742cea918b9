//! The end of the game: conditions, and whether the file can say them.

use super::Checker;
use crate::diagnostic::{Code, Problem};
use crate::syntax::ast::*;

impl Checker<'_> {
    pub(super) fn check_end(&mut self, rule: &EndRule) {
        let condition = &rule.condition;
        match &condition.value {
            EndCondition::Checkmated
            | EndCondition::Stalemated
            | EndCondition::Exposed
            | EndCondition::RoyalCaptured => self.require_royal(condition.span),
            EndCondition::Repeated(times) if times.value < 2 => self.error(Problem::error(
                Code::RepeatedTooFew,
                "a position repeats at least twice",
                times.span,
                "too few",
            )),
            EndCondition::Immobilized(piece) => {
                self.pieces.resolve(piece, &mut self.problems);
            }
            EndCondition::Quiet(plies, breakers) => {
                if plies.value == 0 {
                    self.error(Problem::error(
                        Code::QuietPliesZero,
                        "a limit of 0 plies ends every game at once",
                        plies.span,
                        "0",
                    ));
                }
                for breaker in breakers {
                    if let QuietBreaker::PieceMove(piece) = &breaker.value {
                        self.pieces.resolve(piece, &mut self.problems);
                    }
                }
            }
            EndCondition::NoMoves | EndCondition::Extinct | EndCondition::Repeated(_) => {}
        }
    }

    fn require_royal(&mut self, span: Span) {
        if self.has_royal() {
            return;
        }
        self.error(
            Problem::error(
                Code::NeedsRoyal,
                "this condition needs a royal piece",
                span,
                "no piece is royal",
            )
            .with_help("mark the king with `royal` inside its piece block"),
        );
    }

    /// Each condition once; conditions are tried in file order and the first that holds decides.
    pub(super) fn check_end_rules_together(&mut self) {
        let file = self.file;
        let rules: Vec<&EndRule> = file.end_rules().collect();
        for (index, rule) in rules.iter().enumerate() {
            let same = rules[..index]
                .iter()
                .find(|r| same_condition(&r.condition.value, &rule.condition.value));
            if let Some(earlier) = same {
                self.error(
                    Problem::error(
                        Code::EndConditionTwice,
                        "this condition is already decided",
                        rule.condition.span,
                        "never reached",
                    )
                    .with_note(earlier.span, "decided here first"),
                );
            }
        }
        if rules.is_empty() {
            self.error(
                Problem::warning(
                    Code::GameNeverEnds,
                    "the game never ends",
                    Span::new(0, 0),
                    "no `win`, `lose` or `draw` rule",
                )
                .with_help(
                    "say at least how a player without moves fares, e.g. `lose when no-moves`",
                ),
            );
        }
    }
}

fn same_condition(a: &EndCondition, b: &EndCondition) -> bool {
    match (a, b) {
        (EndCondition::Immobilized(x), EndCondition::Immobilized(y)) => x.value == y.value,
        _ => std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}
