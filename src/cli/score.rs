//! `mahjong-referee score`: one hand from its notation and flags, or `ScoreHandRequest`s
//! as JSON Lines.

use super::text::{EXIT_INVALID, Lang, SheetLang, pad, violations_text, width};
use std::fmt::Write as _;
use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use clap::Args;
use mcr::{FanLine, Outcome, RulesetId, WinContext, WinMethod, Wind};

use crate::api::KeptRules;
use crate::api::kit::query::{self, ScoreQuery};
use crate::api::kit::{hand, json, values};
use crate::api::{pb, scoring};
use crate::assessment::{self, Assessment, Scored};

/// Arguments of `score`.
#[allow(clippy::struct_excessive_bools)] // one flag per circumstance of the win, as on a score sheet
#[derive(Debug, Args)]
pub struct ScoreArgs {
    /// The hand in calculator notation, e.g. `[123m][789m][123p]55s89p7p`: declared melds in
    /// brackets (claim digit 1 left, 2 opposite, 3 right, 5-7 promoted kong; a four-tile meld
    /// without digit is a concealed kong), the standing tiles, the winning tile last.
    #[arg(required_unless_present = "jsonl")]
    pub notation: Option<String>,
    /// The winning tile was self-drawn (自摸).
    #[arg(long)]
    pub self_drawn: bool,
    /// Won by robbing a kong (抢杠和).
    #[arg(long)]
    pub robbing_kong: bool,
    /// Won on the replacement tile after a kong (杠上开花).
    #[arg(long)]
    pub replacement_draw: bool,
    /// The last tile of the wall or the last discard (妙手回春 / 海底捞月).
    #[arg(long)]
    pub last_tile: bool,
    /// The winning tile is the last copy (和绝张).
    #[arg(long)]
    pub last_copy: bool,
    /// Seat, prevalent wind, flowers and ruleset.
    #[command(flatten)]
    pub table: TableArgs,
    /// Print the `ScoreHandResponse` as proto3 JSON instead of a score sheet.
    #[arg(long)]
    pub json: bool,
    /// The language of the sheet.
    #[command(flatten)]
    pub sheet: SheetLang,
    /// Read `ScoreHandRequest` JSON objects from stdin, one per line, and write one
    /// `ScoreHandResponse` JSON object per line to stdout.
    #[arg(
        long,
        conflicts_with_all = [
            "notation", "self_drawn", "robbing_kong", "replacement_draw", "last_tile",
            "last_copy", "seat", "prevalent", "flowers", "ruleset", "overrides", "json", "lang",
        ]
    )]
    pub jsonl: bool,
}

impl ScoreArgs {
    /// The winning context the flags describe.
    pub fn context(&self) -> WinContext {
        WinContext {
            method: if self.self_drawn {
                WinMethod::SelfDrawn
            } else {
                WinMethod::Discard
            },
            robbing_kong: self.robbing_kong,
            replacement_draw: self.replacement_draw,
            last_tile: self.last_tile,
            last_copy: self.last_copy,
            seat_wind: self.table.seat,
            prevalent_wind: self.table.prevalent,
            flowers: self.table.flowers,
        }
    }
}

/// What a hand is judged under besides its tiles: the seat, the prevalent wind, the flowers
/// and the ruleset (shared by `score` and `analyze`).
#[derive(Debug, Args)]
pub struct TableArgs {
    /// Seat wind (门风).
    #[arg(long, value_name = "E|S|W|N", value_parser = parse_wind, default_value = "E")]
    pub seat: Wind,
    /// Prevalent wind (圈风).
    #[arg(long, value_name = "E|S|W|N", value_parser = parse_wind, default_value = "E")]
    pub prevalent: Wind,
    /// Number of flowers (0-8).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub flowers: u8,
    /// Ruleset and house rules.
    #[command(flatten)]
    pub rules: RulesetArgs,
}

/// The rules a command applies: `--ruleset` and `--overrides`.
#[derive(Debug, Args)]
pub struct RulesetArgs {
    /// Ruleset.
    #[arg(
        long,
        value_name = "chinese-official-1998|mil|green-book-2006",
        default_value = "chinese-official-1998"
    )]
    pub ruleset: RulesetId,
    /// House rules: a `RuleOverrides` in proto3 JSON, e.g. `{"minimumFan": 6}`.
    #[arg(long, value_name = "JSON", value_parser = parse_overrides)]
    pub overrides: Option<pb::RuleOverrides>,
}

pub(crate) fn parse_overrides(s: &str) -> Result<pb::RuleOverrides, String> {
    json::from_json::<pb::RuleOverrides>(s).map_err(|e| e.message)
}

pub(crate) fn parse_wind(s: &str) -> Result<Wind, String> {
    match s.to_ascii_uppercase().as_str() {
        "E" | "EAST" => Ok(Wind::East),
        "S" | "SOUTH" => Ok(Wind::South),
        "W" | "WEST" => Ok(Wind::West),
        "N" | "NORTH" => Ok(Wind::North),
        _ => Err(format!("`{s}` is not a wind (expected E, S, W or N)")),
    }
}

