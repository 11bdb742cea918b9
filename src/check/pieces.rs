//! Pieces: letters, move rules and their modifiers, promotion, drop limits, grants, castling.

use super::checked::{self, PieceId, TagId};
use super::forms::promotion_clauses;
use super::zones::ForPlayers;
use super::{Checker, DirectionUse, given_twice, graph};
use crate::diagnostic::{Code, Problem};
use crate::geometry::{self, DirectionSet};
use crate::syntax::ast::*;

/// Where a move rule stands, which limits what it may say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RuleContext {
    /// A piece's own move.
    Piece,
    /// A move a piece grants to its neighbours.
    Granted,
    /// The flight of an arrow.
    Arrow,
}

/// A move rule as the checker resolves it: moves of its own, or another piece's moves (`like`),
/// which are filled in once every piece is resolved.
#[derive(Clone, Debug)]
pub(super) enum RuleOrLike {
    Rule(Box<checked::MoveRule>),
    Like(PieceId),
}

/// A piece as checked, before `like` is expanded.
pub(super) struct PieceDraft {
    /// The piece, its move rules and its grants' rules still to be filled in.
    piece: checked::Piece,
    own: Vec<RuleOrLike>,
    /// Each grant's rules, in the order of `piece.grants`.
    granted: Vec<Vec<RuleOrLike>>,
}

/// The pieces with every `like` replaced by the other piece's moves, each piece's list without
/// repeats. Pieces are expanded after the pieces they are like, so a chain of any length costs
/// its size; the checker has refused circles.
pub(super) fn expand_likes(drafts: Vec<PieceDraft>) -> Vec<checked::Piece> {
    let likes: Vec<Vec<usize>> = drafts
        .iter()
        .map(|draft| {
            (draft.own.iter())
                .filter_map(|rule| match rule {
                    RuleOrLike::Like(other) => Some(other.0),
                    RuleOrLike::Rule(_) => None,
                })
                .collect()
        })
        .collect();
    let mut moves: Vec<Vec<checked::MoveRule>> = vec![Vec::new(); drafts.len()];
    for piece in graph::dependency_order(&likes) {
        moves[piece] = expanded(&drafts[piece].own, &moves);
    }
    let granted: Vec<Vec<Vec<checked::MoveRule>>> = drafts
        .iter()
        .map(|draft| {
            (draft.granted.iter())
                .map(|rules| expanded(rules, &moves))
                .collect()
        })
        .collect();
    drafts
        .into_iter()
        .zip(moves)
        .zip(granted)
        .map(|((draft, own), granted)| {
            let mut piece = draft.piece;
            piece.moves = own;
            for (grant, rules) in piece.grants.iter_mut().zip(granted) {
                grant.rules = rules;
            }
            piece
        })
        .collect()
}

/// `rules` with each `like` replaced by that piece's `moves`, without repeats.
fn expanded(rules: &[RuleOrLike], moves: &[Vec<checked::MoveRule>]) -> Vec<checked::MoveRule> {
    let every = rules.iter().flat_map(|rule| match rule {
        RuleOrLike::Rule(rule) => std::slice::from_ref(rule.as_ref()),
        RuleOrLike::Like(other) => moves[other.0].as_slice(),
    });
    let mut out: Vec<checked::MoveRule> = Vec::new();
    for rule in every {
        if !out.contains(rule) {
            out.push(rule.clone());
        }
    }
    out
}

