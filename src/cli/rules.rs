//! `rules`: every switch of a ruleset with house rules applied, as `DescribeRuleset`
//! returns them; with `--fans`, the engine's fan table (`mcr::fan::FAN_TABLE`) and where the
//! three rulesets depart from it, as text or as the Markdown of `docs/rules/fan-table.md`.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::process::ExitCode;

use clap::Args;
use mcr::fan::{FAN_TABLE, FanSpec};
use mcr::ruleset::{NineGatesTerminalPungs, ThreeKongsRule};
use mcr::{Fan, Ruleset, RulesetId};

use super::score::RulesetArgs;
use super::text::{EXIT_INVALID, LastColumn, pad, table, violations_text, width};
use crate::api::KeptRules;
use crate::api::kit::{house_rules, json, values};
use crate::api::pb;

#[derive(Debug, Args)]
pub struct RulesArgs {
    /// Ruleset and house rules.
    #[command(flatten)]
    pub rules: RulesetArgs,
    /// Print the `DescribeRulesetResponse` as proto3 JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Print the fan table instead: points, names, exclusions and the rulesets' differences.
    #[arg(long, conflicts_with_all = ["ruleset", "overrides", "json"])]
    pub fans: bool,
    /// With `--fans`: as Markdown, the page `docs/rules/fan-table.md`.
    #[arg(long, requires = "fans")]
    pub markdown: bool,
}

/// `rules`: the switches in effect on `out`, violations on `err`.
pub fn rules(args: &RulesArgs, out: &mut impl Write, err: &mut impl Write) -> io::Result<ExitCode> {
    if args.fans {
        let text = if args.markdown {
            fan_table_markdown()
        } else {
            fan_table_text()
        };
        write!(out, "{text}")?;
        return Ok(ExitCode::SUCCESS);
    }
    let request = pb::DescribeRulesetRequest {
        ruleset: values::ruleset_to_pb(args.rules.ruleset) as i32,
        overrides: args.rules.overrides.clone(),
    };
    match house_rules::describe_ruleset(&request, &KeptRules::default()) {
        Err(violations) => {
            write!(err, "{}", violations_text(&violations))?;
            Ok(ExitCode::from(EXIT_INVALID))
        }
        Ok(response) if args.json => {
            let text = json::to_json::<pb::DescribeRulesetResponse>(&response, true)
                .map_err(io::Error::other)?;
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

/// The three rulesets, with the names the reference uses.
const RULESETS: [(RulesetId, &str); 3] = [
    (RulesetId::ChineseOfficial1998, "1998"),
    (RulesetId::Mil, "MIL"),
    (RulesetId::GreenBook2006, "Green Book"),
];

/// What a ruleset switch that concerns one fan says about it, in a few words.
type SwitchNote = fn(&Ruleset<'_>) -> &'static str;

/// The switches of a ruleset that concern single fans.
const FAN_SWITCHES: [(Fan, SwitchNote); 8] = [
    (Fan::NineGates, |r: &Ruleset<'_>| {
        match r.nine_gates_terminal_pungs {
            NineGatesTerminalPungs::OneFewer => "one 幺九刻 fewer than its reading shows",
            NineGatesTerminalPungs::None => "no 幺九刻",
        }
    }),
    (Fan::ThreeKongs, |r: &Ruleset<'_>| match r.three_kongs {
        ThreeKongsRule::ConcealedKongAdds => "one concealed kong of the three adds 暗杠",
        ThreeKongsRule::FamilyOfEach => "one kong fan and one concealed-pung fan at most",
    }),
    (Fan::TileHog, |r: &Ruleset<'_>| {
        if r.seven_pairs_honor_tile_hog {
            "also four honours in seven pairs"
        } else {
            "in seven pairs, suited tiles only"
        }
    }),
    (Fan::LesserHonorsAndKnittedTiles, |r: &Ruleset<'_>| {
        if r.lesser_honors_knitted_straight {
            "with all nine knitted tiles, also 组合龙"
        } else {
            "never with 组合龙"
        }
    }),
    (Fan::KnittedStraight, |r: &Ruleset<'_>| {
        if r.knitted_straight_all_chows {
            "its set-and-pair form may score 平和"
        } else {
            "never with 平和"
        }
    }),
    (Fan::EdgeWait, waits_note),
    (Fan::ClosedWait, waits_note),
    (Fan::SingleWait, waits_note),
];

