//! Rule files made up from the language's concepts (not mutated from shipped ones): whatever
//! `check` accepts compiles (or is said not to be run yet), and random games of it never make the engine panic, hang or
//! disagree with itself (moves against perft 1, perft 2 against its divide, positions and move
//! texts read back, unmake restores).

mod common;

use common::generate;
use fairy::consistency::{Walk, playable};
use fairy::random::Random;
use std::sync::mpsc;
use std::time::Duration;

const FILES: u64 = 300;

/// A game that takes longer than this to walk is taken to hang.
const HANG: Duration = Duration::from_secs(20);

#[test]
fn generated_rule_files_that_check_play_consistently() {
    let mut played = 0;
    for seed in 1..=FILES {
        let text = generate::rule_file(&mut Random::new(seed));
        match playable(&text) {
            Ok(Some(_)) => {}
            Ok(None) => continue,
            Err(disagreement) => panic!("{disagreement}:\n{text}"),
        }
        played += 1;
        if let Err(failure) = walk_within(text.clone(), seed, HANG) {
            panic!("{failure}, in:\n{text}");
        }
    }
    // The generator is only worth its time if most of what it makes is playable.
    assert!(
        played * 2 >= FILES,
        "only {played} of {FILES} generated files check"
    );
}

/// Walks a random game of the rule file on a thread of its own, so that a hang or a panic is
/// reported with the file that caused it.
fn walk_within(text: String, seed: u64, limit: Duration) -> Result<(), String> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let rules = common::compiled(&text);
        let walk = Walk {
            thorough_every: 3,
            divide_below: 60,
            ..Walk::new(seed, 40)
        };
        let _ = sender.send(walk.run(&rules).map(|_| ()).map_err(|d| d.to_string()));
    });
    match receiver.recv_timeout(limit) {
        Ok(result) => result,
        Err(mpsc::RecvTimeoutError::Timeout) => Err(format!("no end after {limit:?}")),
        Err(mpsc::RecvTimeoutError::Disconnected) => Err("the engine panicked".to_string()),
    }
}
