//! Properties of the engine on random games of every playable shipped variant: make then
//! unmake restores the position and its hash; the incremental hash equals a fresh one; FEN
//! round-trips; perft by make/unmake equals perft by copying; and games run to their end
//! without a panic.

mod common;

use common::{SHIPPED, ruleset};
use fairy::compile::Ruleset;
use fairy::consistency::Walk;
use fairy::engine::cost::Cost;
use fairy::engine::perft::Perft;
use fairy::engine::{Field, Position, PositionRule, Setup, Turn};
use fairy::notation::fen;
use fairy::random::Random;

fn state(position: &mut Position<'_>) -> (String, u64, Vec<u8>) {
    (
        fen::write(position),
        position.hash(),
        position.hands().to_vec(),
    )
}

/// Plays `games` random games of at most `max_plies`, checking on the way that the engine
/// agrees with itself ([`Walk`]); returns how many ended by the rules.
fn random_games(rules: &Ruleset, games: usize, max_plies: usize, seed: u64) -> usize {
    walk_games(rules, games, max_plies, seed, 20)
}

/// As [`random_games`], with the costlier checks on one ply in `thorough_every`.
fn walk_games(
    rules: &Ruleset,
    games: usize,
    max_plies: usize,
    seed: u64,
    thorough_every: usize,
) -> usize {
    let ended = (0..games).filter(|&game| {
        let walk = Walk {
            thorough_every,
            divide_below: 0,
            ..Walk::new(seed ^ (game as u64) << 16, max_plies)
        };
        match walk.run(rules) {
            Ok(walked) => walked.ended,
            Err(disagreement) => panic!("{}: {disagreement}", rules.name),
        }
    });
    ended.count()
}

#[test]
fn random_games_keep_every_property() {
    for name in SHIPPED {
        let rules = ruleset(name);
        // Games of arrows are long and wide: fewer of them keep the test quick.
        let (games, plies) = match name {
            "amazons" => (40, 120),
            "yagbap" => (30, 400),
            "yonin-bishogi" => (60, 300),
            // Amphora's turns are slow to judge (counters, entitlements): fewer games.
            "amphora" => (250, 300),
            _ => (1000, 300),
        };
        let ended = random_games(&rules, games, plies, 0x5EED ^ name.len() as u64);
        assert!(
            ended > 0,
            "{name}: some random game reaches an end by the rules"
        );
    }
}

/// Every position of random games of the games with more state than a board reads back from
/// its text as the same position: Yagbap's phase, turn counts, pie swap and blocked squares,
/// Amphora's sideways counts and entitlements on a board with holes, Ghostarelay's clocks,
/// Yonin Bishogi's four players, the players still in and en passant among them.
#[test]
fn every_position_reads_back_as_the_same_position() {
    let games = ["yagbap", "amphora", "ghostarelay", "yonin-bishogi"];
    positions_read_back(&games, 6, 300, 0x9A6B);
}

/// Plays `games` random games of each named game, at most `plies` long: every position's text
/// reads back as the same position and is written the same again, among the walk's checks.
fn positions_read_back(names: &[&str], games: usize, plies: usize, seed: u64) {
    for name in names {
        walk_games(&ruleset(name), games, plies, seed, 1);
    }
}

/// Custodian capture, which no shipped game can use alone yet, keeps every property. Random
/// games of it rarely end within a few hundred plies (by repetition, mostly), so they are long.
#[test]
fn custodian_capture_keeps_every_property() {
    let rules = ruleset("tests/concepts/custodian");
    assert!(
        random_games(&rules, 100, 1000, 0xC057) > 0,
        "some game ends"
    );
}

/// Counters keep every property: their values are journaled, hashed and written in positions.
#[test]
fn counters_keep_every_property() {
    let rules = ruleset("tests/concepts/counter");
    assert!(random_games(&rules, 300, 200, 0xC0DE) > 0, "some game ends");
}

/// Triggers keep every property: their removals make and unmake like any part.
#[test]
fn triggers_keep_every_property() {
    let rules = ruleset("tests/concepts/trigger");
    assert!(random_games(&rules, 300, 200, 0x7816) > 0, "some game ends");
}

