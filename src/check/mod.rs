//! Check: the meaning of a parsed rule file. Resolves every name, checks squares against the
//! board and options against each other, and collects every problem of the file at once. A
//! file without errors comes out resolved, as [`Checked`], for the compiler.

mod board;
pub mod checked;
mod endings;
pub mod features;
pub mod forms;
mod graph;
mod names;
mod pieces;
mod setup;
mod turns;
mod zones;

pub use board::{BoardShape, Cell};
pub use checked::Checked;
pub use features::Feature;
pub use names::NameKind;

use crate::diagnostic::{Code, Problem};
use crate::geometry::DirectionSet;
use crate::limits::{self, MAX_PLAYERS};
use crate::syntax::Parsed;
use crate::syntax::ast::*;
use checked::{PieceId, PlayerId, TestCase, ZoneId};
use forms::Forms;
use names::Names;

/// What `fairy check` says about a valid file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub game: String,
    pub players: Vec<String>,
    pub board: BoardShape,
    pub pieces: usize,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let squares = self.board.squares();
        let full = (self.board.width * self.board.height) as usize;
        let holes = if squares == full {
            String::new()
        } else {
            format!(" ({squares} squares)")
        };
        write!(
            f,
            "{}: {} players ({}), {}×{} board{holes}, {} piece{}",
            self.game,
            self.players.len(),
            self.players.join(", "),
            self.board.width,
            self.board.height,
            self.pieces,
            if self.pieces == 1 { "" } else { "s" }
        )
    }
}

impl Summary {
    pub fn of(checked: &Checked) -> Summary {
        Summary {
            game: checked.game.clone(),
            players: checked.players.iter().map(|p| p.name.clone()).collect(),
            board: checked.board.clone(),
            pieces: checked.pieces.len(),
        }
    }
}

/// The checker's verdict: every problem found, in the order found, and the file resolved when
/// it has no error.
#[derive(Debug)]
pub struct Verdict {
    pub problems: Vec<Problem>,
    pub checked: Option<Checked>,
    /// The concepts of the language the file uses, each with its first use; none when some
    /// items did not parse.
    pub uses: Vec<(Feature, Span)>,
}

/// Checks what parsed of a rule file's text. After syntax errors, what parsed is checked too, so
/// that one report holds every mistake: its unknown names and squares off the board, but not
/// the names of items left out, nor what depends on the file as a whole.
pub fn check(parsed: &Parsed, text: &str) -> Verdict {
    // Warnings of the syntax (brackets a reader may want) leave the file whole.
    if !parsed.problems.iter().any(Problem::is_error) {
        let mut verdict = check_whole(&parsed.file);
        verdict
            .problems
            .splice(0..0, parsed.problems.iter().cloned());
        return verdict;
    }
    let mut problems = parsed.problems.clone();
    let lost_keywords: Vec<&str> = parsed.lost.iter().map(|(k, _)| k.as_str()).collect();
    // Without its board or a player, nothing else of a file can be judged.
    let checkable = parsed.readable
        && !lost_keywords
            .iter()
            .any(|k| ["board", "player"].contains(k));
    if checkable {
        let lost_names: Vec<&str> = parsed
            .lost
            .iter()
            .filter_map(|(_, n)| n.as_deref())
            .collect();
        let mut checker = Checker::new(&parsed.file);
        checker.declare();
        checker.check_items();
        // Only what is judged at its own place: a line blanked or an item left out can take
        // away what the other problems look for.
        problems.extend(checker.problems.into_iter().filter(|p| {
            (p.local || holds_whatever_was_lost(p.code))
                && !lost_names
                    .iter()
                    .any(|name| names::is_unknown(p, name, text))
        }));
    }
    Verdict {
        problems,
        checked: None,
        uses: Vec::new(),
    }
}

