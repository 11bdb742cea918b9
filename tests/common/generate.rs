//! Rule files made up from the language's concepts, for tests that must hold for any file the
//! checker accepts. Every choice is drawn from a [`Choices`], so a seed (in the property test)
//! or the fuzzer's bytes (in the fuzz target that includes this file) decide the whole file.
//! Most files check; those that do not still exercise the checker.

/// A source of decisions.
pub trait Choices {
    /// A number below `n` (n > 0).
    fn below(&mut self, n: usize) -> usize;

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

impl Choices for fairy::random::Random {
    fn below(&mut self, n: usize) -> usize {
        fairy::random::Random::below(self, n)
    }
}

/// Decisions read from bytes, one byte each; zeros once they run out.
pub struct Bytes<'a>(pub &'a [u8]);

impl Choices for Bytes<'_> {
    fn below(&mut self, n: usize) -> usize {
        let Some((&first, rest)) = self.0.split_first() else {
            return 0;
        };
        self.0 = rest;
        first as usize % n
    }
}

const DIRECTIONS: [&str; 18] = [
    "forward",
    "backward",
    "left",
    "right",
    "forward-left",
    "forward-right",
    "backward-left",
    "backward-right",
    "sideways",
    "vertical",
    "orthogonal",
    "diagonal",
    "diagonal-forward",
    "diagonal-backward",
    "ahead",
    "behind",
    "all",
    "orthogonal diagonal-forward",
];
const LEAPS: [&str; 6] = ["(1,2)", "(0,2)", "(2,2)", "(1,3)", "(0,3)", "(2,3)"];
const BETZA: [&str; 10] = [
    "fmWfcF", "NN", "R4", "K", "pR", "gQ", "fWsW", "mRcB", "vWfF", "DA",
];
const LETTERS: [&str; 8] = ["A", "B", "C", "D", "E", "F", "G", "H"];

/// One generated rule file.
pub fn rule_file(choices: &mut impl Choices) -> String {
    let players = if choices.chance(10) { 4 } else { 2 };
    let width = 3 + choices.below(7);
    // Four players come from four sides: a square board gives each the same ranks.
    let height = if players == 4 {
        width
    } else {
        3 + choices.below(7)
    };
    let mut file = Generator {
        width,
        height,
        players,
        free: (0..width * height).collect(),
        pieces: 2 + choices.below(4),
        royal: choices.chance(60),
        to_hand: choices.chance(30),
        text: String::new(),
    };
    file.write(choices);
    file.text
}

struct Generator {
    width: usize,
    height: usize,
    players: usize,
    /// Squares not yet holding a piece or a hole, as `rank * width + file`.
    free: Vec<usize>,
    pieces: usize,
    royal: bool,
    to_hand: bool,
    text: String,
}

impl Generator {
    fn write(&mut self, choices: &mut impl Choices) {
        self.line("game \"generated\"");
        let holes = match choices.chance(15) {
            true => format!(" holes {{ {} }}", self.free_square(choices)),
            false => String::new(),
        };
        self.line(&format!("board {} x {}{holes}", self.width, self.height));
        let sides = ["White forward north", "Black forward south"];
        let four = [
            "Red forward north",
            "Blue forward east",
            "Yellow forward south",
            "Green forward west",
        ];
        let players: &[&str] = if self.players == 2 { &sides } else { &four };
        for player in players {
            self.line(&format!("player {player}"));
        }
        self.line(&format!("zone far = rank {}", self.height));
        if self.royal {
            self.king(choices);
        }
        for index in 0..self.pieces {
            self.piece(choices, index);
        }
        self.captures(choices);
        self.turns(choices);
        for player in players {
            self.setup(choices, player.split(' ').next().unwrap_or("White"));
        }
        self.endings(choices);
    }

    fn line(&mut self, text: &str) {
        self.text.push_str(text);
        self.text.push('\n');
    }

    fn square(&self, choices: &mut impl Choices) -> String {
        let file = (b'a' + choices.below(self.width) as u8) as char;
        format!("{file}{}", 1 + choices.below(self.height))
    }

    /// A square no piece or hole has taken yet (a1 once all are taken).
    fn free_square(&mut self, choices: &mut impl Choices) -> String {
        let cell = match self.free.is_empty() {
            true => 0,
            false => self.free.swap_remove(choices.below(self.free.len())),
        };
        let file = (b'a' + (cell % self.width) as u8) as char;
        format!("{file}{}", 1 + cell / self.width)
    }

    fn king(&mut self, choices: &mut impl Choices) {
        let castle = match choices.chance(30) {
            true => format!(
                " castle {} {} with P0{}",
                choices.pick(&["sideways", "orthogonal", "left"]),
                2 + choices.below(2),
                choices.pick(&[" unmoved", "", " unmoved safe"]),
            ),
            false => String::new(),
        };
        self.line(&format!("piece King K {{ royal step all{castle} }}"));
    }

