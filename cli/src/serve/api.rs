//! The studio's game endpoints: check a rule file, show a position, list its turns with the
//! clicks that enter them, make a turn, and let the computer choose one. Each takes the rule
//! file's text, a position (`fen`, the start without it) and the moves played from it.

use super::Failure;
use super::files::Folders;
use crate::json;
use fairy::ai::{Budget, Player};
use fairy::compile::{BLOCKED, EMPTY, NO_SQUARE, Ruleset, Sq};
use fairy::diagnostic::{Code, line_and_column};
use fairy::engine::{Part, PartKind, Position, Turn};
use fairy::notation::{fen, moves};
use fairy::pipeline;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// The longest the studio lets the computer think over one turn.
const MAX_THINK_MS: u64 = 60_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Game {
    rules: String,
    #[serde(default)]
    fen: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
}

/// The fields of a request's body, or what is wrong with them.
pub fn fields<T: DeserializeOwned>(body: &Value) -> Result<T, Failure> {
    T::deserialize(body).map_err(|error| Failure::bad(format!("the request's body: {error}")))
}

/// `POST /api/check {rules}`: the verdict `fairy check --json` gives of one file.
pub fn check(body: &Value) -> Result<Value, Failure> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Check {
        rules: String,
        #[serde(default)]
        name: Option<String>,
    }
    let request: Check = fields(body)?;
    let text = as_read(request.rules);
    let loaded = pipeline::load_with_cost(&text);
    let name = request.name.as_deref().unwrap_or("studio.rules");
    Ok(json::check_verdict(name, &text, &loaded))
}

/// `POST /api/show {rules, fen, moves}`: the position as `show --json` gives it, with the board
/// square by square for drawing, the hands, and the squares of the last turn.
pub fn show(body: &Value) -> Result<Value, Failure> {
    let game: Game = fields(body)?;
    let rules = playable(&game.rules)?;
    let (mut position, last) = replay(&rules, &game)?;
    Ok(view(&mut position, last))
}

/// `POST /api/moves {rules, fen, moves}`: the legal turns as `moves --json` lists them, and for
/// each the clicks that enter it, each with what it picks in words.
pub fn moves(body: &Value) -> Result<Value, Failure> {
    let game: Game = fields(body)?;
    let rules = playable(&game.rules)?;
    let (mut position, _) = replay(&rules, &game)?;
    let texts = moves::legal_texts(&mut position);
    if position.turns_overflowed() {
        return Err(Failure::invalid(fairy::limits::too_many_turns()));
    }
    let mut ways = Vec::new();
    position.every_way(&mut ways);
    let mut turns: Vec<Value> = Vec::new();
    // Each text once: of the ways that make the same turn, `legal_texts` keeps one text.
    let mut unlisted: std::collections::HashSet<&String> = texts.iter().collect();
    for way in &ways {
        let text = moves::write(&position, way);
        if unlisted.remove(&text) {
            turns.push(json!({ "text": text, "steps": steps(&rules, way) }));
        }
    }
    Ok(json!({ "moves": texts, "turns": turns }))
}

/// `POST /api/turn {rules, fen, moves, turn}`: makes a legal turn, and shows the position after.
pub fn turn(body: &Value) -> Result<Value, Failure> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct MakeTurn {
        #[serde(flatten)]
        game: Game,
        turn: String,
    }
    let request: MakeTurn = fields(body)?;
    let rules = playable(&request.game.rules)?;
    let (mut position, _) = replay(&rules, &request.game)?;
    let turn = moves::read_in_play(&mut position, &request.turn)
        .map_err(|message| Failure::invalid(format!("{}: {message}", request.turn)))?;
    position.make(&turn);
    Ok(view(&mut position, Some(turn)))
}

