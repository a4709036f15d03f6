//! `rules`: every switch of a ruleset with house rules applied, as `DescribeRuleset`
//! returns them.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::process::ExitCode;

use clap::Args;
use mcr::RulesetId;

use super::score::RulesetArgs;
use super::text::{EXIT_INVALID, pad, violations_text, width};
use crate::api::{house_rules, json, pb, values};

#[derive(Debug, Args)]
pub struct RulesArgs {
    /// Ruleset and house rules.
    #[command(flatten)]
    pub rules: RulesetArgs,
    /// Print the `DescribeRulesetResponse` as proto3 JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// `rules`: the switches in effect on `out`, violations on `err`.
pub fn rules(args: &RulesArgs, out: &mut impl Write, err: &mut impl Write) -> io::Result<ExitCode> {
    let request = pb::DescribeRulesetRequest {
        ruleset: values::ruleset_to_pb(args.rules.ruleset) as i32,
        overrides: args.rules.overrides.clone(),
    };
    match house_rules::describe_ruleset(&request) {
        Err(violations) => {
            write!(err, "{}", violations_text(&violations))?;
            Ok(ExitCode::from(EXIT_INVALID))
        }
        Ok(response) if args.json => {
            let text =
                json::describe_response_to_json(&response, true).map_err(io::Error::other)?;
            writeln!(out, "{text}")?;
            Ok(ExitCode::SUCCESS)
        }
        Ok(response) => {
            write!(out, "{}", rules_text(&response, args.rules.ruleset))?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The switches as a table: name, value, meaning.
fn rules_text(response: &pb::DescribeRulesetResponse, ruleset: RulesetId) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Ruleset      {}", ruleset.name());
    let _ = writeln!(out, "Fingerprint  {}\n", response.rules_fingerprint);
    let name_width = response
        .switches
        .iter()
        .map(|s| width(&s.name))
        .max()
        .unwrap_or(0);
    let value_width = response
        .switches
        .iter()
        .map(|s| width(&s.value))
        .max()
        .unwrap_or(0);
    for s in &response.switches {
        let _ = writeln!(
            out,
            "  {}  {}  {}",
            pad(&s.name, name_width),
            pad(&s.value, value_width),
            s.meaning
        );
    }
    out
}
