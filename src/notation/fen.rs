//! Positions as FEN, as Fairy-Stockfish reads and writes them for two-player games: ranks from
//! the top, digits for empty squares, `*` for blocked squares, `+X` for shogi-style promoted
//! pieces and `X~` for other promoted pieces where captures go to hand, pieces in hand in
//! brackets after the board, then side to move, castling (`KQkq`), en passant, the half-move
//! clock and the move number. On boards with holes, each rank lists only its squares.
//! Where the piece that passed the en passant square does not stand just beyond it (a Berolina
//! Pawn, which moves on a slant), the field names its square too: `f3g4`. Either order is read,
//! as Fairy-Stockfish writes the two in board order.
//!
//! With more than two players, each piece is written with its player's colour letter (the
//! first letter of the player's name, in lower case) before the piece letter: `rK`, `bQ`,
//! `y+R`. After the board come the player to move (`r`), the players still in the game
//! (`rbyg`), castling rights (`rKbQ`, or `-`), en passant (the square passed and the square of
//! the piece that passed it, `f5f6`, or `-`), the half-move clock and the move number.
//!
//! Each kind has one text ([`crate::compile::Kind::text`]): a declared piece its letter, a
//! promoted form that goes to hand as what it was its letter and `~`, or `+X` (X being what it
//! was) when several kinds promote to the same piece: a Queen that was a Rook is `+R`. The
//! checker refuses a file where two kinds would be written alike.
//!
//! Games played in phases add words after the move number, so that any position can be
//! written and read back: `phase=NAME` (the phase being played; `-` once the last has
//! ended), `turns=N,N` (each player's turns played in that phase, which periodic turns
//! follow), `swapped` once the pie choice has exchanged the players' colours, and `NAME=N,N`
//! for each counter of the game.

use super::{NotationError, quoted};
use crate::compile::turns::{PhaseEnd, TurnTables};
use crate::compile::{BLOCKED, CastleRight, Code, EMPTY, NO_SQUARE, Ruleset, Sq};
use crate::engine::validity::square_beyond;
use crate::engine::{Field, Position, PositionError, Setup};

/// Writes a position as FEN.
pub fn write(position: &Position<'_>) -> String {
    write_setup(position.rules(), &position.setup())
}

/// Writes a setup as FEN.
fn write_setup(rules: &Ruleset, setup: &Setup) -> String {
    let mut out = board_text(rules, &setup.board);
    if rules.derived.hands {
        out.push('[');
        let kinds = rules.pieces.kinds.len();
        for player in 0..rules.players.count() {
            for (kind, info) in rules.pieces.kinds.iter().enumerate() {
                let count = setup.hands[player * kinds + kind];
                out.push_str(&written(rules, &info.letter, player).repeat(count as usize));
            }
        }
        out.push(']');
    }
    out.push(' ');
    let to_move = setup.to_move.unwrap_or(0);
    if coloured(rules) {
        out.push(colour(rules, to_move));
        out.push(' ');
        out.extend(
            (0..rules.players.count())
                .filter(|p| setup.alive & (1 << p) != 0)
                .map(|p| colour(rules, p)),
        );
    } else {
        out.push(if to_move == 0 { 'w' } else { 'b' });
    }
    out.push(' ');
    out.push_str(&castling_text(rules, setup));
    out.push(' ');
    out.push_str(&en_passant_text(rules, setup));
    out.push_str(&format!(" {} {}", setup.halfmove, setup.fullmove));
    for word in state_words(rules, setup) {
        out.push(' ');
        out.push_str(&word);
    }
    out
}

/// The square open to en passant, if any: only one the player to move can take on is open.
/// Who passed it is not known from the turn order alone when players leave the game, nor where
/// it went when it passed the square on a slant (a Berolina Pawn): then its square follows.
fn en_passant_text(rules: &Ruleset, setup: &Setup) -> String {
    let Some((passed, victim)) = setup.en_passant else {
        return "-".to_string();
    };
    let mut text = rules.geometry.name(passed);
    let straight = |victim: Sq| {
        let code = setup.board[victim as usize];
        let owner = (code != EMPTY && code != BLOCKED).then(|| rules.pieces.split(code).1);
        owner.is_some_and(|owner| square_beyond(rules, passed, owner) == victim)
    };
    if let Some(victim) = victim.filter(|&v| coloured(rules) || !straight(v)) {
        text.push_str(&rules.geometry.name(victim));
    }
    text
}

