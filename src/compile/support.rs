//! What the engine runs, decided in one place: every concept of the language is either run or
//! refused here. A file that uses a refused concept is valid, but `fairy check` warns that it
//! cannot be played yet, and the commands that play refuse it instead of playing other rules.

use crate::check::Feature;
use crate::diagnostic::{Code, Problem, Span};

/// Whether the engine runs a concept of the language.
pub fn runs(feature: Feature) -> bool {
    match feature {
        Feature::Moves
        | Feature::Hoppers
        | Feature::Anywhere
        | Feature::FirstMove
        | Feature::EnPassant
        | Feature::Castling
        | Feature::FreeCastling
        | Feature::Promotion
        | Feature::Drops
        | Feature::Gating
        | Feature::DropLimits
        | Feature::Grants
        | Feature::CapturesToHand
        | Feature::CompulsoryCapture
        | Feature::NoCapture
        | Feature::CustodianCapture
        | Feature::Explosions
        | Feature::Petrification
        | Feature::Conversion
        | Feature::Standoffs
        | Feature::Counters
        | Feature::Phases
        | Feature::PeriodicTurns
        | Feature::Arrows
        | Feature::TaggedArrows
        | Feature::Unblocking
        | Feature::Removal
        | Feature::PieChoice
        | Feature::Triggers
        | Feature::RoyalPieces
        | Feature::MoreThanTwoPlayers
        | Feature::PlainEndings
        | Feature::RoyalCaptured
        | Feature::Exposed
        | Feature::ConditionalCaptures
        | Feature::Immobilized => true,
        Feature::ZonesNearPieces
        // The attack tables cannot tell which royal kind stands on a square.
        | Feature::RoyalKindTakes
        // Lent moves and custodian captures are invisible to the attack tables that guard
        // royal pieces; with `royal-captured`, legality comes from the opponent's whole reply.
        | Feature::RoyalGrants
        | Feature::RoyalCustodian
        | Feature::ExplosionsByReply
        // A converted royal piece would change sides, which no ending rule decides.
        | Feature::RoyalConversion
        | Feature::LongTurns
        | Feature::ManyCastlingRights => false,
    }
}

/// The uses of concepts the engine does not run.
pub fn unsupported(uses: &[(Feature, Span)]) -> Vec<(Feature, Span)> {
    uses.iter().copied().filter(|&(f, _)| !runs(f)).collect()
}

/// Why a valid rule file cannot be played: it uses concepts the engine does not run yet, each
/// with its first use.
#[derive(Debug)]
pub struct Unsupported(pub Vec<(Feature, Span)>);

impl Unsupported {
    /// One warning naming every concept not run, with a label at the first use of each.
    pub fn warning(&self) -> Option<Problem> {
        let ((first_feature, first_span), rest) = self.0.split_first()?;
        let mut problem = Problem::warning(
            Code::NotRunYet,
            self.to_string(),
            *first_span,
            first_feature.describe(),
        )
        .with_help("fairy checks these rules, but cannot play them or count moves under them yet");
        for (feature, span) in rest {
            problem = problem.with_note(*span, feature.describe());
        }
        Some(problem)
    }
}

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<_> = self.0.iter().map(|(f, _)| f.describe()).collect();
        write!(
            f,
            "the engine does not run these rules yet: {}",
            names.join(", ")
        )
    }
}
