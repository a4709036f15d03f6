//! Collecting the violations of an accounting request, and placing the engine's.

use super::super::house_rules::rules_from_pb;
use mcr::violation::FieldPath;
use mcr::{Rules, RulesetId, Violation, ViolationCode};

use super::super::path;
use super::super::pb;
use crate::limits;

/// Collects violations while a request is converted.
#[derive(Debug, Default)]
pub(crate) struct Violations(pub(crate) Vec<Violation>);

impl Violations {
    pub(crate) fn push(
        &mut self,
        code: ViolationCode,
        path: FieldPath,
        message: impl Into<String>,
    ) {
        self.0.push(Violation::new(code, path, message.into()));
    }

    /// The value of `result`, or `None` after recording its violation.
    pub(crate) fn take<T>(&mut self, result: Result<T, Violation>) -> Option<T> {
        result.map_err(|v| self.0.push(v)).ok()
    }
}

/// A violation of the engine placed below `prefix`, a path of the request.
pub(crate) fn prefixed(prefix: FieldPath, v: Violation) -> Violation {
    path::renamed_violation(v, |p| p.under(prefix))
}

/// The rules of a request, its ruleset and house rules (`overrides`): unknown numbers and
/// invalid overrides are violations, and the default rules stand in so that the rest of the
/// request is still checked.
pub(crate) fn rules_of(
    number: i32,
    overrides: Option<&pb::RuleOverrides>,
    v: &mut Violations,
) -> Rules {
    rules_from_pb(number, overrides, FieldPath::of("overrides")).unwrap_or_else(|errors| {
        v.0.extend(errors);
        Rules::Standard(RulesetId::default())
    })
}

/// A path `{name}[k]…` of the k-th converted element, as the request index `index[k]`.
pub(crate) fn renumbered(path: FieldPath, name: &str, index: &[usize]) -> FieldPath {
    path::reindexed(path, name, |k| index.get(k).copied())
}

/// The repeated fields of a list of offences (`name`) over their maxima
/// ([`limits::MAX_OFFENCES`], [`limits::MAX_PENALTY_TILES`]); checked before any work.
pub(crate) fn offences_over_limits(offences: &[pb::Penalty], name: &'static str) -> Vec<Violation> {
    let list = FieldPath::of(name);
    if let Some(v) = path::too_many(list, offences.len(), limits::MAX_OFFENCES) {
        return vec![v];
    }
    offences
        .iter()
        .enumerate()
        .filter_map(|(i, o)| {
            let at = list.index(i).field("tiles");
            path::too_many(at, o.tiles.len(), limits::MAX_PENALTY_TILES)
        })
        .collect()
}

/// The repeated fields of a `ComputeStandings` request over their maxima
/// ([`limits::MAX_PLAYERS`], [`limits::MAX_SESSIONS`], [`limits::MAX_HAND_RESULTS`]);
/// checked before any work.
pub(crate) fn players_over_limits(players: &[pb::PlayerRecord]) -> Vec<Violation> {
    let list = FieldPath::of("players");
    if let Some(v) = path::too_many(list, players.len(), limits::MAX_PLAYERS) {
        return vec![v];
    }
    let mut violations = Vec::new();
    for (i, player) in players.iter().enumerate() {
        let sessions = list.index(i).field("sessions");
        if let Some(v) = path::too_many(sessions, player.sessions.len(), limits::MAX_SESSIONS) {
            violations.push(v);
            continue;
        }
        for (j, session) in player.sessions.iter().enumerate() {
            let results = sessions.index(j).field("hand_results");
            violations.extend(path::too_many(
                results,
                session.hand_results.len(),
                limits::MAX_HAND_RESULTS,
            ));
        }
    }
    violations
}
