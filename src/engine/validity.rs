//! The rules of a valid position, in one place: [`Position::from_setup`] judges a setup by
//! them (a position's text, or the rule file's start), and [`Position::setup`] writes a
//! position down again.

use super::position::Position;
use super::setup::Setup;
use crate::compile::{BLOCKED, Code, EMPTY, EndCondition, NO_SQUARE, Ruleset, Sq};
use crate::geometry::forward_vector;

/// Why a setup is not a position of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    pub rule: PositionRule,
    /// The player whose pieces it is about, if one.
    pub player: Option<usize>,
    pub message: String,
}

/// The rule of a valid position that a setup breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionRule {
    /// Its parts do not fit the game: a board of another size, a code that is no piece, a
    /// player, phase, counter or castling right that does not exist, move number 0.
    Malformed,
    /// The player to move is out of the game.
    MoverOut,
    /// A player out of the game still has pieces.
    OutWithPieces,
    /// A player is out of a game that takes no one out.
    NoOneOut,
    /// Pieces in hand in a game where nothing ever goes to hand.
    HandWithoutHands,
    /// A promoted form in hand: pieces go to hand as what they were.
    PromotedInHand,
    /// A castling right, by its bit, whose pieces are not on their start squares.
    CastlingPiecesMoved(usize),
    /// A castling right, by its bit, without the other rights of the same two pieces, which are
    /// gained and lost together.
    CastlingRightsApart(usize),
    /// More than one piece could have passed the en passant square.
    EnPassantAmbiguous,
    /// No piece can have just passed the en passant square.
    EnPassantImpossible,
    /// The colours are swapped in a game without the pie choice.
    SwapWithoutPie,
    /// The player to move has no turn to play in the phase.
    NoTurnInPhase,
    /// A player lacks the royal piece every position of the game has.
    NoRoyal,
    /// A player has more royal pieces than the game gives.
    TooManyRoyals,
    /// The player to move attacks a royal piece the other player has left.
    RoyalLeftAttacked,
}

/// Which part of a setup a broken rule is about, so that a reader of position text can point
/// at it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// The pieces on the board and in hand.
    Board,
    /// The position as a whole.
    Whole,
    PlayersIn,
    /// One castling right, by its bit.
    Castling(usize),
    EnPassant,
    Swapped,
    Phase,
}

impl PositionRule {
    pub fn field(self) -> Field {
        match self {
            PositionRule::Malformed | PositionRule::RoyalLeftAttacked => Field::Whole,
            PositionRule::MoverOut | PositionRule::OutWithPieces | PositionRule::NoOneOut => {
                Field::PlayersIn
            }
            PositionRule::HandWithoutHands
            | PositionRule::PromotedInHand
            | PositionRule::NoRoyal
            | PositionRule::TooManyRoyals => Field::Board,
            PositionRule::CastlingPiecesMoved(bit) | PositionRule::CastlingRightsApart(bit) => {
                Field::Castling(bit)
            }
            PositionRule::EnPassantAmbiguous | PositionRule::EnPassantImpossible => {
                Field::EnPassant
            }
            PositionRule::SwapWithoutPie => Field::Swapped,
            PositionRule::NoTurnInPhase => Field::Phase,
        }
    }
}

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PositionError {}

fn error(rule: PositionRule, message: String) -> PositionError {
    PositionError {
        rule,
        player: None,
        message,
    }
}

/// A broken rule about the pieces of `player`.
fn pieces_error(rule: PositionRule, player: usize, message: String) -> PositionError {
    PositionError {
        rule,
        player: Some(player),
        message,
    }
}

impl<'r> Position<'r> {
    /// The rule file's start position. Rules reach the engine only through the pipeline, which
    /// refuses a file whose start position breaks a rule of valid positions.
    pub fn start(rules: &'r Ruleset) -> Self {
        let mut position = Position::assemble(rules, &Setup::start(rules));
        position.refresh();
        position.begin_turn(NO_SQUARE, NO_SQUARE);
        position
    }

    /// The position a setup describes, if it is one the game can have.
    pub fn from_setup(rules: &'r Ruleset, setup: &Setup) -> Result<Self, PositionError> {
        well_formed(rules, setup)?;
        let mut position = Position::assemble(rules, setup);
        position.check_players_in()?;
        position.check_hands()?;
        position.check_castling()?;
        let (passed, victim) = match setup.en_passant {
            Some(written) => position.passed_square(written)?,
            None => (NO_SQUARE, NO_SQUARE),
        };
        if setup.swapped && !rules.turns.has_pie() {
            let message = "this game has no pie choice to swap colours".to_string();
            return Err(error(PositionRule::SwapWithoutPie, message));
        }
        position.check_turn()?;
        position.check_royals()?;
        position.check_royal_left_attacked()?;
        position.refresh();
        position.begin_turn(passed, victim);
        Ok(position)
    }

