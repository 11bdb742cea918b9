//! An evaluation derived from the rule file alone, in terms a person can read (`fairy eval`).
//!
//! - **Material**: a kind is worth what it reaches on a board in play. Its average number of
//!   moves is measured on random boards a third full (half its own pieces, half the enemy's),
//!   where a slider's long lines count for less than on an empty board, and raised to a power
//!   above one, since a piece that reaches more also combines its threats. Calibrated once on
//!   chess (see [`VALUE_POWER`]); every other game gets the same formula. A kind that moves
//!   far but captures little is valued by what its captures imply (see [`reaches_in_play`]).
//! - **Placement**: each square adds what the piece reaches from there beyond its average; a
//!   piece that promotes gains as its own moves bring it nearer the zone, and so does one
//!   that sets off a trigger removing an enemy piece as it enters a zone.
//! - **Mobility**: each piece, royal ones aside, gains for every square its moves reach as
//!   the board stands (empty or holding an enemy piece, legal or not) beyond its kind's
//!   average in play, and loses for every one short of it: a piece shut in behind its own
//!   counts for less than one on open lines. Counted only where every capture lands on its
//!   victim and having more pieces is the aim.
//! - **Royal safety**: while the others keep their material, a royal piece prefers squares
//!   where it reaches little (the edge, behind its pieces) and own pieces beside it; as their
//!   material goes, it turns to the centre. Nearing a zone where its arrival wins something
//!   counts whatever the material. Where pieces wait in hand, the squares around it that
//!   enemy pieces attack, or that an enemy could drop on, cost the more the more there are.
//!   Being attacked by the next player costs.
//! - **Hand**: a piece in hand counts at its value.
//! - **Freedom**: where an immobilized piece loses, or having no move loses and there is no
//!   royal piece, each move of those pieces counts.
//!
//! Where having no moves or no pieces wins, material and placement are a burden and count
//! against their owner.

use super::weights::{TERMS, Term, Weights};
use crate::compile::{Code, EMPTY, EndCondition, Outcome, Ruleset, Sq};
use crate::engine::probe::ProbeBoard;
use crate::engine::{Position, Turn};
use crate::geometry::absolute;
use crate::limits::MAX_PLAYERS;
use crate::random::Random;

/// A kind's value is `VALUE_SCALE × reach^VALUE_POWER`, its reach measured on boards
/// `DENSITY_PERCENT` full. Chosen so that chess's pieces come out near their classical worth
/// (Pawn 100, Knight 300, Bishop 320, Rook 500, Queen 900 give Knight : Rook : Queen as
/// 1 : 1.7 : 3); the power is what makes a Queen worth more than a Rook and a Bishop together
/// on a board in play.
const VALUE_POWER: f64 = 1.3;
const VALUE_SCALE: f64 = 50.0;
const DENSITY_PERCENT: u64 = 33;
/// Squares measured per kind, over as many random boards as it takes (at least
/// [`MIN_BOARDS`]): few boards give a slider's value a wide spread.
const SAMPLED_SQUARES: usize = 4096;
const MIN_BOARDS: usize = 4;
/// How far a kind's moves may outnumber what its captures imply before they stop counting
/// (see [`reaches_in_play`]): slack enough for every piece of chess.
const CAPTURE_SLACK: f64 = 2.0;
/// The share, in hundredths, of the most a kind gains by promoting that it is worth besides
/// its reach, wherever it stands. Set so that chess's Pawn comes to about 100 (from 67), near
/// its classical ratio to the Knight.
const PROMISE_PERCENT: i32 = 3;

/// A player's worth, term by term.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    pub material: i32,
    pub placement: i32,
    pub mobility: i32,
    pub royal_safety: i32,
    pub hand: i32,
    pub freedom: i32,
}

impl Terms {
    pub fn total(&self) -> i32 {
        self.material
            + self.placement
            + self.mobility
            + self.royal_safety
            + self.hand
            + self.freedom
    }