/// Whether a problem of this kind, found in the items that parsed, stands whatever the items
/// and lines a syntax error left out said: a name, letter or rule given twice (what was lost
/// can only add to that), or a rule whose own words are wrong (a zero range, a leap that never
/// lands). A problem about what a file lacks (no royal piece, a piece without moves) might be
/// answered by the text that was lost, and waits until the syntax is fixed.
fn holds_whatever_was_lost(code: Code) -> bool {
    use Code::*;
    matches!(
        code,
        DuplicatePlayer
            | DuplicatePiece
            | DuplicateZone
            | DuplicateCounter
            | DuplicatePhase
            | DuplicateMoveTag
            | ListedTwice
            | GameNamedTwice
            | GameNameEmpty
            | BoardTwice
            | BoardSize
            | ShapeHeight
            | ShapeWidth
            | RunNotStraight
            | PlayersSameInitial
            | ZoneCaseTwice
            | RankZero
            | RankRangeEmpty
            | LetterNotCapital
            | LetterTwice
            | TooManyKinds
            | RoyalTwice
            | ModifierTwice
            | LikeItself
            | LikeWithModifier
            | RangeZero
            | LeapZeroVector
            | LeapNeverLands
            | DirectionsSelectNothing
            | AwayOutsideGrant
            | AwayNotAlone
            | NarrowOnStraightLine
            | LameWithoutPath
            | PassableCapture
            | PassableWithoutLame
            | EnPassantMoveOnly
            | TakesMoveOnly
            | EnPassantAtom
            | PromotionToItself
            | PerFileZero
            | PromotionLimitZero
            | CastleTwice
            | CastleDistance
            | CastleWithItself
            | CaptureRuleTwice
            | CaptureRulesContradict
            | CounterLimitZero
            | CounterEventTwice
            | OrdinaryTurnTwice
            | PeriodTooShort
            | PeriodTwice
            | ShootBeforeMove
            | GateBeforeMove
            | ArrowTagTwice
            | ArrowAtom
            | ArrowWithMode
            | ArrowWithModifier
            | PieNotOnce
            | EndConditionTwice
            | DrawOddsTwice
            | RepeatedTooFew
            | QuietPliesZero
            | FewerThanZero
            | PassedZero
            | SetupTwice
            | SquareSetUpTwice
            | HandOverflow
            | CastlingHomeTwice
            | TestNameTwice
            | PerftDepthZero
            | PerftTooDeep
            | PerftDepthTwice
    )
}

/// Checks a rule file that parsed whole.
fn check_whole(file: &RuleFile) -> Verdict {
    let mut checker = Checker::new(file);
    checker.declare();
    let resolved = checker.check_items();
    let uses = features::uses(file);
    let mut problems = std::mem::take(&mut checker.problems);
    let valid = !problems.iter().any(Problem::is_error);
    let checked = match valid {
        true => checker.resolved(resolved, &uses),
        false => None,
    };
    if valid && checked.is_none() {
        // Every name that does not resolve is reported where it is written: this is a bug.
        problems.push(Problem::error(
            Code::Internal,
            "fairy could not resolve this file, yet found no mistake in it",
            Span::new(0, 0),
            "here",
        ));
    }
    Verdict {
        problems,
        checked,
        uses,
    }
}

/// What the items resolved to, each `None` where something in it did not resolve (and was
/// reported).
/// Something given a second time: the problem at `again`, noting where it was `first` given.
fn given_twice(code: Code, message: &str, again: Span, first: Span) -> Problem {
    Problem::error(code, message, again, "again here").with_note(first, "first here")
}

struct Resolved {
    captures: checked::Captures,
    forbidden: Vec<Forbidden>,
    zones: Vec<Option<checked::Zone>>,
    zone_order: Vec<ZoneId>,
    pieces: Vec<Option<pieces::PieceDraft>>,
    counters: Vec<Option<checked::Counter>>,
    phases: Option<Vec<checked::Phase>>,
    triggers: Vec<Option<checked::Trigger>>,
    endings: Vec<Option<checked::EndRule>>,
    draw_odds: Option<(Span, Option<PlayerId>)>,
    setup: Option<checked::Setup>,
    tests: Vec<TestCase>,
}

