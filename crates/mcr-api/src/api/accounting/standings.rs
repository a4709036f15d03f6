//! `ComputeStandings`: session totals, standard points and the ranking.

use super::maxima::players_over_limits;
use crate::api::kit::house_rules::{
    KeptRules, fingerprint_text, house_rules_of, overrides_from_pb, rules_of,
};
use crate::api::kit::values::{
    fraction_to_pb, method_from_pb, method_to_pb, ruleset_from_pb, ruleset_to_pb, to_i32, to_u32,
};
use crate::api::kit::violations::{Violations, prefixed};
use mcr::ruleset::{StandardPointTies, StandardPoints};
use mcr::standings::{
    Rational, SessionResult, SessionScore, Standing, group_standard_points, rank_players,
    session_score, standard_points,
};
use mcr::violation::FieldPath;
use mcr::{RuleOverrides, Rules};
use mcr::{Ruleset, Violation, ViolationCode};

use crate::api::pb;

/// Every player's session totals (局分); `None` for a session with a violation.
pub(crate) fn session_scores(
    players: &[pb::PlayerRecord],
    rules: &Ruleset,
    v: &mut Violations,
) -> Vec<Vec<Option<SessionScore>>> {
    let session_count = players.first().map_or(0, |p| p.sessions.len());
    let mut scores = Vec::with_capacity(players.len());
    for (i, player) in players.iter().enumerate() {
        let pb::PlayerRecord { name: _, sessions } = player;
        if sessions.len() != session_count {
            v.push(
                ViolationCode::ValueInvalid,
                FieldPath::of("players").index(i).field("sessions"),
                format!(
                    "every player has the same number of sessions: players[0] has {session_count}, this player {}",
                    sessions.len()
                ),
            );
        }
        let mut row = Vec::with_capacity(sessions.len());
        for (j, session) in sessions.iter().enumerate() {
            let pb::SessionRecord {
                hand_results,
                late_minutes,
                table: _,
            } = session;
            let at = FieldPath::of("players").index(i).field("sessions").index(j);
            let results: Vec<i64> = hand_results.iter().map(|&r| i64::from(r)).collect();
            match session_score(&results, i64::from(*late_minutes), rules) {
                Ok(s) if i32::try_from(s.score).is_err() => {
                    v.push(
                        ViolationCode::ValueInvalid,
                        at.field("hand_results"),
                        "the hand results add up beyond any possible session total",
                    );
                    row.push(None);
                }
                Ok(s) => row.push(Some(s)),
                Err(errors) => {
                    v.extend(errors.into_iter().map(|e| prefixed(at, e)));
                    row.push(None);
                }
            }
        }
        scores.push(row);
    }
    scores
}

/// The groups of players (indices) ranked together in session `j`: everyone under the group
/// formula, each table under 4/2/1/0 (a table without exactly four players is a violation).
pub(crate) fn session_groups(
    players: &[pb::PlayerRecord],
    j: usize,
    method: StandardPoints,
    v: &mut Violations,
) -> Vec<Vec<usize>> {
    match method {
        StandardPoints::GroupFormula => vec![(0..players.len()).collect()],
        StandardPoints::Table4210 => {
            // The players of each table, in order of first appearance.
            let mut tables: Vec<(u32, Vec<usize>)> = Vec::new();
            for (i, player) in players.iter().enumerate() {
                let Some(session) = player.sessions.get(j) else {
                    continue;
                };
                match tables.iter_mut().find(|(t, _)| *t == session.table) {
                    Some((_, seated)) => seated.push(i),
                    None => tables.push((session.table, vec![i])),
                }
            }
            let mut groups = Vec::with_capacity(tables.len());
            for (table, seated) in tables {
                if seated.len() == 4 {
                    groups.push(seated);
                } else {
                    v.push(
                        ViolationCode::ValueInvalid,
                        FieldPath::of("players")
                            .index(seated[0])
                            .field("sessions")
                            .index(j)
                            .field("table"),
                        format!(
                            "table {table} of session {} seats {} player{}; standard points 4/2/1/0 need four at each table",
                            j + 1,
                            seated.len(),
                            if seated.len() == 1 { "" } else { "s" }
                        ),
                    );
                }
            }
            groups
        }
    }
}

/// Standard points of every player in session `j` (zero where a session is invalid, which
/// is reported already).
pub(crate) fn session_standard_points(
    scores: &[Vec<Option<SessionScore>>],
    groups: &[Vec<usize>],
    j: usize,
    method: StandardPoints,
    ties: StandardPointTies,
) -> Vec<Rational> {
    let mut out = vec![Rational::ZERO; scores.len()];
    for group in groups {
        let group_scores: Option<Vec<i64>> = group
            .iter()
            .map(|&i| scores.get(i)?.get(j).copied().flatten().map(|s| s.score))
            .collect();
        let Some(group_scores) = group_scores else {
            continue;
        };
        let shared = match method {
            StandardPoints::GroupFormula => group_standard_points(&group_scores, ties),
            StandardPoints::Table4210 => {
                standard_points(&group_scores, method, ties).unwrap_or_default()
            }
        };
        for (&i, p) in group.iter().zip(shared) {
            out[i] = p;
        }
    }
    out
}

