//! Positions as FEN, as Fairy-Stockfish reads and writes them for two-player games: ranks from
//! the top, digits for empty squares, `*` for blocked squares, `+X` for shogi-style promoted
//! pieces and `X~` for other promoted pieces where captures go to hand, pieces in hand in
//! brackets after the board, then side to move, castling (`KQkq`), en passant, the half-move
//! clock and the move number. On boards with holes, each rank lists only its squares.
//!
//! Games played in phases add words after the move number, so that any position can be
//! written and read back: `phase=NAME` (the phase being played; `-` once the last has
//! ended), `turns=N,N` (each player's turns played in that phase, which periodic turns
//! follow), `swapped` once the pie choice has exchanged the players' colours, and `NAME=N,N`
//! for each counter of the game.

use super::NotationError;
use crate::compile::{BLOCKED, Code, EMPTY, NO_SQUARE, Ruleset, Sq};
use crate::engine::Position;

/// Writes a position as FEN.
pub fn write(position: &mut Position<'_>) -> String {
    let rules = position.rules;
    let mut out = board_text(position);
    if has_hands(rules) {
        out.push('[');
        for player in 0..2 {
            for (kind, info) in rules.kinds.iter().enumerate() {
                let count = position.hands[position.hand_slot(player, kind)];
                out.push_str(&cased(&info.letter, player).repeat(count as usize));
            }
        }
        out.push(']');
    }
    out.push_str(if position.to_move == 0 { " w " } else { " b " });
    out.push_str(&castling_text(position));
    out.push(' ');
    // The square is open only when some piece could take it, as Fairy-Stockfish shows it.
    match position.ep != NO_SQUARE {
        true => out.push_str(&rules.geometry.name(position.ep)),
        false => out.push('-'),
    }
    out.push_str(&format!(" {} {}", position.halfmove, position.fullmove));
    for word in state_words(position) {
        out.push(' ');
        out.push_str(&word);
    }
    out
}

/// The words after the move number, for games that need them.
fn state_words(position: &Position<'_>) -> Vec<String> {
    let rules = position.rules;
    let mut words = Vec::new();
    if rules.phases.len() > 1 {
        let name = position.current_phase().map_or("-", |p| &p.name);
        words.push(format!("phase={name}"));
    }
    if rules.counts_turns {
        let counts: Vec<String> = position.phase_turns.iter().map(u32::to_string).collect();
        words.push(format!("turns={}", counts.join(",")));
    }
    if position.swapped {
        words.push("swapped".to_string());
    }
    for (index, counter) in rules.counters.iter().enumerate() {
        let values: Vec<String> = (0..rules.players())
            .map(|p| position.counter(p, index).to_string())
            .collect();
        words.push(format!("{}={}", counter.name, values.join(",")));
    }
    words
}

/// A word after the move number: no standard FEN field holds `=`.
fn is_state_word(word: &str) -> bool {
    word == "swapped" || word.contains('=')
}

/// One number per player, separated by commas.
fn per_player<T: std::str::FromStr>(list: &str, players: usize) -> Option<Vec<T>> {
    let values: Option<Vec<T>> = list.split(',').map(|n| n.parse().ok()).collect();
    values.filter(|v| v.len() == players)
}

/// Reads `NAME=N,N`: a counter's value for each player.
fn read_counter(position: &mut Position<'_>, word: &str) -> Result<(), String> {
    let rules = position.rules;
    let (name, list) = word.split_once('=').unwrap_or((word, ""));
    let Some(index) = rules.counters.iter().position(|c| c.name == name) else {
        let mut known = vec!["phase", "turns"];
        known.extend(rules.counters.iter().map(|c| c.name.as_str()));
        return Err(format!(
            "`{name}` is not a word of this game's positions (they are {})",
            known.join(", ")
        ));
    };
    let values: Vec<u16> = per_player(list, rules.players()).ok_or_else(|| {
        format!(
            "`{name}=` gives the counter for each player: {} numbers",
            rules.players()
        )
    })?;
    let counters = rules.counters.len();
    for (player, value) in values.into_iter().enumerate() {
        position.counters[player * counters + index] = value;
    }
    Ok(())
}

