//! What the checker finds in a document: the same load as `fairy check`, kept for the requests
//! that follow until the text changes.

use fairy::compile::Ruleset;
use fairy::diagnostic::Problem;
use fairy::pipeline;

#[derive(Default)]
pub struct Analysis {
    pub problems: Vec<Problem>,
    /// The compiled rules, when the file can be played.
    pub rules: Option<Ruleset>,
}

impl Analysis {
    pub fn of(text: &str) -> Analysis {
        let loaded = pipeline::load_with_cost(text);
        Analysis {
            problems: loaded.problems,
            rules: loaded.rules,
        }
    }
}