/// `POST /api/computer {rules, fen, moves, think_ms, who, file}`: the turn the computer (`who`
/// `"ai"`, thinking `think_ms`) or the random player (`"random"`) chooses, and the weights
/// file the computer evaluated with: the one beside `file` (as `/api/files` names the file
/// the rules came from), if given and there is one.
pub fn computer(body: &Value, folders: &Folders) -> Result<Value, Failure> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Computer {
        #[serde(flatten)]
        game: Game,
        #[serde(default = "default_think")]
        think_ms: u64,
        #[serde(default)]
        who: Option<String>,
        #[serde(default)]
        file: Option<String>,
    }
    fn default_think() -> u64 {
        1000
    }
    let request: Computer = fields(body)?;
    if request.think_ms > MAX_THINK_MS {
        return Err(Failure::bad(format!(
            "think_ms is at most {MAX_THINK_MS} in the studio"
        )));
    }
    let rules = playable(&request.game.rules)?;
    let (mut position, _) = replay(&rules, &request.game)?;
    if position.ending().is_some() {
        return Err(Failure::invalid("the game is over: no one has a turn"));
    }
    let weights = folders.weights_beside(request.file.as_deref(), &rules)?;
    let seed = seed_from_clock();
    let think = Budget::Time(Duration::from_millis(request.think_ms));
    let mut player = match request.who.as_deref().unwrap_or("ai") {
        "ai" => Player::weighted(
            &rules,
            think,
            seed,
            weights.as_ref().map(|file| &file.weights),
        ),
        "random" => Player::random(seed),
        other => {
            return Err(Failure::bad(format!(
                "who is \"ai\" or \"random\", not {other:?}"
            )));
        }
    };
    let started = Instant::now();
    let Some(turn) = player.choose(&mut position) else {
        return Err(Failure::invalid("the player to move has no legal turn"));
    };
    if position.turns_overflowed() {
        return Err(Failure::invalid(fairy::limits::too_many_turns()));
    }
    Ok(json!({
        "turn": moves::write(&position, &turn),
        "took_ms": started.elapsed().as_secs_f64() * 1000.0,
        "weights": weights.map(|file| file.name()),
    }))
}

fn seed_from_clock() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |since| since.as_nanos() as u64)
}

/// The text as `fairy check` reads a file (a byte-order mark some editors begin with dropped).
fn as_read(text: String) -> String {
    match fairy::source::from_bytes("studio", text.into_bytes()) {
        Ok(source) => source.text,
        Err(_) => unreachable!("the text came as UTF-8"),
    }
}

/// The rules of a file fairy can play, or why it cannot.
pub fn playable(text: &str) -> Result<Ruleset, Failure> {
    let text = &as_read(text.to_string());
    let loaded = pipeline::load(text);
    if let Some(rules) = loaded.rules {
        return Ok(rules);
    }
    if loaded.is_valid() {
        let why = (loaded.problems.iter())
            .find(|p| p.code == Code::NotRunYet)
            .map_or("it uses rules the engine does not run yet", |p| &p.message);
        return Err(Failure::invalid(format!(
            "fairy cannot play this game: {why}"
        )));
    }
    let first = loaded.problems.iter().find(|p| p.is_error());
    let message = first.map_or("the rule file has errors".to_string(), |problem| {
        let (line, column) = line_and_column(text, problem.span.start);
        format!(
            "the rule file has errors; the first, at line {line} column {column}: {}",
            problem.message
        )
    });
    Err(Failure::invalid(message))
}

/// The game's position after the moves played, and the last of them.
fn replay<'r>(rules: &'r Ruleset, game: &Game) -> Result<(Position<'r>, Option<Turn>), Failure> {
    let mut position = match &game.fen {
        Some(text) => fen::read(rules, text)
            .map_err(|error| Failure::invalid(format!("the position: {}", error.message)))?,
        None => Position::start(rules),
    };
    let mut last = None;
    for (number, text) in game.moves.iter().enumerate() {
        let turn = moves::read_in_play(&mut position, text).map_err(|message| {
            Failure::invalid(format!("move {} ({text}): {message}", number + 1))
        })?;
        position.make(&turn);
        last = Some(turn);
    }
    Ok((position, last))
}

