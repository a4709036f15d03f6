//! The repeated fields of the accounting requests over their maxima (`crate::limits`),
//! checked before any work.

use mcr::Violation;
use mcr::violation::FieldPath;

use crate::api::kit::path;
use crate::api::pb;
use crate::limits;

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
