//! A cheap estimate, from the rules alone, of the most work one position can ask: how many
//! ways a turn may have, and, where legality is judged by the opponent's replies, how many
//! replies judging one position's turns may examine. It is an order of magnitude, not a bound
//! proven tight: each step counts what it could do on a board built to favour it (a piece's
//! best square, empty or surrounded by enemies; every square for a drop), and the steps of a
//! turn multiply. `fairy check` shows it, so that a file whose positions can cost minutes or
//! gigabytes says so before a game is played.

use super::probe::ProbeBoard;
use crate::bitboard::Bitboard;
use crate::compile::turns::{Action, DropZone, Plan};
use crate::compile::{BLOCKED, Code, EMPTY, Gen, Legality, NO_SQUARE, Ruleset, Sq};
use crate::diagnostic::Span;

/// The estimate for one ruleset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cost {
    /// The most ways a player's turn may have in one position.
    pub turns: u64,
    /// Where legality is judged by replies: the most replies examined to judge one position's
    /// turns (each turn against each reply).
    pub replies: Option<u64>,
    /// The plan whose turns have the most ways.
    pub widest: Span,
}

impl Cost {
    pub fn estimate(rules: &Ruleset) -> Cost {
        let estimator = Estimator::new(rules);
        let turns = estimator.most_ways(Ways::Whole);
        // The search for a reply that takes a royal piece stops at the first, and leaves out
        // the steps after which only arrows, unblocking and passing remain; but with counter
        // limits or triggers every reply is built whole.
        let replies = match rules.derived.counter_limits || !rules.turns.triggers.is_empty() {
            true => turns,
            false => estimator.most_ways(Ways::UntilHarmless),
        };
        Cost {
            widest: estimator.widest_plan(),
            turns,
            replies: (rules.derived.legality == Legality::Reply)
                .then(|| turns.saturating_mul(replies)),
        }
    }
}

/// Which steps of a turn count: all, or those up to the last step that can take a piece.
#[derive(Clone, Copy)]
enum Ways {
    Whole,
    UntilHarmless,
}

/// What each piece kind and step can do at most, measured once.
struct Estimator<'r> {
    rules: &'r Ruleset,
    /// `most_moves[player][kind]`: the most moves a piece of the kind makes from one square,
    /// or a piece it may promote to.
    most_moves: Vec<Vec<u64>>,
    squares: u64,
    /// The most squares next to one square.
    most_neighbours: u64,
    /// Every piece of the start, on the board and in hand, at most one per square (every
    /// square, where a hand is never empty).
    pieces: u64,
    /// Whether a player's pieces can grow in number (captures to hand, conversion, drops from
    /// a hand never empty), so that any piece of the game may be theirs.
    pieces_change_hands: bool,
}

impl<'r> Estimator<'r> {
    fn new(rules: &'r Ruleset) -> Self {
        let squares = rules.geometry.squares() as u64;
        let on_board = (rules.start.board.iter())
            .filter(|&&c| c != EMPTY && c != BLOCKED)
            .count() as u64;
        let in_hand: u64 = rules.start.hands.iter().map(|&n| n as u64).sum();
        let endless_hands = rules.pieces.kinds.iter().any(|k| k.drops.unlimited);
        Estimator {
            rules,
            most_moves: most_moves(rules),
            squares,
            most_neighbours: at_width!(rules, B => (0..squares as Sq)
                .map(|sq| rules.bits.neighbours::<B>(sq).count())
                .max()
                .unwrap_or(0) as u64),
            pieces: match endless_hands {
                true => squares,
                false => (on_board + in_hand).min(squares),
            },
            pieces_change_hands: rules.captures.to_hand
                || !rules.pieces.converts.is_empty()
                || endless_hands,
        }
    }

    /// The most ways a turn of any phase, any player, may have.
    fn most_ways(&self, ways: Ways) -> u64 {
        (self.plan_sets())
            .map(|(plans, player)| self.plans(plans, player, ways))
            .max()
            .unwrap_or(0)
    }

    /// Where the plan with the most ways is written.
    fn widest_plan(&self) -> Span {
        (self.plan_sets())
            .flat_map(|(plans, player)| plans.iter().map(move |plan| (plan, player)))
            .max_by_key(|&(plan, player)| self.plan(plan, player, Ways::Whole))
            .map_or(Span::new(0, 0), |(plan, _)| plan.span)
    }