    /// The position, written down.
    pub fn setup(&self) -> Setup {
        Setup {
            board: self.board.clone(),
            hands: self.hands.clone(),
            to_move: Some(self.to_move),
            alive: self.alive,
            castling: self.castling,
            en_passant: (self.ep != NO_SQUARE).then_some((self.ep, Some(self.ep_victim))),
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            phase: Some(self.phase),
            phase_turns: self.phase_turns.clone(),
            swapped: self.swapped,
            counters: self.counters.clone(),
            gates: (self.gates.iter().enumerate())
                .filter(|&(_, &open)| open)
                .map(|(sq, _)| sq as Sq)
                .collect(),
        }
    }

    /// The player to move must be in the game; the others out of it have nothing left; in a
    /// game that takes no one out, every player is in.
    fn check_players_in(&self) -> Result<(), PositionError> {
        let rules = self.rules;
        let everyone = (1u32 << rules.players.count()) - 1;
        if !rules.derived.eliminates && self.alive != everyone {
            let message = "no player leaves this game: every player is in it".to_string();
            return Err(error(PositionRule::NoOneOut, message));
        }
        if self.alive & (1 << self.to_move) == 0 {
            return Err(error(
                PositionRule::MoverOut,
                format!(
                    "{}, the player to move, must be in the game",
                    rules.players.names[self.to_move]
                ),
            ));
        }
        let out_with_pieces = (0..rules.players.count())
            .find(|&p| self.alive & (1 << p) == 0 && !self.has_no_pieces(p));
        match out_with_pieces {
            Some(player) => Err(pieces_error(
                PositionRule::OutWithPieces,
                player,
                format!(
                    "{} is out of the game, yet has pieces",
                    rules.players.names[player]
                ),
            )),
            None => Ok(()),
        }
    }

    /// Pieces are in hand only in a game where pieces go to hand, and as what they were when
    /// they came on the board.
    fn check_hands(&self) -> Result<(), PositionError> {
        let rules = self.rules;
        let kinds = &rules.pieces.kinds;
        let held = |slot: &usize| self.hands[*slot] > 0;
        let Some(slot) = (0..self.hands.len()).find(held) else {
            return Ok(());
        };
        let player = slot / kinds.len();
        if !rules.derived.hands {
            let message = "no piece is ever in hand in this game".to_string();
            return Err(pieces_error(
                PositionRule::HandWithoutHands,
                player,
                message,
            ));
        }
        let promoted =
            (0..self.hands.len()).find(|slot| held(slot) && kinds[slot % kinds.len()].promoted);
        match promoted {
            Some(slot) => Err(pieces_error(
                PositionRule::PromotedInHand,
                slot / kinds.len(),
                format!(
                    "a {} goes to hand as what it was, not in hand as itself",
                    kinds[slot % kinds.len()].name
                ),
            )),
            None => Ok(()),
        }
    }

    /// A castling right needs its pieces on their start squares, and comes with the other
    /// rights of the same two pieces.
    fn check_castling(&self) -> Result<(), PositionError> {
        let rules = self.rules;
        let given = |bit: &usize| self.castling & (1 << bit) != 0;
        for (bit, right) in rules.castling.rights.iter().enumerate() {
            if !given(&bit) {
                continue;
            }
            if !right.stands(&self.board) {
                let message = "needs its pieces on their start squares".to_string();
                return Err(error(PositionRule::CastlingPiecesMoved(bit), message));
            }
            let together = rules.castling.same_pieces(bit);
            if self.castling & together != together {
                let message = "comes with the other rights of its two pieces".to_string();
                return Err(error(PositionRule::CastlingRightsApart(bit), message));
            }
        }
        Ok(())
    }