/// Perft that copies the position for each move instead of unmaking.
fn perft_by_copy(position: &Position<'_>, depth: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut copy = position.clone();
    let mut turns = Vec::new();
    copy.legal_turns(&mut turns);
    turns
        .iter()
        .map(|turn| {
            let mut child = position.clone();
            child.make(turn);
            perft_by_copy(&child, depth - 1)
        })
        .sum()
}

#[test]
fn perft_by_unmake_equals_perft_by_copy() {
    let positions = [
        (
            "chess",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ),
        (
            "crazyhouse",
            "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[Pp] b KQkq - 0 1",
        ),
        (
            "shogi",
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL[] w - - 0 2",
        ),
        (
            "giveaway",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2",
        ),
    ];
    for (name, text) in positions {
        let rules = ruleset(name);
        let mut position = fen::read(&rules, text).expect("valid position");
        let by_copy = perft_by_copy(&position, 3);
        assert_eq!(Perft::new(3).count(&mut position), by_copy, "{name}");
    }
}

/// Parts that no shipped game generates yet (unblocking, the pie choice) still make, unmake
/// and print as the model says.
#[test]
fn every_part_kind_makes_and_unmakes() {
    use fairy::compile::BLOCKED;
    use fairy::engine::{Part, PartKind};
    use fairy::notation::moves;
    let rules = ruleset("amazons");
    let mut position =
        fen::read(&rules, "3a2a3/10/10/a8a/10/4*5/A8A/10/10/3A2A3 w - - 0 1").expect("valid");
    let e5 = rules.geometry.parse("e5").expect("e5");
    let before = state(&mut position);
    let on_e5 = |kind, piece| {
        Turn::new(Part {
            kind,
            piece,
            from: e5,
            to: e5,
        })
    };
    let unblock = on_e5(PartKind::Unblock, 0);
    assert_eq!(moves::write(&position, &unblock), "-e5");
    position.make(&unblock);
    assert_eq!(position.board()[e5 as usize], fairy::compile::EMPTY);
    assert_eq!(position.hash(), position.compute_hash());
    position.unmake();
    assert_eq!(position.board()[e5 as usize], BLOCKED);
    assert_eq!(state(&mut position), before);
    let swap = on_e5(PartKind::Choice, 1);
    assert_eq!(moves::write(&position, &swap), "swap");
    position.make(&swap);
    assert!(position.swapped());
    position.unmake();
    assert!(!position.swapped());
    assert_eq!(state(&mut position), before);
}

/// Pieces in hand whose letters carry a `+` are written and read back, unless the letter says
/// the piece is a promoted one: a shogi Tokin (`+P`) goes to hand as a Pawn, never as itself.
#[test]
fn hands_with_promoted_letters_round_trip() {
    let text = r#"
        game "Plus letters"
        board 5 x 5
        player White forward north
        player Black forward south
        piece King K { royal  step all }
        piece Wazir W { step orthogonal }
        piece Ferz +W { step diagonal }
        capture to-hand
        turn { move or drop }
        setup White { King c1 }
        setup Black { King c5 }
        lose when checkmated
    "#;
    let rules = common::compiled(text);
    let position = "2k2/5/5/5/2K2[W+Ww] w - - 0 1";
    let read = fen::read(&rules, position).expect("valid");
    assert_eq!(fen::write(&read), position);
    let shogi = ruleset("shogi");
    let error = fen::read(&shogi, "4k4/9/9/9/9/9/9/9/4K4[P+Pp] w - - 0 1").err();
    assert!(
        error.is_some_and(|e| e.to_string().contains("no piece in hand is written `+P`")),
        "a Tokin in hand is refused"
    );
}

/// On a board with holes, positions list only the squares that exist, and round-trip.
#[test]
fn positions_on_boards_with_holes_round_trip() {
    let text = r#"
        game "Holes"
        board 5 x 5 shape {
          . # # # .
          # # . # #
          # # # # #
          # # . # #
          . # # # .
        }
        player White forward north
        player Black forward south
        piece King K { royal  step all }
        piece Rook R { slide orthogonal }
        piece Knight N { leap (1,2) }
        setup White { King c1  Rook b1  Knight d1 }
        setup Black { King c5  Rook b5  Knight d5 }
        lose when checkmated
        draw when stalemated
    "#;
    let rules = common::compiled(text);
    let position = Position::start(&rules);
    assert_eq!(fen::write(&position), "rkn/4/5/4/RKN w - - 0 1");
    assert!(random_games(&rules, 200, 80, 7) > 0, "some game ends");
    // A rank with the wrong number of squares is refused.
    assert!(fen::read(&rules, "rkn/3/5/4/RKN w - - 0 1").is_err());
}

