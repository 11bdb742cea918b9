//! The concepts of the language a rule file uses, each with its first use. The compiler decides
//! which of them the engine runs (`compile::support`): a file may say more than the engine can
//! play yet, and then `fairy check` says so plainly and the commands that play refuse it.

use crate::limits::MAX_PARTS;
use crate::syntax::ast::*;
use std::collections::{HashMap, HashSet};

/// The concepts of the language, as the engine's support is tracked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    Moves,
    Hoppers,
    Anywhere,
    FirstMove,
    ConditionalCaptures,
    EnPassant,
    Castling,
    FreeCastling,
    Promotion,
    Drops,
    Gating,
    DropLimits,
    ZonesNearPieces,
    Grants,
    RoyalGrants,
    RoyalCustodian,
    CapturesToHand,
    CompulsoryCapture,
    NoCapture,
    CustodianCapture,
    Explosions,
    ExplosionsByReply,
    Petrification,
    Conversion,
    RoyalConversion,
    Standoffs,
    Counters,
    Phases,
    PeriodicTurns,
    Arrows,
    TaggedArrows,
    LongTurns,
    Unblocking,
    Removal,
    PieChoice,
    Triggers,
    RoyalPieces,
    MoreThanTwoPlayers,
    ManyCastlingRights,
    PlainEndings,
    RoyalCaptured,
    Exposed,
    Immobilized,
    RoyalKindTakes,
}

impl Feature {
    pub fn describe(self) -> &'static str {
        match self {
            Feature::Moves => "piece moves",
            Feature::Hoppers => "hoppers",
            Feature::Anywhere => "moves to anywhere",
            Feature::FirstMove => "first-move-only moves",
            Feature::ConditionalCaptures => "captures limited to a zone, a first move or a kind",
            Feature::EnPassant => "en passant",
            Feature::Castling => "castling",
            Feature::FreeCastling => "castling without rights or with either colour",
            Feature::Promotion => "promotion",
            Feature::Drops => "drops",
            Feature::Gating => "gating",
            Feature::DropLimits => "drop limits",
            Feature::ZonesNearPieces => "zones next to pieces",
            Feature::Grants => "granted moves",
            Feature::RoyalGrants => "granted moves in a game with royal pieces",
            Feature::RoyalCustodian => "custodian capture in a game with royal pieces",
            Feature::Conversion => "converting neighbours",
            Feature::RoyalConversion => "converting neighbours in a game with royal pieces",
            Feature::Standoffs => "standoffs",
            Feature::CapturesToHand => "captures to hand",
            Feature::CompulsoryCapture => "compulsory capture",
            Feature::NoCapture => "games without capture",
            Feature::CustodianCapture => "custodian capture",
            Feature::Explosions => "explosions",
            Feature::ExplosionsByReply => "explosions with the royal-captured ending",
            Feature::Petrification => "petrification",
            Feature::Counters => "counters",
            Feature::Phases => "phases",
            Feature::PeriodicTurns => "periodic turns",
            Feature::Arrows => "arrows",
            Feature::TaggedArrows => "arrows that depend on the move",
            Feature::LongTurns => "turns of more than four parts (a move counts two)",
            Feature::Unblocking => "unblocking",
            Feature::Removal => "removal",
            Feature::PieChoice => "the pie choice",
            Feature::Triggers => "triggers",
            Feature::RoyalPieces => "royal pieces",
            Feature::MoreThanTwoPlayers => "more than two players",
            Feature::ManyCastlingRights => "more than 32 castling rights",
            Feature::PlainEndings => "end conditions",
            Feature::RoyalCaptured => "the royal-captured ending",
            Feature::Exposed => "the exposed ending",
            Feature::Immobilized => "the immobilized ending",
            Feature::RoyalKindTakes => {
                "captures limited by kind in a game with several royal kinds"
            }
        }
    }
}

/// Each concept a file uses, with its first use, in the order they first appear.
pub fn uses(file: &RuleFile) -> Vec<(Feature, Span)> {
    let mut uses = FeatureUses::default();
    uses.collect(file);
    uses.first
}

/// Whether the file's royal pieces are guarded by the attack tables: it has royal pieces, and
/// no `royal-captured` ending (which judges legality from the opponent's whole reply).
fn guarded_by_attacks(file: &RuleFile) -> bool {
    file.pieces().any(|p| p.is_royal()) && !judged_by_reply(file)
}

/// Whether the file has the `royal-captured` ending.
fn judged_by_reply(file: &RuleFile) -> bool {
    file.end_rules()
        .any(|r| r.condition.value == EndCondition::RoyalCaptured)
}

/// The first use of each feature in a file.
#[derive(Default)]
struct FeatureUses {
    first: Vec<(Feature, Span)>,
    /// Zones that depend on where pieces stand.
    dynamic: HashSet<String>,
    /// The file has several royal kinds, guarded by the attack tables.
    royal_kinds: bool,
}