    fn piece(&mut self, choices: &mut impl Choices, index: usize) {
        let mut clauses = Vec::new();
        for _ in 0..1 + choices.below(3) {
            clauses.push(self.move_rule(choices, index));
        }
        if choices.chance(35) {
            let target = (index + 1 + choices.below(self.pieces - 1)) % self.pieces;
            let optional = choices.pick(&["", "may "]);
            let zone = self.zone(choices);
            let trigger = choices.pick(&["in", "via"]);
            clauses.push(format!("{optional}promote to P{target} {trigger} {zone}"));
        }
        if self.to_hand && choices.chance(20) {
            clauses.push(format!("drop not in {}", self.zone(choices)));
        }
        if !self.royal && choices.chance(8) {
            clauses.push("grant enemy orthogonal { move slide away }".to_string());
        }
        // A promoted-looking letter now and then: `+A` is the promoted form of `A`'s piece.
        let letter = match index > 0 && choices.chance(25) {
            true => format!("+{}", LETTERS[index - 1]),
            false => LETTERS[index].to_string(),
        };
        self.line(&format!(
            "piece P{index} {letter} {{ {} }}",
            clauses.join("  ")
        ));
    }

    fn move_rule(&self, choices: &mut impl Choices, index: usize) -> String {
        let mode = *choices.pick(&["", "", "move ", "capture "]);
        let directions = *choices.pick(&DIRECTIONS);
        let atom = match choices.below(9) {
            0 | 1 => format!("step {directions}"),
            2 => format!("slide {directions}"),
            3 => format!("slide {directions} up-to {}", 1 + choices.below(3)),
            4 => format!("leap {}", choices.pick(&LEAPS)),
            5 => format!("ride {}", choices.pick(&LEAPS)),
            6 => format!("hop {directions}{}", choices.pick(&["", " beyond"])),
            7 => format!("betza \"{}\"", choices.pick(&BETZA)),
            _ => match index {
                0 => "move anywhere".to_string(),
                _ => format!("like P{}", choices.below(index)),
            },
        };
        if atom.starts_with("move anywhere") || atom.starts_with("like") {
            return atom;
        }
        // Captures limited to a zone or a first move are not run yet: such files would not play.
        let modifier = match choices.below(8) {
            0 if mode == "move " => format!(" from {}", self.zone(choices)),
            1 if mode == "move " => " first".to_string(),
            2 if atom.starts_with("leap") && mode == "move " => " lame passable".to_string(),
            2 if atom.starts_with("leap") => " lame".to_string(),
            3 if mode == "capture " && !atom.starts_with("hop") && !atom.starts_with("betza") => {
                " en-passant".to_string()
            }
            _ => String::new(),
        };
        format!("{mode}{atom}{modifier}")
    }

    fn zone(&self, choices: &mut impl Choices) -> String {
        match choices.below(6) {
            0 => "far".to_string(),
            1 => format!("rank {}", 1 + choices.below(self.height)),
            2 => format!("ranks {}..{}", 1 + choices.below(2), self.height),
            3 => format!("{{ {} {} }}", self.square(choices), self.square(choices)),
            4 => format!("(not rank {})", 1 + choices.below(self.height)),
            _ => "any".to_string(),
        }
    }

    fn captures(&mut self, choices: &mut impl Choices) {
        if self.to_hand {
            self.line("capture to-hand");
        }
        match choices.below(10) {
            0 => self.line("capture compulsory"),
            1 if !self.royal => self.line("capture custodian orthogonal"),
            _ => {}
        }
    }

    fn turns(&mut self, choices: &mut impl Choices) {
        match choices.below(8) {
            0 if !self.to_hand => self.line("turn { move then shoot { slide all } }"),
            1 => {
                self.line("counter run limit 2 { move sideways: add 1  move: reset }");
            }
            2 => self.line("on enter far by P0 { remove enemy P1 else P0 }"),
            _ => {}
        }
        if self.to_hand {
            self.line("turn { move or drop }");
        }
    }

    fn setup(&mut self, choices: &mut impl Choices, player: &str) {
        let mut placed = Vec::new();
        if self.royal {
            placed.push(format!("King {}", self.free_square(choices)));
        }
        for _ in 0..1 + choices.below(4) {
            let piece = choices.below(self.pieces);
            placed.push(format!("P{piece} {}", self.free_square(choices)));
        }
        let hand = match self.to_hand && choices.chance(30) {
            true => format!("  hand {{ P{} }}", choices.below(self.pieces)),
            false => String::new(),
        };
        self.line(&format!("setup {player} {{ {}{hand} }}", placed.join("  ")));
    }

    fn endings(&mut self, choices: &mut impl Choices) {
        let endings: &[&str] = match (self.royal, choices.below(3)) {
            (true, 0) => &["lose when royal-captured"],
            (true, 1) if self.players > 2 => &["lose when exposed", "lose when no-moves"],
            (true, _) => &["lose when checkmated", "draw when stalemated"],
            (false, 0) => &["lose when extinct", "lose when no-moves"],
            (false, _) => &["lose when no-moves"],
        };
        for ending in endings {
            self.line(ending);
        }
        if choices.chance(50) {
            self.line("draw when repeated 3");
        }
        if choices.chance(50) {
            self.line("draw after 40 plies without capture");
        }
    }
}