/// Reads the words after the move number, then checks that the player to move may move.
fn read_state(position: &mut Position<'_>, words: &[Located<'_>]) -> Result<(), NotationError> {
    let rules = position.rules;
    let mut phase_given = false;
    for &(start, word) in words {
        let error = |message: String| NotationError::new(message, start, start + word.len());
        if word == "swapped" {
            if !rules.has_pie() {
                return Err(error(
                    "this game has no pie choice to swap colours".to_string(),
                ));
            }
            position.swapped = true;
        } else if let Some(name) = word.strip_prefix("phase=") {
            let names: Vec<&str> = rules.phases.iter().map(|p| p.name.as_str()).collect();
            position.phase = match names.iter().position(|n| *n == name) {
                Some(index) => index as u8,
                None if name == "-" => names.len() as u8,
                None => {
                    return Err(error(format!(
                        "this game's phases are {}, or `-` once they are over",
                        names.join(", ")
                    )));
                }
            };
            phase_given = true;
        } else if let Some(list) = word.strip_prefix("turns=") {
            position.phase_turns = per_player(list, rules.players()).ok_or_else(|| {
                error(format!(
                    "`turns=` gives each player's turns in the phase: {} numbers, such as `turns=0,0`",
                    rules.players()
                ))
            })?;
        } else {
            read_counter(position, word).map_err(error)?;
        }
    }
    if !phase_given {
        position.settle_phase();
    }
    if let Some(phase) = position.current_phase()
        && !position.may_move(position.to_move)
    {
        let (start, word) = words.first().copied().unwrap_or((0, ""));
        return Err(NotationError::new(
            format!(
                "{} has no turn to play in phase `{}`",
                rules.player_names[position.to_move], phase.name
            ),
            start,
            start + word.len(),
        ));
    }
    Ok(())
}

fn has_hands(rules: &Ruleset) -> bool {
    rules.capture_to_hand || rules.start_hands.iter().any(|&n| n > 0)
}

/// A piece letter as written for its player: capitals for the first, lower case for the second.
pub(super) fn cased(letter: &str, player: usize) -> String {
    if player == 0 {
        letter.to_uppercase()
    } else {
        letter.to_lowercase()
    }
}

fn board_text(position: &Position<'_>) -> String {
    let rules = position.rules;
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
            let code = position.board[sq as usize];
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
    let (kind, player) = rules.split(code);
    let info = &rules.kinds[kind];
    let mut text = cased(&info.letter, player);
    if info.promoted && !info.letter.starts_with('+') && rules.capture_to_hand {
        text.push('~');
    }
    text
}

fn castling_text(position: &Position<'_>) -> String {
    let mut rights: Vec<(usize, bool, char)> = position
        .rules
        .castles
        .iter()
        .enumerate()
        .filter(|(bit, _)| position.castling & (1 << bit) != 0)
        .map(|(_, right)| {
            let letter = if right.kingside { 'K' } else { 'Q' };
            let letter = if right.player == 0 {
                letter
            } else {
                letter.to_ascii_lowercase()
            };
            (right.player, !right.kingside, letter)
        })
        .collect();
    rights.sort();
    match rights.is_empty() {
        true => "-".to_string(),
        false => rights.into_iter().map(|(_, _, c)| c).collect(),
    }
}