impl FeatureUses {
    fn note(&mut self, feature: Feature, span: Span) {
        if !self.first.iter().any(|(f, _)| *f == feature) {
            self.first.push((feature, span));
        }
    }

    fn collect(&mut self, file: &RuleFile) {
        self.dynamic = dynamic_zones(file);
        self.royal_kinds =
            file.pieces().filter(|p| p.is_royal()).count() > 1 && guarded_by_attacks(file);
        let players: Vec<_> = file.players().collect();
        if let Some(extra) = players.get(2) {
            self.note(Feature::MoreThanTwoPlayers, extra.span);
        }
        for piece in file.pieces() {
            self.piece(piece);
        }
        // A lent capture is invisible to the attack tables that guard royal pieces.
        let first_grant = file
            .pieces()
            .flat_map(|p| &p.clauses)
            .find_map(|c| match c {
                PieceClause::Grant(g) => Some(g.span),
                _ => None,
            });
        if let Some(span) = first_grant.filter(|_| guarded_by_attacks(file)) {
            self.note(Feature::RoyalGrants, span);
        }
        // A royal piece that changes sides is a case no ending rule decides yet.
        let first_convert = file
            .pieces()
            .flat_map(|p| &p.clauses)
            .find_map(|c| match c {
                PieceClause::Convert(_, _, span) => Some(*span),
                _ => None,
            });
        if let Some(span) = first_convert.filter(|_| file.pieces().any(|p| p.is_royal())) {
            self.note(Feature::RoyalConversion, span);
        }
        for rule in file.captures() {
            let feature = match rule.value {
                CaptureRule::ToHand { .. } => Feature::CapturesToHand,
                CaptureRule::Compulsory => Feature::CompulsoryCapture,
                // Custodian captures are invisible to the attack tables that guard royal pieces;
                // with `royal-captured`, legality is judged from the opponent's whole reply.
                CaptureRule::Custodian(_) if guarded_by_attacks(file) => Feature::RoyalCustodian,
                CaptureRule::Custodian(_) => Feature::CustodianCapture,
                // The reply test estimates threats from the attack tables, which do not see
                // a royal piece lost to an explosion next to it.
                CaptureRule::Explodes { .. } if judged_by_reply(file) => Feature::ExplosionsByReply,
                CaptureRule::Explodes { .. } => Feature::Explosions,
                CaptureRule::Petrifies(_) => Feature::Petrification,
                CaptureRule::None => Feature::NoCapture,
            };
            self.note(feature, rule.span);
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
            if let EndCondition::Reaches(_, zone, _) = &rule.condition.value {
                self.zone(zone);
            }
            let feature = match rule.condition.value {
                EndCondition::RoyalCaptured => Feature::RoyalCaptured,
                EndCondition::Exposed => Feature::Exposed,
                EndCondition::Immobilized(_) => Feature::Immobilized,
                _ => Feature::PlainEndings,
            };
            self.note(feature, rule.span);
        }
        self.first.sort_by_key(|(_, span)| span.start);
    }

    fn piece(&mut self, piece: &Piece) {
        for clause in &piece.clauses {
            match clause {
                PieceClause::Royal { span, .. } => self.note(Feature::RoyalPieces, *span),
                PieceClause::Move(rule) => self.move_rule(rule),
                PieceClause::Promote(p) => {
                    self.note(Feature::Promotion, p.span);
                    self.zone(&p.zone);
                }
                PieceClause::Drop(d) => {
                    self.note(Feature::DropLimits, d.span);
                    for limit in &d.limits {
                        if let DropLimit::Inside(z) | DropLimit::Outside(z) = &limit.value {
                            self.zone(z);
                        }
                    }
                }
                PieceClause::Grant(g) => self.note(Feature::Grants, g.span),
                PieceClause::Convert(_, _, span) => self.note(Feature::Conversion, *span),
                PieceClause::Standoff(_, span) => self.note(Feature::Standoffs, *span),
                PieceClause::Castle(c) => {
                    let unmoved = c
                        .conditions
                        .iter()
                        .any(|c| c.value == CastleCondition::Unmoved);
                    let free = c.any_colour || !unmoved;
                    let feature = if free {
                        Feature::FreeCastling
                    } else {
                        Feature::Castling
                    };
                    self.note(feature, c.span);
                }
            }
        }
    }

    fn zone(&mut self, zone: &ZoneExpr) {
        if is_dynamic(zone, &self.dynamic) {
            self.note(Feature::ZonesNearPieces, zone.span);
        }
    }

