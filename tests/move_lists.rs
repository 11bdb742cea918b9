//! Move lists of positions that exercise one rule each, as insta snapshots in `snapshots/`.
//! Each snapshot shows the position, every legal move (sorted, as `fairy moves` prints them)
//! and how the game stands.

mod common;

use common::{listing, ruleset};

macro_rules! move_list {
    ($test:ident, $rules:literal, $fen:literal) => {
        move_list!($test, $rules, $fen, "");
    };
    ($test:ident, $rules:literal, $fen:literal, $played:literal) => {
        #[test]
        fn $test() {
            let rules = ruleset($rules);
            let text = listing(&rules, $fen, $played);
            insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false, omit_expression => true}, {
                insta::assert_snapshot!(concat!("moves__", stringify!($test)), text);
            });
        }
    };
}

// Castling: not through an attacked square (f1), not out of check.
move_list!(
    chess_castling_through_check,
    "chess",
    "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1"
);
move_list!(
    chess_castling_out_of_check,
    "chess",
    "4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1"
);
move_list!(
    chess_castling_rights_lost_by_rook_move,
    "chess",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "h1h2 a8a7"
);

// En passant: allowed on the next move only, and not when it exposes the king along a rank.
move_list!(
    chess_en_passant,
    "chess",
    "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1",
    "e2e4"
);
move_list!(
    chess_en_passant_pinned_along_rank,
    "chess",
    "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2"
);
move_list!(
    chess_en_passant_expires,
    "chess",
    "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1",
    "e2e4 e8e7 e1e2"
);

// Promotion: every choice; in giveaway also the King.
move_list!(
    chess_promotion_choices,
    "chess",
    "8/P6k/8/8/8/8/8/K7 w - - 0 1"
);
move_list!(
    giveaway_promotion_to_king,
    "giveaway",
    "8/P7/8/8/8/8/8/7k w - - 0 1"
);

// Compulsory capture, and a player without a move winning.
move_list!(
    giveaway_compulsory_capture,
    "giveaway",
    "8/8/8/3p4/4P3/8/8/8 w - - 0 1"
);
move_list!(
    giveaway_no_move_wins,
    "giveaway",
    "8/8/8/8/8/8/8/7K b - - 0 1"
);

// Ends of chess: checkmate and stalemate.
move_list!(
    chess_checkmate,
    "chess",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "f2f3 e7e5 g2g4 d8h4"
);
move_list!(
    chess_stalemate_is_a_draw,
    "chess",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
);

// Drops: no pawn on the first or last rank; a promoted piece returns to hand as a pawn.
move_list!(
    crazyhouse_pawn_drops,
    "crazyhouse",
    "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1"
);
move_list!(
    crazyhouse_promoted_piece_returns_as_pawn,
    "crazyhouse",
    "4k3/1Q~6/8/8/4b3/8/Kpp5/8[] b - - 0 1",
    "e4b7"
);

// Shogi drops: no second unpromoted pawn on a file; no drop where a piece could never move;
// no pawn drop that mates (a8 here).
move_list!(
    shogi_two_pawns_on_a_file,
    "shogi",
    "4k4/9/9/9/9/9/4P4/9/4K4[P] w - - 0 1"
);
move_list!(
    shogi_knight_and_lance_drops,
    "shogi",
    "4k4/9/9/9/9/9/9/9/4K4[NL] w - - 0 1"
);
move_list!(
    shogi_pawn_drop_mate_is_illegal,
    "shogi",
    "k8/2S6/1G7/9/9/9/9/9/4K4[P] w - - 0 1"
);
// Promotion: optional in the camp, compulsory where the piece could not move again.
move_list!(
    shogi_promotion_options,
    "shogi",
    "4k4/9/P1N6/9/9/9/9/9/4K4[] w - - 0 1"
);
move_list!(
    minishogi_no_moves_loses,
    "minishogi",
    "k4/1G3/1G3/5/4K[] b - - 0 1"
);

// Amazons: a move and its arrow, the square just left counting as empty.
move_list!(
    amazons_move_and_shoot,
    "amazons",
    "7*2/10/10/10/10/10/10/10/*9/A8a w - - 0 1"
);