/// Damaged positions are refused or read, never a panic; what reads can be played and written.
#[test]
fn damaged_positions_never_panic() {
    let cases = [
        (
            "chess",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ),
        (
            "crazyhouse",
            "4k3/1Q~6/8/8/4b3/8/Kpp5/8[QRBNPqrbnp] b - - 0 1",
        ),
        (
            "shogi",
            "lnsgkgsnl/1r5b1/pppppp+Bpp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL[Pp] b - - 3 2",
        ),
        (
            "amazons",
            "3a2a3/10/10/a8a/10/4*5/A8A/10/10/3A2A3 w - - 0 1",
        ),
        (
            "yagbap",
            "aqmcrrnnbb/10/10/10/4*5/10/10/10/10/AQMCRRNNBB[] w - - 0 10 phase=play turns=9,9 swapped",
        ),
    ];
    let pieces = [
        "",
        "*",
        "+",
        "~",
        "[",
        "]",
        "/",
        "9",
        "10",
        "0",
        "99999999999",
        "K",
        "k",
        "P",
        "-",
        " ",
        "é",
        "\0",
        "=",
        ",",
        "phase=",
        "turns=",
        "swapped",
    ];
    let mut random = Random::new(0xF3A);
    for (name, text) in cases {
        let rules = ruleset(name);
        for _ in 0..2000 {
            let mut damaged: Vec<char> = text.chars().collect();
            let at = random.below(damaged.len() + 1);
            match random.below(3) {
                0 => damaged.truncate(at),
                1 if at < damaged.len() => {
                    damaged.remove(at);
                }
                _ => {
                    let piece = pieces[random.below(pieces.len())];
                    for (i, c) in piece.chars().enumerate() {
                        damaged.insert(at + i, c);
                    }
                }
            }
            let damaged: String = damaged.into_iter().collect();
            let outcome = std::panic::catch_unwind(|| {
                if let Ok(mut position) = fen::read(&rules, &damaged) {
                    let mut turns = Vec::new();
                    position.legal_turns(&mut turns);
                    let written = fen::write(&position);
                    fen::read(&rules, &written).expect("a written position reads back");
                }
            });
            assert!(outcome.is_ok(), "{name}: panic on {damaged:?}");
        }
    }
}

/// Castling rights that `K` and `Q` cannot tell apart (castling along a file too, or two
/// distances with one Rook) read back as the same rights from every position of random games.
#[test]
fn castling_rights_round_trip() {
    let games = [
        "tests/concepts/castle-orthogonal",
        "tests/concepts/castle-two-distances",
    ];
    positions_read_back(&games, 200, 40, 0xCA57);
}

/// Pieces that turn over each time they move keep every property, and their positions read back.
#[test]
fn pieces_that_turn_over_keep_every_property() {
    let rules = ruleset("tests/concepts/turn-over");
    random_games(&rules, 300, 200, 0x70F0);
    positions_read_back(&["tests/concepts/turn-over"], 100, 60, 0x70F1);
}

/// A Berolina Pawn passes its square on a slant: positions after its two-square moves name
/// where it stands, and read back.
#[test]
fn slanting_en_passant_round_trips() {
    positions_read_back(&["variants/berolina"], 300, 40, 0xBE70);
}

/// A setup built by hand whose parts do not fit the game is refused, never a panic; the start
/// position's own setup is a position.
#[test]
fn malformed_setups_are_refused() {
    let rules = ruleset("chess");
    let start = Setup::start(&rules);
    let cases = [
        Setup {
            board: Vec::new(),
            ..start.clone()
        },
        Setup {
            board: vec![200; 64],
            ..start.clone()
        },
        Setup {
            hands: vec![1],
            ..start.clone()
        },
        Setup {
            to_move: Some(5),
            ..start.clone()
        },
        Setup {
            alive: 0b1111,
            ..start.clone()
        },
        Setup {
            en_passant: Some((99, None)),
            ..start.clone()
        },
        Setup {
            phase: Some(7),
            ..start.clone()
        },
        Setup {
            phase_turns: Vec::new(),
            ..start.clone()
        },
        Setup {
            counters: vec![1],
            ..start.clone()
        },
    ];
    for setup in cases {
        let problem = Position::from_setup(&rules, &setup).expect_err("refused");
        assert_eq!(problem.rule, PositionRule::Malformed, "{problem}");
    }
    let position = Position::from_setup(&rules, &start).expect("the start is a position");
    assert_eq!(position.hash(), Position::start(&rules).hash());
}