    fn move_rule(&mut self, rule: &MoveRule) {
        // Its moves are the other piece's, whose rules are counted where they are written.
        if matches!(rule.atom.value, Atom::Like(_)) {
            return;
        }
        let feature = match rule.atom.value {
            Atom::Hop(..) => Feature::Hoppers,
            Atom::Anywhere => Feature::Anywhere,
            _ => Feature::Moves,
        };
        self.note(feature, rule.span);
        let captures = rule
            .mode
            .as_ref()
            .is_none_or(|m| m.value == Mode::CaptureOnly);
        let conditional = rule.modifiers.iter().any(|m| {
            matches!(
                m.value,
                Modifier::From(_) | Modifier::To(_) | Modifier::Takes { .. } | Modifier::First
            )
        });
        if captures && conditional {
            self.note(Feature::ConditionalCaptures, rule.span);
        }
        for modifier in &rule.modifiers {
            // The attack tables assume a limited capture takes whichever royal piece stands
            // on the square asked about.
            if matches!(modifier.value, Modifier::Takes { .. }) && self.royal_kinds {
                self.note(Feature::RoyalKindTakes, modifier.span);
            }
            match &modifier.value {
                Modifier::EnPassant => self.note(Feature::EnPassant, modifier.span),
                Modifier::First => self.note(Feature::FirstMove, modifier.span),
                Modifier::From(zone) | Modifier::To(zone) => self.zone(zone),
                Modifier::Lame
                | Modifier::Passable
                | Modifier::Tag(_)
                | Modifier::Takes { .. }
                | Modifier::Over { .. } => {}
            }
        }
    }

    fn turn(&mut self, turn: &Turn) {
        if turn.every.is_some() {
            self.note(Feature::PeriodicTurns, turn.span);
        }
        self.body(&turn.body);
    }

    fn body(&mut self, body: &TurnBody) {
        for plan in &body.plans {
            let parts: usize = plan
                .steps
                .iter()
                .map(|s| match s.action.value {
                    Action::Move(_) => 2,
                    _ => 1,
                })
                .sum();
            if parts > MAX_PARTS {
                self.note(Feature::LongTurns, plan.span);
            }
            for step in &plan.steps {
                self.step(step);
            }
        }
    }

    fn step(&mut self, step: &TurnStep) {
        let span = step.action.span;
        match &step.action.value {
            Action::Drop(_, zone) => {
                self.note(Feature::Drops, span);
                // A drop next to the player's own pieces is judged as the board stands.
                if let Some(zone) = zone
                    .as_ref()
                    .filter(|z| !matches!(z.value, ZoneKind::NextTo(_)))
                {
                    self.zone(zone);
                }
            }
            Action::Gate(_, zone) => {
                self.note(Feature::Gating, span);
                if let Some(zone) = zone {
                    self.zone(zone);
                }
            }
            Action::Shoot(Shot::Always(_)) => self.note(Feature::Arrows, span),
            Action::Shoot(Shot::ByTag(_)) => self.note(Feature::TaggedArrows, span),
            Action::Unblock => self.note(Feature::Unblocking, span),
            Action::Remove(_) => self.note(Feature::Removal, span),
            Action::Pie => self.note(Feature::PieChoice, span),
            Action::Move(_) | Action::Pass => {}
        }
    }
}

/// The names of zones that depend on where pieces stand, directly or through other zones.
fn dynamic_zones(file: &RuleFile) -> HashSet<String> {
    let zones: Vec<&Zone> = file.zones().collect();
    let mut users: HashMap<&str, Vec<&str>> = HashMap::new();
    for zone in &zones {
        for used in zone.references() {
            users.entry(used).or_default().push(&zone.name.value);
        }
    }
    let mut dynamic: HashSet<String> = HashSet::new();
    let mut queue: Vec<&str> = zones
        .iter()
        .filter(|z| match &z.definition {
            ZoneDefinition::Shared(e) => mentions_pieces(e),
            ZoneDefinition::PerPlayer(cases) => cases.iter().any(|(_, e)| mentions_pieces(e)),
        })
        .map(|z| z.name.value.as_str())
        .collect();
    while let Some(name) = queue.pop() {
        if dynamic.insert(name.to_string()) {
            queue.extend(users.get(name).into_iter().flatten());
        }
    }
    dynamic
}

/// Whether an expression itself names a piece-relative zone (not looking through names).
fn mentions_pieces(expr: &ZoneExpr) -> bool {
    match &expr.value {
        ZoneKind::Or(parts) | ZoneKind::And(parts) => parts.iter().any(mentions_pieces),
        ZoneKind::Not(inner) => mentions_pieces(inner),
        ZoneKind::NextTo(_) => true,
        _ => false,
    }
}

/// Whether an expression depends on where pieces stand, given the file's dynamic zones.
fn is_dynamic(expr: &ZoneExpr, dynamic: &HashSet<String>) -> bool {
    let mut names = Vec::new();
    expr.value.references(&mut names);
    mentions_pieces(expr) || names.iter().any(|n| dynamic.contains(*n))
}
