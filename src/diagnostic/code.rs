//! Problem codes: one stable kebab-case name per kind of problem, shown in reports above the
//! message and in `check --json`, so that editors, tests and scripts tell problems apart by
//! code instead of by wording, which may improve.

macro_rules! codes {
    ($($(#[$doc:meta])* $name:ident = $text:literal,)*) => {
        /// What kind of problem a report is about.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Code {
            $($(#[$doc])* $name,)*
        }

        impl Code {
            /// Every code, in the order they are listed here.
            pub const ALL: &[Code] = &[$(Code::$name,)*];

            /// The code as reports and `check --json` write it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$name => $text,)*
                }
            }
        }
    };
}

codes! {
    // Reading the text.
    NotUtf8 = "not-utf8",
    NestingTooDeep = "nesting-too-deep",
    UnclosedComment = "unclosed-comment",
    UnclosedString = "unclosed-string",
    /// Text the grammar cannot read at that place.
    SyntaxError = "syntax-error",
    NumberTooLarge = "number-too-large",
    BetzaLetter = "betza-letter",
    BetzaEmpty = "betza-empty",
    BetzaAtom = "betza-atom",
    BetzaModifier = "betza-modifier",
    BetzaModifiersWithoutAtom = "betza-modifiers-without-atom",
    BetzaRange = "betza-range",
    BetzaHopNeedsRider = "betza-hop-needs-rider",
    BetzaHopWithRange = "betza-hop-with-range",
    BetzaSelectsNothing = "betza-selects-nothing",
    /// Past the problems a report shows: how many more there are.
    MoreProblems = "more-problems",
    /// `and` and `or` mixed in a zone without brackets.
    MixedZoneOperators = "mixed-zone-operators",

    // Names.
    UnknownPlayer = "unknown-player",
    UnknownPiece = "unknown-piece",
    UnknownZone = "unknown-zone",
    UnknownCounter = "unknown-counter",
    UnknownPhase = "unknown-phase",
    UnknownMoveTag = "unknown-move-tag",
    DuplicatePlayer = "duplicate-player",
    DuplicatePiece = "duplicate-piece",
    DuplicateZone = "duplicate-zone",
    DuplicateCounter = "duplicate-counter",
    DuplicatePhase = "duplicate-phase",
    DuplicateMoveTag = "duplicate-move-tag",
    /// A name given twice in one list (promotion targets, a phase's players).
    ListedTwice = "listed-twice",

    // The game, its board and its players.
    NoGame = "no-game",
    GameNamedTwice = "game-named-twice",
    GameNameEmpty = "game-name-empty",
    NoBoard = "no-board",
    BoardTwice = "board-twice",
    BoardSize = "board-size",
    ShapeHeight = "shape-height",
    ShapeWidth = "shape-width",
    BoardWithoutSquares = "board-without-squares",
    SquareOffBoard = "square-off-board",
    SquareInHole = "square-in-hole",
    RunNotStraight = "run-not-straight",
    PlayerCount = "player-count",
    PlayersSameInitial = "players-same-initial",
    NoForwardDirection = "no-forward-direction",

    // Zones.
    ZoneCycle = "zone-cycle",
    ZoneCaseTwice = "zone-case-twice",
    ZoneCaseMissing = "zone-case-missing",
    RankZero = "rank-zero",
    RankRangeEmpty = "rank-range-empty",
    RankOffBoard = "rank-off-board",
    FileOffBoard = "file-off-board",
    FileRangeEmpty = "file-range-empty",

    // Pieces and their moves.
    LetterNotCapital = "letter-not-capital",
    LetterTwice = "letter-twice",
    TooManyKinds = "too-many-kinds",
    FormsWrittenAlike = "forms-written-alike",
    RoyalTwice = "royal-twice",
    PieceWithoutMoves = "piece-without-moves",
    ModifierTwice = "modifier-twice",
    LikeItself = "like-itself",
    LikeCycle = "like-cycle",
    LikeWithModifier = "like-with-modifier",
    RangeZero = "range-zero",
    LeapZeroVector = "leap-zero-vector",
    LeapNeverLands = "leap-never-lands",
    DirectionsSelectNothing = "directions-select-nothing",
    AwayOutsideGrant = "away-outside-grant",
    AwayNotAlone = "away-not-alone",
    /// `narrow` or `wide` on a move that follows straight lines.
    NarrowOnStraightLine = "narrow-on-straight-line",
    LameWithoutPath = "lame-without-path",
    PassableCapture = "passable-capture",
    PassableWithoutLame = "passable-without-lame",
    EnPassantMoveOnly = "en-passant-move-only",
    TakesMoveOnly = "takes-move-only",
    EnPassantAtom = "en-passant-atom",
    CaptureWithoutCaptures = "capture-in-game-without-captures",
    PromotionToNothing = "promotion-to-nothing",
    PromotionToItself = "promotion-to-itself",
    PromotionOnNeedsMay = "promotion-on-needs-may",
    PromotionOnByCapture = "promotion-on-by-capture",
    DropLimitsNeverApply = "drop-limits-never-apply",
    NoMateWithoutRoyal = "no-mate-without-royal",
    RoyalTogetherMixed = "royal-together-mixed",
    ConvertingWithoutConvert = "converting-without-convert",
    StandoffWithoutStandoffs = "standoff-without-standoffs",
    UnlimitedPromotionTarget = "unlimited-promotion-target",
    PerFileZero = "per-file-zero",
    DropPromotedWithoutPromotion = "drop-promoted-without-promotion",
    PromotionLimitZero = "promotion-limit-zero",
    LimitNotAChoice = "limit-not-a-choice",
    GrantOfNothing = "grant-of-nothing",
    CastleTwice = "castle-twice",
    CastleDistance = "castle-distance",
    CastleWithItself = "castle-with-itself",
    SafeCastleNotRoyal = "safe-castle-not-royal",

    // Capture rules and counters.
    CaptureRuleTwice = "capture-rule-twice",
    CaptureRulesContradict = "capture-rules-contradict",
    CounterLimitZero = "counter-limit-zero",
    CounterNeverChanges = "counter-never-changes",
    CounterEventTwice = "counter-event-twice",
    CheckedWithoutRoyal = "checked-without-royal",

    // Turns, phases and triggers.
    TurnOutsidePhases = "turn-outside-phases",
    PhaseNeverStarts = "phase-never-starts",
    HandEmptyWithoutHands = "hand-empty-without-hands",
    OrdinaryTurnTwice = "ordinary-turn-twice",
    NoOrdinaryTurn = "no-ordinary-turn",
    PeriodTooShort = "period-too-short",
    PeriodTwice = "period-twice",
    TurnMayDoNothing = "turn-may-do-nothing",
    TriggerAction = "trigger-action",
    DropWithoutHand = "drop-without-hand",
    ShootBeforeMove = "shoot-before-move",
    GateBeforeMove = "gate-before-move",
    ArrowTagTwice = "arrow-tag-twice",
    ArrowAtom = "arrow-atom",
    ArrowWithMode = "arrow-with-mode",
    ArrowWithModifier = "arrow-with-modifier",
    PieNeedsTwoPlayers = "pie-needs-two-players",
    PieNotOnce = "pie-not-once",

    // The end of the game.
    NeedsRoyal = "needs-royal",
    EndConditionTwice = "end-condition-twice",
    DrawOddsTwice = "draw-odds-twice",
    RepeatedTooFew = "repeated-too-few",
    QuietPliesZero = "quiet-plies-zero",
    FewerThanZero = "fewer-than-zero",
    OverWithoutHop = "over-without-hop",
    PassedZero = "passed-zero",
    GameNeverEnds = "game-never-ends",

    // Setup and tests.
    SetupTwice = "setup-twice",
    SquareSetUpTwice = "square-set-up-twice",
    PlayerWithoutPieces = "player-without-pieces",
    HandOverflow = "hand-overflow",
    CastlingHomeWithoutCastle = "castling-home-without-castle",
    CastlingHomeTwice = "castling-home-twice",
    ImpossibleStart = "impossible-start",
    TestNameTwice = "test-name-twice",
    TestExpectsNothing = "test-expects-nothing",
    HeavyTest = "heavy-test",
    PerftDepthZero = "perft-depth-zero",
    PerftTooDeep = "perft-too-deep",
    PerftDepthTwice = "perft-depth-twice",

    // What the engine runs.
    /// The file is valid, but uses rules the engine does not run yet.
    NotRunYet = "not-run-yet",

    /// The file is valid, but its positions may cost seconds or gigabytes each.
    CostlyPositions = "costly-positions",

    /// A mistake of fairy's own, found by a check of its own consistency.
    Internal = "internal",

    // Positions and moves given on the command line.
    InvalidPosition = "invalid-position",
    InvalidMove = "invalid-move",
}

impl Code {
    /// Whether the code says a name of some kind is unknown.
    pub fn is_unknown_name(self) -> bool {
        self.as_str().starts_with("unknown-")
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_kebab_case() {
        let mut seen = std::collections::HashSet::new();
        for code in Code::ALL {
            let text = code.as_str();
            assert!(seen.insert(text), "{text} twice");
            assert!(
                text.split('-').all(|w| !w.is_empty()
                    && w.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())),
                "{text} is not kebab-case"
            );
        }
    }
}