// Hoppers: a grasshopper lands just beyond its hurdle; a check by one is answered by moving
// the hurdle away, or the king.
move_list!(
    grasshopper_moves,
    "variants/grasshopper",
    "4k3/8/8/8/3p4/8/1G2P3/4K3 w - - 0 1"
);
move_list!(
    grasshopper_check_by_hurdle,
    "variants/grasshopper",
    "4k3/3g4/8/1G6/8/8/8/4K3 b - - 0 1"
);
// A first-move-only double step: only pawns that have not moved (here, after e2e3, not e3).
move_list!(
    first_move_double_step,
    "variants/nightrider",
    "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1",
    "e2e3 e8d8"
);
// A move that puts a hurdle between an enemy grasshopper and the king exposes the king.
move_list!(
    grasshopper_new_hurdle_exposes_king,
    "variants/grasshopper",
    "k3g3/8/8/8/8/8/8/4K1N1 w - - 0 1"
);
// A promotion to a second royal King: afterwards both must stay safe.
move_list!(
    promotion_to_a_second_royal_king,
    "tests/variants/royal-promotion",
    "7k/P7/8/8/8/8/7r/4K3 w - - 0 1",
    "a7a8k h2a2"
);
// Threefold repetition: the position after e2e4 returns twice, although only the first time
// did a pawn just pass e3 (no piece could take it there, so it is the same position).
move_list!(
    chess_threefold_repetition,
    "chess",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "e2e4 g8f6 g1f3 f6g8 f3g1 g8f6 g1f3 f6g8 f3g1"
);
// Yagbap placement: Black places its last two pieces on empty squares of its own home ranks
// (8 to 10), one turn per letter and square.
move_list!(
    yagbap_placement_in_home_ranks,
    "yagbap",
    "aqmcrrnb2/10/10/10/10/10/10/10/10/AQMCRRNNBB[nb] b - - 0 1 phase=black-placement turns=0,8"
);
// Yagbap's pie choice is a turn of its own: keep or swap colours.
move_list!(
    yagbap_pie_choice,
    "yagbap",
    "10/10/10/10/10/10/10/10/10/AQMCRRNNBB[a] b - - 0 1 phase=choice turns=0,0"
);
// After `swap` the colours are exchanged (a different position from `keep`) and Black places.
move_list!(
    yagbap_swap_then_black_places,
    "yagbap",
    "10/10/10/10/10/10/10/10/10/AQMCRRNNBB[a] b - - 0 1 phase=choice turns=0,0",
    "swap"
);
// Yagbap arrows after a rook move fly as a bishop or a knight (the Rook a1a2; the Amazon j1j2).
move_list!(
    yagbap_arrow_after_rook_move,
    "yagbap",
    "a*********/1*********/**********/**********/**********/**********/*2*******/*2*******/1********1/R*1****1*A[] w - - 0 30 phase=play turns=3,3"
);
// Arrows after a bishop move fly as a rook or a knight; a move with no arrow (e5g7, e5d6) is
// not a turn.
move_list!(
    yagbap_arrow_after_bishop_move,
    "yagbap",
    "a*********/1*********/*****1****/****1*1***/***1*1****/****B*****/*****2***/***1******/*********1/*******1*A[] w - - 0 30 phase=play turns=3,3"
);
// Arrows after a knight move fly as a rook or a bishop.
move_list!(
    yagbap_arrow_after_knight_move,
    "yagbap",
    "a*********/1*********/******1***/**5***/**********/****N*****/**********/**********/*********1/*******1*A[] w - - 0 30 phase=play turns=3,3"
);
// A knight whose only move leaves it no arrow has no turn at all.
move_list!(
    yagbap_move_without_arrow_left_out,
    "yagbap",
    "a*********/1*********/**********/*****1****/**********/****N*1***/**********/**********/*********1/*******1*A[] w - - 0 30 phase=play turns=3,3"
);
// Each player's turn 10 of play: unblock one square or remove one own piece other than the
// Amazon; no move.
move_list!(
    yagbap_tenth_turn,
    "yagbap",
    "9a/10/10/10/10/9R/10/***7/***7/A*8[] w - - 0 10 phase=play turns=9,3"
);
// White's Amazon is stuck, but moving the Knight to d2 and shooting at d1 frees it (b1, then an
// arrow to c3): play goes on, and any action may be taken.
move_list!(
    yagbap_stuck_amazon_freed_by_one_action,
    "yagbap",
    "a*********/1*********/**********/**********/**********/**********/**********/**1*******/*R*1******/AN*1******[] w - - 0 30 phase=play turns=3,3"
);
// White's Amazon is stuck and no action of White's this turn frees it: White loses.
move_list!(
    yagbap_stuck_amazon_loses,
    "yagbap",
    "9a/10/10/10/10/9R/10/***7/***7/A*8[] w - - 0 10 phase=play turns=3,3"
);
// On a tenth turn with no blocked square and no piece but the Amazon, White has no legal action
// and loses.
move_list!(
    yagbap_no_legal_action_loses,
    "yagbap",
    "9a/10/10/10/10/10/10/10/10/A9[] w - - 0 10 phase=play turns=9,3"
);
// Ghostarelay: an enemy Relay lends each of its eight neighbours a slide straight away from it:
// rook slides to empty squares for orthogonal neighbours, bishop slides for diagonal ones; a
// Pawn reaching the last rank by one promotes (e6e10w, f6j10w), and a lent step equal to the
// Pawn's own (e6e7) is one turn.
move_list!(
    ghostarelay_lent_moves_in_eight_directions,
    "ghostarelay",
    "k9/10/10/10/3PPP4/3PxP4/3XPX4/10/10/10 w - - 0 1"
);
// A lent bishop slide that captures makes capture compulsory: it is the only turn.
move_list!(
    ghostarelay_lent_capture_is_compulsory,
    "ghostarelay",
    "9k/10/1n8/10/3P6/4x5/10/10/10/K9 w - - 0 1"
);
// Two Relays lend a Pawn two slides; the lent e5e6 equals the Pawn's own step and is listed once.
move_list!(
    ghostarelay_two_relays_lend_to_one_pawn,
    "ghostarelay",
    "10/10/10/10/10/4P5/3xx5/10/k9/10 w - - 0 1"
);
// Castling along a rank or a file towards the first piece beyond, a Rook of either colour at
// least three squares away: e5g5 (White's h5), e5c5 (Black's a5), e5e7 (Black's e8), e5e3
// (White's e1).
move_list!(
    ghostarelay_castling_in_four_directions,
    "ghostarelay",
    "9k/10/4r5/10/10/r3K2R2/10/10/10/4R5 w - - 0 1"
);
// No castling with a Rook two squares away (g5, e7), nor past a piece that is not a Rook (b5).
move_list!(
    ghostarelay_castling_distance_rule,
    "ghostarelay",
    "9k/10/10/4R5/10/RN2K1R3/10/10/10/10 w - - 0 1"
);
// The Ghost goes to any empty square and never captures.
move_list!(
    ghostarelay_ghost,
    "ghostarelay",
    "9k/10/10/10/10/10/3G6/10/1P8/P1p7 w - - 0 1"
);
// The Warlord captures any enemy piece anywhere and has no other move; capture is compulsory.
move_list!(
    ghostarelay_warlord,
    "ghostarelay",
    "k9/10/10/10/10/4x5/10/2W7/1P8/9r w - - 0 1"
);
// A player with no legal move wins.
move_list!(
    ghostarelay_no_move_wins,
    "ghostarelay",
    "9k/10/10/10/10/10/10/p9/P9/10 w - - 0 1"
);
// A player with no pieces left has no move, and wins.
move_list!(
    ghostarelay_no_pieces_wins,
    "ghostarelay",
    "9k/10/10/10/10/10/10/10/10/10 w - - 0 1"
);
// A position occurring for the third time is a draw.
move_list!(
    ghostarelay_threefold_repetition,
    "ghostarelay",
    "9k/10/10/10/10/10/10/10/10/K9 w - - 0 1",
    "a1a2 j10j9 a2a1 j9j10 a1a2 j10j9 a2a1 j9j10"
);
// 100 plies without a capture or a Pawn move is a draw.
move_list!(
    ghostarelay_hundred_quiet_plies,
    "ghostarelay",
    "9k/10/10/10/10/10/10/10/10/K9 w - - 99 60",
    "a1a2"
);
// Custodian capture: d1d4 arrives between two enemy Soldiers, each with a White Soldier beyond,
// and takes both.
move_list!(
    custodian_double_capture,
    "tests/concepts/custodian",
    "7/7/7/1Ss1sS1/7/7/3S3 w - - 0 1",
    "d1d4"
);
// A piece that moves between two enemy pieces is safe: only the arriving piece captures.
move_list!(
    custodian_arriving_between_two_enemies_is_safe,
    "tests/concepts/custodian",
    "6s/7/7/2s1s2/7/7/3S3 w - - 0 1",
    "d1d4"
);
// c1b1 takes b2 (White's b3 beyond) but not a1, which the edge of the board protects.
move_list!(
    custodian_edge_protects,
    "tests/concepts/custodian",
    "6s/7/7/7/1S5/1s5/s1S4 w - - 0 1",
    "c1b1"
);
// A trigger: the Runner entering the far rank removes an enemy Runner (a4a5,xd4).
move_list!(
    trigger_removes_from_first_group,
    "tests/concepts/trigger",
    "4k/R2r1/5/5/4K w - - 0 1"
);
// With no enemy Runner on the board, the next group applies: the Keeper (a4a5,xe5).
move_list!(
    trigger_falls_back_to_next_group,
    "tests/concepts/trigger",
    "4k/R4/5/5/4K w - - 0 1"
);
// A move within the zone does not enter it, and triggers nothing (a5b5).
move_list!(
    trigger_needs_entering,
    "tests/concepts/trigger",
    "R3k/5/5/5/4K w - - 0 1"
);
// A counter's limit: White has made two sideways moves in a row, so a1b1 is not allowed.
move_list!(
    counter_limit_forbids_a_third_sideways_move,
    "tests/concepts/counter",
    "3w/4/4/W3[Ww] w - - 0 1 sideways-run=2,0 entitled=0,0"
);
// One sideways move so far: a second one is allowed.
move_list!(
    counter_below_limit_allows_a_sideways_move,
    "tests/concepts/counter",
    "3w/4/4/W3[Ww] w - - 0 1 sideways-run=1,0 entitled=0,0"
);
// Black has just lost its Walker, so `entitled` lets it place one before moving this turn.
move_list!(
    counter_condition_allows_a_placement,
    "tests/concepts/counter",
    "4/1w2/1W2/4[Ww] w - - 0 1 sideways-run=0,0 entitled=0,0",
    "b2b3"
);
// Amphora: d3d4 arrives between Black's c5 and e5, each with a White Pawn beyond: a double
// interception, and Black, having lost Pawns, is entitled to place its Guard.
move_list!(
    amphora_double_interception,
    "amphora",
    "2k2/3/P3P/2p1p2/K6/2P2/3/5[Gg] w - - 0 1 sideways-run=0,0 entitled=0,0",
    "d3d4"
);
// d2d3 takes four pieces at once by interception, one on each diagonal.
move_list!(
    amphora_quadruple_interception,
    "amphora",
    "2k2/3/5/1P3P1/K1p1p2/5/pPp/P3P[Gg] w - - 0 1 sideways-run=0,0 entitled=0,0",
    "d2d3"
);
// A Pawn entering the far rank removes an enemy Pawn.
move_list!(
    amphora_telekinesis_by_pawn,
    "amphora",
    "4k/P2/5/7/1p3p1/5/3/2K2[Gg] w - - 0 1 sideways-run=0,0 entitled=0,0"
);
// With no enemy Pawn on the board, a Pawn entering removes the enemy Guard.
move_list!(
    amphora_telekinesis_by_pawn_takes_guard,
    "amphora",
    "4k/P2/5/7/1g5/5/3/2K2[G] w - - 0 1 sideways-run=0,0 entitled=0,0"
);
// With no enemy Pawn, and the enemy Guard in hand (not on the board), it removes the King.
move_list!(
    amphora_telekinesis_by_pawn_takes_king,
    "amphora",
    "4k/P2/5/7/7/5/3/2K2[Gg] w - - 0 1 sideways-run=0,0 entitled=0,0"
);
// A Guard entering removes the enemy Guard or a Pawn while the enemy Guard is on the board.
move_list!(
    amphora_telekinesis_by_guard,
    "amphora",
    "4k/G2/5/7/1g3p1/5/3/K4[] w - - 0 1 sideways-run=0,0 entitled=0,0"
);
// With the enemy Guard in hand, a Guard entering removes a Pawn or the King.
move_list!(
    amphora_telekinesis_by_guard_without_enemy_guard,
    "amphora",
    "4k/G2/5/7/5p1/5/3/K4[g] w - - 0 1 sideways-run=0,0 entitled=0,0"
);
// The King entering removes the enemy King; d7c7 would step next to it, and is illegal.
move_list!(
    amphora_telekinesis_by_king,
    "amphora",
    "k4/1K1/5/7/5p1/5/3/5[Gg] w - - 0 1 sideways-run=0,0 entitled=0,0"
);
// An entitled player may place the Guard next to the King, then move; placements that lead to
// the same position are one turn (G@c2,c2d3 stands for G@d2,d2d3 and G@e2,e2d3).
move_list!(
    amphora_guard_placement_and_its_duplicates,
    "amphora",
    "2k2/3/5/7/7/5/3/2K2[Gg] w - - 0 1 sideways-run=0,0 entitled=1,0"
);
// e3e2 checks White's King: White is entitled, and without a placement only d1e1 and d1e2
// stop e2e1, whose telekinesis would remove the King (no White Pawn or Guard on the board).
move_list!(
    amphora_entitlement_by_check,
    "amphora",
    "2k2/3/5/7/7/3p1/3/2K2[Gg] b - - 0 1 sideways-run=0,0 entitled=0,0",
    "e3e2"
);
// d3d4 takes a Pawn and so entitles Black, whose Guard placed on c6 could then go to c5 and
// intercept the King against e3: with Black's Guard in hand, d3d4 is illegal.
move_list!(
    amphora_move_illegal_by_opponents_placement,
    "amphora",
    "5/1k1/5/7/3p3/2Kp1/3/5[Gg] w - - 0 1 sideways-run=0,0 entitled=0,0"
);
// Without Black's Guard in hand, the same d3d4 is legal.
move_list!(
    amphora_same_move_legal_without_opponents_guard,
    "amphora",
    "5/1k1/5/7/3p3/2Kp1/3/5[G] w - - 0 1 sideways-run=0,0 entitled=0,0"
);
// After three sideways moves in a row, a fourth is not allowed.
move_list!(
    amphora_sideways_limit_at_three,
    "amphora",
    "2k2/3/5/7/1P5/5/3/2K2[Gg] w - - 0 1 sideways-run=3,0 entitled=0,0"
);
// A player with no legal move loses.
move_list!(
    amphora_stalemate_loses,
    "amphora",
    "2k2/3/5/7/7/2p2/p2/KPp2[Gg] w - - 0 1 sideways-run=0,0 entitled=0,0"
);
// d3d4 moves between Black's c5 and e3 on one diagonal: only an arriving piece captures, so
// the Pawn is safe there.
move_list!(
    amphora_arriving_between_two_enemies_is_safe,
    "amphora",
    "2k2/3/5/2p4/K6/2Pp1/3/5[Gg] w - - 0 1 sideways-run=0,0 entitled=0,0",
    "d3d4"
);
// Two castle clauses that make the same move (`sideways` and `right`): one turn, listed once.
move_list!(
    overlapping_castle_clauses_make_one_turn,
    "tests/variants/castle-overlap",
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"
);