struct Checker<'a> {
    file: &'a RuleFile,
    problems: Vec<Problem>,
    game: Option<&'a Spanned<String>>,
    board: Option<BoardShape>,
    players: Names,
    player_decls: Vec<&'a Player>,
    zones: Names,
    zone_decls: Vec<&'a Zone>,
    pieces: Names,
    piece_decls: Vec<&'a Piece>,
    counters: Names,
    phases: Names,
    /// Move tags, declared by `as TAG` wherever they first appear.
    tags: Names,
    captures: Vec<&'a Spanned<CaptureRule>>,
    /// Whether any piece can ever be in a hand: captures go there or a setup puts one there.
    hands_used: bool,
    /// Piece letters seen so far (in capitals), with their piece and where they were written.
    letters: std::collections::HashMap<String, (String, Span)>,
    /// The forms the pieces take, once the pieces are checked.
    forms: Option<Forms>,
}

impl<'a> Checker<'a> {
    fn new(file: &'a RuleFile) -> Self {
        Checker {
            file,
            problems: Vec::new(),
            game: None,
            board: None,
            players: Names::new(NameKind::Player),
            player_decls: Vec::new(),
            zones: Names::new(NameKind::Zone),
            zone_decls: Vec::new(),
            pieces: Names::new(NameKind::Piece),
            piece_decls: Vec::new(),
            counters: Names::new(NameKind::Counter),
            phases: Names::new(NameKind::Phase),
            tags: Names::new(NameKind::MoveTag),
            captures: Vec::new(),
            hands_used: false,
            letters: Default::default(),
            forms: None,
        }
    }

    fn error(&mut self, problem: Problem) {
        self.problems.push(problem);
    }

    /// Royal pieces stand together or apart, all alike: reports a royal piece that differs from
    /// the first one declared.
    fn check_royal_together(&mut self, piece: &Piece) {
        let Some(&first) = (self.piece_decls.iter()).find(|p| p.is_royal()) else {
            return;
        };
        if piece.is_royal() && piece.is_royal_together() != first.is_royal_together() {
            let (apart, together) = match piece.is_royal_together() {
                true => (first, piece),
                false => (piece, first),
            };
            self.error(
                Problem::error(
                    Code::RoyalTogetherMixed,
                    "royal pieces both together and apart",
                    piece.name.span,
                    "this royal piece differs from the first",
                )
                .with_note(together.name.span, "this one is `royal together`")
                .with_note(apart.name.span, "this one is `royal` alone")
                .with_help("say `royal together` on every royal piece, or on none"),
            );
        }
    }

    /// `draw odds PLAYER`: a player of the game, given once.
    fn check_draw_odds(
        &mut self,
        odds: &Spanned<Name>,
        seen: &mut Option<(Span, Option<PlayerId>)>,
    ) {
        if let Some((first, _)) = seen {
            let message = "draw odds given twice";
            self.error(given_twice(Code::DrawOddsTwice, message, odds.span, *first));
            return;
        }
        *seen = Some((odds.span, self.player(&odds.value)));
    }

    /// Whether `name` is among the names `seen` before it in one list; reports it if so.
    fn listed_before(&mut self, seen: &[&Name], name: &Name) -> bool {
        let first = seen.iter().find(|n| n.value == name.value);
        if let Some(first) = first {
            self.error(
                Problem::error(
                    Code::ListedTwice,
                    format!("`{}` listed twice", name.value),
                    name.span,
                    "again",
                )
                .with_note(first.span, "first here"),
            );
        }
        first.is_some()
    }

    fn piece(&mut self, name: &Name) -> Option<PieceId> {
        self.pieces.resolve(name, &mut self.problems).map(PieceId)
    }

    /// The pieces of a list, when every name resolves (each that does not is reported).
    fn piece_list(&mut self, names: &[Name]) -> Option<Vec<PieceId>> {
        let resolved: Vec<Option<PieceId>> = names.iter().map(|n| self.piece(n)).collect();
        resolved.into_iter().collect()
    }

    fn player(&mut self, name: &Name) -> Option<PlayerId> {
        self.players.resolve(name, &mut self.problems).map(PlayerId)
    }