/// `score '<notation>'`: a score sheet (or JSON) on `out`, violations on `err`.
pub fn score_one(
    args: &ScoreArgs,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<ExitCode> {
    // The one path of every scoring request: a `ScoreHandRequest`, converted and judged.
    let request = pb::ScoreHandRequest {
        hand_input: Some(pb::score_hand_request::HandInput::Notation(
            args.notation.clone().unwrap_or_default(),
        )),
        context: Some(hand::context_to_pb(&args.context())),
        ruleset: values::ruleset_to_pb(args.table.rules.ruleset) as i32,
        view: pb::ScoreView::Full as i32,
        overrides: args.table.rules.overrides.clone().map(Box::new),
    };
    let kept = KeptRules::default();
    let query = ScoreQuery::from(&request);
    let assessment = query::assess(&query, &kept, None);
    if args.json {
        let text = scoring::assessment_to_json(&assessment, args.table.rules.ruleset, true)
            .map_err(io::Error::other)?;
        writeln!(out, "{text}")?;
    }
    match &assessment {
        Assessment::Invalid(violations) => {
            write!(err, "{}", violations_text(violations))?;
            Ok(ExitCode::from(EXIT_INVALID))
        }
        Assessment::Scored(scored) => {
            if !args.json {
                let minimum = query
                    .rules(&kept)
                    .map_or(0, |rules| rules.ruleset().minimum_fan);
                write!(out, "{}", score_sheet(scored, minimum, args.sheet.lang))?;
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `score --jsonl`: one response line per non-blank request line, in order; a line that is
/// not a request gets an error object and the run goes on.
pub fn score_jsonl(input: &mut impl BufRead, out: &mut impl Write) -> io::Result<ExitCode> {
    let kept = KeptRules::default();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        let response = match std::str::from_utf8(&buf) {
            Ok(line) if line.trim().is_empty() => continue,
            Ok(line) => scoring::score_json_line(line, &kept),
            Err(e) => {
                json::error_line("REQUEST_UNPARSABLE", &format!("the line is not UTF-8: {e}"))
            }
        };
        writeln!(out, "{response}")?;
        out.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The readable score sheet of a scored hand, `minimum` the least a win scores, fan names
/// in `lang`.
pub fn score_sheet(s: &Scored, minimum: u32, lang: Lang) -> String {
    let mut out = String::new();
    let hand = s.notation();
    let _ = writeln!(out, "Hand       {hand}");
    let _ = writeln!(out, "Context    {}", assessment::context_text(&s.context));
    let _ = writeln!(out, "Ruleset    {}", s.ruleset.name());
    let shape = s.scoring.reading.map(|r| match r.shape() {
        mcr::Shape::Standard => "standard",
        mcr::Shape::SevenPairs => "seven pairs",
        mcr::Shape::ThirteenOrphans => "thirteen orphans",
        mcr::Shape::HonorsAndKnitted => "honours and knitted tiles",
        mcr::Shape::KnittedStraight => "knitted straight",
    });
    match shape {
        Some(shape) => {
            let _ = writeln!(out, "Reading    {}  ({shape})", s.reading_text());
        }
        None => {
            let _ = writeln!(out, "Reading    none: not a winning shape");
        }
    }
    let rows: Vec<[String; 5]> = s.lines.iter().map(|l| line_cells(l, lang)).collect();
    let widths: [usize; 5] =
        std::array::from_fn(|c| rows.iter().map(|r| width(&r[c])).max().unwrap_or(0));
    let number_width = widths[4].max(3);
    // The Chinese column, when there is one, and its gap.
    let chinese_width = if widths[0] == 0 { 0 } else { widths[0] + 2 };
    let row_width =
        2 + chinese_width + widths[1] + 2 + widths[2] + 1 + widths[3] + 2 + number_width;
    if !rows.is_empty() {
        out.push('\n');
    }
    for r in &rows {
        let chinese = if chinese_width == 0 {
            String::new()
        } else {
            format!("{}  ", pad(&r[0], widths[0]))
        };
        let _ = writeln!(
            out,
            "  {chinese}{}  {:>pw$} {}  {:>nw$}",
            pad(&r[1], widths[1]),
            r[2],
            pad(&r[3], widths[3]),
            r[4],
            pw = widths[2],
            nw = number_width,
        );
    }
    let label_width = row_width.saturating_sub(2 + number_width).max(28);
    out.push('\n');
    for (label, value) in [
        ("Fan total (without flowers)", s.scoring.fan_total),
        ("Flowers", s.scoring.flower_points),
        ("Total", s.scoring.total),
    ] {
        let _ = writeln!(out, "  {label:<label_width$}{value:>number_width$}");
    }
    let outcome = match s.scoring.outcome {
        Outcome::Win => "WIN".to_owned(),
        Outcome::BelowMinimum => format!(
            "BELOW MINIMUM: {} fan without flowers, {} needed",
            s.scoring.fan_total, minimum
        ),
        Outcome::NotWinningShape => "NOT A WINNING SHAPE".to_owned(),
    };
    let _ = writeln!(out, "\nOutcome    {outcome}");
    out
}

/// The cells of a score sheet line: Chinese name in `lang` (empty in English), English
/// name, points, ×count, subtotal.
pub(crate) fn line_cells(line: &FanLine, lang: Lang) -> [String; 5] {
    let spec = line.fan.spec();
    [
        lang.chinese(spec.name_zh, spec.name_zh_hant)
            .unwrap_or_default()
            .to_owned(),
        spec.name_en.to_owned(),
        line.points.to_string(),
        format!("×{}", line.count),
        line.total().to_string(),
    ]
}