/// The words after the move number, for games that need them.
fn state_words(rules: &Ruleset, setup: &Setup) -> Vec<String> {
    let mut words = Vec::new();
    let phases = &rules.turns.phases;
    if phases.len() > 1 {
        let phase = setup.phase.and_then(|p| phases.get(p as usize));
        words.push(format!("phase={}", phase.map_or("-", |p| &p.name)));
    }
    if rules.derived.counts_turns {
        let counts: Vec<String> = setup.phase_turns.iter().map(u32::to_string).collect();
        words.push(format!("turns={}", counts.join(",")));
    }
    if setup.swapped {
        words.push("swapped".to_string());
    }
    let counters = rules.turns.counters.len();
    for (index, counter) in rules.turns.counters.iter().enumerate() {
        let values: Vec<String> = (0..rules.players.count())
            .map(|p| setup.counters[p * counters + index].to_string())
            .collect();
        words.push(format!("{}={}", counter.name, values.join(",")));
    }
    words
}

/// A word after the move number: no standard FEN field holds `=`.
fn is_state_word(word: &str) -> bool {
    word == "swapped" || word.contains('=')
}

/// What a word after the move number names: `phase=` of `phase=play`, or `swapped`.
fn state_name(word: &str) -> &str {
    word.find('=').map_or(word, |at| &word[..=at])
}

/// The words after the move number that positions of the game have, as [`state_words`] writes
/// them: `phase=` with several phases, `turns=` where turns are counted, `swapped` with a pie
/// choice, and each counter.
fn state_names(rules: &Ruleset) -> Vec<String> {
    let mut names = Vec::new();
    if rules.turns.phases.len() > 1 {
        names.push("phase=".to_string());
    }
    if rules.derived.counts_turns {
        names.push("turns=".to_string());
    }
    if rules.turns.has_pie() {
        names.push("swapped".to_string());
    }
    names.extend(rules.turns.counters.iter().map(|c| format!("{}=", c.name)));
    names
}

/// One number per player, separated by commas.
fn per_player<T: std::str::FromStr>(list: &str, players: usize) -> Option<Vec<T>> {
    let values: Option<Vec<T>> = list.split(',').map(|n| n.parse().ok()).collect();
    values.filter(|v| v.len() == players)
}

/// Reads `NAME=N,N`: a counter's value for each player, within its limit.
fn read_counter(rules: &Ruleset, setup: &mut Setup, word: &str) -> Result<(), String> {
    let (name, list) = word.split_once('=').unwrap_or((word, ""));
    let Some(index) = rules.turns.counters.iter().position(|c| c.name == name) else {
        let known = state_names(rules);
        let known = match known.is_empty() {
            true => ": they have none after the move number".to_string(),
            false => format!(" (they are {})", known.join(", ")),
        };
        return Err(format!(
            "{} is not a word of this game's positions{known}",
            quoted(word)
        ));
    };
    let values: Vec<u16> = per_player(list, rules.players.count()).ok_or_else(|| {
        format!(
            "`{name}=` gives the counter for each player: {} numbers",
            rules.players.count()
        )
    })?;
    if let Some(limit) = rules.turns.counters[index].limit
        && let Some(over) = values.iter().find(|&&value| value > limit)
    {
        return Err(format!("`{name}` is at most {limit}, and {over} is given"));
    }
    let counters = rules.turns.counters.len();
    for (player, value) in values.into_iter().enumerate() {
        setup.counters[player * counters + index] = value;
    }
    Ok(())
}