/// The wait fans' switch.
fn waits_note(r: &Ruleset<'_>) -> &'static str {
    if r.wait_counts_exhausted_tiles {
        "a kind held four times still counts as a wait"
    } else {
        "a kind held four times is no wait"
    }
}

/// What the switches about `fan` say under `ruleset`, if any concerns it.
fn switch_note(fan: Fan, ruleset: &Ruleset<'_>) -> Option<&'static str> {
    FAN_SWITCHES
        .iter()
        .find(|(f, _)| *f == fan)
        .map(|(_, note)| note(ruleset))
}

/// Where the rulesets depart from a fan's row: other points, an exclusion they lift, or a
/// switch about the fan on which they disagree.
fn differences(spec: &FanSpec, name: impl Fn(Fan) -> String) -> Vec<String> {
    let mut out = Vec::new();
    let notes = RULESETS.map(|(id, _)| switch_note(spec.fan, Ruleset::get(id)));
    if notes.iter().any(|n| *n != notes[0]) {
        for ((_, label), note) in RULESETS.iter().zip(notes) {
            if let Some(note) = note {
                out.push(format!("{label}: {note}"));
            }
        }
    }
    for (id, label) in RULESETS {
        let ruleset = Ruleset::get(id);
        let points = ruleset.points(spec.fan);
        if points != spec.points {
            out.push(format!("{label}: {points} points"));
        }
        for excluded in spec.excludes {
            if !ruleset.excludes(spec.fan, *excluded) {
                out.push(format!("{label}: counts {}", name(*excluded)));
            }
        }
    }
    out
}

/// A fan's names for the Markdown page: `三风刻 Big Three Winds`.
fn both_names(fan: Fan) -> String {
    let spec = fan.spec();
    format!("{} {}", spec.name_zh, spec.name_en)
}

/// Names joined for one cell.
fn names(fans: &[Fan], name: impl Fn(Fan) -> String) -> String {
    fans.iter().map(|f| name(*f)).collect::<Vec<_>>().join(", ")
}

/// The fan table as the Markdown page `docs/rules/fan-table.md` (the test
/// `rules_reference` compares the two).
fn fan_table_markdown() -> String {
    let mut out = String::new();
    out.push_str(
        "<!-- Generated by `mahjong-referee rules --fans --markdown` from the engine's fan table\n\
         (crates/mcr/src/fan/table.rs). Do not edit: regenerate with\n\
         cargo run -q -- rules --fans --markdown > docs/rules/fan-table.md -->\n\n",
    );
    out.push_str("# The fan table\n\n");
    out.push_str(
        "The engine's own table, one row per fan: the id (the 1998 rulebook's number; 82 is the\n\
         supplementary 明暗杠), the points of one instance (the 1998 values), the names, the fans\n\
         it suppresses entirely (不计), the fans it suppresses only for the sets that form it,\n\
         and where a ruleset departs from the row: other points, an exclusion it lifts\n\
         (\"counts\"), or a switch about the fan on which the rulesets differ. Definitions and\n\
         readings: [the 81 fans](fans.md); the rulesets: [rulesets](rulesets.md).\n\n",
    );
    out.push_str(
        "| # | Points | 中文 | English | Excludes (不计) | Excludes for its own sets | Rulesets |\n",
    );
    out.push_str("|---:|---:|---|---|---|---|---|\n");
    for spec in &FAN_TABLE {
        let _ = writeln!(
            out,
            "| <a id=\"fan-{id}\"></a>{id} | {points} | {zh} | {en} | {excludes} | {for_sets} | {differences} |",
            id = spec.fan.id(),
            points = spec.points,
            zh = spec.name_zh,
            en = spec.name_en,
            excludes = names(spec.excludes, both_names),
            for_sets = names(spec.excludes_for_its_sets, both_names),
            differences = differences(spec, both_names).join("; "),
        );
    }
    out
}

/// The fan table as aligned text, Chinese names only in the exclusions.
fn fan_table_text() -> String {
    let zh = |fan: Fan| fan.spec().name_zh.to_owned();
    let mut rows = vec![vec![
        "#".to_owned(),
        "Points".to_owned(),
        "中文".to_owned(),
        "English".to_owned(),
        "Excludes".to_owned(),
        "For its sets".to_owned(),
        "Rulesets".to_owned(),
    ]];
    for spec in &FAN_TABLE {
        rows.push(vec![
            spec.fan.id().to_string(),
            spec.points.to_string(),
            spec.name_zh.to_owned(),
            spec.name_en.to_owned(),
            names(spec.excludes, zh),
            names(spec.excludes_for_its_sets, zh),
            differences(spec, zh).join("; "),
        ]);
    }
    table(&rows, 0, LastColumn::Left)
}
