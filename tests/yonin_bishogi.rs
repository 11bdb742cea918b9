//! Yonin Bishogi, rule by rule: move-list snapshots of small positions (each drawn as `fairy
//! show` draws it, with every legal turn), and the symmetry of the four armies at the start.

mod common;

use common::ruleset;
use fairy::compile::{EndCondition, Ruleset};
use fairy::engine::Position;
use fairy::engine::outcome::Cause;
use fairy::notation::{diagram, fen, moves};

const SIZE: i32 = 11;

/// A position given as pieces on squares (`rK g1`: Red's King on g1), then the rest of the
/// position text after the board: hands, player to move, players in, and so on.
fn position(pieces: &str, rest: &str) -> String {
    let mut board = vec![vec![String::new(); SIZE as usize]; SIZE as usize];
    for placed in pieces.split(',') {
        let (piece, square) = placed.trim().split_once(' ').expect("`PIECE SQUARE`");
        let (x, y) = coords(square);
        board[(SIZE - y) as usize][(x - 1) as usize] = piece.to_string();
    }
    let ranks: Vec<String> = board
        .iter()
        .map(|row| {
            let mut text = String::new();
            let mut empty = 0;
            for cell in row {
                if cell.is_empty() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    text += &empty.to_string();
                    empty = 0;
                }
                text += cell;
            }
            if empty > 0 {
                text += &empty.to_string();
            }
            text
        })
        .collect();
    format!("{}{rest}", ranks.join("/"))
}

/// File and rank of a square, from 1.
fn coords(square: &str) -> (i32, i32) {
    let x = i32::from(square.as_bytes()[0] - b'a') + 1;
    let y = square[1..].parse().expect("a rank");
    (x, y)
}

fn square((x, y): (i32, i32)) -> String {
    format!("{}{y}", char::from(b'a' + (x - 1) as u8))
}

/// The diagram after `played`, then every legal turn.
fn listing(rules: &Ruleset, text: &str, played: &str) -> String {
    let mut position = fen::read(rules, text).expect("a valid position");
    moves::play(&mut position, played).expect("legal moves");
    let legal = moves::legal_texts(&mut position);
    format!(
        "{}{} legal moves:\n{}\n",
        diagram(&mut position),
        legal.len(),
        legal.join(" ")
    )
}

macro_rules! yonin {
    ($test:ident, $pieces:expr, $rest:literal) => {
        yonin!($test, $pieces, $rest, "");
    };
    ($test:ident, $pieces:expr, $rest:literal, $played:literal) => {
        #[test]
        fn $test() {
            let rules = ruleset("yonin-bishogi");
            let text = listing(&rules, &position($pieces, $rest), $played);
            insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false, omit_expression => true}, {
                insta::assert_snapshot!(concat!("yonin__", stringify!($test)), text);
            });
        }
    };
}

/// The four Kings on their start squares, for positions that need nothing else of an army.
macro_rules! kings {
    () => {
        "rK g1, bK k5, yK e11, gK a7"
    };
}

// Each player's Pawns step their own way: one on a start square of its own army may step
// two, one elsewhere only one (Yellow's c6 stands on a start square of Green's, not its own).
// Each captures diagonally forward.
const PAWNS: &str = concat!(
    kings!(),
    ", rP d2, rP e6, yN f7, bP j4, bP f9, gN e8, yP h10, yP c6, rN d5, gP b4, gP h3, bN i4"
);
#[test]
fn pawns_of_each_player() {
    let rules = ruleset("yonin-bishogi");
    for (name, side) in [("red", "r"), ("blue", "b"), ("yellow", "y"), ("green", "g")] {
        let rest = format!("[] {side} rbyg - - 0 1");
        let text = listing(&rules, &position(PAWNS, &rest), "");
        insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false, omit_expression => true}, {
            insta::assert_snapshot!(format!("yonin__pawns_of_{name}"), text);
        });
    }
}

// A Pawn dropped on a start square of its army may step two squares from there (i1i3).
yonin!(
    dropped_pawn_steps_two,
    "rK g1, bK k5, yK e11, gK a7",
    "[rP] r rbyg - - 0 1",
    "P@i1 k5k6 e11e10 a7a8"
);

// Red's f4f6 passes f5: Blue, the next player, may take it en passant (g6f5), and so could
// Green's e6 Pawn, but only Blue's turn comes next.
const EN_PASSANT: &str = concat!(kings!(), ", rP f4, bP g6, gP e6");
yonin!(
    en_passant_by_the_next_player,
    EN_PASSANT,
    "[] r rbyg - - 0 1",
    "f4f6"
);
yonin!(
    en_passant_not_for_a_later_player,
    EN_PASSANT,
    "[] r rbyg - - 0 1",
    "f4f6 k5k6 e11e10"
);

// Each player's promotion zone is two half-planes: from e7 (g5 for Yellow and Green) the
// Rook reaches both. Red's Knight on b9 starts in the zone, so leaving it may promote too
// (b9d8q). The Kings stand off the Rooks' lines.
macro_rules! kings_aside {
    () => {
        "rK h1, bK k4, yK f11, gK a6"
    };
}
yonin!(
    promotion_zones_of_red,
    concat!(kings_aside!(), ", rR e7, rN b9"),
    "[] r rbyg - - 0 1"
);
yonin!(
    promotion_zones_of_blue,
    concat!(kings_aside!(), ", bR e7"),
    "[] b rbyg - - 0 1"
);
yonin!(
    promotion_zones_of_yellow,
    concat!(kings_aside!(), ", yR g5"),
    "[] y rbyg - - 0 1"
);
yonin!(
    promotion_zones_of_green,
    concat!(kings_aside!(), ", gR g5"),
    "[] g rbyg - - 0 1"
);

