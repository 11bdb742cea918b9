//! Attacks: whether a player's pieces could capture on a square, read from the bitboard
//! tables, on the board as it stands or as a turn would leave it (pieces moved, some taken),
//! so that proving a turn legal rarely needs making it.

use super::position::Position;
use crate::bitboard::Bitboard;
use crate::compile::{ANY_KIND, Hop, NO_SQUARE, Sq};

impl Position<'_> {
    /// Whether `sq` is attacked by any piece of `attacker`.
    pub fn attacked(&self, sq: Sq, attacker: usize) -> bool {
        at_width!(self.rules, B => self.attacked_in::<B>(sq, attacker, self.occupied(), !B::NONE))
    }

    /// Whether `attacker`'s pieces standing on `standing` attack `sq` when the occupied squares
    /// are `occupied`: the board as a turn would leave it, the attacker's pieces unmoved but
    /// those it would capture no longer standing.
    pub(super) fn attacked_in<B: Bitboard>(
        &self,
        sq: Sq,
        attacker: usize,
        occupied: B,
        standing: B,
    ) -> bool {
        let rules = self.rules;
        let bits = &rules.bits;
        let attacks = &rules.pieces.attacks[attacker];
        let theirs = self.player_set::<B>(attacker) & standing;
        // Most squares have none of the attacker's pieces a leap away: one read says so.
        if (bits.any_leap_sources::<B>(attacker, sq) & theirs).any() {
            for &(code, block) in &bits.leapers[attacker] {
                if (bits.leap_sources::<B>(block, sq) & self.code_set::<B>(code) & standing).any() {
                    return true;
                }
            }
        }
        // A slider is looked for only among the attacker's pieces on the lines' squares, and
        // its kind read off the board: most lines hold none, and a kind set costs a load per kind.
        let kind_bits = rules.pieces.kind_bits_of(attacker);
        let of_kinds = |hits: B, kinds: u64| {
            (hits.squares()).any(|s| kind_bits[self.board[s as usize] as usize] & kinds != 0)
        };
        let slides = &bits.slide_attacks[attacker];
        // Slide sets are made only for boards of up to two words.
        for &(set, kinds) in slides.sets.iter().filter(|_| B::WORDS <= 2) {
            let near = theirs & bits.slide_span(set, sq);
            if near.any() && of_kinds(bits.slide_set(set, sq, occupied) & near, kinds) {
                return true;
            }
        }
        for &(line, kinds) in &slides.lines {
            let near = theirs & bits.line::<B>(line, sq);
            if near.any() && of_kinds(bits.reach(line, sq, occupied) & near, kinds) {
                return true;
            }
        }
        if !bits.lame_leaps[attacker].is_empty()
            && self.lame_attack(sq, attacker, occupied, standing)
        {
            return true;
        }
        if !attacks.hops.is_empty() && self.hop_attack(sq, attacker, occupied, standing) {
            return true;
        }
        if !attacks.conditional.is_empty()
            && self.conditional_attack(sq, attacker, occupied, standing)
        {
            return true;
        }
        attacks.anywhere != 0
            && (self.kinds_set::<B>(attacker, attacks.anywhere) & standing & !B::bit(sq)).any()
    }

    /// Whether a capture of `attacker` that applies only from a zone, on a first move, to a
    /// zone or on some kinds reaches `sq`, followed forward from each piece that has it. The
    /// square is taken to hold a royal piece, as every attack test asks about one (or about a
    /// square a royal piece crosses): a capture that takes no royal kind does not attack it.
    fn conditional_attack<B: Bitboard>(
        &self,
        sq: Sq,
        attacker: usize,
        occupied: B,
        standing: B,
    ) -> bool {
        let rules = self.rules;
        let royal_kinds = rules.derived.royal_kinds;
        rules.pieces.attacks[attacker]
            .conditional
            .iter()
            .any(|&(code, index)| {
                let rule = &rules.pieces.programs[code as usize][index as usize];
                let lands = rule.takes & royal_kinds != 0
                    && (rule.to_zone).is_none_or(|z| rules.zones.contains(z, attacker, sq));
                if !lands {
                    return false;
                }
                let starts = match rule.from_zone {
                    Some(zone) => rules.zones.squares::<B>(zone, attacker),
                    None => !B::NONE,
                };
                let reaches = |from: Sq| {
                    from != sq
                        && self.rule_applies(rule, attacker, from)
                        && self.rule_reach(rule, from, occupied).has(sq)
                };
                (self.code_set::<B>(code) & standing & starts)
                    .squares()
                    .any(reaches)
            })
    }

    /// Whether a lame leap of `attacker` reaches `sq`, the squares it passes empty.
    fn lame_attack<B: Bitboard>(&self, sq: Sq, attacker: usize, occupied: B, standing: B) -> bool {
        let rules = self.rules;
        let geometry = &rules.geometry;
        let kind_bits = rules.pieces.kind_bits_of(attacker);
        rules.bits.lame_leaps[attacker].iter().any(|&entry| {
            let (vector, kinds, ref path) = rules.pieces.attacks[attacker].leaps[entry];
            let from = geometry.step(vector, sq);
            from != NO_SQUARE
                && standing.has(from)
                && kind_bits[self.board[from as usize] as usize] & kinds != 0
                && path.iter().all(|&p| {
                    let s = geometry.step(p, from);
                    s != NO_SQUARE && !occupied.has(s)
                })
        })
    }

    /// Whether a hopper of `attacker` captures on `sq`: walking back from it, the hurdle, then
    /// the hopper itself.
    fn hop_attack<B: Bitboard>(&self, sq: Sq, attacker: usize, occupied: B, standing: B) -> bool {
        let rules = self.rules;
        let bits = &rules.bits;
        rules.pieces.attacks[attacker]
            .hops
            .iter()
            .any(|&(line, kinds, (hop, over))| {
                let hurdle = match hop {
                    Hop::JustBeyond => {
                        let vector = rules.geometry.lines[line as usize].vector;
                        rules.geometry.step(vector, sq)
                    }
                    _ => first_on(bits, line, sq, occupied),
                };
                if hurdle == NO_SQUARE
                    || !occupied.has(hurdle)
                    || (over != ANY_KIND && !self.may_hop_over(over, hurdle))
                {
                    return false;
                }
                let unlimited = bits.unlimited(line);
                let hopper = first_on(bits, unlimited, hurdle, occupied);
                // A limited `line` holds the hop's range: the hopper stands within it of `sq`.
                hopper != NO_SQUARE
                    && (line == unlimited || bits.line::<B>(line, sq).has(hopper))
                    && (self.kinds_set::<B>(attacker, kinds) & standing).has(hopper)
            })
    }
}

/// The first square of `occupied` along `line` from `from`, or [`NO_SQUARE`].
fn first_on<B: Bitboard>(bits: &crate::compile::BitTables, line: u16, from: Sq, occupied: B) -> Sq {
    let blockers = bits.line::<B>(line, from) & occupied;
    match blockers.any() {
        true => bits.nearest(line, blockers),
        false => NO_SQUARE,
    }
}