// Xiangqi: the Generals may not face each other on an open file (the Advisor between them is
// held), the General and Advisors stay in the palace, the Elephant does not cross the river and
// is blocked at the point between, the Soldier steps sideways only across the river.
move_list!(
    xiangqi_generals_never_face,
    "xiangqi",
    "4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1"
);
move_list!(
    xiangqi_palace_river_and_soldiers,
    "xiangqi",
    "3k5/9/9/2P3P2/4B4/2B6/P8/3A5/4K4/9 w - - 0 1"
);

// A goal: the King that reached the hill has won before Black moves.
move_list!(
    king_of_the_hill_reached,
    "variants/kingofthehill",
    "4k3/8/8/8/3K4/8/8/8 b - - 0 1"
);

// Shatranj's bare King: Black has two pieces besides the King, so no reply can bare them and
// White has lost at once; with only one, White still moves, and taking it leaves two bare Kings.
move_list!(
    shatranj_bare_king_without_answer,
    "shatranj",
    "8/8/8/3k4/8/8/3K4/4qr2 w - - 0 1"
);
move_list!(
    shatranj_bare_king_may_answer,
    "shatranj",
    "8/8/8/3k4/8/8/3K4/4q3 w - - 0 1"
);
move_list!(
    shatranj_bare_king_answered,
    "shatranj",
    "8/8/8/3k4/8/8/3K4/4q3 w - - 0 1",
    "d2e1"
);
// Losers: a player left with the King alone wins, here by losing the last Knight.
move_list!(
    losers_bare_king_wins,
    "variants/losers",
    "4k3/8/8/3n4/8/2N5/8/3K4 w - - 0 1",
    "c3d5"
);
// Three Kings: losing one of three Kings loses.
move_list!(
    threekings_losing_one_king,
    "variants/threekings",
    "k3k2k/8/8/8/8/8/1Q6/K3K2K w - - 0 1",
    "b2e5 e8d8 e5h8"
);
// Kinglet: promoting the last Pawn to a King leaves none, and loses.
move_list!(
    kinglet_last_pawn_promoted,
    "variants/kinglet",
    "4k3/P5p1/8/8/8/8/8/4K3 w - - 0 1",
    "a7a8k"
);

