//! Static exchange: what a capture wins once the pieces that can take on its square have
//! taken in turn, the least valuable first, each side free to stop when taking on would lose.
//! Read from the attack tables, without making a move: exact only where they describe every
//! capture (each capture takes the one piece it lands on; legality by pins or by making and
//! testing), which the caller checks. Promotions on the way are not counted.

use super::position::Position;
use super::turn::Turn;
use crate::bitboard::Bitboard;
use crate::compile::Sq;

/// Longest exchange followed: beyond it no board has pieces enough to matter.
const MAX_EXCHANGE: usize = 32;

/// What an exchange counts: each kind's value (royal kinds worth more than all else, as
/// taking one ends the exchange), and the kinds from the cheapest.
pub struct ExchangeValues {
    values: Vec<i32>,
    cheapest_first: Vec<usize>,
}

impl ExchangeValues {
    /// `values` per kind; kinds that are `royal` count as worth more than any board holds.
    pub fn new(values: &[i32], royal: &[bool]) -> Self {
        let values: Vec<i32> = (values.iter().zip(royal))
            .map(|(&value, &royal)| if royal { 1 << 20 } else { value })
            .collect();
        let mut cheapest_first: Vec<usize> = (0..values.len()).collect();
        cheapest_first.sort_by_key(|&kind| values[kind]);
        ExchangeValues {
            values,
            cheapest_first,
        }
    }
}

impl Position<'_> {
    /// What `turn`, one move of the player to move onto the piece it takes, wins by the end
    /// of the exchange on its square, between the mover and the next player.
    pub fn exchange(&self, turn: &Turn, values: &ExchangeValues) -> i32 {
        at_width!(self.rules, B => self.exchange_in::<B>(turn, values))
    }

    /// What the player to move wins by taking the piece on `sq`, the least valuable attacker
    /// first, and following the exchange there with the piece's owner (other players stand
    /// aside): nothing if no capture there pays, or the piece is the mover's own.
    pub fn exchange_on(&self, sq: Sq, values: &ExchangeValues) -> i32 {
        at_width!(self.rules, B => self.exchange_on_in::<B>(sq, values))
    }

    fn exchange_on_in<B: Bitboard>(&self, sq: Sq, values: &ExchangeValues) -> i32 {
        let Some((_, owner)) = self.piece(self.board[sq as usize]) else {
            return 0;
        };
        if owner == self.to_move {
            return 0;
        }
        let occupied = self.occupied::<B>();
        let sides = [owner, self.to_move];
        (self.cheapest_attacker::<B>(sq, self.to_move, occupied, values)).map_or(0, |from| {
            self.exchange_from::<B>(from, sq, sides, values).max(0)
        })
    }

    fn exchange_in<B: Bitboard>(&self, turn: &Turn, values: &ExchangeValues) -> i32 {
        let main = turn.main();
        let sides = [self.next_player(self.to_move), self.to_move];
        self.exchange_from::<B>(main.from, main.to, sides, values)
    }

    /// What the player to move wins by the end of the exchange that its piece on `from`
    /// starts by taking on `to`, where `sides` take in turn after it: the one that takes
    /// back first, then the player to move.
    fn exchange_from<B: Bitboard>(
        &self,
        from: Sq,
        to: Sq,
        sides: [usize; 2],
        values: &ExchangeValues,
    ) -> i32 {
        let worth = |sq: Sq| {
            (self.piece(self.board[sq as usize])).map_or(0, |(kind, _)| values.values[kind])
        };
        // gains[n]: what the side making the nth capture has won, if the other stops there.
        let mut gains = [0; MAX_EXCHANGE];
        gains[0] = worth(to);
        let mut standing_there = worth(from);
        let mut occupied = self.occupied::<B>() & !B::bit(from);
        let mut depth = 0;
        while depth + 1 < MAX_EXCHANGE {
            let side = sides[depth % 2];
            let Some(taker) = self.cheapest_attacker::<B>(to, side, occupied, values) else {
                break;
            };
            depth += 1;
            gains[depth] = standing_there - gains[depth - 1];
            // Neither side can gain by going on: the side to take has lost already even if
            // it takes, and the other would have stopped before.
            if (-gains[depth - 1]).max(gains[depth]) < 0 {
                break;
            }
            standing_there = worth(taker);
            occupied &= !B::bit(taker);
        }
        for n in (1..=depth).rev() {
            gains[n - 1] = -(-gains[n - 1]).max(gains[n]);
        }
        gains[0]
    }

    /// The square of `side`'s least valuable piece that attacks `sq`, on the board with only
    /// `occupied` occupied.
    fn cheapest_attacker<B: Bitboard>(
        &self,
        sq: Sq,
        side: usize,
        occupied: B,
        values: &ExchangeValues,
    ) -> Option<Sq> {
        let attacks = |standing: B| self.attacked_in::<B>(sq, side, occupied, standing);
        let standing = self.player_set::<B>(side) & occupied;
        if !attacks(standing) {
            return None;
        }
        (values.cheapest_first.iter())
            .map(|&kind| self.kinds_set::<B>(side, 1 << kind) & standing)
            .filter(|&pieces| pieces.any() && attacks(pieces))
            .find_map(|pieces| pieces.squares().find(|&from| attacks(B::bit(from))))
    }
}