    /// Each set of plans a player's turn may be made by, with the player.
    fn plan_sets(&self) -> impl Iterator<Item = (&'r [Plan], usize)> {
        (self.rules.turns.phases.iter()).flat_map(|phase| {
            let sets = std::iter::once(&phase.ordinary[..])
                .chain(phase.periodic.iter().map(|(_, plans)| &plans[..]));
            sets.flat_map(|plans| phase.movers.iter().map(move |&player| (plans, player)))
        })
    }

    /// The most ways to carry out any one of `plans`.
    fn plans(&self, plans: &[Plan], player: usize, ways: Ways) -> u64 {
        (plans.iter())
            .map(|plan| self.plan(plan, player, ways))
            .fold(0, u64::saturating_add)
    }

    fn plan(&self, plan: &Plan, player: usize, ways: Ways) -> u64 {
        let counted = match ways {
            Ways::Whole => plan.steps.len(),
            Ways::UntilHarmless => plan
                .steps
                .iter()
                .rposition(|s| !s.takes_nothing())
                .map_or(0, |i| i + 1),
        };
        plan.steps[..counted].iter().fold(1, |product, step| {
            let choices = self.action(&step.action, player);
            product.saturating_mul(match step.optional {
                true => choices.saturating_add(1),
                false => choices,
            })
        })
    }

    fn action(&self, action: &Action, player: usize) -> u64 {
        match action {
            Action::Move { pieces } => self
                .moves(*pieces, player)
                .saturating_mul(self.triggered(player).saturating_add(1)),
            Action::Drop { pieces, zone } => {
                self.kinds_in_hand(*pieces) * self.drop_squares(*zone, player)
            }
            Action::Gate { pieces, .. } => self.kinds_in_hand(*pieces),
            Action::Shoot(cases) => (cases.iter())
                .map(|case| self.flight_reach(&case.flights[player]))
                .max()
                .unwrap_or(0),
            Action::Unblock => self.squares,
            Action::Remove { .. } => self.pieces,
            Action::Pie => 2,
            Action::Pass => 1,
        }
    }

    /// The most moves of the player's pieces of `kinds`.
    fn moves(&self, kinds: u64, player: usize) -> u64 {
        let most = &self.most_moves[player];
        self.per_piece(kinds, player, |kind| most[kind])
    }

    /// The sum of `worth` over the player's pieces of `kinds`: each piece of the start, on the
    /// board or in hand, or, where pieces change hands, as many of the worthiest kind as the
    /// board holds.
    fn per_piece(&self, kinds: u64, player: usize, worth: impl Fn(usize) -> u64) -> u64 {
        let of_kinds = |kind: &usize| kinds & (1 << kind) != 0;
        let pieces = &self.rules.pieces;
        if self.pieces_change_hands {
            let best = (0..pieces.kinds.len()).filter(of_kinds).map(worth).max();
            return best.unwrap_or(0).saturating_mul(self.pieces);
        }
        let start = &self.rules.start;
        let on_board = (start.board.iter())
            .filter(|&&c| c != EMPTY && c != BLOCKED)
            .map(|&c| pieces.split(c))
            .filter(|&(_, owner)| owner == player)
            .map(|(kind, _)| (kind, 1));
        let kinds_count = pieces.kinds.len();
        let in_hand =
            (0..kinds_count).map(|kind| (kind, start.hands[player * kinds_count + kind] as u64));
        (on_board.chain(in_hand))
            .filter(|(kind, _)| of_kinds(kind))
            .map(|(kind, count)| worth(kind).saturating_mul(count))
            .fold(0, u64::saturating_add)
    }

    /// The most squares a drop may go to: its fixed zone, or the squares next to the pieces
    /// it must be dropped beside.
    fn drop_squares(&self, zone: Option<DropZone>, player: usize) -> u64 {
        let zones = &self.rules.zones;
        match zone {
            None => self.squares,
            Some(DropZone::Fixed(zone)) => (0..self.squares as Sq)
                .filter(|&sq| zones.contains(zone, player, sq))
                .count() as u64,
            Some(DropZone::NextTo(kinds)) => (self.per_piece(kinds, player, |_| 1))
                .saturating_mul(self.most_neighbours)
                .min(self.squares),
        }
    }