// Racing Kings: no move may give check: the Rook on b1 may not go to a1 or b6. White's King
// on the eighth rank lets Black follow when its King can reach the rank: following draws.
move_list!(
    racingkings_no_move_gives_check,
    "variants/racingkings",
    "8/6K1/k7/8/8/8/8/1R6 w - - 0 1"
);
move_list!(
    racingkings_black_may_follow,
    "variants/racingkings",
    "8/1k4K1/8/8/8/8/8/R7 w - - 0 1",
    "g7g8"
);
move_list!(
    racingkings_black_followed,
    "variants/racingkings",
    "8/1k4K1/8/8/8/8/8/R7 w - - 0 1",
    "g7g8 b7b8"
);
// Makpong: in check, the King may not step away; it may only take the checker.
move_list!(
    makpong_king_in_check_takes_or_stays,
    "variants/makpong",
    "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1"
);
// Dobutsu: a Lion on the far rank that the opponent attacks must survive the reply.
move_list!(
    dobutsu_lion_attacked_on_far_rank,
    "variants/dobutsu",
    "1g1/L2/2l/3[] w - - 0 1",
    "a3a4"
);
move_list!(
    dobutsu_lion_safe_on_far_rank,
    "variants/dobutsu",
    "g2/2L/1l1/3[] w - - 0 1",
    "c3c4"
);
// Jeson Mor: the Knight on the centre wins only once it survives the reply.
move_list!(
    jesonmor_knight_must_survive_the_reply,
    "variants/jesonmor",
    "n8/9/9/2n6/9/9/3N5/9/8N w - - 0 1",
    "d3e5"
);

