//! The computer player's choices: it finds what it must, plays only legal turns, and keeps to
//! its time.

mod common;

use common::{SHIPPED, ruleset};
use fairy::ai::eval::{Evaluator, Terms};
use fairy::ai::search::{Limits, Searcher};
use fairy::engine::{Position, Turn};
use fairy::notation::{fen, moves};
use std::time::{Duration, Instant};

/// The computer's choice in `position` of `game`, thinking `ms`.
fn choice(game: &str, position: &str, ms: u64) -> String {
    let rules = ruleset(game);
    let mut position = fen::read(&rules, position).expect("a valid position");
    let mut searcher = Searcher::new(&rules, 7);
    let started = Instant::now();
    let found = searcher
        .choose(&mut position, Duration::from_millis(ms))
        .expect("a legal turn");
    assert!(started.elapsed() < Duration::from_millis(ms * 3 / 2 + 50));
    moves::write(&position, &found.turn)
}

#[test]
fn the_computer_takes_a_mate_in_one() {
    assert_eq!(
        choice("chess", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", 200),
        "a1a8"
    );
}

/// The Guard takes the Pawn on f5, and Black, in check, has no move left.
#[test]
fn the_computer_takes_a_winning_capture_in_amphora() {
    let position =
        "p3p/p1p/p2G1/3g1pk/4P2/3K1/P2/1PPPP[] w - - 20 21 sideways-run=2,0 entitled=0,0";
    assert_eq!(choice("amphora", position, 200), "e6f5");
}

/// Black's Amazon on a10 is walled in by its own Knight and Rook and by arrows; of 35 turns,
/// only the Knight's leap away (with the one shot that does not land back on b10) frees it.
#[test]
fn the_computer_frees_its_amazon_in_yagbap() {
    let position = "an1****1**/r***1*1br*/**1n*b1*m*/1*1*1**1*1/1*q**1*c1*/*C***1***1/\
                    M**A*1***1/1*1*****N1/***1*1B*B1/1*1R1R*N**[] b - - 86 53 phase=play \
                    turns=33,32";
    assert_eq!(choice("yagbap", position, 200), "b10c8,c8c7");
}

/// Along random games of every shipped game, the computer's turn is always legal and comes
/// within its budget.
#[test]
fn the_computer_plays_only_legal_turns_in_time() {
    for name in SHIPPED {
        let rules = ruleset(name);
        let mut searcher = Searcher::new(&rules, 3);
        let mut position = Position::start(&rules);
        let mut turns: Vec<Turn> = Vec::new();
        let mut random = fairy::random::Random::new(name.len() as u64);
        for ply in 0..12 {
            position.legal_turns(&mut turns);
            if turns.is_empty() {
                break;
            }
            if ply % 4 == 3 {
                let started = Instant::now();
                let found = searcher
                    .choose(&mut position, Duration::from_millis(20))
                    .expect("a turn");
                assert!(turns.contains(&found.turn), "{name}: a legal turn");
                assert!(
                    started.elapsed() < Duration::from_millis(500),
                    "{name}: {:?}",
                    started.elapsed()
                );
            }
            position.make(&turns[random.below(turns.len())]);
        }
    }
}

/// Eight players on 26×26 make every node of the search slow; the clock is read often enough
/// that each choice still ends a few milliseconds after its time.
#[test]
fn the_computer_keeps_its_time_when_nodes_are_slow() {
    let rules = ruleset("tests/variants/eight-players");
    let mut position = Position::start(&rules);
    let mut searcher = Searcher::new(&rules, 7);
    let think = Duration::from_millis(5);
    for _ in 0..8 {
        let started = Instant::now();
        let found = searcher.choose(&mut position, think).expect("a legal turn");
        let took = started.elapsed();
        assert!(took < think * 2 + Duration::from_millis(20), "{took:?}");
        position.make(&found.turn);
    }
}

/// Where judging the turns of one position met in the search takes longer than the time for a
/// whole turn (here legality by every reply, with arrows, among four players), the judging
/// stops at the deadline too: the choice after two plies took 900 ms for 20.
#[test]
fn the_computer_keeps_its_time_when_one_position_is_slow() {
    let rules = ruleset("tests/costly/four-arrows");
    let mut position = Position::start(&rules);
    fairy::notation::moves::play(&mut position, "h9i2b,i2g4 f9f6,f6f1").expect("legal moves");
    let mut searcher = Searcher::new(&rules, 2018269762255691372);
    let think = Duration::from_millis(20);
    let started = Instant::now();
    searcher.choose(&mut position, think).expect("a legal turn");
    let took = started.elapsed();
    assert!(took < think * 2 + Duration::from_millis(20), "{took:?}");
    assert!(
        !position.timed_out(),
        "the deadline is lifted after the choice"
    );
}

/// The values the evaluation derives for chess's pieces keep their classical order: a Queen
/// is worth more than a Rook and a minor piece, a Rook more than either minor piece, the two
/// minor pieces within a quarter of each other, a Pawn least, yet more than a quarter of a
/// minor piece (what it may become counts, not only what it reaches). A kind written twice (a
/// crazyhouse promoted piece) gets its twin's value.
#[test]
fn piece_values_keep_the_classical_order() {
    let rules = ruleset("chess");
    let values = Evaluator::new(&rules).values;
    let value = |name: &str| {
        let kind = rules.pieces.kinds.iter().position(|k| k.name == name);
        values[kind.expect("a kind of chess")]
    };
    let (queen, rook, bishop, knight, pawn) = (
        value("Queen"),
        value("Rook"),
        value("Bishop"),
        value("Knight"),
        value("Pawn"),
    );
    assert!(queen > rook + knight.min(bishop), "{values:?}");
    assert!(rook > bishop.max(knight) * 7 / 5, "{values:?}");
    assert!(
        bishop.abs_diff(knight) * 4 < bishop.min(knight) as u32,
        "{values:?}"
    );
    assert!(pawn * 3 < knight.min(bishop), "{values:?}");
    assert!(pawn * 4 > knight.min(bishop), "{values:?}");
    let crazyhouse = ruleset("crazyhouse");
    let values = Evaluator::new(&crazyhouse).values;
    let kinds = &crazyhouse.pieces.kinds;
    for (a, b) in (0..kinds.len()).flat_map(|a| (0..kinds.len()).map(move |b| (a, b))) {
        if kinds[a].name == kinds[b].name {
            assert_eq!(values[a], values[b], "{}", kinds[a].name);
        }
    }
}

/// A piece that moves to any empty square but captures nothing (Ghostarelay's Ghost) reaches
/// far more squares than a Queen, yet is worth less than one; a piece that captures anywhere
/// (the Warlord) keeps the worth of its captures.
#[test]
fn moving_far_without_capturing_is_not_worth_a_queen() {
    let rules = ruleset("ghostarelay");
    let values = Evaluator::new(&rules).values;
    let value = |name: &str| {
        let kind = rules.pieces.kinds.iter().position(|k| k.name == name);
        values[kind.expect("a kind of Ghostarelay")]
    };
    assert!(value("Ghost") < value("Queen"), "{values:?}");
    assert!(value("Ghost") > value("Pawn"), "{values:?}");
    assert!(value("Warlord") > value("Queen"), "{values:?}");
}

/// The first player's `term` of `game`'s evaluation, for each position asked.
fn white_term(game: &str, term: fn(&Terms) -> i32) -> impl Fn(&str) -> i32 {
    let rules = ruleset(game);
    let evaluator = Evaluator::new(&rules);
    move |text| {
        let position = fen::read(&rules, text).expect("a valid position");
        term(&evaluator.terms(&position, &mut Vec::new())[0])
    }
}

/// A piece that removes an enemy piece when it enters a zone (Amphora's telekinesis on the
/// far rank) is worth more the nearer it stands: a Pawn one step from the far rank against
/// one five steps away, each with three moves.
#[test]
fn nearing_a_removing_zone_is_worth_something() {
    let placement = white_term("amphora", |t| t.placement);
    let near = placement("2k2/1P1/5/7/7/5/3/2K2[Gg] w - - 0 1 sideways-run=0,0 entitled=0,0");
    let far = placement("2k2/3/5/7/7/2P2/3/2K2[Gg] w - - 0 1 sideways-run=0,0 entitled=0,0");
    assert!(near > far + 10, "near {near}, far {far}");
}

/// A King whose arrival on the far rank removes the enemy King (Amphora's telekinesis) is
/// drawn there even while every piece is on the board: one step from the far rank it scores
/// better than at home behind its Pawns, where a King with nothing to gain stays.
#[test]
fn a_king_nears_the_zone_where_it_removes_the_enemy_king() {
    let safety = white_term("amphora", |t| t.royal_safety);
    let home = safety("ppkpp/ppp/5/7/7/5/PPP/PPKPP[Gg] w - - 0 1 sideways-run=0,0 entitled=0,0");
    let near = safety("ppkpp/pKp/5/7/7/5/PPP/PP1PP[Gg] w - - 0 1 sideways-run=0,0 entitled=0,0");
    assert!(near > home + 20, "near {near}, home {home}");
}

/// Where pieces wait in hand, enemy pieces bearing on the squares around a King cost its
/// safety: a Queen on h3, which attacks g2 and h2 beside the castled King, against the same
/// Queen on a5, which attacks none of them. In chess, without hands, the two are the same.
#[test]
fn attacks_on_the_squares_around_the_king_cost_its_safety_where_pieces_drop() {
    let calm = "rnb1kbnr/pppppppp/8/q7/8/8/5PPP/6K1[] w - - 0 1";
    let pressed = "rnb1kbnr/pppppppp/8/8/8/7q/5PPP/6K1[] w - - 0 1";
    let safety = white_term("crazyhouse", |t| t.royal_safety);
    assert!(safety(pressed) < safety(calm) - 15);
    let safety = white_term("chess", |t| t.royal_safety);
    let without_hand = |fen: &str| fen.replace("[]", "");
    assert_eq!(safety(&without_hand(pressed)), safety(&without_hand(calm)));
}

/// Where captured pieces go to hand, the empty squares around a King are in danger too when
/// the enemy holds a piece to drop there: a black Pawn in hand against the same Pawn on h7.
#[test]
fn empty_squares_around_the_king_are_in_danger_from_a_hand() {
    let safety = white_term("crazyhouse", |t| t.royal_safety);
    let on_board = safety("rnbqkbnr/pppppppp/8/8/8/8/8/4K3[] w - - 0 1");
    let in_hand = safety("rnbqkbnr/ppppppp1/8/8/8/8/8/4K3[p] w - - 0 1");
    assert!(
        in_hand < on_board - 20,
        "in hand {in_hand}, on board {on_board}"
    );
}

/// While the opponent keeps its pieces, the King is safer castled behind its pawns than in
/// the middle of the board; with the board bare but for Kings and a pawn, the centre is better.
#[test]
fn the_king_hides_in_the_middlegame_and_walks_in_the_ending() {
    let safety = white_term("chess", |t| t.royal_safety);
    let castled = safety("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1RK1 w kq - 0 1");
    let walked = safety("rnbqkbnr/pppppppp/8/8/4K3/8/PPPPPPPP/RNBQ3R w kq - 0 1");
    assert!(castled > walked + 50, "castled {castled}, walked {walked}");
    let corner = safety("7k/8/8/8/8/8/P7/K7 w - - 0 1");
    let centre = safety("7k/8/8/8/3K4/8/P7/8 w - - 0 1");
    assert!(centre > corner, "centre {centre}, corner {corner}");
}

/// A Bishop shut in behind its own pawns is worth less than the same Bishop on the same square
/// with the diagonal open, and each square it reaches beyond its kind's average counts; the
/// King's reach is left to royal safety.
#[test]
fn a_piece_shut_in_counts_for_less_than_one_on_open_lines() {
    let mobility = white_term("chess", |t| t.mobility);
    let shut = mobility("4k3/8/8/8/8/3P1P2/4B3/4K3 w - - 0 1");
    let open = mobility("4k3/8/8/8/8/2P3P1/4B3/4K3 w - - 0 1");
    // Shut in, the Bishop reaches d1 and f1 only; open, it also reaches d3, f3 and the
    // diagonals beyond them.
    assert!(open > shut + 4 * 6, "open {open}, shut {shut}");
    let king_alone = mobility("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(king_alone, 0);
}

/// Where moves capture other than by landing (Amphora's triggers) or having fewer pieces wins
/// (giveaway), the squares a piece reaches do not measure its threats: mobility is not counted.
#[test]
fn mobility_counts_only_where_reach_is_threat() {
    let amphora = white_term("amphora", |t| t.mobility);
    assert_eq!(
        amphora("2k2/3/5/7/7/2P2/3/2K2[Gg] w - - 0 1 sideways-run=0,0 entitled=0,0"),
        0
    );
    let giveaway = white_term("giveaway", |t| t.mobility);
    assert_eq!(giveaway("4k3/8/8/8/8/8/4B3/4K3 w - - 0 1"), 0);
}

/// The exchange on a square counts every piece that can take there in turn, the pieces behind
/// others included, each side free to stop: a Rook that takes a Pawn guarded by a Rook wins
/// it when a Queen stands behind the Rook, and loses itself without her.
#[test]
fn an_exchange_counts_the_pieces_behind_the_first() {
    let rules = ruleset("chess");
    let values = classical_exchange_values(&rules);
    let exchange = |position: &str, text: &str| {
        let mut position = fen::read(&rules, position).expect("a valid position");
        let turn = moves::read(&mut position, text).expect("a legal move");
        position.exchange(&turn, &values)
    };
    assert_eq!(exchange("3rk3/8/8/3p4/8/8/3R4/3QK3 w - - 0 1", "d2d5"), 100);
    assert_eq!(exchange("3rk3/8/8/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5"), -400);
    // Unguarded, the Pawn is won; guarded by a Pawn, the Queen is lost for it.
    assert_eq!(exchange("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"), 100);
    assert_eq!(exchange("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"), -800);
    // A King takes back only where nothing else can take it there.
    assert_eq!(exchange("8/8/8/3pk3/8/8/8/3QK3 w - - 0 1", "d1d5"), -800);
    assert_eq!(exchange("8/8/8/R2pk3/8/8/8/3QK3 w - - 0 1", "d1d5"), 100);
}

/// Chess's classical values, for exchanges whose results a reader can check by hand.
fn classical_exchange_values(rules: &fairy::compile::Ruleset) -> fairy::engine::ExchangeValues {
    let value = |name: &str| match name {
        "Pawn" => 100,
        "Knight" | "Bishop" => 300,
        "Rook" => 500,
        "Queen" => 900,
        _ => 0,
    };
    let values: Vec<i32> = rules.pieces.kinds.iter().map(|k| value(&k.name)).collect();
    let royal: Vec<bool> = rules.pieces.kinds.iter().map(|k| k.royal).collect();
    fairy::engine::ExchangeValues::new(&values, &royal)
}

/// What the player to move wins by taking on a square: the exchange from its least valuable
/// attacker, or nothing where taking there does not pay.
#[test]
fn taking_on_a_square_starts_with_the_least_valuable_attacker() {
    let rules = ruleset("chess");
    let values = classical_exchange_values(&rules);
    // The square is the one `capture` lands on; the exchange need not start with it.
    let exchange_on = |position: &str, capture: &str| {
        let mut position = fen::read(&rules, position).expect("a valid position");
        let turn = moves::read(&mut position, capture).expect("a legal capture");
        position.exchange_on(turn.main().to, &values)
    };
    // The Pawn takes the Queen (not the Rook, whose capture is read), and the Rook takes it back.
    assert_eq!(
        exchange_on("3rk3/8/4p3/3Q4/8/8/3R4/4K3 b - - 0 1", "d8d5"),
        800
    );
    // A Queen guarded by a Rook, attacked only by a Rook: taking wins 900 - 500.
    assert_eq!(
        exchange_on("3rk3/8/8/3Q4/8/8/3R4/4K3 b - - 0 1", "d8d5"),
        400
    );
    // A Pawn guarded by a Pawn, attacked only by a Queen: taking does not pay.
    assert_eq!(exchange_on("3qk3/8/8/3P4/4P3/8/8/4K3 b - - 0 1", "d8d5"), 0);
}

#[test]
fn a_search_limited_by_nodes_alone_stops_at_exactly_that_many() {
    let rules = ruleset("chess");
    for nodes in [1_000, 4_321, 20_000] {
        let mut position = Position::start(&rules);
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let found = Searcher::new(&rules, 7).search(&mut position, &limits, &mut |_| {});
        assert_eq!(found.expect("a legal turn").nodes, nodes);
    }
}

/// A search stopped in the middle of an iteration plays a turn that iteration found better
/// than the last finished one's choice, where it found one: the deeper search saw more.
#[test]
fn a_better_turn_found_by_an_unfinished_iteration_is_played() {
    let rules = ruleset("chess");
    // After 1. e4 e5 the choice changes from one iteration to the next.
    let start = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    let mut overruled = 0;
    for nodes in (200..15_000).step_by(100) {
        let mut position = fen::read(&rules, start).expect("a valid position");
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let mut finished = None;
        let found = Searcher::new(&rules, 7)
            .search(&mut position, &limits, &mut |choice| {
                finished = Some(choice.turn)
            })
            .expect("a legal turn");
        if finished.is_some_and(|turn| turn != found.turn) {
            overruled += 1;
        }
    }
    assert!(overruled > 0, "no unfinished iteration changed the choice");
}
