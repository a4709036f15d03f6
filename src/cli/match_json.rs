//! The JSON lines of `replay`, `next` and `deal`, written through serde: one struct a line,
//! its fields in the order the line gives its keys (`tests/cli_replay.rs`, `tests/cli_next.rs`
//! and `tests/cli_deal.rs` read them).

use mcr::play::botzone::RecordError;
use mcr::play::{Circumstances, Replay};
use serde::Serialize;

/// One object on one line.
pub(crate) fn line(value: &impl Serialize) -> String {
    // The structs below hold strings, numbers and options only: serde_json cannot fail on them.
    let mut out = serde_json::to_string(value).unwrap_or_default();
    out.push('\n');
    out
}

/// A finding of a match at its line: `{"line","code","message"}`.
#[derive(Debug, Serialize)]
pub(crate) struct Finding<'a> {
    pub(crate) line: usize,
    pub(crate) code: &'static str,
    pub(crate) message: &'a str,
}

/// The findings with their lines, as [`Finding`]s.
pub(crate) fn findings<'a>(found: &'a [(usize, &'static str, String)]) -> Vec<Finding<'a>> {
    found
        .iter()
        .map(|(line, code, message)| Finding {
            line: *line,
            code,
            message,
        })
        .collect()
}

/// `replay --json`: a match refereed.
#[derive(Debug, Serialize)]
pub(crate) struct Refereed<'a> {
    #[serde(rename = "match")]
    pub(crate) id: &'a str,
    pub(crate) winner: Option<usize>,
    pub(crate) fan: Option<u32>,
    pub(crate) scores: Option<Vec<i64>>,
    pub(crate) violations: Vec<Finding<'a>>,
    pub(crate) derived: Option<Derived>,
}

impl<'a> Refereed<'a> {
    /// The line of match `id`, refereed as `r`, its findings at their lines.
    pub(crate) fn new(id: &'a str, r: &Replay, found: &'a [(usize, &'static str, String)]) -> Self {
        Refereed {
            id,
            winner: r.win().map(|w| w.seat.index()),
            fan: r.end.fan(),
            scores: r.deltas().map(|points| points.iter().copied().collect()),
            violations: findings(found),
            derived: r.end.circumstances().map(Derived::from),
        }
    }
}

/// The circumstances of the win derived from the log.
#[allow(clippy::struct_excessive_bools)] // the five flags of `Circumstances`, as the line writes them
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Derived {
    self_drawn: bool,
    kong_replacement: bool,
    robbing_kong: bool,
    last_tile: bool,
    last_copy: bool,
}

impl From<Circumstances> for Derived {
    fn from(c: Circumstances) -> Self {
        let Circumstances {
            self_drawn,
            kong_replacement,
            robbing_kong,
            last_tile,
            last_copy,
        } = c;
        Derived {
            self_drawn,
            kong_replacement,
            robbing_kong,
            last_tile,
            last_copy,
        }
    }
}

/// `next --json`: what may come next in a match.
#[derive(Debug, Serialize)]
pub(crate) struct NextLines<'a> {
    #[serde(rename = "match")]
    pub(crate) id: &'a str,
    pub(crate) phase: &'static str,
    pub(crate) next: Vec<String>,
    pub(crate) violations: Vec<Finding<'a>>,
}

/// A match that cannot be read: its id (`null` when even that is unknown), the `error`,
/// then the keys of the answer it would have had, each `null` (`N`).
#[derive(Debug, Serialize)]
pub(crate) struct Unreadable<'a, N> {
    #[serde(rename = "match")]
    pub(crate) id: Option<&'a str>,
    pub(crate) error: ReadError<'a>,
    #[serde(flatten)]
    pub(crate) nulls: N,
}

impl<'a, N> Unreadable<'a, N> {
    pub(crate) fn new(id: Option<&'a str>, e: &'a RecordError, nulls: N) -> Self {
        Unreadable {
            id,
            error: ReadError {
                line: e.line,
                code: e.code.as_str(),
                message: &e.message,
            },
            nulls,
        }
    }
}

/// Why a match cannot be read: `{"line","code","message"}`.
#[derive(Debug, Serialize)]
pub(crate) struct ReadError<'a> {
    line: usize,
    code: &'static str,
    message: &'a str,
}

/// The keys of `replay --json`'s answer, each `null`.
#[derive(Debug, Default, Serialize)]
pub(crate) struct RefereedNulls {
    winner: Option<()>,
    fan: Option<()>,
    scores: Option<()>,
    violations: Option<()>,
    derived: Option<()>,
}

/// The keys of `next --json`'s answer, each `null`.
#[derive(Debug, Default, Serialize)]
pub(crate) struct NextNulls {
    phase: Option<()>,
    next: Option<()>,
    violations: Option<()>,
}

/// `deal --json`: the commitment, the prevalent wind, each seat's tiles in dealing order and
/// the wall in drawing order, as Botzone's codes.
#[derive(Debug, Serialize)]
pub(crate) struct Dealt {
    pub(crate) commitment: String,
    pub(crate) wind: usize,
    pub(crate) deal: Vec<Vec<String>>,
    pub(crate) wall: Vec<String>,
}