// Three-check: Black has been checked twice; the third check loses, though it is no mate.
move_list!(
    threecheck_third_check_loses,
    "variants/3check",
    "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 checks=0,2",
    "a1a8"
);

// Janggi: the Cannon jumps only over a piece that is not a Cannon and takes anything but a
// Cannon; Chariots and Cannons use the palace diagonals; a pass is a turn.
move_list!(
    janggi_cannons_and_palace_lines,
    "janggi",
    "3akr3/4a4/3C1c3/9/9/9/9/3R5/4A4/3K1A3 w - - 0 1"
);
// Two passes in a row end the game in a draw.
move_list!(
    janggi_two_passes_draw,
    "janggi",
    "5k3/9/3P1a3/9/9/9/9/9/4K4/9 w - - 0 1",
    "pass pass"
);

// Bikjang: the Generals face each other while Cho is in check; Cho may pass, or move the
// General off the file out of check, but not stay in the standoff.
move_list!(
    janggi_standoff_in_check_may_pass,
    "variants/janggitraditional",
    "3a1a3/4k4/9/9/9/9/9/9/4K3r/3A1A3 w - - 0 1"
);
// The Horse leaves the file between the Generals: Han must end the standoff or pass, and a
// pass in the standoff ends the game in a draw.
move_list!(
    janggi_standoff_created_then_passed,
    "variants/janggitraditional",
    "3a1a3/4k4/9/9/4N4/9/9/9/4K4/3A1A3 w - - 0 1",
    "e6c7"
);
move_list!(
    janggi_standoff_pass_draws,
    "variants/janggitraditional",
    "3a1a3/4k4/9/9/4N4/9/9/9/4K4/3A1A3 w - - 0 1",
    "e6c7 pass"
);

