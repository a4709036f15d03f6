//! A whole hand replayed from its record: every event judged in order, the win's
//! circumstances derived from the log, the score and the settlement, and every place where
//! the record's own statements differ.

use crate::declaration::Declaration;
use crate::payments::Payments;
use crate::ruleset::{Ruleset, WallRule};
use crate::seat::BySeat;
use crate::violation::{FieldPath, Violation, ViolationCode};

use super::code::{At, Consequence, PlayCode, PlayFinding};
use super::record::{Circumstances, Record};
use super::seed::{Seed, SeededDeal};
use super::state::{Ending, Phase, PlayState};
use super::step::Effects;
use super::win::JudgedWin;

/// What a replay is asked for besides the verdict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ReplayOptions {
    /// Keep the state after every event (for a viewer).
    pub snapshots: bool,
}

/// How the replayed hand ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayEnd {
    /// A valid win.
    Win(Box<JudgedWin>),
    /// 荒牌.
    DrawGame,
    /// No result: the replay stopped where the state could no longer be known, or the record
    /// ends before the hand does.
    NoResult,
}

impl ReplayEnd {
    /// The fan total of the win, flowers excluded; 0 on a draw game; `None` without a result.
    pub fn fan(&self) -> Option<u32> {
        match self {
            ReplayEnd::Win(win) => Some(win.scoring.fan_total),
            ReplayEnd::DrawGame => Some(0),
            ReplayEnd::NoResult => None,
        }
    }

    /// The circumstances the log shows for the win; none on a draw game (all false); `None`
    /// without a result.
    pub fn circumstances(&self) -> Option<Circumstances> {
        match self {
            ReplayEnd::Win(win) => Some(win.circumstances),
            ReplayEnd::DrawGame => Some(Circumstances::default()),
            ReplayEnd::NoResult => None,
        }
    }
}

/// The verdict on a whole record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// Every finding, in record order (the deal, then events, then the record's statements).
    pub findings: Vec<PlayFinding>,
    /// How the hand ended.
    pub end: ReplayEnd,
    /// The false declarations of 和, judged, with their rulings.
    pub false_wins: Vec<JudgedWin>,
    /// The settlement: the win's payments and the penalties of false declarations; `None`
    /// when the hand has no result.
    pub payments: Option<Payments>,
    /// The state after each event (the deal first), when asked for; up to where the replay
    /// stopped.
    pub snapshots: Vec<PlayState>,
}

impl Replay {
    /// The valid win, if the hand ended in one.
    pub fn win(&self) -> Option<&JudgedWin> {
        match &self.end {
            ReplayEnd::Win(w) => Some(w),
            ReplayEnd::DrawGame | ReplayEnd::NoResult => None,
        }
    }

    /// Each seat's net points, when the hand has a result.
    pub fn deltas(&self) -> Option<BySeat<i64>> {
        self.payments.as_ref().map(Payments::deltas)
    }

    /// The first finding, if any.
    pub fn first_finding(&self) -> Option<&PlayFinding> {
        self.findings.first()
    }

    /// Whether the replay stopped before the end of the record.
    pub fn stopped(&self) -> bool {
        self.findings
            .iter()
            .any(|v| v.consequence() == Consequence::Stops)
    }
}

/// Replays `record` under `rules`.
pub fn replay(record: &Record, rules: &Ruleset, options: ReplayOptions) -> Replay {
    match PlayState::deal(
        rules.play,
        record.prevalent_wind,
        &record.deal,
        record.wall.clone(),
    ) {
        Ok(state) => replay_dealt(state, record, rules, options),
        Err(findings) => no_result(findings),
    }
}

/// Replays `record` under `rules`, its deal and draws checked against `seed`'s
/// ([`super::seed`]): a seat dealt other tiles is [`PlayCode::DealNotFromSeed`], a draw that
/// differs [`PlayCode::WallMismatch`]. A seed that cannot apply (a wall other than the
/// shared 136-tile one, a record whose own wall differs) is an input violation at `seed`.
pub fn replay_seeded(
    record: &Record,
    rules: &Ruleset,
    options: ReplayOptions,
    seed: &Seed,
) -> Result<Replay, Violation> {
    Ok(match deal_record(record, rules, Some(seed))? {
        Ok(state) => replay_dealt(state, record, rules, options),
        Err(findings) => no_result(findings),
    })
}

/// Why a record cannot be replayed at all: a problem of the request, not a finding.
#[derive(Clone, Debug, PartialEq)]
pub enum Unplayable {
    /// The deal cannot be played: every finding of it (a fifth copy, a seat dealt other than
    /// 13 tiles, a flower where the wall has none), each at its seat's deal.
    Deal(Vec<PlayFinding>),
    /// The seed cannot apply to the record (at `seed`): a wall other than the shared
    /// 136-tile one, or a record whose own wall differs from the seed's.
    Seed(Violation),
}