    /// The most ways the steps a trigger adds after a move may take.
    fn triggered(&self, player: usize) -> u64 {
        (self.rules.turns.triggers.iter())
            .map(|trigger| self.plans(&trigger.plans, player, Ways::Whole))
            .max()
            .unwrap_or(0)
    }

    /// How many kinds a piece of `kinds` may be dropped as: each that a hand can hold (an
    /// unpromoted kind where hands are used, or one always in hand), with the forms it may be
    /// dropped as besides itself.
    fn kinds_in_hand(&self, kinds: u64) -> u64 {
        let hands = self.rules.derived.hands;
        (self.rules.pieces.kinds.iter().enumerate())
            .filter(|(kind, _)| kinds & (1 << kind) != 0)
            .filter(|(_, k)| (hands && !k.promoted) || k.drops.unlimited)
            .map(|(_, k)| 1 + k.drops.also_as.len() as u64)
            .sum()
    }

    /// The most squares a flight reaches from one square of an empty board.
    fn flight_reach(&self, flights: &[Gen]) -> u64 {
        let geometry = &self.rules.geometry;
        let from_square = |from: Sq| -> u64 {
            (flights.iter())
                .map(|flight| {
                    let mut to = from;
                    let mut reached = 0;
                    while reached < flight.range {
                        to = geometry.step(flight.vector, to);
                        if to == NO_SQUARE {
                            break;
                        }
                        reached += 1;
                    }
                    reached as u64
                })
                .sum()
        };
        (0..self.squares as Sq).map(from_square).max().unwrap_or(0)
    }
}

/// The most pieces placed on a probe board to measure their moves: on the largest boards with
/// many players and kinds, some squares are left out, so that the estimate stays cheap.
const MOST_PROBES: usize = 1 << 14;

/// For each player and kind, the most moves a piece of the kind makes: from its best square
/// alone on the board, plus from its best square surrounded by enemies (its captures), plus,
/// where pieces lend moves, what the best kind makes; or what a kind it may promote to makes.
fn most_moves(rules: &Ruleset) -> Vec<Vec<u64>> {
    let players = rules.players.count();
    let kinds = &rules.pieces.kinds;
    let squares = rules.geometry.squares();
    // Past the budget, every n-th square stands for its neighbours.
    let stride = (2 * players * kinds.len() * squares)
        .div_ceil(MOST_PROBES)
        .max(1);
    (0..players)
        .map(|player| {
            let mut boards = vec![ProbeBoard::empty(rules)];
            boards.extend(enemy_filler(rules, player).map(|e| ProbeBoard::crowded(rules, e)));
            let mut own: Vec<u64> = (0..kinds.len())
                .map(|kind| {
                    let code = rules.pieces.code(kind, player);
                    let probed = || (0..squares as Sq).step_by(stride);
                    (boards.iter_mut())
                        .map(|board| probed().map(|sq| board.reach(code, sq).moves).max())
                        .map(|most| most.unwrap_or(0) as u64)
                        .sum()
                })
                .collect();
            if !rules.pieces.lends.is_empty() {
                let lent = own.iter().copied().max().unwrap_or(0);
                own.iter_mut().for_each(|moves| *moves += lent);
            }
            (kinds.iter().zip(&own))
                .map(|(kind, &moves)| {
                    let promotions = kind.promotions.iter().chain(&kind.standing_promotions);
                    (promotions.flat_map(|p| &p.targets))
                        .map(|&target| own[target as usize])
                        .fold(moves, u64::max)
                })
                .collect()
        })
        .collect()
}

/// A piece of another player that no rule treats as royal, to surround a piece with.
fn enemy_filler(rules: &Ruleset, player: usize) -> Option<Code> {
    let enemy = (player + 1) % rules.players.count();
    (rules.pieces.kinds.iter().enumerate())
        .find(|(_, k)| !k.royal)
        .filter(|_| enemy != player)
        .map(|(kind, _)| rules.pieces.code(kind, enemy))
}
