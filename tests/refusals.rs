//! Why a turn is refused: each reason the engine knows, in at least one shipped game each, as
//! `fairy play` and `--moves` say it.

mod common;

use common::ruleset;
use fairy::notation::{fen, moves};

/// The refusal of `text` in the position `fen` (the start when empty) after `played`.
fn refusal(game: &str, position: &str, played: &str, text: &str) -> String {
    let rules = ruleset(game);
    let mut position = match position {
        "" => fen::read(&rules, &fen::write(&fairy::engine::Position::start(&rules))),
        text => fen::read(&rules, text),
    }
    .expect("a valid position");
    moves::play(&mut position, played).expect("legal moves");
    match moves::read(&mut position, text) {
        Ok(turn) => panic!("{text} is legal: {turn:?}"),
        Err(message) => message,
    }
}

/// Asserts that each `(game, position, played, text, reason)` is refused for that reason.
fn assert_reasons(cases: &[(&str, &str, &str, &str, &str)]) {
    for &(game, position, played, text, reason) in cases {
        let message = refusal(game, position, played, text);
        assert!(
            message.contains(reason),
            "{game}: {text}: expected {reason:?} in {message:?}"
        );
    }
}

const YAGBAP_PLAY: &str = "1n1b1*4/c2*n3r*/*1**2a*2/1q8/1**1*r3*/N1b5R1/1m1*2**2/*2C*2B2/M5A*1N/1B***Q1*R1[] b - - 46 \
     33 phase=play turns=13,12";
const YAGBAP_TENTH: &str = "1n1b1*4/c2*n3r*/*1**2a*2/1q8/1**1*r3*/N1b5R1/1m1*2**2/*2C*2B2/M5A*1N/1B***Q1*R1[] w - - 46 \
     33 phase=play turns=19,19";
const AMPHORA_RUN: &str =
    "pk1pp/2p/1ppp1/7/2P4/3P1/GP1/PPK1P[g] w - - 6 11 sideways-run=3,0 entitled=0,0";

#[test]
fn squares_off_the_board() {
    assert_reasons(&[
        (
            "chess",
            "",
            "",
            "a9a1",
            "`a9` is off the board, whose files are a–h and ranks 1–8",
        ),
        (
            "amphora",
            "",
            "",
            "c2b2",
            "`b2` is not one of the board's squares",
        ),
        ("yonin-bishogi", "", "", "l1l2", "`l1` is off the board"),
    ]);
}

#[test]
fn pieces_that_are_not_there_or_not_yours() {
    assert_reasons(&[
        ("chess", "", "", "a3a4", "there is no piece on a3"),
        ("chess", "", "", "e7e5", "the Pawn on e7 is Black's"),
        ("yagbap", YAGBAP_PLAY, "", "h8h7", "h8 is blocked"),
    ]);
}

#[test]
fn moves_a_piece_does_not_make_or_that_are_blocked() {
    assert_reasons(&[
        (
            "chess",
            "",
            "",
            "e2e5",
            "a Pawn does not move from e2 to e5 here",
        ),
        ("chess", "", "", "e1e2", "e2 holds your own Pawn"),
        (
            "chess",
            "",
            "",
            "d1d3",
            "the way from d1 to d3 is blocked: the White Pawn stands on d2",
        ),
        (
            "chess",
            "",
            "e2e4 d7d5",
            "e4e5,",
            "is not written as a move",
        ),
        (
            "chess",
            "",
            "e2e4 d7d5",
            "e4d6",
            "a Pawn does not move from e4 to d6",
        ),
        (
            "chess",
            "",
            "e2e4 d7d5 e4e5 d5d4",
            "e5d6",
            "the Pawn may go from e5 to d6 only to capture",
        ),
        (
            "chess",
            "",
            "e2e4 e7e5",
            "e4e5",
            "the Pawn may not take the Pawn on e5",
        ),
        (
            "chess",
            "",
            "e2e4",
            "d7e6",
            "the Pawn may go from d7 to e6 only to capture",
        ),
        (
            "chess",
            "4k3/P7/8/8/8/8/8/4K3 w - - 0 1",
            "",
            "a7a8",
            "only as `a7a8b` `a7a8n` `a7a8q` `a7a8r`",
        ),
        (
            "yagbap",
            YAGBAP_PLAY,
            "",
            "b7b5",
            "the way from b7 to b5 is blocked: b6 is blocked",
        ),
        (
            "yagbap",
            YAGBAP_PLAY,
            "",
            "a9a8",
            "a Cardinal does not move from a9 to a8",
        ),
        ("yonin-bishogi", "", "", "g1g2", "g2 holds your own Knight"),
        (
            "shogi",
            "",
            "",
            "e3e5",
            "a Pawn does not move from e3 to e5",
        ),
        ("minishogi", "", "", "c3c4", "there is no piece on c3"),
        (
            "shatranj",
            "",
            "",
            "e1e2",
            "a Ferz does not move from e1 to e2",
        ),
        (
            "makruk",
            "",
            "",
            "e3e5",
            "a Pawn does not move from e3 to e5",
        ),
        (
            "janggi",
            "",
            "",
            "a1a5",
            "the way from a1 to a5 is blocked: the Cho Soldier stands on a4",
        ),
    ]);
}

