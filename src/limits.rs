//! The limits of the language, in one place: what a rule file is checked against, and what the
//! engine's tables are sized for. Each bounds some cost, so that no input, however large, can
//! make a stage slow, deep or wrong.

/// Larger rule files are refused before parsing: no real variant comes near, and it bounds
/// every later stage.
pub const MAX_BYTES: u64 = 4 << 20;

/// A message quotes at most this many characters of the input it is about: enough to find it,
/// and a huge input is not echoed back whole.
pub const MAX_QUOTED_CHARS: usize = 60;

/// A report draws at most this many characters of a line of input: any real line fits, and no
/// long one comes back whole, nor is drawn past the columns a report can draw.
pub const MAX_SHOWN_LINE_CHARS: usize = 200;

/// Deeper bracket nesting is refused before parsing, so no input can exhaust the stack.
pub const MAX_NESTING: usize = 64;

/// A report shows at most this many problems: past it, the rest add nothing a reader can act on
/// and only make the report slow to print.
pub const MAX_PROBLEMS: usize = 50;

/// Files run a–z, so no board is wider or taller than this.
pub const MAX_SIDE: u32 = 26;

/// Players may number this many at most: turn order and the players still in are bit sets.
pub const MAX_PLAYERS: usize = 8;

/// Each piece kind, promoted forms counted, has a bit in a 64-bit mask, and each kind and player
/// a code in one byte; with more players, fewer kinds fit.
pub fn max_kinds(players: usize) -> usize {
    63.min(253 / players.max(1))
}

/// A hand holds at most this many pieces of a kind (a count in one byte).
pub const MAX_IN_HAND: usize = 255;

/// The most parts one turn may have, a move counting two (castling and en passant carry a
/// second piece along). Captures by interception and other effects of a move are not parts.
pub const MAX_PARTS: usize = 4;

/// A position's turns are held in memory at once, so generation stops past this many (about
/// 150 MB of turns) and says so: a turn of three drops on 26×26 has 3×10⁸ ways.
pub const MAX_TURNS: usize = 1 << 22;

/// `fairy check` warns of a file whose positions its cost estimate finds may have more ways to
/// make a turn than this: lists this long take seconds to judge and hundreds of megabytes.
pub const TURNS_WORTH_A_WARNING: u64 = 1 << 20;

/// `fairy check` warns of a file where judging one position's turns by the opponent's replies
/// may examine more replies than this: seconds or minutes for a position.
pub const REPLIES_WORTH_A_WARNING: u64 = 1_000_000_000;

/// What a command says when a position had more turns than [`MAX_TURNS`].
pub fn too_many_turns() -> String {
    format!(
        "stopped: a position has more than {MAX_TURNS} ways to make a turn, more than fairy \
         holds in memory at once"
    )
}

/// Castling rights are bits of a `u32`.
pub const MAX_CASTLING_RIGHTS: usize = 32;

/// The deepest perft there is, on the command line or in a test block.
pub const MAX_PERFT_DEPTH: u32 = 64;