// Loop chess: a promoted Queen taken goes to hand as a Queen, which Black may drop at once.
move_list!(
    loop_promoted_queen_taken_is_dropped_as_a_queen,
    "variants/loop",
    "8/kP6/8/8/8/8/8/4K3[] w - - 0 1",
    "b7b8q a7b8 e1e2"
);

// Euroshogi: a piece that starts its move in the camp must promote, even leaving it.
move_list!(
    euroshogi_promotion_compulsory_from_the_camp,
    "variants/euroshogi",
    "4k3/1R6/8/8/8/8/8/3K4[] w - - 0 1"
);

// Tori shogi: no Swallow is dropped on a file holding two of its owner's Swallows (file c);
// one Swallow on a file (e) does not stop it.
move_list!(
    torishogi_two_swallows_per_file,
    "variants/torishogi",
    "3k3/7/7/2S4/2S1S2/7/3K3[S] w - - 0 1"
);

// Kyoto shogi: a piece in hand is dropped on either side (a Pawn as a Pawn or as a Rook).
move_list!(
    kyotoshogi_drops_on_either_side,
    "variants/kyotoshogi",
    "2k2/5/5/5/2K2[P] w - - 0 1"
);

// Cannon shogi: the Flying Copper (e4) jumps orthogonally only over a neighbour, landing two
// squares away (e6, not e7), and diagonally anywhere beyond a hurdle; the Flying Gold (c6) the
// other way round.
move_list!(
    cannonshogi_hops_within_two_squares,
    "variants/cannonshogi",
    "4k4/9/2p6/1PW6/4p4/4F4/3p1P3/9/4K4[] w - - 0 1"
);

// Grand chess: with every piece still on the board, the Pawn on b9 has nothing to become, so it
// may not step to the last rank; the Pawn on a8 steps to a9 without promoting.
move_list!(
    grand_pawn_with_nothing_to_become,
    "variants/grand",
    "r3k4r/1P8/P9/10/10/10/10/10/1NBQKCABN1/R8R w - - 0 1"
);
// With the Queen and a Rook lost, those are the Pawn's choices.
move_list!(
    grand_pawn_promotes_to_lost_pieces,
    "variants/grand",
    "r3k4r/1P8/10/10/10/10/10/10/1NB1KCABN1/R9 w - - 0 1"
);

// No drop and no promotion may give check: the Rook is not dropped on the e-file or the fifth
// rank, d4 may not promote (its Rook would check), a4 may (b5 shields the King), and the Rook
// on b1 may still check by moving.
move_list!(
    forbidden_checks_by_drop_and_promotion,
    "tests/concepts/forbid-check",
    "1p2k/P2P1/5/5/KR3[R] w - - 0 1"
);

// Spartan chess: with two Kings, Black is in check only when both are attacked. The c8 King is
// attacked, and may stay on the c-file or step onto the seventh rank the h7 Rook holds, while
// the f8 King is safe; the f8 King may not step onto that rank, which would leave both
// attacked.
move_list!(
    spartan_one_of_two_kings_may_stay_attacked,
    "variants/spartan",
    "2k2k2/7R/8/8/8/8/8/2R1K3 b - - 0 1"
);