/// Each rule of a valid position holds for setups as for position text, and a refusal says
/// which rule, and whose pieces it is about. A setup that text could never write is refused
/// too, so that every position writes and reads back as itself.
#[test]
fn setups_that_break_a_rule_say_which_rule() {
    let refused = |name: &str, setup: &Setup| {
        let rules = ruleset(name);
        Position::from_setup(&rules, setup).expect_err("refused")
    };
    let rules = ruleset("chess");
    let start = Setup::start(&rules);
    let square = |name: &str| rules.geometry.parse(name).expect("a square") as usize;
    let mut no_king = Setup {
        castling: 0,
        ..start.clone()
    };
    no_king.board[square("e8")] = fairy::compile::EMPTY;
    let problem = refused("chess", &no_king);
    assert_eq!(
        (problem.rule, problem.player),
        (PositionRule::NoRoyal, Some(1))
    );
    assert_eq!(problem.rule.field(), Field::Board);
    let mut rook_gone = start.clone();
    rook_gone.board[square("h1")] = fairy::compile::EMPTY;
    let problem = refused("chess", &rook_gone);
    assert!(
        matches!(problem.rule, PositionRule::CastlingPiecesMoved(_)),
        "{problem:?}"
    );
    let passed_nothing = Setup {
        en_passant: Some((square("e3") as u16, None)),
        ..start.clone()
    };
    assert_eq!(
        refused("chess", &passed_nothing).rule,
        PositionRule::EnPassantImpossible
    );
    let cases = [
        (
            Setup {
                castling: 1 << 20,
                ..start.clone()
            },
            PositionRule::Malformed,
        ),
        (
            Setup {
                fullmove: 0,
                ..start.clone()
            },
            PositionRule::Malformed,
        ),
        (
            Setup {
                alive: 0b01,
                ..start.clone()
            },
            PositionRule::NoOneOut,
        ),
    ];
    for (setup, rule) in cases {
        assert_eq!(refused("chess", &setup).rule, rule);
    }
    let mut hand = start.clone();
    hand.hands[0] = 1;
    assert_eq!(refused("chess", &hand).rule, PositionRule::HandWithoutHands);

    let crazyhouse = ruleset("crazyhouse");
    let promoted = (crazyhouse.pieces.kinds.iter())
        .position(|k| k.promoted)
        .expect("a promoted kind");
    let mut promoted_in_hand = Setup::start(&crazyhouse);
    promoted_in_hand.hands[promoted] = 1;
    let problem = refused("crazyhouse", &promoted_in_hand);
    assert_eq!(
        (problem.rule, problem.player),
        (PositionRule::PromotedInHand, Some(0))
    );

    // The two castlings of one King and Rook are one right, given or not as one.
    let two = ruleset("tests/concepts/castle-two-distances");
    let bits = two.castling.all();
    let one_of_a_pair = (0..32)
        .map(|bit| 1u32 << bit)
        .find(|&bit| {
            bits & bit != 0 && two.castling.same_pieces(bit.trailing_zeros() as usize) != bit
        })
        .expect("a right with a twin");
    let apart = Setup {
        castling: one_of_a_pair,
        ..Setup::start(&two)
    };
    assert!(matches!(
        refused("tests/concepts/castle-two-distances", &apart).rule,
        PositionRule::CastlingRightsApart(_)
    ));
}

/// A player facing a standoff may pass while attacked (janggi's bikjang), so a position whose
/// last mover's General stands attacked in a standoff can arise, and its setup is accepted: Han
/// passed here, its General on e8 facing Cho's and attacked by the Cannon over it.
#[test]
fn a_royal_piece_left_attacked_by_a_pass_in_a_standoff_is_a_lawful_setup() {
    let rules = ruleset("variants/janggitraditional");
    let after_pass = "4ra3/6r2/3bkan2/2n6/N7p/1b1p1P2P/3R4B/4K4/4CAN2/7R1 w - - 4 58";
    assert!(fen::read(&rules, after_pass).is_ok());
    // Without the standoff (Cho's General off the file, a Rook on e4), the attack is refused.
    let no_standoff = "4ra3/6r2/3bkan2/2n6/N7p/1b1p1P2P/4R3B/3K5/4CAN2/7R1 w - - 4 58";
    assert!(fen::read(&rules, no_standoff).is_err());
}