/// Replays `record` under `rules`, its deal and draws checked against `seed` when one is
/// given: the one entry of every front end (the service's `ReplayHand`, the command line's
/// `replay`). A deal that is not the seed's is a finding ([`PlayCode::DealNotFromSeed`]) that
/// stops the hand; a deal that cannot be played at all is [`Unplayable::Deal`].
///
/// # Errors
/// [`Unplayable`]: the deal cannot be played, or the seed cannot apply.
pub fn replay_record(
    record: &Record,
    rules: &Ruleset,
    options: ReplayOptions,
    seed: Option<&Seed>,
) -> Result<Replay, Unplayable> {
    match deal_record(record, rules, seed).map_err(Unplayable::Seed)? {
        Ok(state) => Ok(replay_dealt(state, record, rules, options)),
        Err(found) if found.iter().all(|f| f.code == PlayCode::DealNotFromSeed) => {
            Ok(no_result(found))
        }
        Err(found) => Err(Unplayable::Deal(found)),
    }
}

/// The state after the record's deal, with its wall, or the seed's when one is given:
/// `Err` inside for a deal that cannot be played (every finding of the deal) or, with a seed,
/// is not the seed's (one [`PlayCode::DealNotFromSeed`] per differing seat, and nothing
/// else); `Err` outside for a seed that cannot apply to the record (at `seed`).
pub fn deal_record(
    record: &Record,
    rules: &Ruleset,
    seed: Option<&Seed>,
) -> Result<Result<PlayState, Vec<PlayFinding>>, Violation> {
    let Some(seed) = seed else {
        return Ok(PlayState::deal(
            rules.play,
            record.prevalent_wind,
            &record.deal,
            record.wall.clone(),
        ));
    };
    let wall_rule = rules.play.wall;
    match wall_rule {
        WallRule::Shared136 => {}
        WallRule::Shared144 | WallRule::Botzone => {
            return Err(Violation::new(
                ViolationCode::ValueInvalid,
                FieldPath::of("seed"),
                format!(
                    "a seed deals one shared wall of 136 tiles; it does not apply to {}",
                    match wall_rule {
                        WallRule::Shared144 => "a wall of 144 tiles with flowers",
                        WallRule::Botzone | WallRule::Shared136 => "Botzone's per-seat walls",
                    }
                ),
            ));
        }
    }
    let seeded = seed.deal();
    let wall = seeded.wall_drawn();
    if let Some(own) = &record.wall
        && *own != wall
    {
        return Err(Violation::new(
            ViolationCode::ValueInvalid,
            FieldPath::of("seed"),
            "the record's wall is not the wall the seed deals".to_owned(),
        ));
    }
    // The seed's deal is always playable: a deal that differs from it is that finding
    // alone, whatever else is wrong with it (a fifth copy, a fourteenth tile).
    if let Some(found) = not_from_seed(record, &seeded) {
        return Ok(Err(found));
    }
    Ok(PlayState::deal(
        rules.play,
        record.prevalent_wind,
        &record.deal,
        Some(wall),
    ))
}

/// One [`PlayCode::DealNotFromSeed`] per seat dealt other tiles than the seed deals it.
fn not_from_seed(record: &Record, seeded: &SeededDeal) -> Option<Vec<PlayFinding>> {
    let found: Vec<PlayFinding> = record
        .deal
        .entries()
        .filter(|(seat, tiles)| !seeded.deals(*seat, tiles))
        .map(|(seat, _)| PlayFinding {
            at: At::Deal(seat),
            code: PlayCode::DealNotFromSeed,
            seat: Some(seat),
            message: format!("{seat} is dealt other tiles than the seed deals it"),
        })
        .collect();
    (!found.is_empty()).then_some(found)
}

/// A hand without a result: its deal could not be played.
pub(crate) fn no_result(findings: Vec<PlayFinding>) -> Replay {
    Replay {
        findings,
        end: ReplayEnd::NoResult,
        false_wins: Vec::new(),
        payments: None,
        snapshots: Vec::new(),
    }
}

/// Replays the events of `record` from `state`, the record's deal already dealt
/// ([`PlayState::deal`]): for a caller that reports an unplayable deal its own way.
pub fn replay_dealt(
    state: PlayState,
    record: &Record,
    rules: &Ruleset,
    options: ReplayOptions,
) -> Replay {
    let (state, mut effects, snapshots) = play_events(state, record, rules, options);
    if !record.draw_game
        && let Some(v) = state.unfinished()
    {
        effects.findings.push(v);
    }
    conclude(&state, record, effects, snapshots, rules)
}