    /// The square passed and the square of the piece that passed it, from the en passant field
    /// as written (the piece's square may come first, as Fairy-Stockfish writes the two in
    /// board order); without the piece's square, the piece stands one step beyond the square
    /// passed, in the direction its owner moves. The square stays open only if the player to
    /// move can take there.
    fn passed_square(
        &mut self,
        (first, second): (Sq, Option<Sq>),
    ) -> Result<(Sq, Sq), PositionError> {
        let rules = self.rules;
        let none = || {
            error(
                PositionRule::EnPassantImpossible,
                "no piece can have just passed this square".to_string(),
            )
        };
        let (passed, given) = match second {
            Some(second) if self.board[first as usize] != EMPTY => (second, Some(first)),
            _ => (first, second),
        };
        let owner = |sq: Sq| self.piece(self.board[sq as usize]).map(|(_, p)| p);
        let beyond = |player: usize| {
            let victim = square_beyond(rules, passed, player);
            (victim != NO_SQUARE && owner(victim) == Some(player)).then_some(victim)
        };
        let candidates: Vec<Sq> = match given {
            Some(victim) => vec![victim],
            None => (0..rules.players.count())
                .filter(|&p| p != self.to_move && self.alive & (1 << p) != 0)
                .filter_map(beyond)
                .collect(),
        };
        let victim = match candidates[..] {
            [victim] => victim,
            [_, _, ..] => {
                return Err(error(
                    PositionRule::EnPassantAmbiguous,
                    "more than one piece could have passed this square: give its square too, as in `f5f6`"
                        .to_string(),
                ));
            }
            [] => return Err(none()),
        };
        let passer = owner(victim);
        if self.board[passed as usize] != EMPTY || passer.is_none_or(|p| p == self.to_move) {
            return Err(none());
        }
        // A square no piece can take is dropped, as after a move.
        if self.can_take_en_passant(passed, self.to_move) {
            self.ep = passed;
            self.ep_victim = victim;
            self.ep_player = self.to_move as u8;
        }
        Ok((passed, victim))
    }

    /// The player to move must have a turn to play in the phase.
    fn check_turn(&self) -> Result<(), PositionError> {
        let Some(phase) = self.current_phase() else {
            return Ok(());
        };
        match self.may_move(self.to_move) {
            true => Ok(()),
            false => Err(error(
                PositionRule::NoTurnInPhase,
                format!(
                    "{} has no turn to play in phase `{}`",
                    self.rules.players.names[self.to_move], phase.name
                ),
            )),
        }
    }

    /// In a game of two players with royal pieces, each has at least one, unless the file can
    /// end by taking it; in any game with royal pieces, each player has no more than the start
    /// gives them (on the board and in hand), unless a piece can become royal by promotion.
    fn check_royals(&self) -> Result<(), PositionError> {
        let rules = self.rules;
        if !rules.derived.royal || rules.derived.royalty_changes {
            return Ok(());
        }
        let kinds = &rules.pieces.kinds;
        let royal_target = kinds.iter().any(|k| {
            (k.promotions.iter().chain(&k.standing_promotions))
                .any(|p| p.targets.iter().any(|&t| kinds[t as usize].royal))
        });
        // With more than two players, a royal piece is only safe from the next player: another
        // may take it, and the game goes on as its rules say. An explosion may blow it up.
        let may_lose = rules.players.count() > 2
            || rules.captures.explosion.is_some()
            || rules
                .endings
                .rules
                .iter()
                .any(|&(_, c)| c == EndCondition::RoyalCaptured);
        let start = Setup::start(rules);
        let royal_kinds: Vec<&str> = kinds
            .iter()
            .filter(|k| k.royal && !k.promoted)
            .map(|k| k.name.as_str())
            .collect();
        let royal = match royal_kinds.as_slice() {
            [one] => *one,
            _ => "royal piece",
        };
        for player in (0..rules.players.count()).filter(|&p| self.alive & (1 << p) != 0) {
            let have = royals_of(rules, &self.board, &self.hands, player);
            let allowed = royals_of(rules, &start.board, &start.hands, player);
            let name = &rules.players.names[player];
            if have == 0 && allowed > 0 && !may_lose {
                return Err(pieces_error(
                    PositionRule::NoRoyal,
                    player,
                    format!("{name} has no {royal}: every position of this game has one"),
                ));
            }
            // Where royal pieces can be taken and captures go to hand, a hand may hold one.
            let taken_to_hand = may_lose && rules.captures.to_hand;
            if have > allowed && !royal_target && !taken_to_hand {
                return Err(pieces_error(
                    PositionRule::TooManyRoyals,
                    player,
                    format!("{name} has {have} {royal}s: this game gives them at most {allowed}"),
                ));
            }
        }
        Ok(())
    }