/// Reads the words after the move number: each at most once, and only those that [`write`]
/// could write for the game, since any other reads as a position no game reaches.
fn read_state(
    rules: &Ruleset,
    setup: &mut Setup,
    places: &mut Places,
    words: &[Located<'_>],
) -> Result<(), NotationError> {
    if let Some(&(start, word)) = words.first() {
        places.state = (start, start + word.len());
    }
    for (index, &(start, word)) in words.iter().enumerate() {
        let error = |message: String| NotationError::new(message, start, start + word.len());
        let name = state_name(word);
        if words[..index].iter().any(|&(_, w)| state_name(w) == name) {
            return Err(error(format!("{} is given twice", quoted(name))));
        }
        if word == "swapped" {
            setup.swapped = true;
            places.swapped = (start, start + word.len());
        } else if let Some(phase) = word.strip_prefix("phase=") {
            setup.phase = Some(read_phase(rules, phase).map_err(error)?);
        } else if let Some(list) = word.strip_prefix("turns=") {
            if !rules.derived.counts_turns {
                return Err(error(
                    "this game's positions have no `turns=`: no phase of it ends or has periodic turns"
                        .to_string(),
                ));
            }
            setup.phase_turns = per_player(list, rules.players.count()).ok_or_else(|| {
                error(format!(
                    "`turns=` gives each player's turns in the phase: {} numbers, such as `turns=0,0`",
                    rules.players.count()
                ))
            })?;
        } else {
            read_counter(rules, setup, word).map_err(error)?;
        }
    }
    Ok(())
}

/// Reads the phase of `phase=NAME`: one of a game of several phases, or `-` once the last has
/// ended, where it can.
fn read_phase(rules: &Ruleset, name: &str) -> Result<u8, String> {
    let phases = &rules.turns.phases;
    let word = quoted(&format!("phase={name}"));
    if phases.len() < 2 {
        return Err(format!(
            "{word}: this game is played in one phase, which its positions do not name"
        ));
    }
    if let Some(index) = phases.iter().position(|p| p.name == name) {
        return Ok(index as u8);
    }
    let last = &phases[phases.len() - 1];
    let last_ends = last.end != PhaseEnd::Never;
    match (name, last_ends) {
        ("-", true) => Ok(phases.len() as u8),
        ("-", false) => Err(format!(
            "{word}: the last phase, `{}`, lasts until the game ends",
            last.name
        )),
        _ => {
            let names: Vec<&str> = phases.iter().map(|p| p.name.as_str()).collect();
            let over = if last_ends {
                ", or `-` once they are over"
            } else {
                ""
            };
            Err(format!(
                "{word}: this game's phases are {}{over}",
                names.join(", ")
            ))
        }
    }
}

/// A piece letter as written for its player: with two players, capitals for the first and
/// lower case for the second; with more, the player's colour letter before the capital.
pub fn written(rules: &Ruleset, letter: &str, player: usize) -> String {
    match (coloured(rules), player) {
        (true, _) => format!("{}{}", colour(rules, player), letter.to_uppercase()),
        (false, 0) => letter.to_uppercase(),
        (false, _) => letter.to_lowercase(),
    }
}

/// Whether pieces are written with a colour letter: games of more than two players.
fn coloured(rules: &Ruleset) -> bool {
    rules.players.count() > 2
}

/// The letter naming a player in positions of more than two players.
pub(super) fn colour(rules: &Ruleset, player: usize) -> char {
    let name = &rules.players.names[player];
    name.chars().next().map_or('?', |c| c.to_ascii_lowercase())
}

/// The player a colour letter names.
fn player_of(rules: &Ruleset, letter: u8) -> Option<usize> {
    (0..rules.players.count()).find(|&p| colour(rules, p) == letter as char)
}

fn board_text(rules: &Ruleset, board: &[Code]) -> String {
    let geometry = &rules.geometry;
    let mut ranks = Vec::new();
    for rank in (0..geometry.height as i32).rev() {
        let mut text = String::new();
        let mut empty = 0;
        for file in 0..geometry.width as i32 {
            let sq = geometry.at(file, rank);
            if sq == NO_SQUARE {
                continue;
            }
            let code = board[sq as usize];
            if code == EMPTY {
                empty += 1;
                continue;
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
                empty = 0;
            }
            text.push_str(&piece_text(rules, code));
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        ranks.push(text);
    }
    ranks.join("/")
}

fn piece_text(rules: &Ruleset, code: Code) -> String {
    if code == BLOCKED {
        return "*".to_string();
    }
    let (kind, player) = rules.pieces.split(code);
    written(rules, &rules.pieces.kinds[kind].text, player)
}

/// The castling rights, then the open gates that no written right already stands for, each
/// player's together.
fn castling_text(rules: &Ruleset, setup: &Setup) -> String {
    let held = (rules.castling.rights.iter().enumerate())
        .filter(|(bit, _)| setup.castling & (1 << bit) != 0)
        .map(|(_, right)| right);
    let mut rights: Vec<(usize, bool, String)> = held
        .clone()
        .map(|right| {
            let text = written(rules, &right_letters(rules, right), right.player);
            (right.player, !right.kingside, text)
        })
        .collect();
    rights.sort();
    // Rights that share their pieces' squares are gained and lost together: written once.
    rights.dedup();
    let implied: Vec<Sq> = held.flat_map(|r| [r.king_from, r.rook_from]).collect();
    let mut gates: Vec<(usize, bool, String)> = (setup.gates.iter())
        .filter(|sq| !implied.contains(sq))
        .map(|&sq| {
            let player = rules.pieces.split(setup.board[sq as usize]).1;
            (
                player,
                true,
                written(rules, &gate_letters(rules, sq, player), player),
            )
        })
        .collect();
    gates.sort();
    rights.extend(gates);
    rights.sort_by_key(|&(player, _, _)| player);
    match rights.is_empty() {
        true => "-".to_string(),
        false => rights.into_iter().map(|(_, _, text)| text).collect(),
    }
}

/// How an open gate is written: its file, with the rank too where the file has another square
/// that could be a gate of the same player.
fn gate_letters(rules: &Ruleset, sq: Sq, player: usize) -> String {
    let (file, rank) = rules.geometry.coords[sq as usize];
    let zones = rules.turns.gate_zones();
    let others = (0..rules.geometry.squares() as Sq).filter(|&other| {
        other != sq
            && rules.geometry.coords[other as usize].0 == file
            && TurnTables::gate_square(&zones, &rules.zones, player, other)
    });
    let letter = char::from(b'A' + file);
    // `K` and `Q` alone are castling sides.
    match others.count() == 0 && !matches!(letter, 'K' | 'Q') {
        true => letter.to_string(),
        false => format!("{letter}{}", rank + 1),
    }
}

/// How a castling right is written: `K` or `Q` where that side names one pair of pieces of
/// its player; otherwise, as Shredder-FEN does, the partner's file (`H`), with its rank too
/// (`E8`) where the file is not enough or reads as `K` or `Q`.
fn right_letters(rules: &Ruleset, right: &CastleRight) -> String {
    let pairs = |keep: &dyn Fn(&CastleRight) -> bool| {
        let mut found: Vec<(Sq, Sq)> = rules
            .castling
            .rights
            .iter()
            .filter(|r| r.player == right.player && keep(r))
            .map(|r| (r.king_from, r.rook_from))
            .collect();
        found.sort();
        found.dedup();
        found.len()
    };
    if pairs(&|r| r.kingside == right.kingside) == 1 {
        return if right.kingside { "K" } else { "Q" }.to_string();
    }
    let (file, rank) = rules.geometry.coords[right.rook_from as usize];
    let file_of = |r: &CastleRight| rules.geometry.coords[r.rook_from as usize].0;
    let letter = char::from(b'A' + file);
    match pairs(&|r| file_of(r) == file) == 1 && !matches!(letter, 'K' | 'Q') {
        true => letter.to_string(),
        false => format!("{letter}{}", rank + 1),
    }
}

/// Reads a FEN position for the rule file's game.
pub fn read<'r>(rules: &'r Ruleset, text: &str) -> Result<Position<'r>, NotationError> {
    let (setup, places) = read_setup(rules, text)?;
    Position::from_setup(rules, &setup).map_err(|problem| places.locate(problem, text))
}

