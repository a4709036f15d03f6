//! A declaration of 和 in play, judged: the circumstances the log shows, the hand, its score
//! and, for a false one, the ruling (docs/rules/fans.md#win-events, docs/rules/penalties.md#false-declarations).

use crate::adjudication::WinVerdict;
use crate::declaration::WinSource;
use crate::hand::{Hand, Meld, WinContext};
use crate::penalty::{Offence, Ruling, rule};
use crate::ruleset::Ruleset;
use crate::score::{Outcome, Scoring, score};
use crate::seat::Seat;
use crate::shape::shanten::shanten;
use crate::tile::{Counts, Tile, Wind};

use super::record::Circumstances;
use super::state::{DrawKind, PlayState, Wall};

/// A declaration of 和, judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JudgedWin {
    /// Who declared.
    pub seat: Seat,
    /// Where the tile came from.
    pub source: WinSource,
    /// The winning tile.
    pub tile: Tile,
    /// The circumstances the log shows.
    pub circumstances: Circumstances,
    /// The context the hand is scored with.
    pub context: WinContext,
    /// The fourteen tiles.
    pub hand: Hand,
    /// The engine's scoring of them.
    pub scoring: Scoring,
    /// A win, or which false declaration.
    pub verdict: WinVerdict,
    /// The ruling on a false declaration.
    pub ruling: Option<Ruling>,
}

impl JudgedWin {
    /// Whether the declaration is a win.
    pub const fn is_valid(&self) -> bool {
        matches!(self.verdict, WinVerdict::Valid)
    }
}

/// Judges `seat`'s declaration of 和 on `tile` from `source` (`kind`: how a self-drawn tile
/// came). The state is the one before the declaration; on a self-drawn win the tile is among
/// the seat's concealed tiles.
pub(crate) fn judge(
    state: &PlayState,
    seat: Seat,
    tile: Tile,
    (source, kind): (WinSource, DrawKind),
    rules: &Ruleset,
) -> JudgedWin {
    let holder = &state.seats[seat];
    let in_sight = state.visible[tile.index()];
    judge_parts(
        &WinParts {
            seat,
            concealed: holder.concealed(),
            melds: holder.melds(),
            flowers: holder.flower_count(),
            prevalent_wind: state.prevalent_wind,
            tile,
            source,
            circumstances: circumstances(&state.wall, seat, source, kind, in_sight),
        },
        rules,
    )
}

/// What a declaration of 和 is judged on.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WinParts<'a> {
    pub(crate) seat: Seat,
    /// The concealed tiles before the declaration (the tile drawn among them when
    /// self-drawn).
    pub(crate) concealed: &'a Counts,
    pub(crate) melds: &'a [Meld],
    pub(crate) flowers: u8,
    pub(crate) prevalent_wind: Wind,
    pub(crate) tile: Tile,
    pub(crate) source: WinSource,
    pub(crate) circumstances: Circumstances,
}

/// Judges a declaration of 和 from its parts: the fourteen tiles scored with the
/// circumstances, and for a false one, which one and its ruling.
pub(crate) fn judge_parts(parts: &WinParts<'_>, rules: &Ruleset) -> JudgedWin {
    let scored = scored(parts, rules);
    let outcome = scored.scoring.outcome;
    let verdict = match outcome {
        Outcome::Win => WinVerdict::Valid,
        Outcome::BelowMinimum | Outcome::NotWinningShape => {
            WinVerdict::decide(outcome, shanten(&scored.before, parts.melds.len()))
        }
    };
    let ruling = match verdict {
        WinVerdict::Valid => None,
        WinVerdict::False(kind) => rule(
            &Offence {
                offender: parts.seat,
                infraction: kind.infraction(),
            },
            1,
            rules,
        )
        .ok(),
    };
    judged(parts, scored, verdict, ruling)
}

