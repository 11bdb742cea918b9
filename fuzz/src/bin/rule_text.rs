//! Prints the rule file a `resources` input stands for, so that a finding can be replayed with
//! `fairy` itself: `target/release/rule_text < FINDING > finding.rules`.

use std::io::{Read, Write};

fn main() {
    let mut data = Vec::new();
    if let Err(error) = std::io::stdin().read_to_end(&mut data) {
        eprintln!("error: standard input: {error}");
        std::process::exit(1);
    }
    match fairy_fuzz::resource_text(&data) {
        Some(text) => {
            let _ = std::io::stdout().write_all(text.as_bytes());
        }
        None => {
            eprintln!("error: the input stands for no rule file (its text is not UTF-8)");
            std::process::exit(1);
        }
    }
}