    /// In a two-player game that alternates turns, the opponent of the player to move has not
    /// left a royal piece that the player to move attacks: no legal turn does that (a royal
    /// piece may not be left capturable, unless taking one is how the game ends). With more
    /// players, or phases, who moved last is not known from the position, so nothing is said.
    fn check_royal_left_attacked(&self) -> Result<(), PositionError> {
        let rules = self.rules;
        let taking_is_a_rule = rules
            .endings
            .rules
            .iter()
            .any(|&(_, c)| matches!(c, EndCondition::RoyalCaptured | EndCondition::Exposed));
        let alternating = rules.players.count() == 2
            && matches!(rules.turns.phases.as_slice(), [only] if only.movers.len() == 2);
        if !rules.derived.royal || taking_is_a_rule || !alternating {
            return Ok(());
        }
        let mover = self.to_move;
        let last = 1 - mover;
        // A move that blows up the other royal piece may leave one's own attacked.
        let blown_up = rules.captures.explosion.is_some() && !self.has_royal(mover);
        // A player facing a standoff may pass even while attacked.
        let passed_in_standoff = rules.derived.standoff_kinds != 0 && self.in_standoff(last);
        // Royal pieces that stand together may be left attacked but for one.
        if blown_up || passed_in_standoff || !self.royal_attacked_by(last, mover) {
            return Ok(());
        }
        let attacked = (0..self.board.len()).find_map(|sq| {
            let (kind, owner) = self.piece(self.board[sq])?;
            let exposed = owner == last && rules.pieces.kinds[kind].royal;
            (exposed && self.attacked(sq as Sq, mover)).then_some((kind, owner, sq))
        });
        let Some((kind, owner, sq)) = attacked else {
            return Ok(());
        };
        Err(PositionError {
            rule: PositionRule::RoyalLeftAttacked,
            player: Some(owner),
            message: format!(
                "{}'s {} on {} is attacked with {} to move",
                rules.players.names[owner],
                rules.pieces.kinds[kind].name,
                rules.geometry.name(sq as Sq),
                rules.players.names[mover]
            ),
        })
    }
}

/// Refuses a setup whose parts do not fit the rules: a board or hand of the wrong size, a code
/// that is no piece, a player, phase or counter that does not exist.
fn well_formed(rules: &Ruleset, setup: &Setup) -> Result<(), PositionError> {
    let players = rules.players.count();
    let codes = 1 + rules.pieces.kinds.len() * players;
    let malformed = |what: &str| {
        Err(error(
            PositionRule::Malformed,
            format!("malformed position: {what}"),
        ))
    };
    if setup.board.len() != rules.geometry.squares() {
        return malformed("the board has another number of squares");
    }
    if let Some(code) = setup
        .board
        .iter()
        .find(|&&c| c != BLOCKED && c as usize >= codes)
    {
        return malformed(&format!("{code} is not a piece of this game"));
    }
    if setup.hands.len() != rules.start.hands.len() {
        return malformed("the hands hold another number of kinds");
    }
    if setup.to_move.is_some_and(|p| p >= players) || setup.alive >= 1 << players {
        return malformed("a player that does not exist");
    }
    let passed = setup.en_passant.iter().flat_map(|&(a, b)| [Some(a), b]);
    if passed.flatten().any(|sq| sq as usize >= setup.board.len()) {
        return malformed("an en passant square off the board");
    }
    if setup
        .phase
        .is_some_and(|p| p as usize > rules.turns.phases.len())
        || setup.phase_turns.len() != players
    {
        return malformed("a phase that does not exist");
    }
    if setup.counters.len() != players * rules.turns.counters.len() {
        return malformed("another number of counters");
    }
    if setup.castling & !rules.castling.all() != 0 {
        return malformed("a castling right that does not exist");
    }
    if setup.fullmove == 0 {
        return malformed("move numbers count from 1");
    }
    Ok(())
}

/// The square one step beyond `passed` in the direction `player` moves: where a piece that
/// passed it straight stands.
pub fn square_beyond(rules: &Ruleset, passed: Sq, player: usize) -> Sq {
    let (dx, dy) = forward_vector(rules.players.forward[player]);
    let (f, r) = rules.geometry.coords[passed as usize];
    rules.geometry.at(f as i32 + dx, r as i32 + dy)
}

/// How many royal pieces `player` has, on `board` and in `hands`.
fn royals_of(rules: &Ruleset, board: &[Code], hands: &[u8], player: usize) -> usize {
    let kinds = &rules.pieces.kinds;
    let on_board = board
        .iter()
        .filter(|&&code| code != EMPTY && code != BLOCKED)
        .map(|&code| rules.pieces.split(code))
        .filter(|&(kind, owner)| owner == player && kinds[kind].royal)
        .count();
    let in_hand: usize = (0..kinds.len())
        .filter(|&kind| kinds[kind].royal)
        .map(|kind| usize::from(hands[player * kinds.len() + kind]))
        .sum();
    on_board + in_hand
}
