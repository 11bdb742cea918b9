//! What the engine derives once from the other parts, in one place: flags that say whether the
//! rules use a concept, so that a game that does not use it pays nothing for it on the hot
//! path, and the masks and lists the engine consults in its stead. The parts hold what the
//! file says; a new derived value is one more field here and one more line in
//! [`Derived::new`].

use super::captures::Captures;
use super::castling::Castling;
use super::counters::Event;
use super::endings::{EndCondition, Endings, Outcome};
use super::moves::ANY_KIND;
use super::pieces::PieceTables;
use super::players::Players;
use super::setup::Start;
use super::turns::{Action, Coinciding, PhaseEnd, TurnTables};

/// How the engine proves a turn legal, chosen once for the ruleset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Legality {
    /// No piece is royal: every turn the program makes is legal.
    Free,
    /// Every capture is a plain leap or slide: pins prove most moves legal without making them.
    Pins,
    /// Each turn is made and the royal pieces tested.
    MakeAndTest,
    /// Each turn is made, and is illegal if any turn the next player could then make, with
    /// their real counters and hand, removes a royal piece of the mover: for games where a
    /// royal piece can be taken by more than the attack tables know (custodian capture,
    /// triggers, lent moves).
    Reply,
}

#[derive(Clone, Debug)]
pub struct Derived {
    /// Whether any kind is royal.
    pub royal: bool,
    /// The royal kinds.
    pub royal_kinds: u64,
    /// Some promotion turns a royal piece into a non-royal one or back, so royal pieces are
    /// found by scanning rather than tracked.
    pub royalty_changes: bool,
    pub legality: Legality,
    /// Some move is allowed only as a piece's first move, so positions track unmoved pieces.
    pub first_moves: bool,
    /// Some turn gates, so positions track open gates.
    pub gates: bool,
    /// A capture may take the capturer's own royal piece off the board: captures explode,
    /// or a royal kind petrifies. Legality then makes each turn and tests it.
    pub captures_lose_own: bool,
    /// The kinds that have some castling without rights.
    pub free_castlers: u64,
    /// Some en-passant capture reaches further than one step: passed squares always open.
    pub ep_always: bool,
    /// Some piece can ever be in a hand: captures go there, or the start puts one there.
    pub hands: bool,
    /// The kinds with promotions that are turns of their own.
    pub standing_promoters: u64,
    /// The kinds of an endless supply in hand: dropped without being taken from a hand.
    pub endless_kinds: u64,
    /// The kinds dropped on both colours of squares (`drop opposite-colours`): every drop is
    /// tested for the room they need.
    pub colour_balanced: u64,
    /// The kinds that stand off against another player's piece of their kind: in a standoff,
    /// turns are tested to end it.
    pub standoff_kinds: u64,
    /// Which turns two ways of making may lead to the same position (two drops, a placement
    /// and a move, two arrows): such ways are one turn.
    pub coinciding: Coinciding,
    /// Some trigger takes two steps or more (two removals, say), so that the turns of one
    /// move may coincide where turns of several parts do: turns listed otherwise than by
    /// generation are merged as it merges them.
    pub triggers_coincide: bool,
    /// Some counter has a limit: turns are tested against it.
    pub counter_limits: bool,
    /// The limited counters change only on moves and turn ends, so a turn's effect on them is
    /// known without making it.
    pub simple_limits: bool,
    /// Positions count each player's turns of the phase: some phase ends or has periodic turns.
    pub counts_turns: bool,
    /// More than two players: a `lose` rule takes the player it holds for out of the game,
    /// and the last player left wins.
    pub eliminates: bool,
    /// Players are taken out when the player to move attacks their royal piece (`lose when
    /// exposed`), and no capture takes or turns more than the piece landed on (no explosion,
    /// custodian capture or conversion): a lone move or drop tells which players it leaves
    /// unattacked from the lines it leaves and enters.
    pub spares_after_lone_turns: bool,
    /// The end conditions that can end the game while the player to move still has turns:
    /// each turn starts by testing them.
    pub early_ends: Vec<EndCondition>,
    /// None of [`Derived::early_ends`] reads the player's turns: whether one holds is told
    /// without generating them. An immobilized piece reads them, and a goal is taken to, as
    /// one may be judged by whether its arrival can be followed.
    pub turn_blind_ends: bool,
    /// Whether the early ends can be told before the turns most of the time: none is a goal,
    /// and an immobilized piece is told free as soon as it can move as the board stands.
    pub ends_told_before_turns: bool,
    /// The legal turns of a position can be counted from target sets without building them:
    /// every turn is one move or one drop, legality is read from attack sets, and nothing
    /// beyond a piece's own targets (lent moves, triggers, custodian captures, castling
    /// without rights, counter limits, an end judged on the turns) decides what is legal.
    pub countable: bool,
    /// Whether a player's power to remove a royal piece in one turn can be estimated from the
    /// attack tables and the turn's shape (see the engine's royal threats): no piece lends
    /// moves, no capture explodes, and no trigger grants a further move.
    pub threats_estimable: bool,
    /// Whether a player's power to remove a royal piece with one move is read exactly from
    /// target sets (see the engine's removals): two players, and no phase that ends or alternates its plans; plain moves, with no castling, en
    /// passant, promotion, lent move, conversion, petrifying or explosion; triggers that only
    /// remove; counter limits whose effect follows from the move alone.
    pub readable_removals: bool,
    /// Where legality is judged by the replies, the legal turns can be counted without
    /// building the quiet ones: removals are readable, pieces move by steps and leaps, and no
    /// rule beyond royal safety and counter limits filters the turns (no compulsory capture,
    /// `forbid`, standoff, coinciding turns, or end judged on the turns).
    pub replies_countable: bool,
    /// Where no rule filters the turns the plans make (no royal piece, counter limit,
    /// compulsory capture, `forbid`, standoff, trigger or lent move) and no two ways of making
    /// a turn are one, the turns can be counted with their last step counted, not built: an
    /// arrow's landing squares, say.
    pub ways_countable: bool,
    /// A hop limited in what it jumps over reads the hurdle's kind from the board, so attacks
    /// are judged only on positions as they stand: legality makes each turn and tests it.
    pub board_read_attacks: bool,
    /// An end rule counts passes in a row, so each turn keeps the count.
    pub counts_passes: bool,
    /// The kinds whose moves reset the count of quiet plies.
    pub quiet_breakers: u64,
    /// Whether a capture restarts the count of quiet plies: without a quiet-plies rule the
    /// clock counts plies since the last capture, as FEN does.
    pub captures_break_quiet: bool,
    /// Whether a drop restarts the count of quiet plies.
    pub drops_break_quiet: bool,
}