    /// First pass: every declaration, so that uses may come before definitions.
    fn declare(&mut self) {
        let mut board_item: Option<&Board> = None;
        for item in &self.file.items {
            match item {
                Item::Game(name) => self.declare_game(name),
                Item::Board(board) => match board_item {
                    Some(first) => self.error(
                        Problem::error(
                            Code::BoardTwice,
                            "the board is defined twice",
                            board.span,
                            "second board",
                        )
                        .with_note(first.span, "first board"),
                    ),
                    None => board_item = Some(board),
                },
                Item::Player(player) => {
                    self.players.declare(&player.name, &mut self.problems);
                    self.player_decls.push(player);
                }
                Item::Zone(zone) => {
                    self.zones.declare(&zone.name, &mut self.problems);
                    self.zone_decls.push(zone);
                }
                Item::Piece(piece) => {
                    self.hands_used |= piece.has_unlimited_supply();
                    self.pieces.declare(&piece.name, &mut self.problems);
                    self.piece_decls.push(piece);
                    self.declare_tags(piece);
                }
                Item::Counter(counter) => self.counters.declare(&counter.name, &mut self.problems),
                Item::Phase(phase) => self.phases.declare(&phase.name, &mut self.problems),
                Item::Capture(rule) => {
                    self.hands_used |= matches!(rule.value, CaptureRule::ToHand { .. });
                    self.captures.push(rule);
                }
                Item::Setup(setup) => self.hands_used |= !setup.hand.is_empty(),
                _ => {}
            }
        }
        self.require_game();
        match board_item {
            Some(board) => self.board = board::check_board(board, &mut self.problems),
            None => self.error(
                Problem::error(
                    Code::NoBoard,
                    "the file defines no board",
                    Span::new(0, 0),
                    "no `board` item",
                )
                .with_help("add a board, for example `board 8 x 8`"),
            ),
        }
        self.require_players();
    }

    fn declare_game(&mut self, name: &'a Spanned<String>) {
        if let Some(first) = self.game {
            self.error(
                Problem::error(
                    Code::GameNamedTwice,
                    "the game is named twice",
                    name.span,
                    "second name",
                )
                .with_note(first.span, "first name"),
            );
            return;
        }
        if name.value.trim().is_empty() {
            self.error(Problem::error(
                Code::GameNameEmpty,
                "the game's name is empty",
                name.span,
                "empty name",
            ));
        }
        self.game = Some(name);
    }

    fn require_game(&mut self) {
        if self.game.is_none() {
            self.error(
                Problem::error(
                    Code::NoGame,
                    "the file names no game",
                    Span::new(0, 0),
                    "no `game` item",
                )
                .with_help("start the file with `game \"Name of the variant\"`"),
            );
        }
    }

    fn require_players(&mut self) {
        let count = self.player_decls.len();
        if (3..=MAX_PLAYERS).contains(&count) {
            self.require_distinct_initials();
        }
        if (2..=MAX_PLAYERS).contains(&count) {
            return;
        }
        let span = self
            .player_decls
            .get(MAX_PLAYERS)
            .or(self.player_decls.first())
            .map_or(Span::new(0, 0), |p| p.span);
        self.error(
            Problem::error(
                Code::PlayerCount,
                format!("a game has 2 to {MAX_PLAYERS} players, this one has {count}"),
                span,
                if count == 0 {
                    "no `player` item"
                } else {
                    "players are declared here"
                },
            )
            .with_help("declare each player with `player NAME forward DIRECTION`"),
        );
    }

    /// With more than two players, positions name each player by the first letter of their
    /// name, so no two may share it.
    fn require_distinct_initials(&mut self) {
        let initial = |p: &Player| p.name.value.chars().next().map(|c| c.to_ascii_lowercase());
        let players = self.player_decls.clone();
        for (i, player) in players.iter().enumerate() {
            let Some(earlier) = players[..i].iter().find(|p| initial(p) == initial(player)) else {
                continue;
            };
            let problem = Problem::error(
                Code::PlayersSameInitial,
                format!(
                    "`{}` and `{}` start with the same letter",
                    earlier.name.value, player.name.value
                ),
                player.name.span,
                "same first letter as an earlier player",
            )
            .with_help(
                "with more than two players, positions name each player by the first letter \
                 of their name (`rK` for Red's King): rename one of them",
            );
            self.error(problem);
        }
    }