    /// Each term by name, then the total, in the order `fairy eval` prints them.
    pub fn named(&self) -> [(&'static str, i32); 7] {
        [
            ("material", self.material),
            ("placement", self.placement),
            ("mobility", self.mobility),
            ("royal safety", self.royal_safety),
            ("hand", self.hand),
            ("freedom", self.freedom),
            ("total", self.total()),
        ]
    }
}

#[derive(Clone)]
pub struct Evaluator {
    /// `placement[placement_row(code, squares, sq)]`: the piece's placement there
    /// (for a royal piece, where the others have lost their material).
    placement: Vec<i32>,
    /// The same for royal kinds while the others keep their material.
    royal_opening: Vec<i32>,
    /// The worth of each kind on the board, and for ordering captures.
    pub values: Vec<i32>,
    /// The worth of a kind in hand.
    in_hand: Vec<i32>,
    /// What the board walk reads of each piece code (`[code]`), so that a square costs one
    /// lookup.
    codes: Vec<CodeWorth>,
    /// `shield[player * squares + sq]`: the squares whose own pieces shelter a royal piece
    /// of `player` on `sq`.
    shield: Vec<Vec<Sq>>,
    /// `around[sq]`: the squares beside `sq`, where a royal piece there is in danger.
    around: Vec<Vec<Sq>>,
    /// Whether the danger around royal pieces counts: with two players, where captured
    /// pieces wait in hand, so that every empty square near a royal piece is a drop away
    /// from an attack, and where attacks are threats (as for mobility). Where it was
    /// measured without hands (chess) it did not pay for its cost, and with more players it
    /// is untried.
    danger_counts: bool,
    /// Each player's material at the start (at least 1).
    start_material: Vec<i32>,
    /// -1 where having fewer pieces wins.
    sign: i32,
    /// Whether the squares a piece reaches measure its threats: where every capture lands
    /// on its victim and having more pieces is the aim. Where having fewer pieces wins, fewer
    /// moves is the aim, reached through the captures the opponent is made to take; where
    /// moves capture in other ways, a quiet move may threaten more than its reach tells.
    mobility_counts: bool,
    /// Kinds whose moves count: their immobility loses the game.
    guarded: u64,
    /// The terms' weights, in the order of [`TERMS`].
    weights: [i32; TERMS.len()],
    squares: usize,
    players: usize,
}

impl Evaluator {
    /// The evaluation with the weights derived from the rule file.
    pub fn new(rules: &Ruleset) -> Self {
        let averages = average_reaches(rules);
        let weights = Weights::with_values(values_from(rules, &averages));
        Evaluator::built(rules, &weights, averages)
    }

    /// The evaluation with `weights`.
    pub fn weighted(rules: &Ruleset, weights: &Weights) -> Self {
        Evaluator::built(rules, weights, average_reaches(rules))
    }

    /// The evaluation with `weights`, each kind's average reach in play measured already:
    /// measuring it is most of the cost of building an evaluation.
    fn built(rules: &Ruleset, weights: &Weights, averages: Vec<(f64, f64)>) -> Self {
        let players = rules.players.count();
        let squares = rules.geometry.squares();
        let kinds = rules.pieces.kinds.len();
        let burdens = material_burdens(rules);
        let values = weights.values.clone();
        let hand = weights.term(Term::Hand);
        let mut placement = vec![0; kinds * players * squares];
        let mut royal_opening = vec![0; kinds * players * squares];
        let in_hand: Vec<i32> = (0..kinds)
            .map(|k| values[rules.pieces.kinds[k].demotes_to as usize] * hand / 100)
            .collect();
        let start_material = start_materials(rules, &values, &in_hand);
        // Removing a royal piece decides the game: worth the most material a player starts with.
        let royal_worth = start_material.iter().copied().max().unwrap_or(0);
        let mut empty = ProbeBoard::empty(rules);
        for kind in 0..kinds {
            for player in 0..players {
                let code = rules.pieces.code(kind, player);
                let reach: Vec<i32> = (0..squares)
                    .map(|sq| empty.reach(code, sq as Sq).moves as i32)
                    .collect();
                let average = reach.iter().sum::<i32>() / reach.len().max(1) as i32;
                let progress = zone_gains(rules, &mut empty, (kind, player), weights, royal_worth);
                for sq in 0..squares {
                    let row = placement_row(code, squares, sq);
                    let spread = weights.term(Term::Placement) * (reach[sq] - average);
                    placement[row] = spread + progress[sq];
                    // Nearing a zone that wins something is worth it however much material
                    // is left (a King whose arrival removes the enemy King).
                    royal_opening[row] = -spread + progress[sq];
                }
            }
        }
        let codes = code_worths(rules, &values, &averages);
        let mobility_counts = !burdens && !quiet_moves_take(rules);
        Evaluator {
            placement,
            royal_opening,
            values,
            in_hand,
            codes,
            shield: shields(rules),
            around: squares_at(rules, &AROUND).collect(),
            danger_counts: players == 2 && rules.derived.hands && mobility_counts,
            start_material: start_material.iter().map(|&m| m.max(1)).collect(),
            sign: if burdens { -1 } else { 1 },
            mobility_counts,
            guarded: guarded_kinds(rules),
            weights: weights.terms,
            squares,
            players,
        }
    }