impl Derived {
    /// What the engine derives from the other parts, the last to be built.
    pub fn new(
        players: &Players,
        pieces: &PieceTables,
        captures: &Captures,
        castling: &Castling,
        turns: &TurnTables,
        endings: &Endings,
        start: &Start,
    ) -> Derived {
        let kinds = &pieces.kinds;
        let royal = kinds.iter().any(|k| k.royal);
        let plain_attacks = pieces.attacks.iter().all(|a| {
            a.hops.is_empty()
                && a.anywhere == 0
                && a.conditional.is_empty()
                && a.leaps.iter().all(|(_, _, path)| path.is_empty())
        });
        let gens = || pieces.programs.iter().flatten();
        let limited = turns.counters.iter().filter(|c| c.limit.is_some());
        let eliminates = players.count() > 2;
        let board_read_attacks = gens().any(|g| g.over != ANY_KIND);
        let quiet = endings.rules.iter().filter_map(|(_, c)| match *c {
            EndCondition::Quiet {
                captures, kinds, ..
            } => Some((captures, kinds)),
            _ => None,
        });
        let captures_lose_own = captures.explosion.is_some()
            || (kinds.iter().zip(0..))
                .any(|(k, kind)| k.royal && captures.petrify & 1 << kind != 0);
        // Pins say nothing of a capture that explodes next to the royal piece.
        let pinnable = plain_attacks && captures.explosion.is_none();
        let legality = match (royal, endings.by_reply(), pinnable) {
            (false, _, _) => Legality::Free,
            (true, true, _) => Legality::Reply,
            (true, false, true) => Legality::Pins,
            (true, false, false) => Legality::MakeAndTest,
        };
        let early_ends: Vec<EndCondition> = (endings.rules.iter())
            // With more than two players, `lose` rules are applied at the start of each turn,
            // taking players out; only the other rules can end the game early.
            .filter(|&&(outcome, _)| !(eliminates && outcome == Outcome::Lose))
            .map(|&(_, c)| c)
            .filter(|c| c.ends_early())
            .collect();
        let counter_limits = turns.counters.iter().any(|c| c.limit.is_some());
        let counts_turns = (turns.phases.iter()).any(|p| p.end != PhaseEnd::Never || p.cycle > 1);
        let simple_limits = limited
            .flat_map(|c| c.for_mover.iter().chain(&c.for_others))
            .all(|(event, _)| matches!(event, Event::Move(_) | Event::TurnEnd));
        let readable_removals = players.count() == 2
            && !counts_turns
            && pieces.lends.is_empty()
            && pieces.converts.is_empty()
            && captures.explosion.is_none()
            && captures.petrify == 0
            && castling.rights.is_empty()
            && castling.free.is_empty()
            && turns.gate_zones().is_empty()
            && !board_read_attacks
            && !gens().any(|g| g.en_passant)
            && kinds
                .iter()
                .all(|k| k.promotions.is_empty() && k.standing_promotions.is_empty())
            && (!counter_limits || simple_limits)
            && (turns.triggers.iter())
                .flat_map(|t| t.plans.iter().flat_map(|p| &p.steps))
                .all(|step| matches!(step.action, Action::Remove { .. }));
        let goal_ends = (early_ends.iter()).any(|c| matches!(c, EndCondition::Reaches { .. }));
        let turn_blind_ends = !early_ends.iter().any(|c| {
            matches!(
                c,
                EndCondition::Immobilized(_) | EndCondition::Reaches { .. }
            )
        });
        let countable = legality != Legality::Reply
            && !counter_limits
            && turns.triggers.is_empty()
            && turns.single_moves_or_drops()
            && kinds.iter().all(|k| k.standing_promotions.is_empty())
            && pieces.converts.is_empty()
            // Lent moves are counted from targets only where no move needs judging.
            && (pieces.lends.is_empty() || legality == Legality::Free)
            && captures.custodian.is_empty()
            && !captures_lose_own
            && !turns.forbids.any()
            && pieces.standoffs.is_empty()
            && !board_read_attacks
            && !early_ends
                .iter()
                .any(|c| matches!(c, EndCondition::Immobilized(_)));
        Derived {
            ways_countable: legality == Legality::Free
                && !countable
                && !eliminates
                && !counter_limits
                && turns.triggers.is_empty()
                && pieces.lends.is_empty()
                && !captures.compulsory
                && !turns.forbids.any()
                && pieces.standoffs.is_empty()
                && turns.coinciding() == Coinciding::Never
                && !goal_ends,
            countable,
            turn_blind_ends,
            ends_told_before_turns: !goal_ends,
            replies_countable: legality == Legality::Reply
                && readable_removals
                && pieces.step_reach.is_some()
                && !captures.compulsory
                && !turns.forbids.any()
                && pieces.standoffs.is_empty()
                && turns.coinciding() != Coinciding::Every
                && turn_blind_ends,
            readable_removals,
            threats_estimable: pieces.lends.is_empty()
                && captures.explosion.is_none()
                && !(turns.triggers.iter())
                    .flat_map(|t| t.plans.iter().flat_map(|p| &p.steps))
                    .any(|step| matches!(step.action, Action::Move { .. })),
            board_read_attacks,
            counts_passes: (endings.rules.iter())
                .any(|(_, c)| matches!(c, EndCondition::Passed(..) | EndCondition::Standoff)),
            royal,
            royal_kinds: (kinds.iter().enumerate())
                .filter(|(_, k)| k.royal)
                .fold(0, |mask, (kind, _)| mask | 1 << kind),
            royalty_changes: (0..kinds.len()).any(|kind| pieces.changes_royalty(kind)),
            legality,
            first_moves: gens().any(|g| g.first) || castling.free.iter().any(|c| c.unmoved),
            gates: !turns.gate_zones().is_empty(),
            captures_lose_own,
            free_castlers: castling.free.iter().fold(0, |m, c| m | 1 << c.kind),
            ep_always: gens().any(|g| g.en_passant && g.mode.captures() && !g.one_step()),
            hands: captures.to_hand || start.hands.iter().any(|&n| n > 0),
            // Only a kind that goes to hand as itself can be: a drop takes from the hand of
            // what the piece goes to hand as.
            endless_kinds: (kinds.iter().enumerate())
                .filter(|&(kind, k)| k.drops.unlimited && k.demotes_to as usize == kind)
                .fold(0, |mask, (kind, _)| mask | 1 << kind),
            standing_promoters: (kinds.iter().enumerate())
                .filter(|(_, k)| !k.standing_promotions.is_empty())
                .fold(0, |mask, (kind, _)| mask | 1 << kind),
            colour_balanced: (kinds.iter().enumerate())
                .filter(|(_, k)| k.drops.opposite_colours)
                .fold(0, |mask, (kind, _)| mask | 1 << kind),
            standoff_kinds: (0..kinds.len())
                .filter(|&kind| {
                    !pieces.standoffs.is_empty()
                        && !pieces.standoffs[pieces.code(kind, 0) as usize].is_empty()
                })
                .fold(0, |mask, kind| mask | 1 << kind),
            coinciding: turns.coinciding(),
            triggers_coincide: turns.coinciding() != Coinciding::Never
                && (turns.triggers.iter()).any(|t| t.plans.iter().any(|plan| plan.steps.len() > 1)),
            counter_limits,
            simple_limits,
            counts_turns,
            eliminates,
            spares_after_lone_turns: eliminates
                && captures.explosion.is_none()
                && captures.custodian.is_empty()
                && pieces.converts.is_empty()
                && (endings.rules).contains(&(Outcome::Lose, EndCondition::Exposed)),
            early_ends,
            quiet_breakers: quiet.clone().fold(0, |m, (_, kinds)| m | kinds),
            captures_break_quiet: quiet.clone().next().is_none()
                || quiet.clone().any(|(captures, _)| captures),
            drops_break_quiet: (endings.rules.iter())
                .any(|(_, c)| matches!(c, EndCondition::Quiet { drops: true, .. })),
        }
    }
}