/// Where a part of a position's text stands: a byte range.
type Place = (usize, usize);

/// Where the parts of a position's text stand, to point at what a problem of the position it
/// describes is about.
#[derive(Default)]
struct Places {
    board: Place,
    whole: Place,
    players_in: Place,
    /// Each castling right written: the rights it stands for, where it stands.
    castling: Vec<(u32, Place)>,
    en_passant: Place,
    swapped: Place,
    /// The first word after the move number.
    state: Place,
}

impl Places {
    fn locate(&self, problem: PositionError, text: &str) -> NotationError {
        let (start, end) = match problem.rule.field() {
            Field::Board => self.board,
            Field::Whole => self.whole,
            Field::PlayersIn => self.players_in,
            Field::Castling(bit) => {
                let (_, at) = (self.castling.iter())
                    .find(|(bits, _)| bits & (1 << bit) != 0)
                    .copied()
                    .unwrap_or((0, self.whole));
                let written = text.get(at.0..at.1).unwrap_or_default();
                let message = format!("castling right {} {}", quoted(written), problem.message);
                return NotationError::new(message, at.0, at.1);
            }
            Field::EnPassant => self.en_passant,
            Field::Swapped => self.swapped,
            Field::Phase => self.state,
        };
        NotationError::new(problem.message, start, end)
    }
}