    /// The position's worth to `player`: their own minus the average of the others still in.
    pub fn score(&self, position: &Position<'_>, player: usize, scratch: &mut Vec<Turn>) -> i32 {
        self.score_checked(position, player, in_check(position), scratch)
    }

    /// [`Evaluator::score`] where the caller knows whether the player to move is in check.
    pub fn score_checked(
        &self,
        position: &Position<'_>,
        player: usize,
        checked: bool,
        scratch: &mut Vec<Turn>,
    ) -> i32 {
        let worth = self.terms_checked(position, checked, scratch);
        let (sum, others) = (0..self.players)
            .filter(|&p| p != player && position.alive() & (1 << p) != 0)
            .fold((0, 0), |(sum, n), p| (sum + worth[p].total(), n + 1));
        let against = match others {
            0 => 0,
            n => sum / n,
        };
        worth[player].total() - against
    }

    /// Every player's worth, term by term.
    pub fn terms(&self, position: &Position<'_>, scratch: &mut Vec<Turn>) -> [Terms; MAX_PLAYERS] {
        self.terms_checked(position, in_check(position), scratch)
    }

    fn terms_checked(
        &self,
        position: &Position<'_>,
        checked: bool,
        scratch: &mut Vec<Turn>,
    ) -> [Terms; MAX_PLAYERS] {
        let mut worth = self.pieces_worth(position);
        let material = worth.map(|t| t.material + t.hand);
        let royal_kinds = position.rules().derived.royal_kinds;
        position.for_each_piece_of(royal_kinds, |sq, code| {
            let owner = self.codes[code as usize].owner;
            let sq = sq as usize;
            let row = placement_row(code, self.squares, sq);
            // How much of the others' material is left: all of it keeps the royal piece
            // sheltered, none sends it to the centre.
            let (left, start) = (0..self.players)
                .filter(|&p| p != owner)
                .fold((0, 0), |(l, s), p| {
                    (l + material[p], s + self.start_material[p])
                });
            let left = left.min(start);
            let start = start.max(1);
            let shield = &self.shield[owner * self.squares + sq];
            let beside = position.own_pieces_on(shield, owner) as i32;
            let danger = match self.danger_counts {
                true => self.weight(Term::Danger) * self.danger(position, owner, sq),
                false => 0,
            };
            let shelter = self.weight(Term::Shelter) * beside - danger;
            worth[owner].royal_safety += (left * (self.royal_opening[row] + shelter)
                + (start - left) * self.placement[row])
                / start;
        });
        for (p, terms) in worth.iter_mut().enumerate().take(self.players) {
            terms.material *= self.sign;
            terms.placement *= self.sign;
            terms.hand *= self.sign;
            if self.guarded != 0 {
                terms.freedom =
                    self.weight(Term::Freedom) * position.mobility(p, self.guarded, scratch) as i32;
            }
        }
        if checked {
            worth[position.to_move()].royal_safety -= self.weight(Term::Checked);
        }
        worth
    }