/// The variants and concept files beside the shipped games keep every property too, the count
/// of legal turns without building them among them: a few short random games of each.
#[test]
fn test_variants_keep_every_property() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let mut walked = 0;
    for folder in ["variants", "tests/variants", "tests/concepts"] {
        let mut paths: Vec<_> = std::fs::read_dir(format!("{dir}/{folder}"))
            .expect("the folder")
            .map(|entry| entry.expect("an entry").path())
            .filter(|path| path.extension().is_some_and(|e| e == "rules"))
            .collect();
        paths.sort();
        for path in paths {
            let text = std::fs::read_to_string(&path).expect("the file");
            let rules = fairy::pipeline::load(&text)
                .rules
                .unwrap_or_else(|| panic!("{} cannot be played", path.display()));
            // Seeded by the file's name, not its path, so that every clone plays the same games.
            let name = path.file_name().expect("a file name").len();
            let seed = 0xC0DE ^ name as u64;
            if let Err(disagreement) = (0..8)
                .try_for_each(|game| Walk::new(seed ^ game << 16, 120).run(&rules).map(|_| ()))
            {
                panic!("{}: {disagreement}", path.display());
            }
            walked += 1;
        }
    }
    assert!(walked >= 60, "only {walked} files walked");
}

/// A player without a royal piece is never in check, however many enemy pieces could move:
/// the check line names only pieces that attack a royal piece.
#[test]
fn a_player_without_a_royal_piece_is_never_in_check() {
    let rules = ruleset("variants/horde");
    let mut horde = fen::read(&rules, "4k3/8/8/8/8/8/3q4/4P3 w - - 0 1").expect("a position");
    assert!(fairy::notation::checking_pieces(&mut horde).is_empty());
    let mut pawn_checks = fen::read(&rules, "8/8/8/8/8/8/3k4/4P3 b - - 0 1").expect("a position");
    assert_eq!(
        fairy::notation::checking_pieces(&mut pawn_checks),
        vec![("Pawn", 4)]
    );
}

/// The cost estimate `fairy check` shows is at least the longest list of turns seen in random
/// games of every shipped game and variant, and not far above it for chess, whose largest list
/// is known (218 moves).
#[test]
fn the_cost_estimate_bounds_every_list_seen() {
    let variants = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/variants"))
        .expect("the variants folder")
        .map(|entry| entry.expect("a folder entry").path())
        .map(|path| format!("variants/{}", path.file_stem().unwrap().to_string_lossy()));
    let names = SHIPPED.iter().map(|name| name.to_string()).chain(variants);
    let mut measured = 0;
    for name in names {
        let Some(rules) = fairy::pipeline::load(&common::rule_text(&name)).rules else {
            continue;
        };
        let estimate = Cost::estimate(&rules).turns;
        let longest = longest_list(&rules, 6, 150, 0xC057 ^ name.len() as u64);
        assert!(
            longest as u64 <= estimate,
            "{name}: a list of {longest} turns, estimated at most {estimate}"
        );
        measured += 1;
    }
    assert!(measured > 100, "only {measured} files measured");
    let chess = Cost::estimate(&ruleset("chess")).turns;
    assert!(
        (218..=4 * 218).contains(&chess),
        "chess estimated at {chess}"
    );
}

/// The longest list of legal turns in `games` random games of at most `plies`.
fn longest_list(rules: &Ruleset, games: usize, plies: usize, seed: u64) -> usize {
    let mut random = Random::new(seed);
    let mut turns = Vec::new();
    let mut longest = 0;
    for _ in 0..games {
        let mut position = Position::start(rules);
        for _ in 0..plies {
            if position.ending().is_some() {
                break;
            }
            position.legal_turns(&mut turns);
            longest = longest.max(turns.len());
            let Some(&turn) = turns.get(random.below(turns.len().max(1))) else {
                break;
            };
            position.make(&turn);
        }
    }
    longest
}