    /// Declares the tags of a piece's moves, its own and those it lends, so that arrows can
    /// follow either.
    fn declare_tags(&mut self, piece: &'a Piece) {
        let granted = piece.clauses.iter().flat_map(|clause| match clause {
            PieceClause::Grant(grant) => grant.rules.as_slice(),
            _ => &[],
        });
        let own = piece.clauses.iter().filter_map(|clause| match clause {
            PieceClause::Move(rule) => Some(rule),
            _ => None,
        });
        for rule in own.chain(granted) {
            for modifier in &rule.modifiers {
                if let Modifier::Tag(tag) = &modifier.value
                    && !self.tags.contains(&tag.value)
                {
                    self.tags.declare(tag, &mut self.problems);
                }
            }
        }
    }

    fn check_items(&mut self) -> Resolved {
        let captures = self.check_capture_rules();
        let zone_order = zones::check_zone_cycles(self);
        let mut resolved = Resolved {
            captures,
            forbidden: Vec::new(),
            zones: Vec::new(),
            zone_order,
            pieces: Vec::new(),
            counters: Vec::new(),
            phases: None,
            triggers: Vec::new(),
            endings: Vec::new(),
            draw_odds: None,
            setup: None,
            tests: Vec::new(),
        };
        let mut setups = Vec::new();
        let file = self.file;
        for item in &file.items {
            match item {
                Item::Zone(zone) => resolved.zones.push(self.check_zone(zone)),
                Item::Piece(piece) => {
                    resolved.pieces.push(self.check_piece(piece));
                    self.check_royal_together(piece);
                }
                Item::Counter(counter) => resolved.counters.push(self.check_counter(counter)),
                Item::Trigger(trigger) => resolved.triggers.push(self.check_trigger(trigger)),
                Item::End(rule) => resolved.endings.push(self.check_end(rule)),
                Item::Setup(setup) => setups.push(self.check_setup(setup)),
                Item::Test(test) => resolved.tests.push(self.check_test(test)),
                Item::Forbid(rule) => resolved.forbidden.push(self.check_forbid(rule)),
                Item::DrawOdds(odds) => self.check_draw_odds(odds, &mut resolved.draw_odds),
                Item::Game(_)
                | Item::Board(_)
                | Item::Player(_)
                | Item::Capture(_)
                | Item::Turn(_)
                | Item::Phase(_) => {}
            }
        }
        resolved.phases = self.check_turn_structure();
        self.check_end_rules_together();
        resolved.setup = self.check_setups_together(setups);
        self.check_tests_together();
        pieces::check_like_cycles(self);
        self.check_kind_count();
        resolved
    }

    /// The file resolved, when everything in it resolved.
    fn resolved(self, resolved: Resolved, uses: &[(Feature, Span)]) -> Option<Checked> {
        let players = self
            .player_decls
            .iter()
            .map(|p| checked::Player {
                name: p.name.value.clone(),
                forward: p.forward.as_ref().map(|f| f.value),
            })
            .collect();
        Some(Checked {
            game: self.game?.value.clone(),
            board: self.board?,
            players,
            zones: resolved.zones.into_iter().collect::<Option<_>>()?,
            zone_order: resolved.zone_order,
            pieces: pieces::expand_likes(resolved.pieces.into_iter().collect::<Option<_>>()?),
            forms: self.forms?,
            tags: self.tags.len(),
            captures: resolved.captures,
            forbidden: resolved.forbidden,
            counters: resolved.counters.into_iter().collect::<Option<_>>()?,
            phases: resolved.phases?,
            triggers: resolved.triggers.into_iter().collect::<Option<_>>()?,
            endings: resolved.endings.into_iter().collect::<Option<_>>()?,
            draw_odds: match resolved.draw_odds {
                Some((_, player)) => Some(player?),
                None => None,
            },
            setup: resolved.setup?,
            tests: resolved.tests,
            uses: uses.to_vec(),
        })
    }

