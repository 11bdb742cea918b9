//! Turns pest's parse tree into the typed syntax tree. The grammar has already fixed the
//! shape; this adds meaning to tokens (numbers, squares, direction words) and keeps spans.

use super::ast::*;
use super::betza;
use super::{Rule, is_token};
use crate::diagnostic::{Code, Problem};
use pest::iterators::Pair;

/// Builds nodes for text that starts at byte `base` of the whole file.
pub(super) struct Builder {
    base: usize,
    pub problems: Vec<Problem>,
}

type P<'i> = Pair<'i, Rule>;

/// The children of a pair that carry content: keywords are rules of their own (so that errors
/// can name them), and are skipped here.
fn parts(pair: P<'_>) -> impl Iterator<Item = P<'_>> {
    pair.into_inner().filter(|p| !is_token(p.as_rule()))
}

impl Builder {
    pub fn new(base: usize) -> Self {
        Builder {
            base,
            problems: Vec::new(),
        }
    }

    /// The pair's span without the whitespace and comments that pest lets trail a rule ending
    /// in an optional part.
    fn span(&self, pair: &P<'_>) -> Span {
        Span::new(
            self.base + pair.as_span().start(),
            self.base + content_end(pair),
        )
    }

    fn name(&self, pair: P<'_>) -> Name {
        Spanned::new(pair.as_str().to_string(), self.span(&pair))
    }

    fn names(&self, pair: P<'_>) -> Vec<Name> {
        parts(pair).map(|p| self.name(p)).collect()
    }

    /// The pieces of `takes` or `over`, and whether `not` turns the list into its exceptions.
    fn piece_filter(&self, pair: P<'_>) -> (bool, Vec<Name>) {
        let mut except = false;
        let mut pieces = Vec::new();
        for item in parts(pair) {
            match item.as_rule() {
                Rule::negation => except = true,
                _ => pieces.push(self.name(item)),
            }
        }
        (except, pieces)
    }

    fn number(&mut self, pair: P<'_>) -> Spanned<u64> {
        let span = self.span(&pair);
        let value = pair.as_str().parse::<u64>().unwrap_or_else(|_| {
            self.problems.push(
                Problem::error(
                    Code::NumberTooLarge,
                    "number too large",
                    span,
                    "this does not fit in 64 bits",
                )
                .with_help("numbers in rule files go up to 18446744073709551615"),
            );
            u64::MAX
        });
        Spanned::new(value, span)
    }

    fn small(&mut self, pair: P<'_>) -> Spanned<u32> {
        let reported = self.problems.len();
        let number = self.number(pair);
        let value = u32::try_from(number.value).unwrap_or_else(|_| {
            // One complaint per number: beyond 64 bits, `number` has already made it.
            if self.problems.len() == reported {
                self.problems.push(Problem::error(
                    Code::NumberTooLarge,
                    "number too large",
                    number.span,
                    "this must be below 4294967296",
                ));
            }
            u32::MAX
        });
        Spanned::new(value, number.span)
    }

    fn string(&self, pair: P<'_>) -> Spanned<String> {
        let span = self.span(&pair);
        let text = pair.into_inner().next().map_or("", |t| t.as_str());
        Spanned::new(text.replace("\\\"", "\"").replace("\\\\", "\\"), span)
    }

    pub fn file(&mut self, pair: P<'_>) -> RuleFile {
        let items = parts(pair)
            .filter(|p| p.as_rule() != Rule::EOI)
            .map(|p| self.item(p))
            .collect();
        RuleFile { items }
    }

    fn item(&mut self, pair: P<'_>) -> Item {
        match pair.as_rule() {
            Rule::game => Item::Game(self.string(parts(pair).next().expect("game has a string"))),
            Rule::board => Item::Board(self.board(pair)),
            Rule::player => Item::Player(self.player(pair)),
            Rule::zone => Item::Zone(self.zone(pair)),
            Rule::piece => Item::Piece(self.piece(pair)),
            Rule::capture_rule => Item::Capture(self.capture_rule(pair)),
            Rule::forbid_rule => Item::Forbid(self.forbid_rule(pair)),
            Rule::counter => Item::Counter(self.counter(pair)),
            Rule::turn => Item::Turn(self.turn(pair)),
            Rule::phase => Item::Phase(self.phase(pair)),
            Rule::trigger => Item::Trigger(self.trigger(pair)),
            Rule::end_rule => Item::End(self.end_rule(pair)),
            Rule::draw_odds => {
                let span = self.span(&pair);
                let player = self.name(parts(pair).next().expect("player"));
                Item::DrawOdds(Spanned::new(player, span))
            }
            Rule::setup => Item::Setup(self.setup(pair)),
            Rule::test => Item::Test(self.test(pair)),
            other => unreachable!("the grammar has no item {other:?}"),
        }
    }

    // -----------------------------------------------------------------------------------------
    // Board and players

    fn board(&mut self, pair: P<'_>) -> Board {
        let span = self.span(&pair);
        let mut it = parts(pair);
        let width = self.small(it.next().expect("board width"));
        let height = self.small(it.next().expect("board height"));
        let layout = match it.next() {
            None => BoardLayout::Full,
            Some(p) if p.as_rule() == Rule::board_holes => {
                BoardLayout::Holes(parts(p).map(|s| self.square_item(s)).collect())
            }
            Some(p) => BoardLayout::Shape(
                parts(p)
                    .map(|row| {
                        let span = self.span(&row);
                        let cells = row.into_inner().map(|c| c.as_str() == "#").collect();
                        Spanned::new(cells, span)
                    })
                    .collect(),
            ),
        };
        Board {
            width,
            height,
            layout,
            span,
        }
    }

    fn square(&self, pair: P<'_>) -> Square {
        let text = pair.as_str();
        let file = u32::from(text.as_bytes()[0] - b'a');
        let written_rank = text[1..].parse::<u64>().unwrap_or(u64::MAX);
        let rank = written_rank
            .checked_sub(1)
            .and_then(|r| u32::try_from(r).ok())
            .unwrap_or(u32::MAX);
        Square {
            file,
            rank,
            written_rank,
            span: self.span(&pair),
        }
    }

    fn square_item(&self, pair: P<'_>) -> SquareItem {
        let span = self.span(&pair);
        let mut it = parts(pair);
        let from = self.square(it.next().expect("a square"));
        let to = it.next().map(|p| self.square(p));
        SquareItem { from, to, span }
    }

    fn player(&mut self, pair: P<'_>) -> Player {
        let span = self.span(&pair);
        let mut it = parts(pair);
        let name = self.name(it.next().expect("player name"));
        let forward = it.next().and_then(|p| {
            let span = self.span(&p);
            let compass = match p.as_str() {
                "north" => Compass::North,
                "south" => Compass::South,
                "east" => Compass::East,
                "west" => Compass::West,
                other => {
                    self.problems
                        .push(unknown_word(other, span, "compass point"));
                    return None;
                }
            };
            Some(Spanned::new(compass, span))
        });
        Player {
            name,
            forward,
            span,
        }
    }

    // -----------------------------------------------------------------------------------------
    // Zones

    fn zone(&mut self, pair: P<'_>) -> Zone {
        let span = self.span(&pair);
        let mut it = parts(pair);
        let name = self.name(it.next().expect("zone name"));
        let rest: Vec<_> = it.collect();
        let definition = if rest.first().map(|p| p.as_rule()) == Some(Rule::zone_expr) {
            ZoneDefinition::Shared(self.zone_expr(rest.into_iter().next().expect("checked")))
        } else {
            ZoneDefinition::PerPlayer(
                rest.into_iter()
                    .map(|case| {
                        let mut it = parts(case);
                        let player = self.name(it.next().expect("case player"));
                        (player, self.zone_expr(it.next().expect("case zone")))
                    })
                    .collect(),
            )
        };
        Zone {
            name,
            definition,
            span,
        }
    }

    /// Builds any zone node; single-child `or`/`and`/`not` levels collapse into their child.
    fn zone_expr(&mut self, pair: P<'_>) -> ZoneExpr {
        let span = self.span(&pair);
        let kind = match pair.as_rule() {
            Rule::zone_expr | Rule::zone_and => {
                let is_or = pair.as_rule() == Rule::zone_expr;
                if is_or {
                    self.warn_of_mixed_operators(&pair);
                }
                let mut operands: Vec<_> = parts(pair).map(|p| self.zone_expr(p)).collect();
                if operands.len() == 1 {
                    return operands.pop().expect("one operand");
                }
                if is_or {
                    ZoneKind::Or(operands)
                } else {
                    ZoneKind::And(operands)
                }
            }
            Rule::zone_not => {
                let children: Vec<_> = parts(pair).collect();
                let negated = children.len() == 2;
                let operand = self.zone_expr(children.into_iter().last().expect("operand"));
                if !negated {
                    return operand;
                }
                ZoneKind::Not(Box::new(operand))
            }
            Rule::zone_ranks => {
                let (low, high) = self.range(parts(pair).next().expect("rank range"));
                ZoneKind::Ranks(low, high)
            }
            Rule::zone_files => {
                let letters: Vec<u32> = parts(pair)
                    .map(|p| u32::from(p.as_str().as_bytes()[0] - b'a'))
                    .collect();
                ZoneKind::Files(letters[0], *letters.last().expect("a file"))
            }
            Rule::zone_squares => {
                ZoneKind::Squares(parts(pair).map(|p| self.square_item(p)).collect())
            }
            Rule::zone_next_to => ZoneKind::NextTo(self.name(parts(pair).next().expect("piece"))),
            Rule::zone_all => ZoneKind::Any,
            Rule::zone_ref => ZoneKind::Ref(self.name(parts(pair).next().expect("zone name"))),
            Rule::half_plane => {
                let mut it = parts(pair);
                let lhs = self.linear(it.next().expect("left side"));
                let comparison = match it.next().expect("comparison").as_str() {
                    "<" => Comparison::Less,
                    "<=" => Comparison::LessEqual,
                    "=" | "==" => Comparison::Equal,
                    "!=" => Comparison::NotEqual,
                    ">=" => Comparison::GreaterEqual,
                    _ => Comparison::Greater,
                };
                let rhs = self.linear(it.next().expect("right side"));
                ZoneKind::HalfPlane(lhs, comparison, rhs)
            }
            other => unreachable!("the grammar has no zone {other:?}"),
        };
        Spanned::new(kind, span)
    }

    /// Warns of an `or` with an `and` among its operands, not in brackets: `and` binds first,
    /// as everywhere, but a reader may take `A or B and C` the other way.
    fn warn_of_mixed_operators(&mut self, pair: &P<'_>) {
        let operands: Vec<P<'_>> = parts(pair.clone()).collect();
        let mixed = operands.len() > 1 && operands.iter().any(|p| parts(p.clone()).count() > 1);
        if mixed {
            let span = self.span(pair);
            self.problems.push(
                Problem::warning(
                    Code::MixedZoneOperators,
                    "`and` and `or` are mixed without brackets",
                    span,
                    "`and` binds before `or` here",
                )
                .with_help(
                    "`A or B and C` means `A or (B and C)`; write the brackets to say which you mean",
                ),
            );
        }
    }

    fn range(&mut self, pair: P<'_>) -> (Spanned<u32>, Spanned<u32>) {
        let mut it = parts(pair);
        let low = self.small(it.next().expect("range start"));
        let high = it.next().map_or_else(|| low.clone(), |p| self.small(p));
        (low, high)
    }

    fn linear(&mut self, pair: P<'_>) -> Linear {
        let mut sum = Linear::default();
        let mut sign = 1i64;
        for part in parts(pair) {
            if part.as_rule() == Rule::sign {
                sign = if part.as_str() == "-" { -1 } else { 1 };
                continue;
            }
            let mut coefficient = 1i64;
            let mut coordinate = None;
            for factor in parts(part) {
                match factor.as_rule() {
                    Rule::int => {
                        let n = self.number(factor).value;
                        coefficient = i64::try_from(n.min(1 << 40)).expect("bounded");
                    }
                    _ => coordinate = Some(factor.as_str().to_string()),
                }
            }
            let value = sign * coefficient;
            match coordinate.as_deref() {
                Some("x") => sum.x += value,
                Some(_) => sum.y += value,
                None => sum.constant += value,
            }
        }
        sum
    }

    // -----------------------------------------------------------------------------------------
    // Pieces

    fn piece(&mut self, pair: P<'_>) -> Piece {
        let span = self.span(&pair);
        let mut it = parts(pair);
        let name = self.name(it.next().expect("piece name"));
        let letter = self.name(it.next().expect("piece letter"));
        let mut clauses = Vec::new();
        for clause in it {
            match clause.as_rule() {
                Rule::royal => clauses.push(PieceClause::Royal {
                    span: self.span(&clause),
                    together: parts(clause).next().is_some(),
                }),
                Rule::move_rule => {
                    clauses.extend(self.move_rules(clause).into_iter().map(PieceClause::Move))
                }
                Rule::promote => clauses.push(PieceClause::Promote(self.promotion(clause))),
                Rule::drop_rule => clauses.push(PieceClause::Drop(self.drop_rule(clause))),
                Rule::grant => clauses.push(PieceClause::Grant(self.grant(clause))),
                Rule::castle => clauses.push(PieceClause::Castle(self.castle(clause))),
                Rule::convert => {
                    let span = self.span(&clause);
                    let mut items = parts(clause);
                    let directions = self.directions(items.next().expect("directions"));
                    let flanked = items.next().is_some();
                    clauses.push(PieceClause::Convert(directions, flanked, span));
                }
                Rule::standoff_rule => {
                    let span = self.span(&clause);
                    let directions = parts(clause).next().expect("directions");
                    clauses.push(PieceClause::Standoff(self.directions(directions), span));
                }
                other => unreachable!("the grammar has no piece clause {other:?}"),
            }
        }
        Piece {
            name,
            letter,
            clauses,
            span,
        }
    }

    /// One written move rule; a Betza string may stand for several.
    fn move_rules(&mut self, pair: P<'_>) -> Vec<MoveRule> {
        let span = self.span(&pair);
        let mut mode = None;
        let mut atoms = Vec::new();
        let mut modifiers = Vec::new();
        for part in parts(pair) {
            match part.as_rule() {
                Rule::mode => {
                    let value = if part.as_str() == "move" {
                        Mode::MoveOnly
                    } else {
                        Mode::CaptureOnly
                    };
                    mode = Some(Spanned::new(value, self.span(&part)));
                }
                Rule::betza => {
                    let text = self.string(parts(part).next().expect("betza string"));
                    match betza::parse(&text.value, text.span.start + 1) {
                        Ok(rules) => atoms.extend(rules),
                        Err(problem) => self.problems.push(problem),
                    }
                }
                Rule::from_zone => {
                    let zone = self.zone_expr(parts(part.clone()).next().expect("zone"));
                    modifiers.push(Spanned::new(Modifier::From(zone), self.span(&part)));
                }
                Rule::to_zone => {
                    let zone = self.zone_expr(parts(part.clone()).next().expect("zone"));
                    modifiers.push(Spanned::new(Modifier::To(zone), self.span(&part)));
                }
                Rule::takes => {
                    let span = self.span(&part);
                    let (except, pieces) = self.piece_filter(part);
                    modifiers.push(Spanned::new(Modifier::Takes { except, pieces }, span));
                }
                Rule::over => {
                    let span = self.span(&part);
                    let (except, pieces) = self.piece_filter(part);
                    modifiers.push(Spanned::new(Modifier::Over { except, pieces }, span));
                }
                Rule::lame => modifiers.push(Spanned::new(Modifier::Lame, self.span(&part))),
                Rule::en_passant => {
                    modifiers.push(Spanned::new(Modifier::EnPassant, self.span(&part)))
                }
                Rule::passable => {
                    modifiers.push(Spanned::new(Modifier::Passable, self.span(&part)))
                }
                Rule::first => modifiers.push(Spanned::new(Modifier::First, self.span(&part))),
                Rule::tag => {
                    let span = self.span(&part);
                    let name = self.name(parts(part).next().expect("tag name"));
                    modifiers.push(Spanned::new(Modifier::Tag(name), span));
                }
                _ => atoms.push(MoveRule {
                    mode: None,
                    atom: self.atom(part),
                    modifiers: Vec::new(),
                    span,
                }),
            }
        }
        for rule in &mut atoms {
            if rule.mode.is_none() {
                rule.mode.clone_from(&mode);
            }
            rule.modifiers.extend(modifiers.iter().cloned());
            rule.span = span;
        }
        atoms
    }

    fn atom(&mut self, pair: P<'_>) -> Spanned<Atom> {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let mut directions = Vec::new();
        let mut vector = None;
        let mut up_to = None;
        let mut beyond = false;
        let mut like = None;
        for part in parts(pair) {
            match part.as_rule() {
                Rule::directions => directions = self.directions(part),
                Rule::vector => vector = Some(self.vector(part)),
                Rule::up_to => up_to = Some(self.small(parts(part).next().expect("range"))),
                Rule::beyond => beyond = true,
                Rule::name => like = Some(self.name(part)),
                other => unreachable!("the grammar has no atom part {other:?}"),
            }
        }
        let atom = match rule {
            Rule::step => Atom::Step(directions),
            Rule::slide => Atom::Slide(directions, up_to),
            Rule::leap => Atom::Leap(vector.expect("leap vector"), directions),
            Rule::ride => Atom::Ride(vector.expect("ride vector"), directions, up_to),
            Rule::hop => Atom::Hop(directions, beyond, up_to),
            Rule::anywhere => Atom::Anywhere,
            Rule::like => Atom::Like(like.expect("like names a piece")),
            other => unreachable!("the grammar has no atom {other:?}"),
        };
        Spanned::new(atom, span)
    }

    fn vector(&mut self, pair: P<'_>) -> Spanned<(i64, i64)> {
        let span = self.span(&pair);
        let mut it = parts(pair);
        let mut component =
            |p: P<'_>| i64::try_from(self.number(p).value.min(1 << 40)).expect("bounded");
        let a = component(it.next().expect("first component"));
        let b = component(it.next().expect("second component"));
        Spanned::new((a, b), span)
    }

    pub(super) fn directions(&mut self, pair: P<'_>) -> Directions {
        parts(pair)
            .filter_map(|p| {
                let span = self.span(&p);
                let Some(direction) = direction_word(p.as_str()) else {
                    self.problems
                        .push(unknown_word(p.as_str(), span, "direction"));
                    return None;
                };
                Some(Spanned::new(direction, span))
            })
            .collect()
    }

    fn promotion(&mut self, pair: P<'_>) -> Promotion {
        let span = self.span(&pair);
        let mut optional = false;
        let mut targets = Vec::new();
        let mut trigger = PromotionTrigger::In;
        let mut zone = None;
        let mut limits = Vec::new();
        let mut by_capture = false;
        let mut lone_anywhere = false;
        let mut peaceful = false;
        for part in parts(pair) {
            match part.as_rule() {
                Rule::optional_promotion => optional = true,
                Rule::by_capture => by_capture = true,
                Rule::lone_anywhere => lone_anywhere = true,
                Rule::peaceful => peaceful = true,
                Rule::name => targets.push(self.name(part)),
                Rule::promotion_trigger => {
                    trigger = match part.as_str() {
                        "via" => PromotionTrigger::Via,
                        "on" => PromotionTrigger::On,
                        _ => PromotionTrigger::In,
                    }
                }
                Rule::promotion_limit => limits.push(self.promotion_limit(part)),
                _ => zone = Some(self.zone_expr(part)),
            }
        }
        Promotion {
            optional,
            targets,
            trigger,
            zone: zone.expect("promotion zone"),
            by_capture,
            lone_anywhere,
            peaceful,
            limits,
            span,
        }
    }

    fn promotion_limit(&mut self, pair: P<'_>) -> PromotionLimit {
        let mut parts = parts(pair);
        let below = self.small(parts.next().expect("limit count"));
        PromotionLimit {
            below,
            pieces: parts.map(|name| self.name(name)).collect(),
        }
    }

    fn drop_rule(&mut self, pair: P<'_>) -> DropRule {
        let span = self.span(&pair);
        let limits = parts(pair)
            .map(|limit| {
                let span = self.span(&limit);
                let value = match limit.as_rule() {
                    Rule::drop_outside => {
                        DropLimit::Outside(self.zone_expr(parts(limit).next().expect("zone")))
                    }
                    Rule::drop_inside => {
                        DropLimit::Inside(self.zone_expr(parts(limit).next().expect("zone")))
                    }
                    Rule::one_per_file => DropLimit::PerFile(Spanned::new(1, span)),
                    Rule::per_file => {
                        DropLimit::PerFile(self.small(parts(limit).next().expect("count")))
                    }
                    Rule::drop_promoted => DropLimit::Promoted,
                    Rule::opposite_colours => DropLimit::OppositeColours,
                    Rule::unlimited => DropLimit::Unlimited,
                    Rule::converting => DropLimit::Converting,
                    _ => DropLimit::NoMate,
                };
                Spanned::new(value, span)
            })
            .collect();
        DropRule { limits, span }
    }

    fn side(&self, pair: P<'_>) -> Spanned<Side> {
        let side = if pair.as_str() == "enemy" {
            Side::Enemy
        } else {
            Side::Own
        };
        Spanned::new(side, self.span(&pair))
    }

    fn grant(&mut self, pair: P<'_>) -> Grant {
        let span = self.span(&pair);
        let mut side = None;
        let mut directions = Vec::new();
        let mut rules = Vec::new();
        for part in parts(pair) {
            match part.as_rule() {
                Rule::side => side = Some(self.side(part)),
                Rule::directions => directions = self.directions(part),
                _ => rules.extend(self.move_rules(part)),
            }
        }
        Grant {
            side: side.expect("grant side"),
            directions,
            rules,
            span,
        }
    }

    fn castle(&mut self, pair: P<'_>) -> Castle {
        let span = self.span(&pair);
        let mut directions = Vec::new();
        let mut distance = None;
        let mut any_colour = false;
        let mut partner = None;
        let mut conditions = Vec::new();
        for part in parts(pair) {
            match part.as_rule() {
                Rule::directions => directions = self.directions(part),
                Rule::int => distance = Some(self.small(part)),
                Rule::any_colour => any_colour = true,
                Rule::name => partner = Some(self.name(part)),
                _ => {
                    let condition = if part.as_str() == "safe" {
                        CastleCondition::Safe
                    } else {
                        CastleCondition::Unmoved
                    };
                    conditions.push(Spanned::new(condition, self.span(&part)));
                }
            }
        }
        Castle {
            directions,
            distance: distance.expect("castle distance"),
            any_colour,
            partner: partner.expect("castle partner"),
            conditions,
            span,
        }
    }

    // -----------------------------------------------------------------------------------------
    // Capture rules and counters

    fn forbid_rule(&mut self, pair: P<'_>) -> Spanned<Forbidden> {
        let span = self.span(&pair);
        let what = parts(pair).next().expect("forbidden turn");
        let forbidden = match what.as_rule() {
            Rule::royal_flight => Forbidden::RoyalFlight,
            _ => match parts(what).next().map(|by| by.as_rule()) {
                Some(Rule::by_drop) => Forbidden::CheckByDrop,
                Some(_) => Forbidden::CheckByPromotion,
                None => Forbidden::Check,
            },
        };
        Spanned::new(forbidden, span)
    }

    fn capture_rule(&mut self, pair: P<'_>) -> Spanned<CaptureRule> {
        let span = self.span(&pair);
        let option = parts(pair).next().expect("capture option");
        let rule = match option.as_rule() {
            Rule::to_hand => CaptureRule::ToHand {
                as_is: parts(option).next().is_some(),
            },
            Rule::compulsory => CaptureRule::Compulsory,
            Rule::custodian => {
                CaptureRule::Custodian(self.directions(parts(option).next().expect("directions")))
            }
            Rule::explodes => {
                let (mut spared, mut immune) = (Vec::new(), Vec::new());
                for list in parts(option) {
                    match list.as_rule() {
                        Rule::spared => spared = self.names(list),
                        _ => immune = self.names(list),
                    }
                }
                CaptureRule::Explodes { spared, immune }
            }
            Rule::petrifies => CaptureRule::Petrifies(self.names(option)),
            _ => CaptureRule::None,
        };
        Spanned::new(rule, span)
    }

    fn counter(&mut self, pair: P<'_>) -> Counter {
        let span = self.span(&pair);
        let mut name = None;
        let mut limit = None;
        let mut rules = Vec::new();
        for part in parts(pair) {
            match part.as_rule() {
                Rule::name => name = Some(self.name(part)),
                Rule::int => limit = Some(self.small(part)),
                _ => rules.push(self.counter_rule(part)),
            }
        }
        Counter {
            name: name.expect("counter name"),
            limit,
            rules,
            span,
        }
    }

    fn counter_rule(&mut self, pair: P<'_>) -> CounterRule {
        let mut it = parts(pair);
        let event = it.next().expect("counter event");
        let event_span = self.span(&event);
        let event = parts(event).next().expect("event kind");
        let event = match event.as_rule() {
            Rule::move_event => CounterEvent::Move(
                parts(event)
                    .next()
                    .map(|d| self.directions(d))
                    .unwrap_or_default(),
            ),
            Rule::lost_event => CounterEvent::Lost(self.name(parts(event).next().expect("piece"))),
            Rule::checked_event => CounterEvent::Checked,
            _ => CounterEvent::TurnEnd,
        };
        let action = it.next().expect("counter action");
        let action_span = self.span(&action);
        let action = parts(action).next().expect("action kind");
        let action = match action.as_rule() {
            Rule::add => {
                CounterAction::Add(self.small(parts(action).next().expect("amount")).value)
            }
            Rule::set => CounterAction::Set(self.small(parts(action).next().expect("value")).value),
            _ => CounterAction::Reset,
        };
        CounterRule {
            event: Spanned::new(event, event_span),
            action: Spanned::new(action, action_span),
        }
    }

    // -----------------------------------------------------------------------------------------
    // Turns, phases, triggers

    fn turn(&mut self, pair: P<'_>) -> Turn {
        let span = self.span(&pair);
        let mut every = None;
        let mut body = None;
        for part in parts(pair) {
            match part.as_rule() {
                Rule::every => every = Some(self.small(parts(part).next().expect("period"))),
                _ => body = Some(self.turn_body(part)),
            }
        }
        Turn {
            every,
            body: body.expect("turn body"),
            span,
        }
    }

    fn turn_body(&mut self, pair: P<'_>) -> TurnBody {
        let mut tier = 0u8;
        let mut plans = Vec::new();
        for part in parts(pair) {
            if part.as_rule() == Rule::plan_else {
                tier = tier.saturating_add(1);
                continue;
            }
            let span = self.span(&part);
            let steps = parts(part).map(|step| self.turn_step(step)).collect();
            plans.push(TurnPlan { steps, tier, span });
        }
        TurnBody { plans }
    }

    fn turn_step(&mut self, pair: P<'_>) -> TurnStep {
        let span = self.span(&pair);
        let mut optional = false;
        let mut action = None;
        let mut condition = None;
        for part in parts(pair) {
            match part.as_rule() {
                Rule::optional_step => optional = true,
                Rule::condition => {
                    condition = Some(self.name(parts(part).next().expect("counter")))
                }
                _ => action = Some(self.action(part)),
            }
        }
        TurnStep {
            optional,
            action: action.expect("turn step action"),
            condition,
            span,
        }
    }

    fn action(&mut self, pair: P<'_>) -> Spanned<Action> {
        let span = self.span(&pair);
        let action = match pair.as_rule() {
            Rule::move_action => Action::Move(self.names(pair)),
            Rule::drop_action => {
                let (pieces, zone) = self.pieces_in_zone(pair);
                Action::Drop(pieces, zone)
            }
            Rule::gate_action => {
                let (pieces, zone) = self.pieces_in_zone(pair);
                Action::Gate(pieces, zone)
            }
            Rule::shoot => Action::Shoot(self.shot(pair)),
            Rule::unblock => Action::Unblock,
            Rule::remove => Action::Remove(self.removal(pair)),
            Rule::pie => Action::Pie,
            Rule::pass => Action::Pass,
            other => unreachable!("the grammar has no action {other:?}"),
        };
        Spanned::new(action, span)
    }

    /// The pieces a step names, and the zone after its `in`.
    fn pieces_in_zone(&mut self, pair: P<'_>) -> (Vec<Name>, Option<ZoneExpr>) {
        let mut pieces = Vec::new();
        let mut zone = None;
        for part in parts(pair) {
            match part.as_rule() {
                Rule::name => pieces.push(self.name(part)),
                _ => zone = Some(self.zone_expr(part)),
            }
        }
        (pieces, zone)
    }

    fn shot(&mut self, pair: P<'_>) -> Shot {
        let mut always = Vec::new();
        let mut cases = Vec::new();
        for part in parts(pair) {
            match part.as_rule() {
                Rule::shot_case => {
                    let mut it = parts(part);
                    let tag = self.name(it.next().expect("shot tag"));
                    let rules = it.flat_map(|r| self.move_rules(r)).collect();
                    cases.push(ShotCase { tag, rules });
                }
                _ => always.extend(self.move_rules(part)),
            }
        }
        if cases.is_empty() {
            Shot::Always(always)
        } else {
            Shot::ByTag(cases)
        }
    }

    fn removal(&mut self, pair: P<'_>) -> Removal {
        let mut side = None;
        let mut groups = Vec::new();
        let mut except = Vec::new();
        for part in parts(pair) {
            match part.as_rule() {
                Rule::side => side = Some(self.side(part)),
                Rule::removal_group => groups.push(self.names(part)),
                _ => except = self.names(part),
            }
        }
        Removal {
            side: side.expect("removal side"),
            groups,
            except,
        }
    }

    fn phase(&mut self, pair: P<'_>) -> Phase {
        let span = self.span(&pair);
        let mut it = parts(pair);
        let name = self.name(it.next().expect("phase name"));
        let mut movers = Vec::new();
        let mut end = None;
        let mut turns = Vec::new();
        for part in it {
            match part.as_rule() {
                Rule::name => movers.push(self.name(part)),
                Rule::phase_end => {
                    let value = match parts(part.clone()).next().map(|p| p.as_rule()) {
                        Some(Rule::once) => PhaseEnd::Once,
                        _ => PhaseEnd::UntilHandEmpty,
                    };
                    end = Some(Spanned::new(value, self.span(&part)));
                }
                _ => turns.push(self.turn(part)),
            }
        }
        Phase {
            name,
            movers,
            end,
            turns,
            span,
        }
    }

    fn trigger(&mut self, pair: P<'_>) -> Trigger {
        let span = self.span(&pair);
        let mut zone = None;
        let mut pieces = Vec::new();
        let mut body = None;
        for part in parts(pair) {
            match part.as_rule() {
                Rule::name => pieces.push(self.name(part)),
                Rule::turn_body => body = Some(self.turn_body(part)),
                _ => zone = Some(self.zone_expr(part)),
            }
        }
        Trigger {
            zone: zone.expect("trigger zone"),
            pieces,
            body: body.expect("trigger body"),
            span,
        }
    }

    // -----------------------------------------------------------------------------------------
    // End of the game

    fn end_rule(&mut self, pair: P<'_>) -> EndRule {
        let span = self.span(&pair);
        let mut it = parts(pair);
        let outcome = it.next().expect("outcome");
        let outcome_value = match outcome.as_str() {
            "win" => Outcome::Win,
            "lose" => Outcome::Lose,
            _ => Outcome::Draw,
        };
        let outcome = Spanned::new(outcome_value, self.span(&outcome));
        let condition = it.next().expect("end condition");
        let condition_span = self.span(&condition);
        let condition = if condition.as_rule() == Rule::quiet_limit {
            self.quiet_limit(condition)
        } else {
            let inner = parts(condition).next().expect("condition kind");
            match inner.as_rule() {
                Rule::checkmated => EndCondition::Checkmated,
                Rule::stalemated => EndCondition::Stalemated,
                Rule::no_moves => match parts(inner).next() {
                    None => EndCondition::NoMoves,
                    Some(count) => EndCondition::NoMovesCounted {
                        fewer: fewer_pieces(count),
                    },
                },
                Rule::full => EndCondition::Full(parts(inner).next().map(fewer_pieces)),
                Rule::standoff => EndCondition::Standoff,
                Rule::royal_captured => EndCondition::RoyalCaptured,
                Rule::exposed => EndCondition::Exposed,
                Rule::extinct => EndCondition::Extinct(parts(inner).next().map(|p| self.name(p))),
                Rule::fewer => {
                    let mut items = parts(inner);
                    let count = self.small(items.next().expect("count"));
                    EndCondition::Fewer(count, items.map(|name| self.name(name)).collect())
                }
                Rule::bare => EndCondition::Bare {
                    reply: inner.into_inner().any(|p| p.as_rule() == Rule::kw_reply),
                },
                Rule::repeated => {
                    EndCondition::Repeated(self.small(parts(inner).next().expect("count")))
                }
                Rule::passed => {
                    let mut items = parts(inner);
                    let turns = self.small(items.next().expect("count"));
                    EndCondition::Passed(turns, items.next().map(fewer_pieces))
                }
                Rule::counter_reaches => {
                    let mut items = parts(inner);
                    let counter = self.name(items.next().expect("counter"));
                    EndCondition::CounterReaches(counter, self.small(items.next().expect("value")))
                }
                Rule::reaches => {
                    let mut items = parts(inner);
                    let piece = self.name(items.next().expect("piece"));
                    let zone = self.zone_expr(items.next().expect("zone"));
                    let goal = items.next().map_or(Goal::Arrival, |timing| {
                        match parts(timing).next().expect("timing").as_rule() {
                            Rule::goal_safe => Goal::Safe,
                            Rule::goal_after_reply => Goal::AfterReply,
                            _ => Goal::UnlessFollowed,
                        }
                    });
                    EndCondition::Reaches(piece, zone, goal)
                }
                _ => EndCondition::Immobilized(self.name(parts(inner).next().expect("piece"))),
            }
        };
        EndRule {
            outcome,
            condition: Spanned::new(condition, condition_span),
            span,
        }
    }

    fn quiet_limit(&mut self, pair: P<'_>) -> EndCondition {
        let mut it = parts(pair);
        let plies = self.small(it.next().expect("ply count"));
        let breakers = it
            .map(|breaker| {
                let span = self.span(&breaker);
                let inner = parts(breaker).next().expect("breaker kind");
                let value = match inner.as_rule() {
                    Rule::piece_move => {
                        QuietBreaker::PieceMove(self.name(parts(inner).next().expect("piece")))
                    }
                    Rule::any_drop => QuietBreaker::Drop,
                    _ => QuietBreaker::Capture,
                };
                Spanned::new(value, span)
            })
            .collect();
        EndCondition::Quiet(plies, breakers)
    }

    // -----------------------------------------------------------------------------------------
    // Setup and tests

    fn setup(&mut self, pair: P<'_>) -> Setup {
        let span = self.span(&pair);
        let mut it = parts(pair);
        let player = self.name(it.next().expect("setup player"));
        let mut placements = Vec::new();
        let mut hand = Vec::new();
        let mut castling_homes = Vec::new();
        for part in it {
            match part.as_rule() {
                Rule::hand_entry => {
                    for item in parts(part) {
                        hand.extend(self.hand_item(item));
                    }
                }
                Rule::castling_homes => {
                    castling_homes.extend(parts(part).map(|home| self.placement(home)))
                }
                _ => placements.push(self.placement(part)),
            }
        }
        Setup {
            player,
            placements,
            hand,
            castling_homes,
            span,
        }
    }

    /// `N PIECE` in a hand, as N copies of the name (past 256 a hand overflows anyway, and
    /// the checker says so).
    fn hand_item(&self, pair: P<'_>) -> Vec<Name> {
        let mut items = parts(pair);
        let first = items.next().expect("hand item");
        match items.next() {
            None => vec![self.name(first)],
            Some(name) => {
                let count = first
                    .as_str()
                    .parse::<usize>()
                    .unwrap_or(usize::MAX)
                    .min(256);
                vec![self.name(name); count]
            }
        }
    }

    fn placement(&mut self, pair: P<'_>) -> Placement {
        let span = self.span(&pair);
        let mut it = parts(pair);
        let piece = self.name(it.next().expect("placed piece"));
        let squares = it.map(|s| self.square_item(s)).collect();
        Placement {
            piece,
            squares,
            span,
        }
    }

    fn test(&mut self, pair: P<'_>) -> Test {
        let span = self.span(&pair);
        let mut it = parts(pair);
        let name = self.string(it.next().expect("test name"));
        let mut position = None;
        let mut moves = None;
        let mut expectations = Vec::new();
        for part in it {
            let part_span = self.span(&part);
            match part.as_rule() {
                Rule::test_position => {
                    position = Some(self.string(parts(part).next().expect("position")))
                }
                Rule::test_moves => moves = Some(self.string(parts(part).next().expect("moves"))),
                Rule::perft_expectation => {
                    let mut it = parts(part);
                    let depth = self.small(it.next().expect("depth"));
                    let count = self.number(it.next().expect("count"));
                    expectations.push(Expectation::Perft {
                        depth,
                        count,
                        span: part_span,
                    });
                }
                _ => {
                    let list = parts(part).map(|s| self.string(s)).collect();
                    expectations.push(Expectation::Moves(list, part_span));
                }
            }
        }
        Test {
            name,
            position,
            moves,
            expectations,
            span,
        }
    }
}

/// Where a pair's content ends. Every token is a pair of its own, so the last token inside a
/// pair ends its content, and whatever pest skipped after it is left out.
fn content_end(pair: &P<'_>) -> usize {
    // A string's last part is its text, which stops short of the closing quote.
    if pair.as_rule() == Rule::string {
        return pair.as_span().end();
    }
    match pair.clone().into_inner().next_back() {
        Some(last) => content_end(&last),
        None => pair.as_span().end(),
    }
}

/// Every direction word and its meaning, as the grammar's `direction` rule lists them.
pub(super) const DIRECTION_WORDS: [(&str, Direction); 20] = [
    ("forward", Direction::Forward),
    ("backward", Direction::Backward),
    ("left", Direction::Left),
    ("right", Direction::Right),
    ("forward-left", Direction::ForwardLeft),
    ("forward-right", Direction::ForwardRight),
    ("backward-left", Direction::BackwardLeft),
    ("backward-right", Direction::BackwardRight),
    ("sideways", Direction::Sideways),
    ("vertical", Direction::Vertical),
    ("orthogonal", Direction::Orthogonal),
    ("diagonal", Direction::Diagonal),
    ("diagonal-forward", Direction::DiagonalForward),
    ("diagonal-backward", Direction::DiagonalBackward),
    ("ahead", Direction::Ahead),
    ("behind", Direction::Behind),
    ("all", Direction::All),
    ("narrow", Direction::Narrow),
    ("wide", Direction::Wide),
    ("away", Direction::Away),
];

pub(super) fn direction_word(word: &str) -> Option<Direction> {
    DIRECTION_WORDS
        .iter()
        .find(|(w, _)| *w == word)
        .map(|&(_, direction)| direction)
}

/// A word the grammar lets through that the syntax tree has no meaning for: the grammar and
/// this builder disagree, which a test guards against; said rather than guessed.
fn unknown_word(word: &str, span: Span, kind: &str) -> Problem {
    Problem::error(
        Code::SyntaxError,
        format!("unknown {kind} `{word}`"),
        span,
        format!("not a {kind} fairy knows"),
    )
}

/// Whether a `with fewer pieces` / `with more pieces` count asks for fewer.
fn fewer_pieces(count: P<'_>) -> bool {
    parts(count).next().map(|p| p.as_rule()) == Some(Rule::fewer_pieces)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words a grammar rule made of alternatives `name = @{ ( "a" | "b" ) ... }` accepts.
    fn grammar_words(rule: &str) -> Vec<String> {
        let grammar = include_str!("../../grammar/rules.pest");
        let start = grammar
            .find(&format!("\n{rule} "))
            .unwrap_or_else(|| panic!("the grammar has a rule {rule}"));
        let body = &grammar[start..];
        let end = body.find('}').expect("the rule ends");
        body[..end]
            .split('"')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn every_direction_word_of_the_grammar_has_a_meaning() {
        let mut words = grammar_words("direction ");
        words.sort();
        let mut known: Vec<String> = DIRECTION_WORDS.iter().map(|(w, _)| w.to_string()).collect();
        known.sort();
        assert_eq!(words, known);
    }

    #[test]
    fn every_compass_word_of_the_grammar_is_a_compass_point() {
        let words = grammar_words("compass");
        assert_eq!(words, ["north", "south", "east", "west"]);
    }
}