/// Reads a FEN position for the rule file's game.
pub fn read<'r>(rules: &'r Ruleset, text: &str) -> Result<Position<'r>, NotationError> {
    if rules.players() != 2 {
        return Err(NotationError::new(
            "positions of games with more than two players cannot be written as FEN yet",
            0,
            text.len(),
        ));
    }
    let (state, fields): (Vec<Located<'_>>, Vec<Located<'_>>) = fields(text)
        .into_iter()
        .partition(|(_, w)| is_state_word(w));
    let Some(&(board_start, board_field)) = fields.first() else {
        return Err(NotationError::new("empty position", 0, 0));
    };
    let mut position = Position::start(rules);
    position.hands.iter_mut().for_each(|h| *h = 0);
    position.castling = 0;
    position.phase = 0;
    let (board_part, hands_part) = split_hands(rules, board_field, board_start)?;
    read_board(&mut position, board_part, board_start)?;
    if let Some((start, hands)) = hands_part {
        read_hands(&mut position, hands, start)?;
    }
    let mut rest = fields[1..].iter().copied();
    let (side_start, side) = rest
        .next()
        .ok_or_else(|| NotationError::new("the side to move is missing", text.len(), text.len()))?;
    position.to_move = match side {
        "w" => 0,
        "b" => 1,
        _ => {
            return Err(NotationError::new(
                "the side to move is `w` or `b`",
                side_start,
                side_start + side.len(),
            ));
        }
    };
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
    if let Some(&(start, castling)) = flags.first() {
        read_castling(&mut position, castling, start)?;
    }
    if let Some(&(start, ep)) = flags.get(1) {
        read_ep(&mut position, ep, start)?;
    }
    read_clocks(&mut position, clocks, text.len())?;
    read_state(&mut position, &state)?;
    // A piece counts as unmoved where the start position has the same piece.
    for (sq, unmoved) in position.unmoved.iter_mut().enumerate() {
        let code = position.board[sq];
        *unmoved = code != EMPTY && code == rules.start_board[sq];
    }
    position.refresh();
    Ok(position)
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

fn read_board(position: &mut Position<'_>, field: &str, start: usize) -> Result<(), NotationError> {
    let rules = position.rules;
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
        let codes = rank_codes(rules, text, offset)?;
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
            position.board[sq as usize] = code;
        }
        offset += text.len() + 1;
    }
    Ok(())
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
        let plus = bytes[i] == b'+';
        i += usize::from(plus);
        let Some(&letter) = bytes.get(i).filter(|b| b.is_ascii_alphabetic()) else {
            let end = (start + 1).min(text.len()).max(i + 1).min(text.len());
            return Err(NotationError::new(
                "expected a piece letter, a digit or `*`",
                offset + start,
                offset + end,
            ));
        };
        i += 1;
        let marked = bytes.get(i) == Some(&b'~');
        i += usize::from(marked);
        let code = piece_code(rules, letter, plus, marked).ok_or_else(|| {
            NotationError::new(
                format!("no piece is written `{}`", &text[start..i]),
                offset + start,
                offset + i,
            )
        })?;
        codes.push(code);
    }
    Ok(codes)
}

/// The code of a written piece: upper case for the first player, lower for the second.
fn piece_code(rules: &Ruleset, letter: u8, plus: bool, marked: bool) -> Option<Code> {
    let player = usize::from(letter.is_ascii_lowercase());
    let wanted = format!(
        "{}{}",
        if plus { "+" } else { "" },
        letter.to_ascii_uppercase() as char
    );
    let mut candidates = rules
        .kinds
        .iter()
        .enumerate()
        .filter(|(_, k)| k.letter == wanted);
    let kind = if plus || marked {
        // A promoted piece: prefer the kind that remembers what it was promoted from.
        let all: Vec<_> = candidates.collect();
        all.iter()
            .find(|(_, k)| k.promoted)
            .or(all.first())
            .map(|(i, _)| *i)?
    } else {
        candidates.find(|(_, k)| !k.promoted).map(|(i, _)| i)?
    };
    Some(rules.code(kind, player))
}

