//! The `mahjong-referee` command line.
//!
//! ```text
//! mahjong-referee score '<notation>' [--self-drawn] [--robbing-kong] [--replacement-draw]
//!     [--last-tile] [--last-copy] [--seat E|S|W|N] [--prevalent E|S|W|N] [--flowers N]
//!     [--ruleset chinese-official-1998|mil|green-book-2006] [--json]
//! mahjong-referee score --jsonl  < requests.jsonl  > responses.jsonl
//! mahjong-referee settle|penalty|standings ['<request JSON>' | @request.json] [--json]
//! mahjong-referee [serve] [--listen-addr HOST:PORT] …      (see crate::config)
//! mahjong-referee healthcheck [--addr URL]    (default: the port of MAHJONG_LISTEN_ADDR on 127.0.0.1)
//! ```
//!
//! Exit codes: 0 for any scored hand (a losing hand too), 2 for invalid input (every violation
//! is listed on stderr) or a usage error, 1 when the output cannot be written.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use mcr::{FanLine, Outcome, RulesetId, Violation, WinContext, WinMethod, Wind};

use crate::api::{json, path, scoring};
use crate::config::Config;
use crate::healthcheck::{self, HealthcheckArgs};
use crate::referee::{self, Judgement, Scored};
use crate::server::ServeError;

/// Exit code for invalid input (the same as clap's usage errors).
const EXIT_INVALID: u8 = 2;

/// Chinese Official Mahjong (MCR) referee: validates and scores hands.
#[derive(Debug, Parser)]
#[command(name = "mahjong-referee", version)]
pub struct Cli {
    /// What to do; without a subcommand, `serve` with its environment variables.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Score a hand given in notation, or a stream of JSON requests with --jsonl.
    Score(ScoreArgs),
    /// Settle one hand: each seat's itemised points (request as JSON, @FILE or stdin).
    Settle(crate::cli_accounting::RequestArgs),
    /// Rule penalties or judge a declared win (request as JSON, @FILE or stdin).
    Penalty(crate::cli_accounting::RequestArgs),
    /// Session totals, standard points and rankings (request as JSON, @FILE or stdin).
    Standings(crate::cli_accounting::RequestArgs),
    /// Serve the gRPC API (the default): every flag also reads a MAHJONG_* variable.
    Serve(Box<Config>),
    /// Exit 0 if a server reports SERVING on grpc.health.v1, 1 otherwise.
    Healthcheck(HealthcheckArgs),
}

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
    /// Seat wind (门风).
    #[arg(long, value_name = "E|S|W|N", value_parser = parse_wind, default_value = "E")]
    pub seat: Wind,
    /// Prevalent wind (圈风).
    #[arg(long, value_name = "E|S|W|N", value_parser = parse_wind, default_value = "E")]
    pub prevalent: Wind,
    /// Number of flowers (0-8).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub flowers: u8,
    /// Ruleset.
    #[arg(
        long,
        value_name = "chinese-official-1998|mil|green-book-2006",
        default_value = "chinese-official-1998"
    )]
    pub ruleset: RulesetId,
    /// Print the `ScoreHandResponse` as proto3 JSON instead of a score sheet.
    #[arg(long)]
    pub json: bool,
    /// Read `ScoreHandRequest` JSON objects from stdin, one per line, and write one
    /// `ScoreHandResponse` JSON object per line to stdout.
    #[arg(
        long,
        conflicts_with_all = [
            "notation", "self_drawn", "robbing_kong", "replacement_draw", "last_tile",
            "last_copy", "seat", "prevalent", "flowers", "ruleset", "json",
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
            seat_wind: self.seat,
            prevalent_wind: self.prevalent,
            flowers: self.flowers,
        }
    }
}

fn parse_wind(s: &str) -> Result<Wind, String> {
    match s.to_ascii_uppercase().as_str() {
        "E" | "EAST" => Ok(Wind::East),
        "S" | "SOUTH" => Ok(Wind::South),
        "W" | "WEST" => Ok(Wind::West),
        "N" | "NORTH" => Ok(Wind::North),
        _ => Err(format!("`{s}` is not a wind (expected E, S, W or N)")),
    }
}

/// Runs the command line on the process arguments and standard streams.
pub fn run() -> ExitCode {
    run_from(std::env::args_os())
}

/// Runs the command line on the given arguments (the first is the program name).
pub fn run_from<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with exit 0, usage errors to stderr with exit 2.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(EXIT_INVALID));
        }
    };
    let result = match cli.command {
        Some(Command::Score(args)) if args.jsonl => {
            score_jsonl(&mut io::stdin().lock(), &mut io::stdout().lock())
        }
        Some(Command::Score(args)) => score_one(&args, &mut io::stdout().lock(), &mut io::stderr()),
        Some(Command::Settle(args)) => crate::cli_accounting::settle(
            &args,
            &mut io::stdin().lock(),
            &mut io::stdout().lock(),
            &mut io::stderr(),
        ),
        Some(Command::Penalty(args)) => crate::cli_accounting::penalty(
            &args,
            &mut io::stdin().lock(),
            &mut io::stdout().lock(),
            &mut io::stderr(),
        ),
        Some(Command::Standings(args)) => crate::cli_accounting::standings(
            &args,
            &mut io::stdin().lock(),
            &mut io::stdout().lock(),
            &mut io::stderr(),
        ),
        Some(Command::Serve(config)) => return serve(*config),
        Some(Command::Healthcheck(args)) => return healthcheck::run(&args),
        None => match Config::from_env() {
            Ok(config) => return serve(config),
            Err(e) => {
                let _ = e.print();
                return ExitCode::from(EXIT_INVALID);
            }
        },
    };
    result.unwrap_or_else(|e| {
        if e.kind() != io::ErrorKind::BrokenPipe {
            let _ = writeln!(io::stderr(), "mahjong-referee: {e}");
        }
        ExitCode::FAILURE
    })
}