// A Pawn reaching its far edge must promote (h10h11q alone); into the zone elsewhere it may
// (c8c9 and c8c9q).
yonin!(
    pawn_promotes_on_far_edge,
    concat!(kings!(), ", rP h10, rP c8"),
    "[] r rbyg - - 0 1"
);

// Drops: on any empty square, but not a Pawn on the dropping player's far edge (rank 11 for
// Red, file a for Blue).
yonin!(red_drops, kings!(), "[rPrN] r rbyg - - 0 1");
yonin!(blue_drops, kings!(), "[bP] b rbyg - - 0 1");

// A Queen that was a Rook (`+R`), taken by Blue, goes to Blue's hand as a Rook.
yonin!(
    promoted_queen_returns_as_what_it_was,
    concat!(kings!(), ", r+R e5, bB i9, yP e9"),
    "[] b rbyg - - 0 1",
    "i9e5"
);

// Yellow's Rook attacks Red's King, but Yellow does not move next: Red may leave it so.
yonin!(
    attack_by_a_later_player_allowed,
    concat!(kings!(), ", yR g8, rP c1"),
    "[] r rbyg - - 0 1"
);
// Blue's Rook attacks Red's King, and Blue moves next: Red must answer it.
yonin!(
    attack_by_the_next_player_must_be_answered,
    concat!(kings!(), ", bR k1, rP c1"),
    "[] r rbyg - - 0 1"
);

// Red's Knight leaves h11: at the start of Blue's turn Blue's Rook attacks Yellow's King, so
// Yellow is out; Yellow's Pawn on c9 leaves with it, opening Blue's Bishop onto Green's King,
// so Green is out as well.
yonin!(
    elimination_opens_a_second,
    concat!(kings!(), ", bR k11, rN h11, bB d10, yP c9"),
    "[] r rbyg - - 0 1",
    "h11g9"
);

// After f4f6 Blue has no legal move (Yellow's Queen covers every square next to Blue's
// King), so Blue is out, and the en passant right passes to Yellow, who plays next (g6f5).
yonin!(
    elimination_for_no_move_passes_en_passant,
    "rK g1, bK k1, yK e11, gK a7, yQ i2, rP f4, yP g6",
    "[] r rbyg - - 0 1",
    "f4f6"
);

// With only Red and Blue left, Red's Queen leaves Blue without a move: Blue is out, and Red,
// the last player left, wins.
yonin!(
    last_player_left_wins,
    "rK g1, bK k1, rQ h3",
    "[] r rb - - 0 1",
    "h3i2"
);

/// The board's symmetry that takes Red's army onto `player`'s.
fn map(player: usize, (x, y): (i32, i32)) -> (i32, i32) {
    let n = SIZE + 1;
    match player {
        0 => (x, y),
        1 => (n - y, n - x),
        2 => (n - x, n - y),
        _ => (y, x),
    }
}

/// A move text with each square mapped.
fn mapped(text: &str, player: usize) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find(|c: char| c.is_ascii_lowercase()) {
        out += &rest[..start];
        let digits = rest[start + 1..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(rest.len(), |i| start + 1 + i);
        out += &square(map(player, coords(&rest[start..digits])));
        rest = &rest[digits..];
    }
    out + rest
}

/// At the start each army has 18 turns, and the board's symmetries map Red's army and turns
/// onto each other player's.
#[test]
fn the_four_armies_are_symmetric() {
    let rules = ruleset("yonin-bishogi");
    let mut start = Position::start(&rules);
    let start_text = fen::write(&start);
    let red_turns = moves::legal_texts(&mut start);
    assert_eq!(red_turns.len(), 18);
    for (player, side) in ["r", "b", "y", "g"].into_iter().enumerate() {
        let text = start_text.replacen(" r rbyg", &format!(" {side} rbyg"), 1);
        let mut position = fen::read(&rules, &text).expect("the start, another to move");
        let mut expected: Vec<String> = red_turns.iter().map(|t| mapped(t, player)).collect();
        expected.sort();
        let mut turns = moves::legal_texts(&mut position);
        turns.sort();
        assert_eq!(turns, expected, "{side}'s turns at the start");
        for x in 1..=SIZE {
            for y in 1..=SIZE {
                let at = |p: &Position<'_>, sq: (i32, i32)| {
                    let code = p.board()[rules.geometry.parse(&square(sq)).unwrap() as usize];
                    p.piece(code)
                };
                let red = at(&start, (x, y)).filter(|&(_, owner)| owner == 0);
                let theirs = at(&start, map(player, (x, y))).filter(|&(_, o)| o == player);
                assert_eq!(red.map(|(kind, _)| kind), theirs.map(|(kind, _)| kind));
            }
        }
    }
}

/// An en passant right that no legal capture can use does not make a position different: here
/// Green, in check from Red's Knight, could take d9 en passant only by leaving its King to
/// Red, so the position after d10d8 recurs a third time at the 27th turn, a draw.
#[test]
fn an_unusable_en_passant_right_does_not_hold_off_repetition() {
    let rules = ruleset("yonin-bishogi");
    let mut position = Position::start(&rules);
    let played = "e3e5 k9j9 i11i10 b5d4 f2d4 j9i9 c11c10 b8c8 N@b5 k3j3 d10d8 a7b8 b5c3 j5i3 \
                  g10h8 b8a7 c3b5 i3j5 h8g10 a7b8 b5c3 j5i3 g10h8 b8a7 c3b5 i3j5 h8g10";
    moves::play(&mut position, played).expect("legal moves");
    let ending = position.ending().expect("the game has ended");
    assert!(matches!(
        ending.cause(),
        Cause::Rule(EndCondition::Repeated(_))
    ));
}