    fn weight(&self, term: Term) -> i32 {
        self.weights[term as usize]
    }

    /// The danger to `owner`'s royal piece on `sq`, in units of [`Term::Danger`]: two for each
    /// square beside it an enemy attacks, one for each other empty one where an enemy holds
    /// pieces in hand to drop there, and the total squared over four.
    fn danger(&self, position: &Position<'_>, owner: usize, sq: usize) -> i32 {
        let alive = position.alive();
        let enemies = (0..self.players).filter(|&p| p != owner && alive & (1 << p) != 0);
        let kinds = self.values.len();
        let hands = position.hands();
        let holds = |p: usize| {
            (hands.get(p * kinds..(p + 1) * kinds)).is_some_and(|h| h.iter().any(|&n| n > 0))
        };
        let may_drop = enemies.clone().any(holds);
        let units: i32 = (self.around[sq].iter())
            .map(|&near| {
                if enemies.clone().any(|p| position.attacked(near, p)) {
                    2
                } else {
                    i32::from(may_drop && position.board()[near as usize] == EMPTY)
                }
            })
            .sum();
        units * units / 4
    }

    /// Each player's pieces, royal ones aside: their material and placement on the board, and
    /// the pieces in hand, counted as gains whatever the game.
    fn pieces_worth(&self, position: &Position<'_>) -> [Terms; MAX_PLAYERS] {
        let mut worth = [Terms::default(); MAX_PLAYERS];
        let ordinary = position.rules().pieces.all() & !position.rules().derived.royal_kinds;
        let mobility = self.weight(Term::Mobility);
        let mut add = |sq: Sq, code: Code, reach: Option<u32>| {
            let CodeWorth {
                owner,
                value,
                average_reach,
            } = self.codes[code as usize];
            worth[owner].material += value;
            worth[owner].placement +=
                self.placement[placement_row(code, self.squares, sq as usize)];
            if let Some(reach) = reach {
                worth[owner].mobility += mobility * (reach as i32 - average_reach);
            }
        };
        match self.mobility_counts {
            true => position
                .for_each_reach_count(ordinary, |sq, code, reach| add(sq, code, Some(reach))),
            false => position.for_each_piece_of(ordinary, |sq, code| add(sq, code, None)),
        }
        let kinds = self.values.len();
        for (slot, &count) in position.hands().iter().enumerate() {
            worth[slot / kinds].hand += self.in_hand[slot % kinds] * i32::from(count);
        }
        worth
    }
}

/// What the evaluation reads of a piece code.
#[derive(Clone, Copy, Debug, Default)]
struct CodeWorth {
    owner: usize,
    value: i32,
    /// Its kind's average number of moves on a board in play, rounded: the baseline its
    /// reach is measured against (a move that may promote several ways counts once per way,
    /// so a piece near its zone sits a little under it).
    average_reach: i32,
}

/// Each piece code's owner, value and average reach, `[code]`; the codes that hold no piece
/// (empty, blocked) are never read.
fn code_worths(rules: &Ruleset, values: &[i32], averages: &[(f64, f64)]) -> Vec<CodeWorth> {
    let codes = rules.pieces.kinds.len() * rules.players.count();
    let mut worths = vec![CodeWorth::default(); codes + 1];
    for (code, worth) in worths.iter_mut().enumerate().skip(1) {
        let (kind, owner) = rules.pieces.split(code as Code);
        *worth = CodeWorth {
            owner,
            value: values[kind],
            average_reach: averages[kind].0.round() as i32,
        };
    }
    worths
}

/// The row of `placement` and `royal_opening` for the piece `code` on `sq`: the tables are
/// laid out by code, kind by kind and player by player within a kind.
fn placement_row(code: Code, squares: usize, sq: usize) -> usize {
    (code as usize - 1) * squares + sq
}

/// Whether the player to move has a royal piece in check, where the file has royal pieces.
pub fn in_check(position: &Position<'_>) -> bool {
    position.rules().derived.royal && position.in_check()
}

/// For each player and square, the squares whose own pieces shield a royal piece there: the
/// three ahead (forward, and diagonally forward), or the eight around where the player has no
/// forward direction.
fn shields(rules: &Ruleset) -> Vec<Vec<Sq>> {
    let players = rules.players.count();
    let ahead = |player: usize| -> Vec<(i32, i32)> {
        match rules.players.forward[player] {
            forward @ Some(_) => [(-1, 1), (0, 1), (1, 1)]
                .iter()
                .map(|&(r, f)| absolute(forward, (r, f)))
                .collect(),
            None => AROUND.to_vec(),
        }
    };
    (0..players)
        .flat_map(|player| squares_at(rules, &ahead(player)).collect::<Vec<_>>())
        .collect()
}

/// The eight offsets of the squares around one.
const AROUND: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// For each square, those at `offsets` from it that are on the board.
fn squares_at<'r>(
    rules: &'r Ruleset,
    offsets: &'r [(i32, i32)],
) -> impl Iterator<Item = Vec<Sq>> + 'r {
    let geometry = &rules.geometry;
    (geometry.coords.iter()).map(move |&(file, rank)| {
        let (file, rank) = (i32::from(file), i32::from(rank));
        (offsets.iter())
            .map(|&(dx, dy)| geometry.at(file + dx, rank + dy))
            .filter(|&s| s != crate::compile::NO_SQUARE)
            .collect()
    })
}