/// The position for the page: `show --json`'s document, with the board square by square.
fn view(position: &mut Position<'_>, last: Option<Turn>) -> Value {
    let rules = position.rules();
    let geometry = &rules.geometry;
    let squares: Vec<Value> = (0..geometry.squares() as Sq)
        .map(|sq| {
            let (file, rank) = geometry.coords[sq as usize];
            json!({
                "name": geometry.name(sq),
                "file": file,
                "rank": rank,
                "blocked": position.board()[sq as usize] == BLOCKED,
                "piece": piece_on(rules, position.board()[sq as usize]),
            })
        })
        .collect();
    let hands: Vec<Value> = (0..rules.players.count())
        .map(|player| {
            let held: Vec<Value> = (rules.pieces.kinds.iter().enumerate())
                .filter(|&(kind, _)| position.in_hand(player, kind) > 0)
                .map(|(kind, info)| {
                    json!({
                        "click": hand_click(&info.letter),
                        "letter": info.letter,
                        "name": info.name,
                        "count": position.in_hand(player, kind),
                    })
                })
                .collect();
            json!(held)
        })
        .collect();
    let last_squares: Vec<String> = last
        .iter()
        .flat_map(|turn| turn.parts().iter().flat_map(|p| [p.from, p.to]))
        .filter(|&sq| sq != NO_SQUARE)
        .map(|sq| geometry.name(sq))
        .collect();
    json!({
        "position": json::position(position),
        "width": geometry.width,
        "height": geometry.height,
        "players": rules.players.names,
        "to_move": position.to_move(),
        "squares": squares,
        "hands": hands,
        "last": last_squares,
    })
}

fn piece_on(rules: &Ruleset, code: fairy::compile::Code) -> Value {
    if code == EMPTY || code == BLOCKED {
        return Value::Null;
    }
    let (kind, player) = rules.pieces.split(code);
    let info = &rules.pieces.kinds[kind];
    json!({
        "letter": info.letter,
        "name": info.name,
        "player": player,
        "promoted": info.promoted,
        "royal": info.royal,
    })
}

/// The click that picks a piece of the hand to drop: as drops are written, `@` and its letter.
fn hand_click(letter: &str) -> String {
    format!("@{}", letter.to_uppercase())
}

/// The clicks that enter a turn, part by part, each with what it picks; a square clicked to end
/// one part is not clicked again to start the next (an arrow shot from where its mover landed).
fn steps(rules: &Ruleset, turn: &Turn) -> Vec<Value> {
    let mut clicks: Vec<(String, String)> = Vec::new();
    for part in turn.parts() {
        for (click, say) in part_clicks(rules, part) {
            if clicks.last().is_none_or(|(last, _)| *last != click) {
                clicks.push((click, say));
            }
        }
    }
    (clicks.into_iter())
        .map(|(click, say)| json!({ "click": click, "say": say }))
        .collect()
}

fn part_clicks(rules: &Ruleset, part: &Part) -> Vec<(String, String)> {
    let square = |sq: Sq| rules.geometry.name(sq);
    let kind = || &rules.pieces.kinds[rules.pieces.split(part.piece).0];
    let say = |text: &str| text.to_string();
    match part.kind {
        PartKind::Move | PartKind::Promote => vec![
            (square(part.from), say("a piece to move")),
            (square(part.to), say("where it goes")),
        ],
        PartKind::Block => vec![
            (square(part.from), say("where the arrow is shot from")),
            (square(part.to), say("where the arrow lands")),
        ],
        PartKind::Drop => vec![
            (hand_click(&kind().letter), say("a piece from the hand")),
            (
                square(part.to),
                format!("where the {} is placed", kind().name),
            ),
        ],
        PartKind::Gate => vec![
            (hand_click(&kind().letter), say("a piece to bring in")),
            (square(part.to), say("the square it enters on")),
        ],
        PartKind::Remove => vec![(square(part.from), say("a piece to remove"))],
        PartKind::Unblock => vec![(square(part.to), say("a blocked square to clear"))],
        PartKind::Choice | PartKind::Pass | PartKind::Partner | PartKind::Take => Vec::new(),
    }
}