/// Reads a FEN position into a setup, with where each of its parts stands.
fn read_setup(rules: &Ruleset, text: &str) -> Result<(Setup, Places), NotationError> {
    let words = fields(text);
    let state_start = (words.iter().position(|&(_, w)| is_state_word(w))).unwrap_or(words.len());
    let (fields, state) = words.split_at(state_start);
    // As they are written, the words of the game's state come last: one among the fields would
    // say nothing of which field it belongs with.
    if let Some(&(_, field)) = state.iter().find(|&&(_, w)| !is_state_word(w)) {
        let (start, word) = state[0];
        return Err(NotationError::new(
            format!(
                "{} stands before {}: words such as it come last, after the move number",
                quoted(word),
                quoted(field)
            ),
            start,
            start + word.len(),
        ));
    }
    let Some(&(board_start, board_field)) = fields.first() else {
        return Err(NotationError::new("empty position", 0, 0));
    };
    let mut places = Places {
        board: (board_start, board_start + board_field.len()),
        whole: (board_start, text.len()),
        ..Places::default()
    };
    let start = Setup::start(rules);
    let mut setup = Setup {
        board: vec![EMPTY; start.board.len()],
        hands: vec![0; start.hands.len()],
        castling: 0,
        ..start
    };
    let (board_part, hands_part) = split_hands(rules, board_field, board_start)?;
    read_board(rules, &mut setup.board, board_part, board_start)?;
    if let Some((start, hands)) = hands_part {
        read_hands(rules, &mut setup.hands, hands, start)?;
    }
    let mut rest = fields[1..].iter().copied();
    let side = rest
        .next()
        .ok_or_else(|| NotationError::new("the side to move is missing", text.len(), text.len()))?;
    setup.to_move = Some(read_side(rules, side)?);
    if coloured(rules) {
        let players_in = rest.next().ok_or_else(|| {
            NotationError::new(
                "the players still in the game are missing (their colour letters, such as `rbyg`)",
                text.len(),
                text.len(),
            )
        })?;
        places.players_in = (players_in.0, players_in.0 + players_in.1.len());
        setup.alive = read_players_in(rules, players_in)?;
    }
    let rest: Vec<(usize, &str)> = rest.collect();
    // Shogi-style positions give only the clocks after the side to move.
    let numeric = rest
        .first()
        .is_some_and(|(_, f)| f.bytes().all(|b| b.is_ascii_digit()));
    let (flags, clocks) = if numeric {
        (&rest[..0], &rest[..])
    } else {
        rest.split_at(rest.len().min(2))
    };
    setup.gates.clear();
    if let Some(&(start, castling)) = flags.first() {
        let field = read_castling(rules, &setup.board, castling, start)?;
        (places.castling, setup.gates) = (field.rights, field.gates);
        setup.castling = places.castling.iter().fold(0, |bits, (b, _)| bits | b);
    }
    if let Some(&(start, ep)) = flags.get(1) {
        places.en_passant = (start, start + ep.len());
        setup.en_passant = read_ep(rules, ep, start)?;
    }
    read_clocks(&mut setup, clocks, text.len())?;
    read_state(rules, &mut setup, &mut places, state)?;
    Ok((setup, places))
}

/// The player to move: `w` or `b` with two players, a colour letter with more.
fn read_side(rules: &Ruleset, (start, side): Located<'_>) -> Result<usize, NotationError> {
    let player = match (coloured(rules), side) {
        (false, "w") => Some(0),
        (false, "b") => Some(1),
        (true, _) if side.len() == 1 => player_of(rules, side.as_bytes()[0]),
        _ => None,
    };
    player.ok_or_else(|| {
        let expected = match coloured(rules) {
            true => format!("one of the colour letters {}", colour_letters(rules)),
            false => "`w` or `b`".to_string(),
        };
        NotationError::new(
            format!("the side to move is {expected}"),
            start,
            start + side.len(),
        )
    })
}

/// Every colour letter, in turn order.
fn colour_letters(rules: &Ruleset) -> String {
    (0..rules.players.count())
        .map(|p| colour(rules, p))
        .collect()
}

/// The players still in the game, by colour letter.
fn read_players_in(rules: &Ruleset, (start, text): Located<'_>) -> Result<u32, NotationError> {
    let mut alive = 0u32;
    for (i, c) in text.char_indices() {
        let error = |m: String| NotationError::new(m, start + i, start + i + c.len_utf8());
        let player = u8::try_from(c)
            .ok()
            .and_then(|b| player_of(rules, b))
            .ok_or_else(|| {
                error(format!(
                    "{} names no player: the players are {}",
                    quoted(&c.to_string()),
                    colour_letters(rules)
                ))
            })?;
        if alive & (1 << player) != 0 {
            return Err(error(format!("{} is given twice", quoted(&c.to_string()))));
        }
        alive |= 1 << player;
    }
    Ok(alive)
}

fn fields(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut offset = 0;
    for word in text.split_whitespace() {
        let start = offset + text[offset..].find(word).expect("word of the text");
        offset = start + word.len();
        out.push((start, word));
    }
    out
}

type Located<'a> = (usize, &'a str);

/// Separates pieces in hand, `[..]` or an extra rank, from the board.
fn split_hands<'a>(
    rules: &Ruleset,
    field: &'a str,
    start: usize,
) -> Result<(&'a str, Option<Located<'a>>), NotationError> {
    if let Some(open) = field.find('[') {
        let close = field.len() - 1;
        if !field.ends_with(']') || close < open {
            return Err(NotationError::new(
                "pieces in hand end with `]`",
                start + open,
                start + field.len(),
            ));
        }
        return Ok((
            &field[..open],
            Some((start + open + 1, &field[open + 1..close])),
        ));
    }
    let ranks = field.split('/').count();
    if ranks == rules.geometry.height as usize + 1 {
        let cut = field.rfind('/').expect("more than one rank");
        return Ok((&field[..cut], Some((start + cut + 1, &field[cut + 1..]))));
    }
    Ok((field, None))
}