/// The kinds' values from their reach (`reached`), each raised by a share of the most its
/// promotion gains ([`PROMISE_PERCENT`]): a piece's reach alone undervalues one whose worth is
/// mostly what it may become, such as a Pawn.
fn with_promise(rules: &Ruleset, reached: &[i32]) -> Vec<i32> {
    let promise = |kind: usize| {
        let promotions = rules.pieces.kinds[kind].promotions.iter();
        let targets = promotions.flat_map(|promotion| promotion.targets.iter());
        let best = targets.map(|&t| reached[t as usize] - reached[kind]).max();
        best.unwrap_or(0).max(0) * PROMISE_PERCENT / 100
    };
    (0..reached.len())
        .map(|kind| reached[kind] + promise(kind))
        .collect()
}

/// Each kind's value derived from the rule file: from its reach on a board in play, and a
/// share of what it may promote to (royal kinds are worth nothing).
pub fn derived_values(rules: &Ruleset) -> Vec<i32> {
    values_from(rules, &average_reaches(rules))
}

/// [`derived_values`] from each kind's average reach in play (see [`average_reaches`]).
fn values_from(rules: &Ruleset, averages: &[(f64, f64)]) -> Vec<i32> {
    let royal: Vec<bool> = rules.pieces.kinds.iter().map(|k| k.royal).collect();
    let reaches = reaches_in_play(rules, averages, &royal);
    let reached: Vec<i32> = (reaches.iter().zip(&royal))
        .map(|(&reach, &royal)| match royal {
            true => 0,
            false => value_of(reach),
        })
        .collect();
    with_promise(rules, &reached)
}

/// A kind's value from its average reach on a board in play.
fn value_of(reach: f64) -> i32 {
    (VALUE_SCALE * reach.powf(VALUE_POWER)).round() as i32
}

/// The average number of moves of each kind (the first player's), and of those that capture,
/// over every square of random boards [`DENSITY_PERCENT`] full, the same boards for every kind.
fn average_reaches(rules: &Ruleset) -> Vec<(f64, f64)> {
    let mut random = Random::new(0x5eed);
    let squares = rules.geometry.squares().max(1);
    let boards = (SAMPLED_SQUARES / squares).max(MIN_BOARDS);
    let mut totals = vec![(0usize, 0usize); rules.pieces.kinds.len()];
    for _ in 0..boards {
        let mut board = ProbeBoard::scattered(rules, 0, DENSITY_PERCENT, &mut random);
        for (kind, (moves, captures)) in totals.iter_mut().enumerate() {
            let code = rules.pieces.code(kind, 0);
            for sq in 0..squares as Sq {
                let reach = board.reach(code, sq);
                *moves += reach.moves;
                *captures += reach.captures;
            }
        }
    }
    let samples = (boards * squares) as f64;
    (totals.iter())
        .map(|&(moves, captures)| (moves as f64 / samples, captures as f64 / samples))
        .collect()
}