impl Checker<'_> {
    /// Checks a piece; resolves it, but for its `like` rules, when every part resolves.
    pub(super) fn check_piece(&mut self, piece: &Piece) -> Option<PieceDraft> {
        self.check_letter(piece);
        let mut royal: Option<Span> = None;
        let mut castles: Vec<(String, Span)> = Vec::new();
        let mut resolved = checked::Piece {
            name: piece.name.value.clone(),
            letter: piece.letter.value.clone(),
            royal: piece.is_royal(),
            together: piece.is_royal_together(),
            moves: Vec::new(),
            promotions: Vec::new(),
            drops: checked::DropLimits::default(),
            grants: Vec::new(),
            castles: Vec::new(),
            converts: DirectionSet::default(),
            converts_flanked: false,
            standoff: DirectionSet::default(),
        };
        let mut own = Vec::new();
        let mut granted = Vec::new();
        let mut complete = true;
        for clause in &piece.clauses {
            match clause {
                PieceClause::Royal { span, .. } => {
                    if let Some(first) = royal {
                        let message = "`royal` given twice";
                        self.error(given_twice(Code::RoyalTwice, message, *span, first));
                    }
                    royal = Some(*span);
                }
                PieceClause::Move(rule) => {
                    match self.check_move_rule(rule, RuleContext::Piece, Some(piece)) {
                        Some(rule) => own.push(rule),
                        None => complete = false,
                    }
                }
                PieceClause::Promote(promotion) => match self.check_promotion(piece, promotion) {
                    Some(promotion) => resolved.promotions.push(promotion),
                    None => complete = false,
                },
                PieceClause::Drop(rule) => {
                    complete &= self.check_drop_rule(piece, rule, &mut resolved.drops)
                }
                PieceClause::Grant(grant) => match self.check_grant(grant) {
                    Some((grant, rules)) => {
                        resolved.grants.push(grant);
                        granted.push(rules);
                    }
                    None => complete = false,
                },
                PieceClause::Castle(castle) => {
                    let key = castle_key(castle);
                    if let Some((_, first)) = castles.iter().find(|(k, _)| *k == key) {
                        let message = "the same castling given twice";
                        self.error(
                            given_twice(Code::CastleTwice, message, castle.span, *first)
                                .with_help("remove one: it would make the same move twice"),
                        );
                    }
                    castles.push((key, castle.span));
                    match self.check_castle(piece, castle, royal.is_some()) {
                        Some(castle) => resolved.castles.push(castle),
                        None => complete = false,
                    }
                }
                PieceClause::Convert(directions, flanked, span) => {
                    let set = self.check_directions(directions, *span, DirectionUse::Lines);
                    // Several clauses convert in every direction any of them names.
                    resolved.converts.sectors |= set.sectors;
                    resolved.converts_flanked |= flanked;
                }
                PieceClause::Standoff(directions, span) => {
                    let set = self.check_directions(directions, *span, DirectionUse::Lines);
                    resolved.standoff.sectors |= set.sectors;
                }
            }
        }
        // A piece that only enters by drops and stays (a disc, a stone) means to have no moves.
        if !piece
            .clauses
            .iter()
            .any(|c| matches!(c, PieceClause::Move(_) | PieceClause::Drop(_)))
        {
            self.error(
                Problem::warning(
                    Code::PieceWithoutMoves,
                    format!("piece `{}` has no moves", piece.name.value),
                    piece.name.span,
                    "it can never move or capture",
                )
                .with_help("give it a move rule such as `step orthogonal`"),
            );
        }
        complete.then_some(PieceDraft {
            piece: resolved,
            own,
            granted,
        })
    }

    fn check_letter(&mut self, piece: &Piece) {
        let letter = &piece.letter;
        let base = letter.value.trim_start_matches('+');
        if !base.chars().all(|c| c.is_ascii_uppercase()) {
            self.error(
                Problem::error(Code::LetterNotCapital, "piece letters are capitals", letter.span, "lower-case letter")
                    .with_help(format!(
                        "write `{}`: positions show the first player's pieces in capitals and the second's in lower case",
                        letter.value.to_uppercase()
                    )),
            );
        }
        let key = letter.value.to_uppercase();
        match self.letters.get(&key) {
            Some((owner, first)) => {
                let problem = Problem::error(
                    Code::LetterTwice,
                    format!("letter `{}` is used twice", letter.value),
                    letter.span,
                    format!("`{owner}` already has it"),
                )
                .with_note(*first, "first used here");
                self.error(problem);
            }
            None => {
                self.letters
                    .insert(key, (piece.name.value.clone(), letter.span));
            }
        }
    }

    pub(super) fn check_move_rule(
        &mut self,
        rule: &MoveRule,
        context: RuleContext,
        owner: Option<&Piece>,
    ) -> Option<RuleOrLike> {
        if let Atom::Like(other) = &rule.atom.value {
            return self.check_like(rule, other, owner);
        }
        self.check_mode(rule, context);
        let atom = self.check_atom(&rule.atom, context);
        let mut resolved = atom.map(|atom| checked::MoveRule {
            mode: rule.mode.as_ref().map(|m| m.value),
            atom,
            from: None,
            to: None,
            takes: None,
            over: None,
            lame: false,
            passable: false,
            en_passant: false,
            first: false,
            tag: None,
        });
        let mut seen: Vec<(std::mem::Discriminant<Modifier>, Span)> = Vec::new();
        for modifier in &rule.modifiers {
            let kind = std::mem::discriminant(&modifier.value);
            if let Some((_, first)) = seen.iter().find(|(k, _)| *k == kind) {
                let message = "modifier given twice";
                self.error(given_twice(
                    Code::ModifierTwice,
                    message,
                    modifier.span,
                    *first,
                ));
                continue;
            }
            seen.push((kind, modifier.span));
            let applied = self.check_modifier(rule, modifier, context);
            match (applied, &mut resolved) {
                (Some(applied), Some(rule)) => applied.apply_to(rule),
                (None, _) => resolved = None,
                (Some(_), None) => {}
            }
        }
        resolved.map(|rule| RuleOrLike::Rule(Box::new(rule)))
    }

    /// `like PIECE`: the other piece's moves as they are, so no mode or modifier goes with it.
    fn check_like(
        &mut self,
        rule: &MoveRule,
        other: &Name,
        owner: Option<&Piece>,
    ) -> Option<RuleOrLike> {
        let extra = (rule.mode.as_ref().map(|m| m.span))
            .into_iter()
            .chain(rule.modifiers.iter().map(|m| m.span));
        for span in extra {
            self.error(
                Problem::error(
                    Code::LikeWithModifier,
                    "`like` takes no mode or modifier",
                    span,
                    "not with `like`",
                )
                .with_help("`like` stands for the other piece's moves as they are: write the moves out to change them"),
            );
        }
        let like = self.piece(other)?;
        if owner.is_some_and(|p| p.name.value == other.value) {
            self.error(Problem::error(
                Code::LikeItself,
                "a piece cannot move like itself",
                other.span,
                "this is the piece being defined",
            ));
        }
        Some(RuleOrLike::Like(like))
    }

    fn check_mode(&mut self, rule: &MoveRule, context: RuleContext) {
        let Some(mode) = &rule.mode else { return };
        if context == RuleContext::Arrow {
            self.error(
                Problem::error(
                    Code::ArrowWithMode,
                    "arrows have no mode",
                    mode.span,
                    "an arrow never captures",
                )
                .with_help("an arrow always lands on an empty square: drop `move`/`capture`"),
            );
            return;
        }
        if mode.value == Mode::CaptureOnly
            && let Some(none) = self.captures_nothing()
        {
            self.error(
                Problem::error(
                    Code::CaptureWithoutCaptures,
                    "a capture in a game without captures",
                    mode.span,
                    "this captures",
                )
                .with_note(none, "the game says nothing is ever captured"),
            );
        }
    }

    /// Checks the atom of a move rule other than `like`.
    fn check_atom(&mut self, atom: &Spanned<Atom>, context: RuleContext) -> Option<checked::Atom> {
        use checked::Atom as Resolved;
        let lines = if context == RuleContext::Granted {
            DirectionUse::Granted
        } else {
            DirectionUse::Lines
        };
        let resolved = match &atom.value {
            Atom::Step(directions) => {
                Resolved::Step(self.check_directions(directions, atom.span, lines))
            }
            Atom::Hop(directions, beyond, up_to) => {
                let set = self.check_directions(directions, atom.span, lines);
                Resolved::Hop(set, *beyond, self.check_range(up_to.as_ref()))
            }
            Atom::Slide(directions, up_to) => {
                let set = self.check_directions(directions, atom.span, lines);
                Resolved::Slide(set, self.check_range(up_to.as_ref()))
            }
            Atom::Leap(vector, directions) => {
                Resolved::Leap(vector.value, self.check_vector(vector, directions))
            }
            Atom::Ride(vector, directions, up_to) => {
                let set = self.check_vector(vector, directions);
                Resolved::Ride(vector.value, set, self.check_range(up_to.as_ref()))
            }
            Atom::Anywhere => Resolved::Anywhere,
            // Resolved by `check_like`, before the atom is looked at.
            Atom::Like(_) => return None,
        };
        Some(resolved)
    }

    /// Checks an `up-to` range; gives it.
    fn check_range(&mut self, up_to: Option<&Spanned<u32>>) -> Option<u32> {
        if let Some(limit) = up_to.filter(|l| l.value == 0) {
            self.error(Problem::error(
                Code::RangeZero,
                "a range of 0 never moves",
                limit.span,
                "ranges count from 1",
            ));
        }
        up_to.map(|limit| limit.value)
    }

    /// Checks a leap's vector and the directions that select among its images; gives those
    /// directions.
    fn check_vector(
        &mut self,
        vector: &Spanned<(i64, i64)>,
        directions: &Directions,
    ) -> DirectionSet {
        let (a, b) = vector.value;
        let set = DirectionSet::of(directions.iter().map(|d| d.value));
        if a == 0 && b == 0 {
            self.error(Problem::error(
                Code::LeapZeroVector,
                "a leap of (0,0) stays put",
                vector.span,
                "zero vector",
            ));
            return set;
        }
        self.check_directions(directions, vector.span, DirectionUse::Oblique);
        if let Some(board) = &self.board {
            let longest = a.max(b);
            let shortest = a.min(b);
            let fits = longest < i64::from(board.width.max(board.height))
                && shortest < i64::from(board.width.min(board.height));
            if !fits {
                self.error(Problem::error(
                    Code::LeapNeverLands,
                    format!("({a},{b}) never lands on this board"),
                    vector.span,
                    format!("the board is {}×{}", board.width, board.height),
                ));
            }
        }
        if !set.away && !geometry::images(a, b).into_iter().any(|v| set.selects(v)) {
            let span = directions.first().map_or(vector.span, |d| d.span);
            self.error(
                Problem::error(
                    Code::DirectionsSelectNothing, format!("these directions select none of the moves ({a},{b})"),
                    span,
                    "no move of this vector points this way",
                )
                .with_help(
                    "oblique moves lie between the main lines: use `ahead`, `behind`, `forward-left`, … with `narrow` or `wide`",
                ),
            );
        }
        set
    }

    /// Checks a modifier of a move rule; gives what it adds to the rule, if it resolves.
    fn check_modifier(
        &mut self,
        rule: &MoveRule,
        modifier: &Spanned<Modifier>,
        context: RuleContext,
    ) -> Option<Applied> {
        if context == RuleContext::Arrow {
            self.error(Problem::error(
                Code::ArrowWithModifier,
                "arrows take no modifiers",
                modifier.span,
                "an arrow's flight is only its geometry",
            ));
            return None;
        }
        self.check_modifier_fits(rule, modifier);
        match &modifier.value {
            Modifier::From(zone) => self
                .check_zone_expr(zone, ForPlayers::All)
                .map(Applied::From),
            Modifier::To(zone) => self.check_zone_expr(zone, ForPlayers::All).map(Applied::To),
            Modifier::Takes { except, pieces } => Some(Applied::Takes(checked::Takes {
                except: *except,
                pieces: self.piece_list(pieces)?,
            })),
            Modifier::Over { except, pieces } => Some(Applied::Over(checked::Takes {
                except: *except,
                pieces: self.piece_list(pieces)?,
            })),
            Modifier::Lame => Some(Applied::Lame),
            Modifier::Passable => Some(Applied::Passable),
            Modifier::EnPassant => Some(Applied::EnPassant),
            Modifier::First => Some(Applied::First),
            Modifier::Tag(tag) => self
                .tags
                .resolve(tag, &mut self.problems)
                .map(|index| Applied::Tag(TagId(index))),
        }
    }

    /// Whether a modifier makes sense on its rule.
    fn check_modifier_fits(&mut self, rule: &MoveRule, modifier: &Spanned<Modifier>) {
        let mode = rule.mode.as_ref().map(|m| m.value);
        let mode_span = rule.mode.as_ref().map_or(modifier.span, |m| m.span);
        match &modifier.value {
            Modifier::Lame if !has_path(&rule.atom.value) => self.error(
                Problem::error(
                    Code::LameWithoutPath, "`lame` needs a leap longer than one square",
                    modifier.span,
                    "nothing to block",
                )
                .with_help("a lame leap is blocked by a piece on the way, as in `leap (0,2) lame`"),
            ),
            Modifier::Takes { .. } if mode == Some(Mode::MoveOnly) => self.error(
                Problem::error(
                    Code::TakesMoveOnly, "`takes` limits captures",
                    modifier.span,
                    "on a move-only rule",
                )
                .with_note(mode_span, "this rule never captures"),
            ),
            Modifier::EnPassant if mode == Some(Mode::MoveOnly) => self.error(
                Problem::error(
                    Code::EnPassantMoveOnly, "en passant is a capture",
                    modifier.span,
                    "on a move-only rule",
                )
                .with_note(mode_span, "this rule never captures"),
            ),
            Modifier::Passable if mode == Some(Mode::CaptureOnly) => self.error(
                Problem::error(
                    Code::PassableCapture, "a capture cannot be passable",
                    modifier.span,
                    "on a capture-only rule",
                )
                .with_help("`passable` marks a non-capturing move, such as a pawn's double step"),
            ),
            Modifier::Passable if !passes_squares(rule) => self.error(
                Problem::error(
                    Code::PassableWithoutLame, "`passable` needs a lame leap",
                    modifier.span,
                    "no square here can be taken en passant",
                )
                .with_help("en passant takes the piece on the square its lame leap passed, as in `leap (0,2) lame passable`"),
            ),
            Modifier::Over { .. } if !matches!(rule.atom.value, Atom::Hop(..)) => self.error(
                Problem::error(Code::OverWithoutHop, "`over` limits what a hop jumps over", modifier.span, "on a rule that does not hop")
                    .with_help("use it on a hop, as in `hop orthogonal over not Cannon`"),
            ),
            Modifier::EnPassant if matches!(rule.atom.value, Atom::Hop(..) | Atom::Anywhere) => self.error(
                Problem::error(Code::EnPassantAtom, "en passant needs a step, slide, leap or ride", modifier.span, "not on this move")
                    .with_help("en passant lands on the square a passable move passed"),
            ),
            _ => {}
        }
    }

    /// Checks a promotion's `limit N PIECE…` groups: each piece one of its choices, named
    /// once, and N at least 1. Gives the limits of the pieces that resolve.
    fn check_promotion_limits(&mut self, promotion: &Promotion) -> Vec<(PieceId, u32)> {
        let mut seen: Vec<&Name> = Vec::new();
        let mut limits = Vec::new();
        for limit in &promotion.limits {
            let message = "a promotion limit of 0";
            self.at_least(
                1,
                &limit.below,
                Code::PromotionLimitZero,
                message,
                "never a choice",
            );
            for piece in &limit.pieces {
                let repeated = self.listed_before(&seen, piece);
                seen.push(piece);
                if repeated {
                    continue;
                }
                if !promotion.targets.iter().any(|t| t.value == piece.value) {
                    self.error(
                        Problem::error(
                            Code::LimitNotAChoice,
                            format!(
                                "`{}` is limited but is not a choice of this promotion",
                                piece.value
                            ),
                            piece.span,
                            "not among the pieces after `promote to`",
                        )
                        .with_help("limit only pieces this rule promotes to"),
                    );
                } else if let Some(id) = self.pieces.index_of(&piece.value) {
                    limits.push((PieceId(id), limit.below.value));
                }
            }
        }
        limits
    }

    fn check_promotion(
        &mut self,
        piece: &Piece,
        promotion: &Promotion,
    ) -> Option<checked::Promotion> {
        if promotion.targets.is_empty() {
            self.error(Problem::error(
                Code::PromotionToNothing,
                "promotion to nothing",
                promotion.span,
                "no piece named",
            ));
        }
        let mut seen: Vec<&Name> = Vec::new();
        let mut targets = Some(Vec::new());
        for target in &promotion.targets {
            let repeated = self.listed_before(&seen, target);
            seen.push(target);
            if repeated {
                continue;
            }
            if target.value == piece.name.value {
                self.error(Problem::error(
                    Code::PromotionToItself,
                    "a piece cannot promote to itself",
                    target.span,
                    "this is the promoting piece",
                ));
            } else {
                match (self.piece(target), &mut targets) {
                    (Some(id), Some(targets)) => targets.push(id),
                    (None, _) => targets = None,
                    (Some(_), None) => {}
                }
            }
        }
        if promotion.trigger == PromotionTrigger::On {
            self.check_standing_promotion(promotion);
        }
        let zone = self.check_zone_expr(&promotion.zone, ForPlayers::All);
        let limits = self.check_promotion_limits(promotion);
        Some(checked::Promotion {
            targets: targets?,
            limits,
            optional: promotion.optional,
            via: promotion.trigger == PromotionTrigger::Via,
            standing: promotion.trigger == PromotionTrigger::On,
            by_capture: promotion.by_capture,
            lone_anywhere: promotion.lone_anywhere,
            peaceful: promotion.peaceful,
            zone: zone?,
        })
    }

    /// Whether some piece promotes to the piece named `name`.
    fn is_promotion_target(&self, name: &str) -> bool {
        (self.piece_decls.iter().flat_map(|p| &p.clauses)).any(|clause| match clause {
            PieceClause::Promote(promotion) => promotion.targets.iter().any(|t| t.value == name),
            _ => false,
        })
    }

    /// A promotion `on` a zone is a turn the player chooses to make, and makes no capture.
    fn check_standing_promotion(&mut self, promotion: &Promotion) {
        if !promotion.optional {
            self.error(
                Problem::error(
                    Code::PromotionOnNeedsMay,
                    "a promotion `on` a zone is a turn of its own, never compulsory",
                    promotion.span,
                    "`promote … on` without `may`",
                )
                .with_help("write `may promote to … on ZONE`"),
            );
        }
        if promotion.by_capture {
            self.error(
                Problem::error(
                    Code::PromotionOnByCapture,
                    "a promotion `on` a zone captures nothing",
                    promotion.span,
                    "`on` with `by capture`",
                )
                .with_help("use `in ZONE by capture` for a promotion made by capturing"),
            );
        }
    }

    /// Checks a piece's drop limits, adding them to `limits`; gives whether they resolved.
    fn check_drop_rule(
        &mut self,
        piece: &Piece,
        rule: &DropRule,
        limits: &mut checked::DropLimits,
    ) -> bool {
        let mut complete = true;
        if !self.hands_used {
            self.error(
                Problem::error(
                    Code::DropLimitsNeverApply, format!("drop limits for `{}` never apply", piece.name.value),
                    rule.span,
                    "no piece ever reaches a hand",
                )
                .with_help("captures go to hand with `capture to-hand`, or a setup can give a `hand { ... }`"),
            );
        }
        for limit in &rule.limits {
            match &limit.value {
                DropLimit::Outside(zone) => match self.check_zone_expr(zone, ForPlayers::All) {
                    Some(zone) => limits.outside.push(zone),
                    None => complete = false,
                },
                DropLimit::Inside(zone) => match self.check_zone_expr(zone, ForPlayers::All) {
                    Some(zone) => limits.inside.push(zone),
                    None => complete = false,
                },
                DropLimit::NoMate if !self.has_royal() => self.error(
                    Problem::error(
                        Code::NoMateWithoutRoyal,
                        "`no-mate` with no royal piece",
                        limit.span,
                        "nothing can be mated",
                    )
                    .with_help("mark the king `royal`"),
                ),
                DropLimit::PerFile(count) => {
                    let message = "a drop limit of 0 per file";
                    self.at_least(
                        1,
                        count,
                        Code::PerFileZero,
                        message,
                        "no piece could ever be dropped",
                    );
                    limits.per_file = Some(count.value);
                }
                DropLimit::NoMate => limits.no_mate = true,
                DropLimit::Promoted if promotion_clauses(piece).next().is_none() => self.error(
                    Problem::error(
                        Code::DropPromotedWithoutPromotion,
                        format!(
                            "`{}` is dropped promoted but never promotes",
                            piece.name.value
                        ),
                        limit.span,
                        "it has no promoted side to drop",
                    )
                    .with_help("give the piece a `promote to ...` rule, or remove `promoted`"),
                ),
                DropLimit::Promoted => limits.promoted = true,
                DropLimit::OppositeColours => limits.opposite_colours = true,
                DropLimit::Unlimited if self.is_promotion_target(&piece.name.value) => self.error(
                    Problem::error(
                        Code::UnlimitedPromotionTarget,
                        format!(
                            "`{}` has an endless supply but is also promoted to",
                            piece.name.value
                        ),
                        limit.span,
                        "a promoted piece goes to hand as what it was",
                    )
                    .with_help("give the endless supply to a piece no piece promotes to"),
                ),
                DropLimit::Unlimited => limits.unlimited = true,
                DropLimit::Converting
                    if !piece
                        .clauses
                        .iter()
                        .any(|c| matches!(c, PieceClause::Convert(..))) =>
                {
                    self.error(
                        Problem::error(
                            Code::ConvertingWithoutConvert,
                            format!(
                                "`{}` is dropped only where it converts, but never converts",
                                piece.name.value
                            ),
                            limit.span,
                            "no drop could ever convert",
                        )
                        .with_help(
                            "give the piece a `convert` clause, such as `convert all flanked`",
                        ),
                    )
                }
                DropLimit::Converting => limits.converting = true,
            }
        }
        complete
    }

    /// Checks a grant; resolves it, with its rules apart until `like` is expanded.
    fn check_grant(&mut self, grant: &Grant) -> Option<(checked::Grant, Vec<RuleOrLike>)> {
        let neighbours = self.check_directions(&grant.directions, grant.span, DirectionUse::Lines);
        if grant.rules.is_empty() {
            self.error(Problem::error(
                Code::GrantOfNothing,
                "a grant of nothing",
                grant.span,
                "no move rules inside",
            ));
        }
        let rules: Vec<Option<RuleOrLike>> = grant
            .rules
            .iter()
            .map(|rule| self.check_move_rule(rule, RuleContext::Granted, None))
            .collect();
        let resolved = checked::Grant {
            enemy: grant.side.value == Side::Enemy,
            neighbours,
            rules: Vec::new(),
        };
        Some((resolved, rules.into_iter().collect::<Option<_>>()?))
    }

    fn check_castle(
        &mut self,
        piece: &Piece,
        castle: &Castle,
        royal: bool,
    ) -> Option<checked::Castle> {
        let lines = self.check_directions(&castle.directions, castle.span, DirectionUse::Lines);
        // Castling is written as the piece's own move: one square would read as a step.
        if castle.distance.value < 2 {
            self.error(
                Problem::error(
                    Code::CastleDistance, "castling moves at least two squares",
                    castle.distance.span,
                    format!("a distance of {}", castle.distance.value),
                )
                .with_help("a castling is written as the piece's move, which one square would make a plain step"),
            );
        }
        let partner = self.piece(&castle.partner);
        if partner.is_some() && castle.partner.value == piece.name.value {
            self.error(Problem::error(
                Code::CastleWithItself,
                "a piece cannot castle with its own kind",
                castle.partner.span,
                "the partner must be another piece",
            ));
        }
        let safe = castle
            .conditions
            .iter()
            .find(|c| c.value == CastleCondition::Safe);
        if let Some(safe) = safe.filter(|_| !royal && !piece.is_royal()) {
            self.error(
                Problem::error(
                    Code::SafeCastleNotRoyal,
                    format!(
                        "`safe` castling needs a royal piece, and `{}` is not royal",
                        piece.name.value
                    ),
                    safe.span,
                    "safe from what?",
                )
                .with_help("mark the piece `royal`, or drop `safe`"),
            );
        }
        let condition = |wanted| castle.conditions.iter().any(|c| c.value == wanted);
        Some(checked::Castle {
            lines,
            distance: castle.distance.value,
            any_colour: castle.any_colour,
            partner: partner?,
            safe: condition(CastleCondition::Safe),
            unmoved: condition(CastleCondition::Unmoved),
            span: castle.span,
        })
    }
}