fn read_hands(position: &mut Position<'_>, text: &str, start: usize) -> Result<(), NotationError> {
    if text == "-" {
        return Ok(());
    }
    let rules = position.rules;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let at = i;
        let plus = bytes[i] == b'+';
        i += usize::from(plus);
        let letter = bytes.get(i).copied().filter(u8::is_ascii_alphabetic);
        i += 1;
        let end = text.ceil_char_boundary(i.min(text.len()));
        let error = |message: String| NotationError::new(message, start + at, start + end);
        let wanted = letter.map(|l| {
            format!(
                "{}{}",
                if plus { "+" } else { "" },
                l.to_ascii_uppercase() as char
            )
        });
        let kind = wanted
            .as_ref()
            .and_then(|w| {
                rules
                    .kinds
                    .iter()
                    .position(|k| k.letter == *w && !k.promoted)
            })
            .ok_or_else(|| error(format!("no piece in hand is written `{}`", &text[at..end])))?;
        let player = usize::from(letter.is_some_and(|l| l.is_ascii_lowercase()));
        let slot = position.hand_slot(player, kind);
        position.hands[slot] = position.hands[slot]
            .checked_add(1)
            .ok_or_else(|| error("at most 255 pieces of a kind can be in hand".to_string()))?;
        i = end;
    }
    Ok(())
}

fn read_castling(
    position: &mut Position<'_>,
    text: &str,
    start: usize,
) -> Result<(), NotationError> {
    if text == "-" {
        return Ok(());
    }
    let rules = position.rules;
    for (i, c) in text.char_indices() {
        let at = (start + i, start + i + c.len_utf8());
        let player = usize::from(c.is_ascii_lowercase());
        let kingside = match c.to_ascii_uppercase() {
            'K' => true,
            'Q' => false,
            _ => {
                return Err(NotationError::new(
                    format!("`{c}` is not a castling right (KQkq)"),
                    at.0,
                    at.1,
                ));
            }
        };
        let found = rules
            .castles
            .iter()
            .enumerate()
            .find(|(_, r)| r.player == player && r.kingside == kingside);
        let Some((bit, right)) = found else {
            return Err(NotationError::new(
                format!("this game has no castling right `{c}`"),
                at.0,
                at.1,
            ));
        };
        let in_place = |sq: Sq| rules.start_board[sq as usize] == position.board[sq as usize];
        if !in_place(right.king_from) || !in_place(right.rook_from) {
            return Err(NotationError::new(
                format!("castling right `{c}` needs its pieces on their start squares"),
                at.0,
                at.1,
            ));
        }
        position.castling |= 1 << bit;
    }
    Ok(())
}

fn read_ep(position: &mut Position<'_>, text: &str, start: usize) -> Result<(), NotationError> {
    if text == "-" {
        return Ok(());
    }
    let rules = position.rules;
    let geometry = &rules.geometry;
    let error = |m: &str| NotationError::new(m, start, start + text.len());
    let sq = geometry
        .parse(text)
        .ok_or_else(|| error("not a square of this board"))?;
    // The piece that passed stands one step beyond, in the direction its owner moves.
    let mover = (position.to_move + rules.players() - 1) % rules.players();
    let (dx, dy) = crate::compile::pieces_forward(rules.forward[mover]);
    let (f, r) = geometry.coords[sq as usize];
    let victim = geometry.at(f as i32 + dx, r as i32 + dy);
    let owner = (victim != NO_SQUARE)
        .then(|| position.piece(position.board[victim as usize]))
        .flatten();
    if position.board[sq as usize] != EMPTY || owner.is_none_or(|(_, p)| p != mover) {
        return Err(error("no piece can have just passed this square"));
    }
    // A square no piece can take is dropped, as after a move.
    if position.can_take_en_passant(sq, position.to_move) {
        position.ep = sq;
        position.ep_victim = victim;
        position.ep_player = position.to_move as u8;
    }
    Ok(())
}

fn read_clocks(
    position: &mut Position<'_>,
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
        position.halfmove = number(field)?;
    }
    if let Some(field) = clocks.get(1) {
        position.fullmove = number(field)?.max(1);
    }
    Ok(())
}