/// Replays the events of `record` from `state` as far as they go, for a hand in progress: a
/// record that stops before the hand ends is no finding ([`PlayCode::HandNotEnded`] is never
/// given). The verdict so far, and the state where the log leaves the hand.
pub fn replay_so_far(state: PlayState, record: &Record, rules: &Ruleset) -> (Replay, PlayState) {
    let (state, effects, snapshots) = play_events(state, record, rules, ReplayOptions::default());
    let replay = conclude(&state, record, effects, snapshots, rules);
    (replay, state)
}

/// Every event applied in order until the replay stops, then the record's draw game.
fn play_events(
    mut state: PlayState,
    record: &Record,
    rules: &Ruleset,
    options: ReplayOptions,
) -> (PlayState, Effects, Vec<PlayState>) {
    let mut effects = Effects::default();
    let mut snapshots = Vec::new();
    if options.snapshots {
        snapshots.reserve(record.events.len() + 1);
        snapshots.push(state.clone());
    }
    for (index, event) in record.events.iter().enumerate() {
        if state.phase() == Phase::Over(Ending::Stopped) {
            break;
        }
        state.apply(index, event, rules, &mut effects);
        if options.snapshots {
            snapshots.push(state.clone());
        }
    }
    if record.draw_game {
        state.declare_draw_game(At::End, &mut effects);
    }
    (state, effects, snapshots)
}

/// The verdict on the hand as `state` leaves it: the win or the draw game, the settlement,
/// and the record's own statements checked.
pub(super) fn conclude(
    state: &PlayState,
    record: &Record,
    effects: Effects,
    snapshots: Vec<PlayState>,
    rules: &Ruleset,
) -> Replay {
    let Effects { mut findings, wins } = effects;
    let (valid, false_wins): (Vec<JudgedWin>, Vec<JudgedWin>) =
        wins.into_iter().partition(JudgedWin::is_valid);
    let end = match state.phase() {
        Phase::Over(Ending::Win(_)) => valid
            .into_iter()
            .next()
            .map_or(ReplayEnd::NoResult, |w| ReplayEnd::Win(Box::new(w))),
        Phase::Over(Ending::DrawGame) => ReplayEnd::DrawGame,
        Phase::Over(Ending::Stopped)
        | Phase::Draw { .. }
        | Phase::Act { .. }
        | Phase::Discarded { .. }
        | Phase::AddingKong { .. } => ReplayEnd::NoResult,
    };
    let payments = settle(&end, &false_wins, rules);
    check_stated(record, &end, payments.as_ref(), &mut findings);
    Replay {
        findings,
        end,
        false_wins,
        payments,
        snapshots,
    }
}

/// The win's payments and the false declarations' penalties.
fn settle(end: &ReplayEnd, false_wins: &[JudgedWin], rules: &Ruleset) -> Option<Payments> {
    let mut payments = match end {
        ReplayEnd::Win(win) => Payments::for_win(
            &Declaration {
                declarer: win.seat,
                source: win.source,
            },
            i64::from(rules.base_points),
            i64::from(win.scoring.total),
        ),
        ReplayEnd::DrawGame => Payments::default(),
        ReplayEnd::NoResult => return None,
    };
    for judged in false_wins {
        if let Some(ruling) = &judged.ruling {
            payments.extend(ruling.payments());
        }
    }
    Some(payments)
}

/// Every place where the record's statements differ from the referee's result.
fn check_stated(
    record: &Record,
    end: &ReplayEnd,
    payments: Option<&Payments>,
    findings: &mut Vec<PlayFinding>,
) {
    let stated = &record.stated;
    let fan = end.fan().map(i64::from);
    if let (Some(said), Some(fan)) = (stated.fan, fan)
        && said != fan
    {
        findings.push(PlayFinding {
            at: At::StatedFan,
            code: PlayCode::FanMismatch,
            seat: None,
            message: format!("the record states {said} fan; the log's hand scores {fan}"),
        });
    }
    if let (Some(said), Some(payments)) = (&stated.scores, payments) {
        let deltas = payments.deltas();
        if *said != deltas {
            findings.push(PlayFinding {
                at: At::StatedScores,
                code: PlayCode::ScoreMismatch,
                seat: None,
                message: format!(
                    "the record states points {:?}; the log's result is {:?}",
                    said.into_array(),
                    deltas.into_array()
                ),
            });
        }
    }
    if let (Some(said), Some(derived)) = (stated.circumstances, end.circumstances())
        && said != derived
    {
        findings.push(PlayFinding {
            at: At::StatedCircumstances,
            code: PlayCode::CircumstancesMismatch,
            seat: None,
            message: format!(
                "the record states the circumstances {said:?}; the log shows {derived:?}"
            ),
        });
    }
}