fn read_board(
    rules: &Ruleset,
    board: &mut [Code],
    field: &str,
    start: usize,
) -> Result<(), NotationError> {
    let geometry = &rules.geometry;
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != geometry.height as usize {
        return Err(NotationError::new(
            format!(
                "{} ranks given for a board {} ranks tall",
                ranks.len(),
                geometry.height
            ),
            start,
            start + field.len(),
        ));
    }
    let mut offset = start;
    for (row, text) in ranks.iter().enumerate() {
        let rank = geometry.height as i32 - 1 - row as i32;
        let squares: Vec<Sq> = (0..geometry.width as i32)
            .map(|f| geometry.at(f, rank))
            .filter(|&s| s != NO_SQUARE)
            .collect();
        let codes = without_written_holes(rules, rank, rank_codes(rules, text, offset)?);
        if codes.len() != squares.len() {
            return Err(NotationError::new(
                format!(
                    "rank {} has {} squares, and {} are given",
                    rank + 1,
                    squares.len(),
                    codes.len()
                ),
                offset,
                offset + text.len(),
            ));
        }
        for (&sq, code) in squares.iter().zip(codes) {
            board[sq as usize] = code;
        }
        offset += text.len() + 1;
    }
    Ok(())
}

/// A rank written square by square over the whole width, with `*` on each hole, as
/// Fairy-Stockfish writes boards with holes, becomes the codes of its squares alone; any other
/// rank is left as it is.
fn without_written_holes(rules: &Ruleset, rank: i32, codes: Vec<Code>) -> Vec<Code> {
    let geometry = &rules.geometry;
    let files: Vec<Sq> = (0..geometry.width as i32)
        .map(|f| geometry.at(f, rank))
        .collect();
    let holes = files.iter().filter(|&&sq| sq == NO_SQUARE).count();
    let every_hole_starred = files
        .iter()
        .zip(&codes)
        .all(|(&sq, &code)| sq != NO_SQUARE || code == BLOCKED);
    if holes == 0 || codes.len() != files.len() || !every_hole_starred {
        return codes;
    }
    files
        .iter()
        .zip(codes)
        .filter(|&(&sq, _)| sq != NO_SQUARE)
        .map(|(_, code)| code)
        .collect()
}

/// The codes of one rank's text, one per square.
fn rank_codes(rules: &Ruleset, text: &str, offset: usize) -> Result<Vec<Code>, NotationError> {
    let mut codes = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        if bytes[i].is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let run: usize = text[start..i].parse().unwrap_or(usize::MAX);
            if run > 26 || run == 0 {
                return Err(NotationError::new(
                    "a run of empty squares is 1 to 26",
                    offset + start,
                    offset + i,
                ));
            }
            codes.extend(std::iter::repeat_n(EMPTY, run));
            continue;
        }
        if bytes[i] == b'*' {
            codes.push(BLOCKED);
            i += 1;
            continue;
        }
        let token = read_token(rules, text, i);
        i = token.end;
        let code = token
            .letter
            .and_then(|letter| piece_code(rules, letter, token.player, token.plus, token.marked))
            .ok_or_else(|| {
                let message = match token.letter {
                    Some(_) => format!("no piece is written {}", quoted(&text[start..i])),
                    None => format!("expected {}, a digit or `*`", piece_form(rules)),
                };
                NotationError::new(message, offset + start, offset + i)
            })?;
        codes.push(code);
    }
    Ok(codes)
}

/// One written piece: its player, `+`, its letter (upper case) and `~`, and where it ends.
struct Token {
    player: usize,
    plus: bool,
    letter: Option<u8>,
    marked: bool,
    end: usize,
}

/// Reads the piece written at `text[at..]`: with two players the letter's case gives the
/// player, with more a colour letter comes first. Without a letter, `end` is past the first
/// character that cannot be read.
fn read_token(rules: &Ruleset, text: &str, at: usize) -> Token {
    let bytes = text.as_bytes();
    let unreadable = |i: usize| Token {
        player: 0,
        plus: false,
        letter: None,
        marked: false,
        end: text.ceil_char_boundary(i + 1),
    };
    let mut i = at;
    let mut player = None;
    if coloured(rules) {
        match bytes.get(i).and_then(|&b| player_of(rules, b)) {
            Some(p) => player = Some(p),
            None => return unreadable(i),
        }
        i += 1;
    }
    let plus = bytes.get(i) == Some(&b'+');
    i += usize::from(plus);
    let Some(letter) = bytes.get(i).copied().filter(u8::is_ascii_alphabetic) else {
        return unreadable(i);
    };
    i += 1;
    let marked = bytes.get(i) == Some(&b'~');
    Token {
        player: player.unwrap_or(usize::from(letter.is_ascii_lowercase())),
        plus,
        letter: Some(letter.to_ascii_uppercase()),
        marked,
        end: i + usize::from(marked),
    }
}

