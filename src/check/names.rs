//! Name tables: each kind of name has its own table, which reports duplicates when names are
//! declared and unknown names (with a did-you-mean) when they are used.

use crate::diagnostic::{Code, Problem, Span, closest};
use crate::limits::MAX_PROBLEMS;
use crate::syntax::ast::Name;

/// The kinds of names a rule file declares, each in a table of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKind {
    Player,
    Piece,
    Zone,
    Counter,
    Phase,
    MoveTag,
}

impl NameKind {
    /// The kind as messages name it.
    pub fn word(self) -> &'static str {
        match self {
            NameKind::Player => "player",
            NameKind::Piece => "piece",
            NameKind::Zone => "zone",
            NameKind::Counter => "counter",
            NameKind::Phase => "phase",
            NameKind::MoveTag => "move tag",
        }
    }

    fn unknown(self) -> Code {
        match self {
            NameKind::Player => Code::UnknownPlayer,
            NameKind::Piece => Code::UnknownPiece,
            NameKind::Zone => Code::UnknownZone,
            NameKind::Counter => Code::UnknownCounter,
            NameKind::Phase => Code::UnknownPhase,
            NameKind::MoveTag => Code::UnknownMoveTag,
        }
    }

    fn duplicate(self) -> Code {
        match self {
            NameKind::Player => Code::DuplicatePlayer,
            NameKind::Piece => Code::DuplicatePiece,
            NameKind::Zone => Code::DuplicateZone,
            NameKind::Counter => Code::DuplicateCounter,
            NameKind::Phase => Code::DuplicatePhase,
            NameKind::MoveTag => Code::DuplicateMoveTag,
        }
    }
}

/// The names of one kind, in declaration order, each with where it was declared.
#[derive(Debug)]
pub struct Names {
    kind: NameKind,
    entries: Vec<(String, Span)>,
    index: std::collections::HashMap<String, usize>,
}

impl Names {
    pub fn new(kind: NameKind) -> Self {
        Names {
            kind,
            entries: Vec::new(),
            index: Default::default(),
        }
    }

    /// Declares a name; a second declaration is a problem pointing at both.
    pub fn declare(&mut self, name: &Name, problems: &mut Vec<Problem>) {
        if let Some(first) = self.span_of(&name.value) {
            problems.push(
                Problem::error(
                    self.kind.duplicate(),
                    format!("{} `{}` is defined twice", self.kind.word(), name.value),
                    name.span,
                    "defined again here",
                )
                .with_note(first, "first defined here")
                .local(),
            );
            return;
        }
        self.index.insert(name.value.clone(), self.entries.len());
        self.entries.push((name.value.clone(), name.span));
    }

    pub fn span_of(&self, name: &str) -> Option<Span> {
        self.index_of(name).map(|i| self.entries[i].1)
    }

    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    pub fn contains(&self, name: &str) -> bool {
        self.span_of(name).is_some()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(n, _)| n.as_str())
    }

    /// Resolves a use of a name to its index in declaration order; an unknown name is
    /// reported, and resolves to nothing.
    pub fn resolve(&self, name: &Name, problems: &mut Vec<Problem>) -> Option<usize> {
        if let Some(index) = self.index_of(&name.value) {
            return Some(index);
        }
        // Past the problems a report shows, a suggestion is work no one will read.
        let suggest = problems.len() < MAX_PROBLEMS;
        problems.push(self.unknown(name, suggest));
        None
    }

    fn unknown(&self, name: &Name, suggest: bool) -> Problem {
        let kind = self.kind.word();
        let problem = Problem::error(
            self.kind.unknown(),
            format!("unknown {kind} `{}`", name.value),
            name.span,
            format!("no {kind} has this name"),
        )
        .local();
        if !suggest {
            return problem;
        }
        if self.kind == NameKind::Zone && looks_like_square(&name.value) {
            let braced = format!("{{ {} }}", name.value);
            return problem
                .with_help(format!(
                    "a zone of squares is written in braces: `{braced}`"
                ))
                .with_replacement(braced);
        }
        if let Some(close) = closest(&name.value, self.iter()) {
            return problem
                .with_help(format!("did you mean `{close}`?"))
                .with_replacement(close);
        }
        match self.entries.len() {
            0 => problem.with_help(format!("this file declares no {}", plural(kind))),
            n => {
                const SHOWN: usize = 12;
                let listed: Vec<&str> = self.iter().take(SHOWN).collect();
                let more = match n > SHOWN {
                    true => format!(" and {} more", n - SHOWN),
                    false => String::new(),
                };
                problem.with_help(format!(
                    "the {} are: {}{more}",
                    plural(kind),
                    listed.join(", ")
                ))
            }
        }
    }
}

fn plural(kind: &str) -> String {
    if kind.ends_with('s') {
        format!("{kind}es")
    } else {
        format!("{kind}s")
    }
}

/// Whether `problem` says that `name`, of any kind, is unknown, in `text`.
pub fn is_unknown(problem: &Problem, name: &str, text: &str) -> bool {
    problem.code.is_unknown_name() && text.get(problem.span.start..problem.span.end) == Some(name)
}

/// Whether a name is written like a square (`e5`): a letter, then digits.
fn looks_like_square(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.clone().next().is_some()
        && chars.all(|c| c.is_ascii_digit())
}