    /// Each piece kind, and each promoted form of one, gets a code per player in one byte and a
    /// bit in a 64-bit mask.
    fn check_kind_count(&mut self) {
        let (letters, promotions) = forms::declared(&self.piece_decls);
        // Pieces taken as they are need not remember what they were.
        let remember_roots = self
            .captures
            .iter()
            .any(|c| c.value == CaptureRule::ToHand { as_is: false });
        let forms = Forms::new(&letters, &promotions, remember_roots);
        if let Some((earlier, later)) = forms.written_alike(&letters) {
            self.report_written_alike(&forms, &letters, earlier, later);
        }
        self.check_hand_counts(&forms);
        let kinds = forms.list.len();
        let players = self.player_decls.len().max(1);
        let most = limits::max_kinds(players);
        if kinds > most {
            let span = self
                .piece_decls
                .last()
                .map_or(Span::new(0, 0), |p| p.name.span);
            self.error(
                Problem::error(
                    Code::TooManyKinds,
                    format!("{kinds} piece kinds, counting promoted forms; at most {most} with {players} players"),
                    span,
                    "too many kinds",
                )
                .with_help("a promoted piece that remembers what it was counts as a kind of its own"),
            );
        }
        self.forms = Some(forms);
    }

    /// Positions name each promoted form by letters; two forms written alike could not be
    /// read back, so the file is refused rather than positions misread.
    fn report_written_alike(
        &mut self,
        forms: &Forms,
        letters: &[&str],
        earlier: usize,
        later: usize,
    ) {
        let describe = |index: usize| {
            let form = forms.list[index];
            let piece = &self.piece_decls[form.shape].name.value;
            match form.root == form.shape {
                true => piece.to_string(),
                false => format!(
                    "{piece} promoted from {}",
                    self.piece_decls[form.root].name.value
                ),
            }
        };
        let text = &forms.texts(letters)[later];
        let message = match earlier == later {
            true => format!(
                "{} would be written `{text}` in positions, which cannot be read",
                describe(later)
            ),
            false => format!(
                "{} and {} would both be written `{text}` in positions",
                describe(earlier),
                describe(later)
            ),
        };
        let span = self.piece_decls[forms.list[later].shape].letter.span;
        self.error(
            Problem::error(Code::FormsWrittenAlike, message, span, "written alike")
                .with_help(
                "a promoted form is written `X~` where it is the only one of piece X, else `+` and the letter of what it was: change a letter, or let fewer pieces promote to the same one",
            ),
        );
    }

    fn check_capture_rules(&mut self) -> checked::Captures {
        let captures = self.captures.clone();
        for (i, rule) in captures.iter().enumerate() {
            let same = captures[..i].iter().find(|earlier| {
                std::mem::discriminant(&earlier.value) == std::mem::discriminant(&rule.value)
            });
            if let Some(earlier) = same {
                let message = "capture rule given twice";
                self.error(given_twice(
                    Code::CaptureRuleTwice,
                    message,
                    rule.span,
                    earlier.span,
                ));
            }
        }
        let none = captures.iter().find(|r| r.value == CaptureRule::None);
        let other = captures.iter().find(|r| r.value != CaptureRule::None);
        if let (Some(none), Some(other)) = (none, other) {
            self.error(
                Problem::error(
                    Code::CaptureRulesContradict,
                    "contradictory capture rules",
                    other.span,
                    "this rule is about captures",
                )
                .with_note(none.span, "but this says nothing is ever captured"),
            );
        }
        let mut resolved = checked::Captures::default();
        for rule in &captures {
            match &rule.value {
                CaptureRule::ToHand { .. } => resolved.to_hand = true,
                CaptureRule::Compulsory => resolved.compulsory = true,
                CaptureRule::None => resolved.none = true,
                CaptureRule::Custodian(directions) => {
                    let lines = self.check_directions(directions, rule.span, DirectionUse::Lines);
                    resolved.custodian = Some(lines);
                }
                CaptureRule::Explodes { spared, immune } => {
                    let spared = self.piece_list(spared);
                    let immune = self.piece_list(immune);
                    resolved.explodes = spared.zip(immune);
                }
                CaptureRule::Petrifies(pieces) => {
                    resolved.petrifies = self.piece_list(pieces).unwrap_or_default();
                }
            }
        }
        resolved
    }