/// Computes session totals, standard points and the ranking: the `ComputeStandings` call.
/// Every violation of the request is reported.
pub fn compute_standings(
    request: &pb::ComputeStandingsRequest,
    kept: &KeptRules,
) -> Result<pb::ComputeStandingsResponse, Vec<Violation>> {
    let pb::ComputeStandingsRequest {
        players,
        standard_points_method,
        ruleset,
        overrides,
    } = request;
    let over = players_over_limits(players);
    if !over.is_empty() {
        return Err(over);
    }
    let mut v = Violations::default();
    // The method asked for is the ruleset's `standard_points` switch, set like the overrides.
    let method = v.take(method_from_pb(*standard_points_method)).flatten();
    let applied = if method.is_none() {
        rules_of(*ruleset, overrides.as_ref(), kept, &mut v)
    } else {
        let id = v.take(ruleset_from_pb(*ruleset)).unwrap_or_default();
        let house = overrides.as_ref().map_or_else(
            || Ok(RuleOverrides::default()),
            |o| overrides_from_pb(o, FieldPath::of("overrides")),
        );
        house
            .and_then(|mut o| {
                o.standard_points = method;
                house_rules_of(id, &o, FieldPath::of("overrides"))
            })
            .unwrap_or_else(|errors| {
                v.extend(errors);
                Rules::Standard(id)
            })
    };
    let rules = &applied.ruleset();
    let method = rules.standard_points;
    if players.is_empty() {
        v.push(
            ViolationCode::ValueInvalid,
            FieldPath::of("players"),
            "at least one player is required",
        );
    }
    let session_count = players.first().map_or(0, |p| p.sessions.len());
    let scores = session_scores(players, rules, &mut v);
    // by_session[j][i]: player i's standard points in session j.
    let by_session: Vec<Vec<Rational>> = (0..session_count)
        .map(|j| {
            let groups = session_groups(players, j, method, &mut v);
            session_standard_points(&scores, &groups, j, method, rules.standard_point_ties)
        })
        .collect();
    if !v.is_empty() {
        return Err(v.into_vec());
    }
    let points: Vec<Vec<Rational>> = (0..players.len())
        .map(|i| by_session.iter().map(|col| col[i]).collect())
        .collect();
    let results: Vec<Vec<SessionResult>> = scores
        .iter()
        .zip(&points)
        .map(|(row, pts)| {
            row.iter()
                .zip(pts)
                .map(|(s, &p)| SessionResult {
                    standard_points: p,
                    score: s.map_or(0, |s| s.score),
                })
                .collect()
        })
        .collect();
    let standings = rank_players(&results)
        .into_iter()
        .map(|st| standing_to_pb(&st, players, &scores, &points))
        .collect();
    Ok(pb::ComputeStandingsResponse {
        standings,
        standard_points_method: method_to_pb(method) as i32,
        ruleset: ruleset_to_pb(applied.id()) as i32,
        rules_fingerprint: fingerprint_text(applied.fingerprint()),
    })
}

pub(crate) fn standing_to_pb(
    st: &Standing,
    players: &[pb::PlayerRecord],
    scores: &[Vec<Option<SessionScore>>],
    points: &[Vec<Rational>],
) -> pb::PlayerStanding {
    let Standing {
        player,
        place,
        standard_points,
        total_score,
        best_session,
        top_results,
    } = *st;
    let sessions = scores
        .get(player)
        .into_iter()
        .flatten()
        .zip(points.get(player).into_iter().flatten())
        .map(|(s, &p)| {
            let s = s.unwrap_or(SessionScore {
                hand_total: 0,
                late: mcr::penalty::LateArrivalRuling::default(),
                score: 0,
            });
            pb::SessionScore {
                hand_total: to_i32(s.hand_total),
                late_warning: s.late.warning,
                late_points: to_i32(i64::from(s.late.points)),
                forfeit: s.late.forfeit,
                score: to_i32(s.score),
                standard_points: Some(fraction_to_pb(p)),
            }
        })
        .collect();
    pb::PlayerStanding {
        place: to_u32(place),
        player_index: to_u32(player),
        name: players
            .get(player)
            .map(|p| p.name.clone())
            .unwrap_or_default(),
        standard_points: Some(fraction_to_pb(standard_points)),
        total_score: to_i32(total_score),
        best_session: best_session.map(fraction_to_pb),
        top_results: to_u32(top_results),
        sessions,
    }
}