/// The reach each kind is valued by: its moves, but where a move captures only by landing
/// on its victim, no more of them than [`CAPTURE_SLACK`] times what a piece of its captures
/// reaches, the file's pieces moving and capturing as they do on average (and at least the
/// square root of its moves). A piece that moves far but captures little (or nothing) does
/// not outweigh the pieces that threaten; where moves capture in other ways (custodian
/// capture, triggers, conversion) or no piece captures, every move counts.
fn reaches_in_play(rules: &Ruleset, reaches: &[(f64, f64)], royal: &[bool]) -> Vec<f64> {
    let ordinary = || (reaches.iter().zip(royal)).filter(|(_, royal)| !**royal);
    let moves: f64 = ordinary().map(|((m, _), _)| m).sum();
    let captures: f64 = ordinary().map(|((_, c), _)| c).sum();
    if quiet_moves_take(rules) || captures == 0.0 {
        return reaches.iter().map(|&(m, _)| m).collect();
    }
    let moves_per_capture = moves / captures;
    (reaches.iter())
        .map(|&(m, c)| m.min((CAPTURE_SLACK * c * moves_per_capture).max(m.sqrt())))
        .collect()
}

/// Whether moves may capture other than by landing on their victim: by custodian capture,
/// by setting off a trigger, or by conversion.
fn quiet_moves_take(rules: &Ruleset) -> bool {
    !rules.captures.custodian.is_empty()
        || !rules.turns.triggers.is_empty()
        || !rules.pieces.converts.iter().all(Vec::is_empty)
}

/// Per square, what a piece of `kind` of `player` gains by nearing a zone where a move gains
/// it something: its promotion zone (the gain of its best promotion), or the zone of a trigger
/// it sets off that removes an enemy piece (the worth of the best piece the removal may take
/// while the enemy keeps its pieces: the first group; `royal_worth` where it may take a royal
/// piece). Inside a trigger's zone it gains nothing: the removal has been made.
fn zone_gains(
    rules: &Ruleset,
    empty: &mut ProbeBoard<'_>,
    (kind, player): (usize, usize),
    weights: &Weights,
    royal_worth: i32,
) -> Vec<i32> {
    let values = &weights.values;
    let mut goals: Vec<(u16, i32, bool)> = (rules.pieces.kinds[kind].promotions.iter())
        .map(|promotion| {
            let best = promotion.targets.iter().map(|&t| values[t as usize]).max();
            (promotion.zone, best.unwrap_or(0) - values[kind], false)
        })
        .collect();
    let royal = |k: usize| rules.pieces.kinds[k].royal;
    for trigger in (rules.turns.triggers.iter()).filter(|t| t.pieces & (1 << kind) != 0) {
        if let Some(&[(_, removable), ..]) = trigger.enemy_removal() {
            let best = (0..values.len())
                .filter(|&k| removable & (1 << k) != 0)
                .map(|k| if royal(k) { royal_worth } else { values[k] })
                .max();
            goals.push((trigger.zone, best.unwrap_or(0), true));
        }
    }
    let mut progress = vec![0; rules.geometry.squares()];
    for (zone, gain, outside) in goals {
        let gain = gain * weights.term(Term::Promotion) / 100;
        let near = zone_progress(rules, empty, (kind, player), zone, gain);
        for (sq, (best, near)) in progress.iter_mut().zip(near).enumerate() {
            if !outside || !rules.zones.contains(zone, player, sq as Sq) {
                *best = (*best).max(near);
            }
        }
    }
    progress
}