    /// A `forbid` rule: every one is about check, so the file needs a royal piece.
    fn check_forbid(&mut self, rule: &Spanned<Forbidden>) -> Forbidden {
        if !self.has_royal() {
            self.error(
                Problem::error(
                    Code::NeedsRoyal,
                    "this rule is about check, which needs a royal piece",
                    rule.span,
                    "no piece is royal",
                )
                .with_help("mark the king with `royal` inside its piece block"),
            );
        }
        rule.value
    }

    fn has_royal(&self) -> bool {
        self.piece_decls.iter().any(|p| p.is_royal())
    }

    fn captures_nothing(&self) -> Option<Span> {
        self.captures
            .iter()
            .find(|r| r.value == CaptureRule::None)
            .map(|r| r.span)
    }

    /// Checks direction words for one use; relative words need every player to face a way.
    fn check_directions(
        &mut self,
        directions: &Directions,
        at: Span,
        usage: DirectionUse,
    ) -> DirectionSet {
        for word in directions {
            let misplaced = match word.value {
                Direction::Away => usage != DirectionUse::Granted,
                Direction::Narrow | Direction::Wide => usage != DirectionUse::Oblique,
                _ => false,
            };
            if misplaced {
                self.error(misplaced_direction(word, usage));
            }
        }
        let set = DirectionSet::of(directions.iter().map(|d| d.value));
        if set.away && directions.len() > 1 {
            self.error(Problem::error(
                Code::AwayNotAlone,
                "`away` stands alone",
                directions[0].span,
                "`away` already names the one line a granted move follows",
            ));
        }
        if !set.away && set.is_relative() {
            let span = directions.first().map_or(at, |d| d.span);
            self.require_forward(span, "these directions depend on which way a player faces");
        }
        set
    }

    /// Every player must have a forward direction for something relative to make sense.
    fn require_forward(&mut self, span: Span, why: &str) {
        let all: Vec<usize> = (0..self.player_decls.len()).collect();
        self.require_forward_of(&all, span, why);
    }

    /// Reports each of `players` that has no forward direction; returns the ones that do, each
    /// with the way it faces.
    fn require_forward_of(
        &mut self,
        players: &[usize],
        span: Span,
        why: &str,
    ) -> Vec<(usize, Compass)> {
        let mut facing = Vec::new();
        for &index in players {
            let player = self.player_decls[index];
            if let Some(forward) = &player.forward {
                facing.push((index, forward.value));
                continue;
            }
            let name = &player.name.value;
            // Players usually sit in this order round the board.
            let way = ["north", "south", "east", "west"][index % 4];
            let problem = Problem::error(
                Code::NoForwardDirection,
                format!("player `{name}` has no forward direction"),
                span,
                why.to_string(),
            )
            .with_note(player.name.span, "declared without `forward`")
            .with_help(format!(
                "give it one, such as `player {name} forward {way}`"
            ));
            self.error(problem);
        }
        facing
    }
}

/// Where direction words are used, which decides the words that make sense.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DirectionUse {
    /// Steps, slides, hops, castling, custodian lines: the eight main lines.
    Lines,
    /// Leaps and rides of any vector, where `narrow` and `wide` tell oblique moves apart.
    Oblique,
    /// Moves granted to a neighbour, which may follow the line `away` from the granter.
    Granted,
}

fn misplaced_direction(word: &Spanned<Direction>, usage: DirectionUse) -> Problem {
    match word.value {
        Direction::Away => Problem::error(
            Code::AwayOutsideGrant,
            "`away` is only for granted moves",
            word.span,
            "there is no granting piece here",
        )
        .with_help("use `away` inside a `grant` block"),
        _ if usage == DirectionUse::Granted => Problem::error(
            Code::NarrowOnStraightLine,
            "`narrow` and `wide` need an oblique vector",
            word.span,
            "granted moves follow straight lines",
        ),
        _ => Problem::error(
            Code::NarrowOnStraightLine,
            "`narrow` and `wide` need an oblique vector",
            word.span,
            "this move follows straight lines only",
        )
        .with_help("they pick among the moves of leaps such as `leap (1,2)`"),
    }
}