/// `serve`: runs the server until SIGTERM or SIGINT. Exit codes: 0 after a graceful
/// shutdown, 2 for an invalid configuration, 1 for any other failure.
fn serve(config: Config) -> ExitCode {
    match crate::server::serve(config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(io::stderr(), "mahjong-referee serve: {e}");
            match e {
                ServeError::Config(_)
                | ServeError::Telemetry(crate::telemetry::TelemetryError::InvalidLogLevel(_)) => {
                    ExitCode::from(EXIT_INVALID)
                }
                ServeError::TlsFile { .. }
                | ServeError::Bind { .. }
                | ServeError::Transport(_)
                | ServeError::Reflection(_)
                | ServeError::Runtime(_)
                | ServeError::Telemetry(_)
                | ServeError::Metrics(_) => ExitCode::FAILURE,
            }
        }
    }
}

/// `score '<notation>'`: a score sheet (or JSON) on `out`, violations on `err`.
pub fn score_one(
    args: &ScoreArgs,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<ExitCode> {
    let context = args.context();
    let judgement = match referee::parse_notation(args.notation.as_deref().unwrap_or_default()) {
        Ok(hand) => match referee::judge(&hand, &context, args.ruleset) {
            Judgement::Invalid(violations) => {
                Judgement::Invalid(violations.into_iter().map(path::hand_violation).collect())
            }
            scored @ Judgement::Scored(_) => scored,
        },
        Err(v) => Judgement::Invalid(vec![v]),
    };
    if args.json {
        let text =
            scoring::judgement_to_json(&judgement, args.ruleset, true).map_err(io::Error::other)?;
        writeln!(out, "{text}")?;
    }
    match &judgement {
        Judgement::Invalid(violations) => {
            write!(err, "{}", violations_text(violations))?;
            Ok(ExitCode::from(EXIT_INVALID))
        }
        Judgement::Scored(scored) => {
            if !args.json {
                write!(out, "{}", score_sheet(scored))?;
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `score --jsonl`: one response line per non-blank request line, in order; a line that is
/// not a request gets an error object and the run goes on.
pub fn score_jsonl(input: &mut impl BufRead, out: &mut impl Write) -> io::Result<ExitCode> {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        let response = match std::str::from_utf8(&buf) {
            Ok(line) if line.trim().is_empty() => continue,
            Ok(line) => scoring::score_json_line(line),
            Err(e) => {
                json::error_line("REQUEST_UNPARSABLE", &format!("the line is not UTF-8: {e}"))
            }
        };
        writeln!(out, "{response}")?;
        out.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Every violation of a hand, one per line: `CODE at field: message`.
pub fn violations_text(violations: &[Violation]) -> String {
    violations_of("hand", violations)
}

/// Every violation, one per line (`CODE at field: message`), under a heading that names what
/// is invalid (`invalid hand: 2 violations`).
pub(crate) fn violations_of(what: &str, violations: &[Violation]) -> String {
    let mut out = format!(
        "invalid {what}: {} violation{}\n",
        violations.len(),
        if violations.len() == 1 { "" } else { "s" }
    );
    for v in violations {
        let _ = writeln!(out, "  {v}");
    }
    out
}

/// Terminal columns of a string: CJK characters take two.
pub(crate) fn width(s: &str) -> usize {
    s.chars()
        .map(|c| {
            let wide = ('\u{2E80}'..='\u{9FFF}').contains(&c)
                || ('\u{F900}'..='\u{FAFF}').contains(&c)
                || ('\u{FF00}'..='\u{FF60}').contains(&c);
            if wide { 2 } else { 1 }
        })
        .sum()
}

/// `s` followed by spaces up to `to` terminal columns.
pub(crate) fn pad(s: &str, to: usize) -> String {
    format!("{s}{}", " ".repeat(to.saturating_sub(width(s))))
}

/// The readable score sheet of a scored hand.
pub fn score_sheet(s: &Scored) -> String {
    let mut out = String::new();
    let hand = s.notation();
    let _ = writeln!(out, "Hand       {hand}");
    let _ = writeln!(out, "Context    {}", referee::context_text(&s.context));
    let _ = writeln!(out, "Ruleset    {}", s.ruleset.name);
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
    let rows: Vec<[String; 5]> = s.lines.iter().map(line_cells).collect();
    let widths: [usize; 5] =
        std::array::from_fn(|c| rows.iter().map(|r| width(&r[c])).max().unwrap_or(0));
    let number_width = widths[4].max(3);
    let row_width =
        2 + widths[0] + 2 + widths[1] + 2 + widths[2] + 1 + widths[3] + 2 + number_width;
    if !rows.is_empty() {
        out.push('\n');
    }
    for r in &rows {
        let _ = writeln!(
            out,
            "  {}  {}  {:>pw$} {}  {:>nw$}",
            pad(&r[0], widths[0]),
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
            s.scoring.fan_total,
            mcr::MINIMUM_FAN
        ),
        Outcome::NotWinningShape => "NOT A WINNING SHAPE".to_owned(),
    };
    let _ = writeln!(out, "\nOutcome    {outcome}");
    out
}

/// The cells of a score sheet line: Chinese name, English name, points, ×count, subtotal.
fn line_cells(line: &FanLine) -> [String; 5] {
    let spec = line.fan.spec();
    [
        spec.name_zh.to_owned(),
        spec.name_en.to_owned(),
        line.points.to_string(),
        format!("×{}", line.count),
        line.total().to_string(),
    ]
}