/// [`judge_parts`] for a win only: `None` when the declaration would be false (which false
/// declaration it is, is not worked out).
pub(crate) fn judge_if_win(parts: &WinParts<'_>, rules: &Ruleset) -> Option<JudgedWin> {
    let scored = scored(parts, rules);
    (scored.scoring.outcome == Outcome::Win).then(|| judged(parts, scored, WinVerdict::Valid, None))
}

/// The judgement of the declaration `parts` describes.
fn judged(
    parts: &WinParts<'_>,
    Scored {
        hand,
        context,
        scoring,
        ..
    }: Scored,
    verdict: WinVerdict,
    ruling: Option<Ruling>,
) -> JudgedWin {
    JudgedWin {
        seat: parts.seat,
        source: parts.source,
        tile: parts.tile,
        circumstances: parts.circumstances,
        context,
        hand,
        scoring,
        verdict,
        ruling,
    }
}

/// The fourteen tiles of a declaration, scored, and the thirteen before the declared tile.
struct Scored {
    hand: Hand,
    context: WinContext,
    scoring: Scoring,
    before: Counts,
}

fn scored(parts: &WinParts<'_>, rules: &Ruleset) -> Scored {
    let WinParts {
        seat,
        concealed,
        melds,
        flowers,
        prevalent_wind,
        tile,
        source,
        circumstances,
    } = *parts;
    let mut standing = [tile; 14];
    let mut n = 0;
    let mut skip_drawn = matches!(source, WinSource::SelfDrawn);
    let mut before = [0u8; 34];
    for t in Tile::ALL {
        for _ in 0..concealed[t.index()] {
            if skip_drawn && t == tile {
                skip_drawn = false;
                continue;
            }
            before[t.index()] += 1;
            if n < standing.len() {
                standing[n] = t;
                n += 1;
            }
        }
    }
    let context = WinContext {
        method: source.method(),
        robbing_kong: circumstances.robbing_kong,
        replacement_draw: circumstances.kong_replacement,
        last_tile: circumstances.last_tile,
        last_copy: circumstances.last_copy,
        seat_wind: seat.wind(),
        prevalent_wind,
        flowers,
    };
    // A hand in play keeps 13 − 3·melds standing tiles before a win; a hand of another size
    // (a self-drawn win without the tile, a view that says otherwise) is judged as no
    // winning shape rather than trusted.
    let sized = n + 3 * melds.len() == 13 && !skip_drawn;
    let hand = Hand::of_checked_parts(melds, &standing[..n.min(13)], tile);
    let mut scoring = score(&hand, &context, rules);
    if !sized {
        scoring.outcome = Outcome::NotWinningShape;
    }
    Scored {
        hand,
        context,
        scoring,
        before,
    }
}

/// The circumstances of `seat`'s win on `tile` from `source` now (docs/rules/fans.md#win-events), read from
/// the wall and `in_sight`, the copies of the tile in sight (discards, claimed tiles and
/// exposed melds of every seat, the tile being added to a kong; never concealed kongs): the
/// last-copy test counts them without the winning tile itself. `kind` is how a self-drawn
/// tile came. The replay and the legal actions both read a win this way.
pub(crate) fn circumstances(
    wall: &Wall,
    seat: Seat,
    source: WinSource,
    kind: DrawKind,
    in_sight: u8,
) -> Circumstances {
    let (self_drawn, robbing_kong, last_tile, others) = match source {
        WinSource::SelfDrawn => (true, false, wall.drawn_is_last(seat), in_sight),
        WinSource::Discard { discarder } => (
            false,
            false,
            wall.discard_is_last(discarder),
            in_sight.saturating_sub(1),
        ),
        WinSource::RobbingKong { .. } => (false, true, false, in_sight.saturating_sub(1)),
    };
    Circumstances {
        self_drawn,
        kong_replacement: self_drawn && kind == DrawKind::AfterKong,
        robbing_kong,
        last_tile,
        last_copy: others >= 3,
    }
}