/// How a piece is written, for messages.
fn piece_form(rules: &Ruleset) -> String {
    match coloured(rules) {
        true => format!(
            "a piece (a colour letter of {} and a piece letter, such as `{}`)",
            colour_letters(rules),
            written(rules, &rules.pieces.kinds[0].letter, 0)
        ),
        false => "a piece letter".to_string(),
    }
}

/// The code of a written piece (`N`, `+P`, `Q~`: see [`crate::compile::Kind::text`]). A `~`
/// on a piece that has no promoted form so written is read as the piece.
fn piece_code(
    rules: &Ruleset,
    letter: u8,
    player: usize,
    plus: bool,
    marked: bool,
) -> Option<Code> {
    let plain = format!("{}{}", if plus { "+" } else { "" }, letter as char);
    let lettered = |text: &str| rules.pieces.kinds.iter().position(|k| k.text == text);
    let kind = match marked {
        true => lettered(&format!("{plain}~")).or_else(|| lettered(&plain)),
        false => lettered(&plain),
    }?;
    Some(rules.pieces.code(kind, player))
}

fn read_hands(
    rules: &Ruleset,
    hands: &mut [u8],
    text: &str,
    start: usize,
) -> Result<(), NotationError> {
    if text == "-" || text.is_empty() {
        return Ok(());
    }
    // Where nothing ever goes to hand, an extra rank is a mistake, not a hand.
    if !rules.derived.hands {
        let message = "no piece is ever in hand in this game: the board has one rank too many, or the pieces in hand should be left out";
        return Err(NotationError::new(
            message.to_string(),
            start,
            start + text.len(),
        ));
    }
    let mut i = 0;
    while i < text.len() {
        let token = read_token(rules, text, i);
        let error = |message: String| NotationError::new(message, start + i, start + token.end);
        let kind = token
            .letter
            .and_then(|letter| piece_code(rules, letter, token.player, token.plus, false))
            .map(|code| rules.pieces.split(code).0)
            .filter(|&kind| !rules.pieces.kinds[kind].promoted && !token.marked)
            .ok_or_else(|| {
                error(format!(
                    "no piece in hand is written {}",
                    quoted(&text[i..token.end])
                ))
            })?;
        let slot = token.player * rules.pieces.kinds.len() + kind;
        hands[slot] = hands[slot]
            .checked_add(1)
            .ok_or_else(|| error("at most 255 pieces of a kind can be in hand".to_string()))?;
        i = token.end;
    }
    Ok(())
}

