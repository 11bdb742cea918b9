//! The board as `fairy show` and `fairy play` draw it, with the lines that tell the whole
//! state: what the turn must contain, the counters and what they allow, the letters in play.
//! Insta snapshots in `snapshots/`.

mod common;

use common::ruleset;
use fairy::notation::{diagram, fen, moves};

macro_rules! board {
    ($test:ident, $rules:literal, $fen:literal, $played:literal) => {
        #[test]
        fn $test() {
            let rules = ruleset($rules);
            let start = fen::write(&fairy::engine::Position::start(&rules));
            let position = match $fen {
                "" => start.as_str(),
                text => text,
            };
            let mut position = fen::read(&rules, position).expect("a valid position");
            moves::play(&mut position, $played).expect("legal moves");
            insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false, omit_expression => true}, {
                insta::assert_snapshot!(concat!("board__", stringify!($test)), diagram(&mut position));
            });
        }
    };
}

// White may place the Guard; White's sideways run is at its limit.
board!(
    amphora_entitled_and_at_the_sideways_limit,
    "amphora",
    "pk1pp/2p/1ppp1/7/2P4/3P1/1P1/PPK1P[Gg] w - - 6 11 sideways-run=3,0 entitled=1,0",
    ""
);
board!(yagbap_placement, "yagbap", "", "A@a1 Q@b2");
board!(
    yagbap_pie_choice,
    "yagbap",
    "",
    "A@a1 Q@b1 M@c1 C@d1 R@e1 R@f1 B@g1 B@h1 N@i1 N@j1"
);
board!(
    yagbap_tenth_turn,
    "yagbap",
    "1n1b1*4/c2*n3r*/*1**2a*2/1q8/1**1*r3*/N1b5R1/1m1*2**2/*2C*2B2/M5A*1N/1B***Q1*R1[] w - - 46 33 phase=play turns=19,19",
    ""
);
board!(ghostarelay_start, "ghostarelay", "", "e2e4");
board!(yonin_bishogi, "yonin-bishogi", "", "c1c2 j8i8 i11i9 b4c4");