// Suicide chess: a player without a move is judged by the pieces on the board: equal numbers
// draw, and the one with fewer wins.
move_list!(
    suicide_stalemate_with_as_many_pieces_draws,
    "variants/suicide",
    "8/8/8/8/8/p7/P7/8 w - - 0 1"
);
move_list!(
    suicide_stalemate_with_fewer_pieces_wins,
    "variants/suicide",
    "8/8/8/8/8/p7/P7/7p w - - 0 1"
);

// Armageddon: Black has draw odds, so Black stalemated is a win for Black.
move_list!(
    armageddon_stalemate_is_a_win_for_black,
    "variants/armageddon",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
);

// Capture-all chess: taking Black's last piece wins, though a King is among White's pieces.
move_list!(
    captureall_last_piece_taken,
    "variants/captureall",
    "8/8/8/8/8/8/1p6/R3K3 w Q - 0 1",
    "a1a2 b2b1q e1d2 b1b2 a2b2"
);

// Micro shogi: a piece turns over exactly when it captures (the Pawn taking on b3 becomes a
// Knight, written +), never on a quiet move (d2d3).
move_list!(
    micro_turns_over_on_capture_only,
    "variants/micro",
    "k3/4/1p2/1P1P/2K1[] w - - 0 1"
);

// Seirawan chess: a piece leaving a gate (b1, c1, e1, h1 here; not a1 or d1, whose pieces have
// moved since the start) may let the Hawk in on the square it left; castling gates on the
// King's square or the Rook's.
move_list!(
    seirawan_gates_on_the_squares_left,
    "variants/seirawan",
    "4k3/8/8/8/8/8/8/RNBQK2R[H] w KBC - 0 1"
);
// A gated piece does not block a check: after Rxf8+, Black may not answer Kd8 and gate the
// Elephant onto e8 between the Rook and the King.
move_list!(
    seirawan_gated_piece_does_not_block_check,
    "variants/seirawan",
    "rhb1kRn1/p1pqp2r/n2p3p/1p4p1/P2P3P/8/1PP1PPP1/HNBQKBNR[Ee] b KBCDFGqcg - 0 8"
);
// S-house: the Elephant just taken on f3 goes to hand, but may not enter through the gate of
// the piece that took it.
move_list!(
    shouse_piece_just_taken_does_not_gate,
    "variants/shouse",
    "rnbqkbnr/pppppppp/8/8/8/E4e2/PPPPPPPP/RNBQKBNR[Hh] w KQBCDFGkqbcdfg - 0 2"
);

// Atomic chess: in check from the a1 Rook, White may still take on g7, as the explosion blows
// up Black's King and ends the game.
move_list!(
    atomic_blowing_up_the_king_answers_check,
    "variants/atomic",
    "7k/6n1/8/8/8/8/8/r3K1Q1 w - - 0 1"
);
// Rxc4 blows up the Rook itself, the Knight taken and the Bishop on b5 beside it; the Pawns on
// d3 and d5 beside it stay.
move_list!(
    atomic_explosion_spares_pawns_around,
    "variants/atomic",
    "4k3/8/8/1b1p4/2nR4/3P4/8/4K3 w - - 0 1",
    "d4c4"
);
// Kings side by side cannot be in check: the a1 Rook does not check the e1 King, whose
// neighbour e2 is Black's King. Neither King may take the other.
move_list!(
    atomic_kings_side_by_side_are_not_in_check,
    "variants/atomic",
    "8/8/8/8/8/8/4k3/r3K3 w - - 0 1"
);

// Atomar chess: the King is proof against explosions. Kxd2 blows up the Queen taken and the
// Knight beside it, and the King stays on d2.
move_list!(
    atomar_king_that_captures_stays,
    "variants/atomar",
    "4k3/8/8/8/8/2n5/3q4/4K3 w - - 0 1",
    "e1d2"
);

// Petrified chess: Nxd5 turns the Knight to stone on d5, which then blocks the d-file and the
// diagonals through it; the King on e1 takes nothing, so it may stand beside the other.
move_list!(
    petrified_capturer_turns_to_stone,
    "variants/petrified",
    "8/8/3r4/3p4/8/2N5/3k4/R3K3 w Q - 0 1",
    "c3d5"
);

// A royal piece that would turn to stone by capturing never captures: the King on a1 may not
// take the lone Rook on b2, and every other square is attacked, so White is stalemated.
move_list!(
    petrifying_royal_piece_never_captures,
    "tests/concepts/petrify-royal",
    "4k/5/5/1r3/K4 w - - 0 1"
);

// Placement chess: with two Bishops in hand and h1 the last light square of the first rank, no
// other piece may be placed there; the Bishops may go to h1 or to a dark square.
move_list!(
    placement_last_light_square_kept_for_bishop,
    "variants/placement",
    "8/pppppppp/8/8/8/8/PPPPPPPP/8[KQRRBBNNkqrrbbnn] w - - 0 1",
    "N@b1 N@b8 Q@d1 Q@d8 N@f1 N@f8"
);