/// The castling rights written, each as the rights it stands for with where it stands; and the
/// open gates, which in a game with gates the same field lists: those of each castling right's
/// two pieces, and by file (with the rank where the file has several) those of other pieces.
fn read_castling(
    rules: &Ruleset,
    board: &[Code],
    text: &str,
    start: usize,
) -> Result<CastlingField, NotationError> {
    let mut rights = Vec::new();
    let mut gates = Vec::new();
    if text == "-" {
        return Ok(CastlingField { rights, gates });
    }
    let gate_zones = rules.turns.gate_zones();
    let gate = |player: usize, sq: Sq| {
        TurnTables::gate_square(&gate_zones, &rules.zones, player, sq)
            && owned_by(board, rules, sq, player)
    };
    let mut i = 0;
    while i < text.len() {
        let token = read_token(rules, text, i);
        let digits = text[token.end..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        let end = token.end + digits;
        let written = &text[i..end];
        let error = |m: String| NotationError::new(m, start + i, start + end);
        let rank: Option<u32> = match digits {
            0 => None,
            _ => text[token.end..end].parse().ok(),
        };
        let Some(letter) = token.letter.filter(|_| !token.plus && !token.marked) else {
            let example = match coloured(rules) {
                true => "rK, rQ, rH",
                false => "KQkq, or a partner's file such as Hh",
            };
            return Err(error(format!(
                "{} is not a castling right ({example})",
                quoted(written)
            )));
        };
        // Each right with its bit.
        let of_player =
            || (rules.castling.rights.iter().enumerate()).filter(|(_, r)| r.player == token.player);
        let by_side = |kingside: bool| -> Vec<(usize, &CastleRight)> {
            of_player()
                .filter(|(_, r)| r.kingside == kingside)
                .collect()
        };
        let by_partner = || -> Vec<(usize, &CastleRight)> {
            of_player()
                .filter(|(_, r)| {
                    let (file, r_rank) = rules.geometry.coords[r.rook_from as usize];
                    u32::from(b'A') + file as u32 == u32::from(letter)
                        && rank.is_none_or(|rank| r_rank as u32 + 1 == rank)
                })
                .collect()
        };
        let side = match (letter, rank) {
            (b'K', None) => Some(by_side(true)),
            (b'Q', None) => Some(by_side(false)),
            _ => None,
        };
        let side_names_several = side.as_ref().is_some_and(|rights| !one_pair(rights));
        let mut chosen = side
            .filter(|rights| one_pair(rights))
            .unwrap_or_else(by_partner);
        if chosen.is_empty() && side_names_several {
            chosen = by_side(letter == b'K');
        }
        chosen.sort_by_key(|(_, r)| (r.king_from, r.rook_from));
        chosen.dedup_by_key(|(_, r)| (r.king_from, r.rook_from));
        let on_file = (0..board.len() as Sq).filter(|&sq| {
            let (file, r_rank) = rules.geometry.coords[sq as usize];
            u32::from(b'A') + file as u32 == u32::from(letter)
                && rank.is_none_or(|rank| r_rank as u32 + 1 == rank)
                && gate(token.player, sq)
        });
        // In a game with gates, a letter that names a gate is one, unless it is `K` or `Q`: as
        // in Fairy-Stockfish, castling rights there are written by side only.
        let by_side_letter = matches!((letter, rank), (b'K' | b'Q', None));
        if !by_side_letter && on_file.clone().next().is_some() {
            gates.extend(on_file);
            i = end;
            continue;
        }
        let bit = match chosen[..] {
            [(bit, _)] => bit,
            [] => {
                return Err(error(format!(
                    "this game has no castling right {}",
                    quoted(written)
                )));
            }
            _ => {
                return Err(error(format!(
                    "castling right {} could be several: name the partner's file, or its square (`H1`)",
                    quoted(written)
                )));
            }
        };
        let bits = rules.castling.same_pieces(bit);
        rights.push((bits, (start + i, start + end)));
        let right = &rules.castling.rights[bit];
        let owner = right.player;
        gates.extend(
            [right.king_from, right.rook_from]
                .into_iter()
                .filter(|&sq| gate(owner, sq)),
        );
        i = end;
    }
    gates.sort_unstable();
    gates.dedup();
    Ok(CastlingField { rights, gates })
}

/// Whether a piece of `player` stands on `sq`.
fn owned_by(board: &[Code], rules: &Ruleset, sq: Sq, player: usize) -> bool {
    let code = board[sq as usize];
    code != EMPTY && code != BLOCKED && rules.pieces.split(code).1 == player
}

/// What the castling field of a position says.
struct CastlingField {
    /// Each castling right written: the rights it stands for, where it stands.
    rights: Vec<(u32, Place)>,
    /// The open gates.
    gates: Vec<Sq>,
}

/// Whether the rights all move the same pair of pieces.
fn one_pair(rights: &[(usize, &CastleRight)]) -> bool {
    let pieces = |(_, r): &(usize, &CastleRight)| (r.king_from, r.rook_from);
    rights.windows(2).all(|w| pieces(&w[0]) == pieces(&w[1])) && !rights.is_empty()
}

/// Reads the en passant field: the square passed, and where the piece that passed it stands
/// when given (in either order, as Fairy-Stockfish writes the two in board order).
fn read_ep(
    rules: &Ruleset,
    text: &str,
    start: usize,
) -> Result<Option<(Sq, Option<Sq>)>, NotationError> {
    if text == "-" {
        return Ok(None);
    }
    let error = |m: &str| NotationError::new(m, start, start + text.len());
    // A second square, where the piece that passed stands, starts at the second letter.
    let split = text
        .char_indices()
        .skip(1)
        .find(|(_, c)| c.is_ascii_alphabetic())
        .map_or(text.len(), |(i, _)| i);
    let square = |t: &str| {
        rules
            .geometry
            .parse(t)
            .ok_or_else(|| error("not a square of this board"))
    };
    let first = square(&text[..split])?;
    let second = (split < text.len())
        .then(|| square(&text[split..]))
        .transpose()?;
    Ok(Some((first, second)))
}

fn read_clocks(
    setup: &mut Setup,
    clocks: &[(usize, &str)],
    end: usize,
) -> Result<(), NotationError> {
    if clocks.len() > 2 {
        let (start, _) = clocks[2];
        return Err(NotationError::new(
            "unexpected text after the move number",
            start,
            end,
        ));
    }
    let number = |&(start, text): &(usize, &str)| {
        text.parse::<u32>()
            .map_err(|_| NotationError::new("expected a number", start, start + text.len()))
    };
    if let Some(field) = clocks.first() {
        setup.halfmove = number(field)?;
    }
    if let Some(field) = clocks.get(1) {
        setup.fullmove = number(field)?.max(1);
    }
    Ok(())
}