/// What a checked modifier adds to its move rule.
enum Applied {
    From(checked::ZoneExpr),
    To(checked::ZoneExpr),
    Takes(checked::Takes),
    Over(checked::Takes),
    Lame,
    Passable,
    EnPassant,
    First,
    Tag(TagId),
}

impl Applied {
    fn apply_to(self, rule: &mut checked::MoveRule) {
        match self {
            Applied::From(zone) => rule.from = Some(zone),
            Applied::To(zone) => rule.to = Some(zone),
            Applied::Takes(takes) => rule.takes = Some(takes),
            Applied::Over(over) => rule.over = Some(over),
            Applied::Lame => rule.lame = true,
            Applied::Passable => rule.passable = true,
            Applied::EnPassant => rule.en_passant = true,
            Applied::First => rule.first = true,
            Applied::Tag(tag) => rule.tag = Some(tag),
        }
    }
}

/// Whether a leap crosses squares on its way, so that `lame` can mean something.
fn has_path(atom: &Atom) -> bool {
    matches!(atom, Atom::Leap(v, _) if v.value.0.abs().max(v.value.1.abs()) >= 2)
}

/// Whether a move passes a square en passant can take it on: the engine opens the first square
/// of a lame leap's path.
fn passes_squares(rule: &MoveRule) -> bool {
    let lame = rule.modifiers.iter().any(|m| m.value == Modifier::Lame);
    lame && has_path(&rule.atom.value)
}