/// Each player's material at the start: the values of their pieces on the board (royal ones
/// are worth nothing) and in hand (`in_hand`).
fn start_materials(rules: &Ruleset, values: &[i32], in_hand: &[i32]) -> Vec<i32> {
    let start = Position::start(rules);
    let mut worth = vec![0; rules.players.count()];
    start.for_each_piece_of(rules.pieces.all(), |_, code| {
        let (kind, owner) = rules.pieces.split(code);
        worth[owner] += values[kind];
    });
    let kinds = values.len();
    for (slot, &count) in start.hands().iter().enumerate() {
        worth[slot / kinds] += in_hand[slot % kinds] * i32::from(count);
    }
    worth
}

/// Per square, a share of `gain` for a piece of `kind` of `player` nearing `zone`: the gain
/// divided by the square of one more than the moves it needs to get there on an empty board.
fn zone_progress(
    rules: &Ruleset,
    empty: &mut ProbeBoard<'_>,
    (kind, player): (usize, usize),
    zone: u16,
    gain: i32,
) -> Vec<i32> {
    let squares = rules.geometry.squares();
    if gain <= 0 {
        return vec![0; squares];
    }
    let inside = |sq: usize| rules.zones.contains(zone, player, sq as Sq);
    let steps = steps_to(rules, empty, rules.pieces.code(kind, player), &inside);
    (steps.iter())
        .map(|steps| steps.map_or(0, |s| gain / ((s + 1) * (s + 1))))
        .collect()
}

/// For each square, how many moves the piece `code` needs on an empty board to stand on a
/// square where `inside` holds (0 there); `None` where it never gets there.
fn steps_to(
    rules: &Ruleset,
    empty: &mut ProbeBoard<'_>,
    code: Code,
    inside: &dyn Fn(usize) -> bool,
) -> Vec<Option<i32>> {
    let squares = rules.geometry.squares();
    // Walked backwards from the zone: who reaches each square.
    let mut reached_from = vec![Vec::new(); squares];
    for from in 0..squares {
        for to in empty.targets(code, from as Sq) {
            reached_from[to as usize].push(from);
        }
    }
    let mut steps = vec![None; squares];
    let mut frontier: Vec<usize> = (0..squares).filter(|&sq| inside(sq)).collect();
    for &sq in &frontier {
        steps[sq] = Some(0);
    }
    let mut distance = 0;
    while !frontier.is_empty() {
        distance += 1;
        let mut next = Vec::new();
        for sq in frontier {
            for &from in &reached_from[sq] {
                if steps[from].is_none() {
                    steps[from] = Some(distance);
                    next.push(from);
                }
            }
        }
        frontier = next;
    }
    steps
}

/// Whether having no moves or no pieces wins: then material is a burden.
fn material_burdens(rules: &Ruleset) -> bool {
    rules.endings.rules.iter().any(|&(outcome, condition)| {
        outcome == Outcome::Win
            && matches!(
                condition,
                EndCondition::NoMoves
                    | EndCondition::NoMovesCounted { .. }
                    | EndCondition::Extinct
                    | EndCondition::Stalemated
                    | EndCondition::Bare { .. }
            )
    })
}

/// The kinds whose moves count: those whose immobility loses, and without a royal piece to
/// checkmate, every kind where having no move loses (room to move is then the whole game).
fn guarded_kinds(rules: &Ruleset) -> u64 {
    let kinds = rules.pieces.kinds.len();
    let loses_by = |wanted: &dyn Fn(&EndCondition) -> Option<u64>| {
        (rules.endings.rules.iter())
            .filter(|(outcome, _)| *outcome == Outcome::Lose)
            .filter_map(|(_, condition)| wanted(condition))
            .fold(0, |bits, kinds| bits | kinds)
    };
    let every_kind = 1u64
        .checked_shl(kinds as u32)
        .map_or(u64::MAX, |bit| bit - 1);
    let no_moves_loses = loses_by(&|c| matches!(c, EndCondition::NoMoves).then_some(every_kind));
    let immobilized = loses_by(&|c| match c {
        EndCondition::Immobilized(kinds) => Some(*kinds),
        _ => None,
    });
    match rules.derived.royal {
        true => immobilized,
        false => immobilized | no_moves_loses,
    }
}