// Placement chess: a King placed on e1 and Rooks placed on a1 and h1 earn castling rights, so
// White may castle once f1 and g1 are clear.
move_list!(
    placement_castling_earned_by_placing,
    "variants/placement",
    "8/pppppppp/8/8/8/8/PPPPPPPP/8[KQRRBBNNkqrrbbnn] w - - 0 1",
    "K@e1 K@e8 R@a1 R@a8 R@h1 R@h8 N@b1 N@b8 N@g1 N@g8 B@c1 B@c8 B@f1 B@f8 Q@d1 Q@d8 g1f3 g8f6 g2g3 g7g6 f1g2 f8g7"
);

// Placement chess: a King placed on d1 earns no castling right, even beside its Rooks.
move_list!(
    placement_king_off_its_square_never_castles,
    "variants/placement",
    "8/pppppppp/8/8/8/8/PPPPPPPP/8[KQRRBBNNkqrrbbnn] w - - 0 1",
    "K@d1 K@e8 R@a1 R@a8 R@h1 R@h8 N@b1 N@b8 N@g1 N@g8 B@c1 B@c8 B@f1 B@f8 Q@e1 Q@d8 g1f3 g8f6 g2g3 g7g6 f1g2 f8g7"
);

// Sittuyin: the Pawn on d5 may become a General where it stands or one diagonal step away, but
// not where the General would attack the Rook on c6 (d5 itself) or give check; d5c6 is the
// Pawn's capture.
move_list!(
    sittuyin_promotion_is_a_turn_of_its_own,
    "variants/sittuyin",
    "8/8/2rk4/3P1P2/8/8/3K4/8[] w - - 0 1"
);

// Sittuyin: a player's last Pawn may promote off the promotion squares.
move_list!(
    sittuyin_lone_pawn_promotes_anywhere,
    "variants/sittuyin",
    "4k3/8/8/8/1P6/8/3K4/8[] w - - 0 1"
);

// Sittuyin: no promotion while the player's General stands on the board.
move_list!(
    sittuyin_no_promotion_beside_a_general,
    "variants/sittuyin",
    "8/8/3k4/3P4/8/4F3/3K4/8[] w - - 0 1"
);

// `peaceful`: the Pawn reaching c5 may not become a Knight, which would attack the King on e4.
// `lone-anywhere`: White's only Scout may promote on e3, off its zone.
move_list!(
    promotion_peaceful_and_lone_anywhere,
    "tests/concepts/promotion-options",
    "5/2P1k/5/4S/K4 w - - 0 1"
);

// `lone-anywhere` with two Scouts: neither promotes off its zone.
move_list!(
    promotion_lone_anywhere_needs_a_lone_piece,
    "tests/concepts/promotion-options",
    "5/4k/5/S1S2/K4 w - - 0 1"
);

// Ataxx: a clone (a drop from an endless supply next to an own stone) and a jump both convert
// the enemy stones next to where they land: Black's d4 turns White's c5 and e3, and White, left
// without stones, has lost.
move_list!(
    ataxx_landing_converts_neighbours,
    "variants/ataxx",
    "P5p/7/7/7/7/7/p5P w - - 0 1",
    "a7c5 g7f5 g1e3 f5d4"
);

// Ataxx: White's a7 can neither clone nor jump, so White passes; `else pass` offers the pass
// only then.
move_list!(
    ataxx_pass_only_when_stuck,
    "variants/ataxx",
    "Ppp4/ppp4/ppp4/7/7/7/7 w - - 0 1"
);
move_list!(
    ataxx_no_pass_while_a_stone_can_move,
    "variants/ataxx",
    "Ppp4/ppp4/ppp4/7/7/7/6P w - - 0 1"
);

// Flipello: White's disc on e3 flanks Black's e4 against e5 and turns it; Black may answer
// only where a disc flanks White's in turn (d3, f3, f5).
move_list!(
    flipello_drop_flanks_and_turns_lines,
    "variants/flipello",
    "8/8/8/3pP3/3Pp3/8/8/8[PPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPpppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp] w - - 0 1",
    "P@e3"
);

// `else` in a trigger: a Pawn reaching the far rank removes an enemy Knight if one is left,
// else an enemy Pawn (d4e5 has taken the Knight).
move_list!(
    trigger_plans_after_else_only_when_stuck,
    "tests/concepts/trigger-else",
    "k3n/1p1P1/5/5/K4 w - - 0 1"
);

// Black's Stone on g2 converts the Rook on h1, which loses White's castling right with it.
move_list!(
    converted_rook_loses_its_castling_right,
    "tests/concepts/convert-castling",
    "4k2r/8/8/8/8/6p1/8/P3K2R b Kk - 0 1",
    "g3g2"
);
