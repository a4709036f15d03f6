//! What may come next in a hand in progress, from its record so far: the log is the only
//! state. The record is replayed once ([`super::replay::replay_so_far`]) and each seat that
//! has a decision gets its legal actions from its own view ([`PlayState::view`],
//! [`legal_actions`]): no rule is written twice.

use crate::ruleset::Ruleset;
use crate::seat::Seat;

use super::code::{PlayCode, PlayFinding};
use super::legal::{LegalAction, legal_actions, legal_actions_with_calls};
use super::record::{Action, Drawn, Flower, Record};
use super::replay::{Replay, Unplayable, deal_record, no_result, replay_so_far};
use super::seed::Seed;
use super::state::{DrawKind, Phase, PlayState};

/// What is asked besides the legal actions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NextOptions {
    /// Each chow, pung or kong of a discard with the hand it leaves, analysed
    /// ([`super::legal::call_analysis`]).
    pub call_analysis: bool,
    /// The seed the hand was dealt from ([`super::seed`]): the deal and the draws are checked
    /// against it, and the next draw's tile is known.
    pub seed: Option<Seed>,
}

/// The moment of the hand, as the last line of the log leaves it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NextPhase {
    /// A seat draws (after the deal, a kong, or a flower shown).
    Draw,
    /// A seat holding a full hand discards, declares a kong or a win (after a draw, a chow or
    /// a pung).
    Act,
    /// A tile is on offer: a discard, or a tile added to a kong. Other seats may claim it.
    Claim,
    /// The hand is over: a win, a draw game, or a finding that stops it.
    Over,
}

impl NextPhase {
    /// The phase's name in lower case: `draw`, `act`, `claim`, `over`.
    pub const fn as_str(self) -> &'static str {
        match self {
            NextPhase::Draw => "draw",
            NextPhase::Act => "act",
            NextPhase::Claim => "claim",
            NextPhase::Over => "over",
        }
    }
}

/// A draw to come: who, which kind, and the tile when the wall is known (the record's own
/// wall, or its seed's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NextDraw {
    /// Who draws.
    pub seat: Seat,
    /// A turn's draw or a replacement.
    pub kind: DrawKind,
    /// The tile, when the wall is known.
    pub tile: Option<Drawn>,
}

/// What follows when no seat acts: a draw, or the draw game (荒牌).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Then {
    /// This draw.
    Draw(NextDraw),
    /// The wall has no tile for the draw: the hand is a draw game.
    DrawGame,
}

/// One seat's decision now: every action it may take (passing is always allowed and not
/// listed; a seat with nothing to claim has no decision).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The seat.
    pub seat: Seat,
    /// Its legal actions, as [`legal_actions`] gives them (flowers to show aside).
    pub actions: Vec<LegalAction>,
}

/// What may come next in a hand, from its record so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NextActions {
    /// The moment.
    pub phase: NextPhase,
    /// Each seat with a decision, in turn order from the seat that acts or offers.
    pub decisions: Vec<Decision>,
    /// In the draw phase, the draw (or the draw game when the wall has no tile for it); in
    /// the claim phase, what follows when every seat passes; `None` otherwise.
    pub then: Option<Then>,
    /// The verdict so far, as [`super::replay()`] gives it, without
    /// [`super::PlayCode::HandNotEnded`]: the findings, and the result when the hand is over.
    pub replay: Replay,
    /// The state where the log leaves the hand; `None` when its deal is not the seed's.
    pub state: Option<PlayState>,
}

impl NextActions {
    /// The findings so far, in record order.
    pub fn findings(&self) -> &[PlayFinding] {
        &self.replay.findings
    }
}