/// Reports pieces whose `like` references go round in a circle.
pub(super) fn check_like_cycles(checker: &mut Checker<'_>) {
    let decls = checker.piece_decls.clone();
    let index: std::collections::HashMap<&str, usize> = decls
        .iter()
        .enumerate()
        .map(|(i, p)| (p.name.value.as_str(), i))
        .collect();
    let likes: Vec<Vec<usize>> = decls
        .iter()
        .map(|piece| {
            piece
                .clauses
                .iter()
                .filter_map(|c| match c {
                    PieceClause::Move(MoveRule {
                        atom:
                            Spanned {
                                value: Atom::Like(name),
                                ..
                            },
                        ..
                    }) => index.get(name.value.as_str()).copied(),
                    _ => None,
                })
                .collect()
        })
        .collect();
    // A piece `like` itself is reported where it is written; here only longer circles.
    for cycle in graph::cycles(&likes).into_iter().filter(|c| c.len() > 1) {
        let piece = decls[cycle[0]];
        let others: Vec<String> = cycle[1..]
            .iter()
            .map(|&i| format!("`{}`", decls[i].name.value))
            .collect();
        checker.error(
            Problem::error(
                Code::LikeCycle,
                format!(
                    "`{}` moves like itself through other pieces",
                    piece.name.value
                ),
                piece.name.span,
                format!(
                    "its `like` rules lead back to it through {}",
                    others.join(", ")
                ),
            )
            .with_help("write the moves out in one of the pieces"),
        );
    }
}

/// What a castle clause means, without where it is written: two clauses with the same key make
/// the same moves.
fn castle_key(castle: &Castle) -> String {
    let directions = sorted_words(castle.directions.iter().map(|d| &d.value));
    let conditions = sorted_words(castle.conditions.iter().map(|c| &c.value));
    format!(
        "{directions:?} {} {} {} {conditions:?}",
        castle.distance.value, castle.any_colour, castle.partner.value
    )
}

/// The items as words, in order, so that the order they were written in does not count.
fn sorted_words<T: std::fmt::Debug>(items: impl Iterator<Item = T>) -> Vec<String> {
    let mut words: Vec<String> = items.map(|item| format!("{item:?}")).collect();
    words.sort();
    words
}
