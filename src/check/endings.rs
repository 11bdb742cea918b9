//! The end of the game: conditions, and whether the file can say them.

use super::Checker;
use super::checked;
use crate::diagnostic::{Code, Problem};
use crate::syntax::ast::*;

impl Checker<'_> {
    pub(super) fn check_end(&mut self, rule: &EndRule) -> Option<checked::EndRule> {
        use checked::EndCondition as Resolved;
        let condition = &rule.condition;
        let resolved = match &condition.value {
            EndCondition::Checkmated => self.about_royal(condition.span, Resolved::Checkmated),
            EndCondition::Stalemated => self.about_royal(condition.span, Resolved::Stalemated),
            EndCondition::Exposed => self.about_royal(condition.span, Resolved::Exposed),
            EndCondition::RoyalCaptured => {
                self.about_royal(condition.span, Resolved::RoyalCaptured)
            }
            EndCondition::Repeated(times) => {
                let message = "a position repeats at least twice";
                self.at_least(2, times, Code::RepeatedTooFew, message, "too few");
                Resolved::Repeated(times.value)
            }
            &EndCondition::Passed(ref turns, fewer) => {
                let message = "`passed 0` holds before any turn";
                self.at_least(1, turns, Code::PassedZero, message, "0");
                Resolved::Passed(turns.value, fewer)
            }
            &EndCondition::Full(fewer) => Resolved::Full(fewer),
            EndCondition::Standoff => self.about_standoffs(condition.span),
            EndCondition::Immobilized(piece) => Resolved::Immobilized(self.piece(piece)?),
            EndCondition::Reaches(piece, zone, goal) => {
                let zone = self.check_zone_expr(zone, super::zones::ForPlayers::All);
                Resolved::Reaches(self.piece(piece)?, zone?, *goal)
            }
            EndCondition::CounterReaches(counter, value) => {
                let counter = self.counters.resolve(counter, &mut self.problems)?;
                Resolved::CounterReaches(checked::CounterId(counter), value.value)
            }
            EndCondition::Quiet(plies, breakers) => {
                let message = "a limit of 0 plies ends every game at once";
                self.at_least(1, plies, Code::QuietPliesZero, message, "0");
                let moved: Vec<Name> = breakers
                    .iter()
                    .filter_map(|breaker| match &breaker.value {
                        QuietBreaker::PieceMove(piece) => Some(piece.clone()),
                        QuietBreaker::Capture | QuietBreaker::Drop => None,
                    })
                    .collect();
                Resolved::Quiet {
                    plies: plies.value,
                    captures: breakers.iter().any(|b| b.value == QuietBreaker::Capture),
                    drops: breakers.iter().any(|b| b.value == QuietBreaker::Drop),
                    pieces: self.piece_list(&moved)?,
                }
            }
            EndCondition::NoMoves => Resolved::NoMoves,
            &EndCondition::NoMovesCounted { fewer } => Resolved::NoMovesCounted { fewer },
            EndCondition::Extinct(None) => Resolved::Extinct,
            EndCondition::Extinct(Some(piece)) => Resolved::Fewer {
                below: 1,
                pieces: vec![self.piece(piece)?],
            },
            EndCondition::Fewer(count, pieces) => {
                let message = "no count is fewer than 0";
                self.at_least(1, count, Code::FewerThanZero, message, "never holds");
                Resolved::Fewer {
                    below: count.value,
                    pieces: self.piece_list(pieces)?,
                }
            }
            &EndCondition::Bare { reply } => {
                self.about_royal(condition.span, Resolved::Bare { reply })
            }
        };
        Some(checked::EndRule {
            outcome: rule.outcome.value,
            condition: resolved,
        })
    }

    /// Reports `number` where it is below `least`, the smallest count that means anything.
    pub(super) fn at_least(
        &mut self,
        least: u32,
        number: &Spanned<u32>,
        code: Code,
        message: &str,
        label: &str,
    ) {
        if number.value < least {
            self.error(Problem::error(code, message, number.span, label));
        }
    }

    /// A condition about royal pieces, which the file must have.
    fn about_royal(
        &mut self,
        span: Span,
        condition: checked::EndCondition,
    ) -> checked::EndCondition {
        if !self.has_royal() {
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
        condition
    }

    /// The `standoff` condition, which needs a piece that stands off.
    fn about_standoffs(&mut self, span: Span) -> checked::EndCondition {
        let stands_off =
            |piece: &Piece| (piece.clauses.iter()).any(|c| matches!(c, PieceClause::Standoff(..)));
        if !self.piece_decls.iter().any(|p| stands_off(p)) {
            self.error(
                Problem::error(
                    Code::StandoffWithoutStandoffs,
                    "no piece ever stands off, so this condition never holds",
                    span,
                    "no standoff",
                )
                .with_help(
                    "give the facing pieces a `standoff` clause, such as `standoff vertical`",
                ),
            );
        }
        checked::EndCondition::Standoff
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
        (EndCondition::Extinct(x), EndCondition::Extinct(y)) => {
            x.as_ref().map(|n| &n.value) == y.as_ref().map(|n| &n.value)
        }
        (EndCondition::Fewer(n, x), EndCondition::Fewer(m, y)) => {
            n.value == m.value && same_names(x, y)
        }
        // Goals differ by their zones, which are not compared: several goals may stand.
        (EndCondition::Reaches(..), EndCondition::Reaches(..)) => false,
        (EndCondition::CounterReaches(c, n), EndCondition::CounterReaches(d, m)) => {
            c.value == d.value && n.value == m.value
        }
        (EndCondition::NoMovesCounted { fewer: x }, EndCondition::NoMovesCounted { fewer: y }) => {
            x == y
        }
        (EndCondition::Passed(n, x), EndCondition::Passed(m, y)) => n.value == m.value && x == y,
        (EndCondition::Full(x), EndCondition::Full(y)) => x == y,
        _ => std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}

fn same_names(a: &[Name], b: &[Name]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.value == y.value)
}
