//! The `mahjong-referee` command line: [`score`] scores hands, [`analyze`] analyses hands in
//! play, [`accounting`] settles
//! hands, rules penalties and ranks sessions, [`text`] holds what they share in writing.
//!
//! ```text
//! mahjong-referee score '<notation>' [--self-drawn] [--robbing-kong] [--replacement-draw]
//!     [--last-tile] [--last-copy] [--seat E|S|W|N] [--prevalent E|S|W|N] [--flowers N]
//!     [--ruleset chinese-official-1998|mil|green-book-2006] [--json]
//! mahjong-referee score --jsonl  < requests.jsonl  > responses.jsonl
//! mahjong-referee analyze '<notation>' [--visible TILES] [--seat E|S|W|N] [--prevalent E|S|W|N]
//!     [--flowers N] [--ruleset …] [--json]
//! mahjong-referee analyze --jsonl  < requests.jsonl  > responses.jsonl
//! mahjong-referee parse '<notation>' [--json]
//! mahjong-referee actions ['<LegalActionsRequest JSON>' | @request.json] [--json]
//! mahjong-referee rules [--ruleset …] [--overrides JSON] [--json]
//! mahjong-referee rules --fans [--markdown]
//! mahjong-referee replay FILE|- [--format botzone] [--ruleset …] [--wall shared|shared-144|botzone] [--seed HEX] [--json]
//! mahjong-referee next [--wall shared|shared-144|botzone] [--ruleset R] [--seed HEX] [--json] FILE|-
//! mahjong-referee deal --seed HEX [--wind E|S|W|N] [--json]
//! mahjong-referee settle|penalty|standings ['<request JSON>' | @request.json] [--json]
//! mahjong-referee [serve] [--listen-addr HOST:PORT] …      (see crate::config)
//! mahjong-referee healthcheck [--addr URL]    (default: the port of MAHJONG_LISTEN_ADDR on 127.0.0.1)
//! ```
//!
//! Exit codes: 0 for any scored hand (a losing hand too), 2 for invalid input (every violation
//! is listed on stderr) or a usage error, 1 when the output cannot be written.

use score::{ScoreArgs, score_jsonl, score_one};
use std::ffi::OsString;
use std::io::{self, Write};
use std::process::ExitCode;
use text::EXIT_INVALID;

use clap::{Parser, Subcommand};

use crate::config::Config;
use crate::healthcheck::{self, HealthcheckArgs};
use crate::server::ServeError;

pub mod accounting;
pub mod actions;
pub mod analyze;
pub mod deal;
mod match_json;
pub mod next;
pub mod parse;
pub mod replay;
pub mod rules;
pub mod score;
pub mod text;

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
    /// Analyse a hand in play: shanten, useful tiles, waits with their scores, discards.
    Analyze(analyze::AnalyzeArgs),
    /// Read notation in any form: canonical notation, glyphs, melds and tile counts.
    Parse(parse::ParseArgs),
    /// Settle one hand: each seat's itemised points (request as JSON, @FILE or stdin).
    Settle(accounting::RequestArgs),
    /// Rule penalties or judge a declared win (request as JSON, @FILE or stdin).
    Penalty(accounting::RequestArgs),
    /// Session totals, standard points and rankings (request as JSON, @FILE or stdin).
    Standings(accounting::RequestArgs),
    /// Every switch of a ruleset with house rules applied: value and meaning; or, with
    /// --fans, the fan table.
    Rules(rules::RulesArgs),
    /// A seat's legal actions from its view (a `LegalActionsRequest` as JSON, @FILE or stdin).
    Actions(actions::ActionsArgs),
    /// Referee whole hands from their records (Botzone's line format): every event judged,
    /// the win's circumstances, score and points.
    Replay(replay::ReplayArgs),
    /// For hands in progress (Botzone's line format, cut anywhere after the deal): the phase
    /// and every line that may legally come next.
    Next(next::NextArgs),
    /// The deal and the wall of a 32-byte seed, with its commitment SHA-256(seed).
    Deal(deal::DealArgs),
    /// Serve the gRPC API (the default): every flag also reads a MAHJONG_* variable.
    Serve(Box<Config>),
    /// Exit 0 if a server reports SERVING on grpc.health.v1, 1 otherwise.
    Healthcheck(HealthcheckArgs),
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
        Some(Command::Analyze(args)) if args.jsonl => {
            analyze::analyze_jsonl(&mut io::stdin().lock(), &mut io::stdout().lock())
        }
        Some(Command::Analyze(args)) => {
            analyze::analyze_one(&args, &mut io::stdout().lock(), &mut io::stderr())
        }
        Some(Command::Rules(args)) => {
            rules::rules(&args, &mut io::stdout().lock(), &mut io::stderr())
        }
        Some(Command::Actions(args)) => actions::actions(
            &args,
            &mut io::stdin().lock(),
            &mut io::stdout().lock(),
            &mut io::stderr(),
        ),
        Some(Command::Replay(args)) => replay::replay_file(
            &args,
            &mut io::stdin().lock(),
            &mut io::stdout().lock(),
            &mut io::stderr(),
        ),
        Some(Command::Next(args)) => next::next_file(
            &args,
            &mut io::stdin().lock(),
            &mut io::stdout().lock(),
            &mut io::stderr(),
        ),
        Some(Command::Deal(args)) => deal::deal(&args, &mut io::stdout().lock()),
        Some(Command::Parse(args)) => {
            parse::parse_one(&args, &mut io::stdout().lock(), &mut io::stderr())
        }
        Some(Command::Settle(args)) => accounting::settle(
            &args,
            &mut io::stdin().lock(),
            &mut io::stdout().lock(),
            &mut io::stderr(),
        ),
        Some(Command::Penalty(args)) => accounting::penalty(
            &args,
            &mut io::stdin().lock(),
            &mut io::stdout().lock(),
            &mut io::stderr(),
        ),
        Some(Command::Standings(args)) => accounting::standings(
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
                | ServeError::TlsFile { .. }
                | ServeError::TlsPem { .. }
                | ServeError::TlsSetup { .. }
                | ServeError::Telemetry(crate::telemetry::TelemetryError::InvalidLogLevel(_)) => {
                    ExitCode::from(EXIT_INVALID)
                }
                ServeError::Bind { .. }
                | ServeError::Transport(_)
                | ServeError::Reflection(_)
                | ServeError::Runtime(_)
                | ServeError::Telemetry(_)
                | ServeError::Metrics(_) => ExitCode::FAILURE,
            }
        }
    }
}