#[test]
fn turns_of_the_wrong_shape() {
    assert_reasons(&[
        (
            "yagbap",
            "",
            "",
            "d2d5",
            "White's turn is to place a piece from hand",
        ),
        (
            "amazons",
            "",
            "",
            "d1d7",
            "it is not a whole turn: a turn here is to move a piece, then shoot an arrow",
        ),
        (
            "yagbap",
            YAGBAP_PLAY,
            "",
            "b7b8",
            "it is not a whole turn: a turn here is to move a piece, then shoot an arrow from where the piece landed (such as `b7b8,",
        ),
        (
            "yagbap",
            YAGBAP_PLAY,
            "",
            "b7b8,b8b7",
            "after `b7b8`, the arrow `b8b7` is not possible; the arrows that are: `b8a6` `b8a7` `b8a10`",
        ),
        (
            "yagbap",
            YAGBAP_TENTH,
            "",
            "b1c2,c2c3",
            "White's turn is to unblock a square, or remove one of your pieces (not an Amazon)",
        ),
        (
            "yagbap",
            YAGBAP_TENTH,
            "",
            "-a1",
            "`-a1` cannot be done now; what can is `-a3`",
        ),
        (
            "yagbap",
            "",
            "A@a1 Q@b1 M@c1 C@d1 R@e1 R@f1 B@g1 B@h1 N@i1 N@j1",
            "e2e4",
            "Black's turn is to choose to swap sides (`swap`) or keep them (`keep`)",
        ),
        (
            "yagbap",
            "",
            "",
            "A@d5",
            "an Amazon may not be placed on d5",
        ),
        (
            "yagbap",
            "",
            "",
            "Z@d1",
            "no piece of this game is written `Z`",
        ),
    ]);
}

#[test]
fn placements_not_allowed() {
    assert_reasons(&[
        (
            "amphora",
            "",
            "",
            "G@c3",
            "White may place a Guard only while `entitled` is not 0, and it is 0 now",
        ),
        (
            "amphora",
            "",
            "d2d3",
            "G@c1",
            "Black may place a Guard only while `entitled` is not 0",
        ),
        ("crazyhouse", "", "", "P@e4", "White has no Pawn in hand"),
        (
            "crazyhouse",
            "",
            "e2e4 d7d5 e4d5 d8d5",
            "P@e1",
            "e1 is not empty: the White King stands on e1",
        ),
    ]);
}

#[test]
fn turns_the_legality_rules_refuse() {
    assert_reasons(&[
        (
            "chess",
            "",
            "e2e4 e7e5 d1h5",
            "f7f6",
            "it leaves your King on e8 open to capture: White could answer `h5e8` (the Queen on h5)",
        ),
        (
            "amphora",
            AMPHORA_RUN,
            "",
            "d1e1",
            "it would take White's `sideways-run` to 4, past its limit of 3",
        ),
        (
            "ghostarelay",
            "k9/10/10/10/p9/10/10/10/10/R8K w - - 0 1",
            "",
            "j1j2",
            "a capture is compulsory, such as `a1a6`",
        ),
        (
            "giveaway",
            "",
            "e2e4 d7d5",
            "a2a3",
            "a capture is compulsory, such as `e4d5`",
        ),
        (
            "chess",
            "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1",
            "",
            "e2d3",
            "it leaves your King on e1 open to capture: Black could answer `e7e1` (the Rook on e7)",
        ),
        (
            "xiangqi",
            "4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1",
            "",
            "e5c6",
            "it leaves your General on e1 open to capture",
        ),
    ]);
}

#[test]
fn the_end_of_the_game() {
    assert_reasons(&[(
        "chess",
        "",
        "f2f3 e7e5 g2g4 d8h4",
        "a2a3",
        "the game is over",
    )]);
}

#[test]
fn a_refusal_suggests_the_legal_turns_from_the_same_square() {
    let message = refusal("chess", "", "", "e2e5");
    assert!(
        message.ends_with("\nlegal turns starting with `e2`: e2e3 e2e4 (`moves` lists every turn)"),
        "{message}"
    );
}

/// Over random games of every shipped game: of the turns the plans allow, the engine refuses
/// exactly those that are not legal, and each refused turn's text gets a reason (no panic, and
/// never an acceptance unless a legal turn is written the same way).
#[test]
fn the_engine_refuses_exactly_the_turns_that_are_not_legal() {
    use fairy::engine::Position;
    use fairy::random::Random;
    let mut random = Random::new(7);
    let mut explained = 0;
    for game in common::SHIPPED {
        let rules = ruleset(game);
        for _ in 0..3 {
            let mut position = Position::start(&rules);
            for _ in 0..40 {
                let (mut possible, mut legal) = (Vec::new(), Vec::new());
                position.possible_turns(&mut possible);
                position.every_way(&mut legal);
                if legal.is_empty() {
                    break;
                }
                random.shuffle(&mut possible);
                let legal_texts: Vec<String> =
                    legal.iter().map(|t| moves::write(&position, t)).collect();
                for turn in possible.iter().take(12) {
                    let refused = position.refusal(turn).is_some();
                    assert_eq!(refused, !legal.contains(turn), "{game}: {turn:?}");
                    let text = moves::write(&position, turn);
                    if refused && !legal_texts.contains(&text) {
                        let message = moves::read(&mut position, &text).expect_err(&text);
                        assert!(message.contains("is not legal here: "), "{message}");
                        explained += 1;
                    }
                }
                let turn = legal[random.below(legal.len())];
                position.make(&turn);
            }
        }
    }
    assert!(explained > 100, "only {explained} refusals explained");
}