/// What may come next after `record` (cut anywhere after its deal) under `rules`. A deal
/// that is not the seed's is a finding that ends the hand (the phase is `Over`, with no
/// state).
///
/// # Errors
/// [`Unplayable`], as for [`super::replay_record`]: the deal cannot be played, or the seed
/// cannot apply to the record.
pub fn next_actions(
    record: &Record,
    rules: &Ruleset,
    options: &NextOptions,
) -> Result<NextActions, Unplayable> {
    let state = match deal_record(record, rules, options.seed.as_ref()).map_err(Unplayable::Seed)? {
        Ok(state) => state,
        Err(found) if found.iter().all(|f| f.code == PlayCode::DealNotFromSeed) => {
            return Ok(NextActions {
                phase: NextPhase::Over,
                decisions: Vec::new(),
                then: None,
                replay: no_result(found),
                state: None,
            });
        }
        Err(found) => return Err(Unplayable::Deal(found)),
    };
    let (replay, state) = replay_so_far(state, record, rules);
    let (phase, decisions, then) = match state.phase() {
        Phase::Draw { seat, kind } => (
            NextPhase::Draw,
            opening_flowers(&state, kind),
            Some(draw_or_end(&state, seat, kind)),
        ),
        Phase::Act { seat, .. } => (
            NextPhase::Act,
            decision(&state, seat, rules, options).into_iter().collect(),
            None,
        ),
        Phase::Discarded { seat, .. } => (
            NextPhase::Claim,
            claims(&state, seat, rules, options),
            Some(draw_or_end(&state, seat.next(), DrawKind::Normal)),
        ),
        // The kong was allowed only with a replacement left (`Wall::kong_from_hand_allowed`):
        // its draw is always there.
        Phase::AddingKong { seat, .. } => (
            NextPhase::Claim,
            claims(&state, seat, rules, options),
            Some(draw_or_end(&state, seat, DrawKind::AfterKong))
                .filter(|then| matches!(then, Then::Draw(_))),
        ),
        Phase::Over(_) => (NextPhase::Over, Vec::new(), None),
    };
    Ok(NextActions {
        phase,
        decisions,
        then,
        replay,
        state: Some(state),
    })
}

/// `seat`'s draw of `kind`, or the draw game when its wall has no tile left.
pub(super) fn draw_or_end(state: &PlayState, seat: Seat, kind: DrawKind) -> Then {
    if state.wall().can_draw(seat) {
        Then::Draw(NextDraw {
            seat,
            kind,
            tile: state.wall().expected(kind),
        })
    } else {
        Then::DrawGame
    }
}

/// Before the first discard, a seat dealt a flower may show it before the dealer's next
/// draw (144-tile walls only: other walls have no flower to hold).
fn opening_flowers(state: &PlayState, kind: DrawKind) -> Vec<Decision> {
    if !state.opening || kind != DrawKind::Normal {
        return Vec::new();
    }
    Seat::ALL
        .into_iter()
        .filter(|&s| state.seats()[s].holds_flower())
        .map(|s| flowers_of(state, s))
        .collect()
}

/// A seat holding a flower shows it before anything else (补花).
fn flowers_of(state: &PlayState, seat: Seat) -> Decision {
    let held = state.seats()[seat].flowers_held();
    Decision {
        seat,
        actions: (1..=8)
            .filter_map(Flower::new)
            .filter(|f| held & f.bit() != 0)
            .map(|f| LegalAction {
                action: Action::Flower(f),
                win: None,
                call: None,
            })
            .collect(),
    }
}

/// The decision of `seat` now, if it has one.
pub(super) fn decision(
    state: &PlayState,
    seat: Seat,
    rules: &Ruleset,
    options: &NextOptions,
) -> Option<Decision> {
    if state.seats()[seat].holds_flower() {
        return Some(flowers_of(state, seat));
    }
    let view = state.view(seat)?;
    let actions = if options.call_analysis {
        legal_actions_with_calls(&view, rules)
    } else {
        legal_actions(&view, rules)
    };
    (!actions.is_empty()).then_some(Decision { seat, actions })
}

/// The claims each other seat may make on what `offerer` offers, in turn order.
pub(super) fn claims(
    state: &PlayState,
    offerer: Seat,
    rules: &Ruleset,
    options: &NextOptions,
) -> Vec<Decision> {
    let mut seat = offerer.next();
    let mut out = Vec::new();
    while seat != offerer {
        if let Some(view) = state.view(seat) {
            let actions = if options.call_analysis {
                legal_actions_with_calls(&view, rules)
            } else {
                legal_actions(&view, rules)
            };
            if !actions.is_empty() {
                out.push(Decision { seat, actions });
            }
        }
        seat = seat.next();
    }
    out
}
