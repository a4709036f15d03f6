//! The real `mahjong-referee` binary's accounting subcommands: `settle`, `penalty` and
//! `standings`, readable and `--json`, from an argument, a file or standard input, and
//! invalid requests exiting 2 with every violation on stderr.
//!
//! Expected figures are those of docs/rules/examples.md#payment-cases and #penalty-cases, worked by hand in the comments.

use std::process::Output;

use serde_json::{Value, json};

#[path = "support/cli.rs"]
mod cli_support;

use cli_support::{cells, referee, referee_with_stdin, stderr, stdout};

/// The cells of the first line whose first cell is `first`.
fn row<'a>(text: &'a str, first: &str) -> Vec<&'a str> {
    text.lines()
        .map(cells)
        .find(|c| c.first() == Some(&first))
        .unwrap_or_else(|| panic!("no line starting with `{first}` in\n{text}"))
}

fn ok(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(o), stderr(o));
    assert!(stderr(o).is_empty(), "{}", stderr(o));
    stdout(o)
}

fn json_out(o: &Output) -> Value {
    serde_json::from_str(&ok(o)).expect("stdout is one JSON document")
}

/// P2 (13 fan + 1 flower, South on West's discard) with two empty pungs by North.
fn p2_request() -> Value {
    json!({
        "end": "HAND_END_DISCARD",
        "winner": "SEAT_SOUTH",
        "discarder": "SEAT_WEST",
        "fanCount": {"fanTotal": 13, "flowerCount": 1},
        "penalties": [
            {"offender": "SEAT_NORTH", "infraction": "INFRACTION_EMPTY_PUNG"},
            {"offender": "SEAT_NORTH", "infraction": "INFRACTION_EMPTY_PUNG"},
        ],
    })
}

// ---------------------------------------------------------------------------------------------
// settle

#[test]
fn settle_prints_each_seats_itemised_lines() {
    // South: 8 + 14 from West, 8 from East and North = +38; West −22; East −8;
    // North −8 and the second empty pung's 5 = −13.
    let text = ok(&referee(&["settle", &p2_request().to_string()]));
    assert!(
        text.starts_with("Result     South wins on West's discard (点和): 基本分 14"),
        "{text}"
    );
    assert_eq!(row(&text, "Ruleset"), ["Ruleset", "chinese-official-1998"]);
    assert_eq!(row(&text, "East"), ["East", "-8"]);
    assert_eq!(row(&text, "South"), ["South", "+38"]);
    assert_eq!(row(&text, "West"), ["West", "-22"]);
    assert_eq!(row(&text, "North"), ["North", "-13"]);
    let lines: Vec<Vec<&str>> = text.lines().map(cells).collect();
    assert!(lines.contains(&vec!["基本分", "fan points", "from West", "+14"]));
    assert!(lines.contains(&vec!["基本分", "fan points", "to South", "-14"]));
    assert!(lines.contains(&vec!["空碰", "penalty: empty pung", "deducted", "-5"]));
    assert!(
        text.contains("  1. North: 空碰 (empty pung), 1st in this hand: warning (警告)\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "  2. North: 空碰 (empty pung), 2nd in this hand: 5 points deducted (罚分)\n"
        ),
        "{text}"
    );
    assert_eq!(
        row(&text, "Unpaid penalties")[1],
        "5 (deducted, received by nobody)"
    );
    assert_eq!(row(&text, "Sum of deltas"), ["Sum of deltas", "-5"]);
}

#[test]
fn settle_scores_a_hand_and_shows_its_sheet() {
    // P5, E45: West robs South's kong; 18 fan. South pays 26, the others 8; West +42.
    let request = json!({
        "end": "HAND_END_ROBBING_KONG",
        "winner": "SEAT_WEST",
        "discarder": "SEAT_SOUTH",
        "winningHand": {"notation": "[123m][456p]789s55s67m8m"},
        "ruleset": "RULESET_GREEN_BOOK_2006",
    });
    let text = ok(&referee(&["settle", &request.to_string()]));
    assert!(
        text.contains("West wins robbing South's kong (抢杠和): 基本分 18"),
        "{text}"
    );
    assert_eq!(row(&text, "Ruleset"), ["Ruleset", "green-book-2006"]);
    assert_eq!(
        row(&text, "抢杠和"),
        ["抢杠和", "Robbing the Kong", "8 ×1", "8"]
    );
    assert_eq!(
        row(&text, "Score"),
        ["Score", "18 fan + 0 flowers = 18: a win"]
    );
    assert_eq!(row(&text, "South"), ["South", "-26"]);
    assert_eq!(row(&text, "West"), ["West", "+42"]);
}

#[test]
fn settle_json_from_an_argument_a_file_and_stdin() {
    let request = p2_request().to_string();
    let from_arg = json_out(&referee(&["settle", "--json", &request]));
    let deltas: Vec<i64> = from_arg["accounts"]
        .as_array()
        .expect("accounts")
        .iter()
        .map(|a| a["delta"].as_i64().expect("a delta"))
        .collect();
    assert_eq!(deltas, [-8, 38, -22, -13]);
    assert_eq!(from_arg["result"]["outcome"], "HAND_OUTCOME_WIN");
    assert_eq!(from_arg["result"]["basicPoints"], 14);
    assert_eq!(
        from_arg["accounts"][3]["lines"][1]["kind"],
        "LINE_KIND_PENALTY"
    );
    assert_eq!(
        from_arg["accounts"][3]["lines"][1]["infraction"],
        "INFRACTION_EMPTY_PUNG"
    );
    assert_eq!(from_arg["unpaidPenalties"], 5);
    assert_eq!(from_arg["unbalancedBy"], -5);
    assert_eq!(from_arg["ruleset"], "RULESET_CHINESE_OFFICIAL_1998");

    let path = std::env::temp_dir().join(format!("settle-{}.json", std::process::id()));
    std::fs::write(&path, &request).expect("temporary file");
    let at_file = format!("@{}", path.display());
    let from_file = json_out(&referee(&["settle", &at_file, "--json"]));
    let _ = std::fs::remove_file(&path);
    assert_eq!(from_file, from_arg);

    let from_stdin = json_out(&referee_with_stdin(&["settle", "--json"], &request));
    assert_eq!(from_stdin, from_arg);
    // The readable sheet from stdin is the one from the argument.
    assert_eq!(
        ok(&referee_with_stdin(&["settle"], &request)),
        ok(&referee(&["settle", &request]))
    );
}

// ---------------------------------------------------------------------------------------------
// penalty

#[test]
fn penalty_rules_repeated_offences() {
    // X3: three empty pungs by West: warning, −5, −10 (15 deducted, received by nobody);
    // X5: East exposes North's tiles, the referee grades it 20, paid to North.
    let request = json!({
        "offences": [
            {"offender": "SEAT_WEST", "infraction": "INFRACTION_EMPTY_PUNG"},
            {"offender": "SEAT_WEST", "infraction": "INFRACTION_EMPTY_PUNG"},
            {"offender": "SEAT_WEST", "infraction": "INFRACTION_EMPTY_PUNG"},
            {"offender": "SEAT_EAST", "infraction": "INFRACTION_EXPOSING_OTHERS_TILES", "victim": "SEAT_NORTH", "points": 20},
        ],
    });
    let text = ok(&referee(&["penalty", &request.to_string()]));
    for line in [
        "  1. West: 空碰 (empty pung), 1st in this hand: warning (警告)\n",
        "  2. West: 空碰 (empty pung), 2nd in this hand: 5 points deducted (罚分)\n",
        "  3. West: 空碰 (empty pung), 3rd in this hand: 10 points deducted (罚分)\n",
        "  4. East: 暴露他人牌 (exposing another player's tiles): pays 20 to North, graded by the referee\n",
    ] {
        assert!(text.contains(line), "{line} not in\n{text}");
    }
    assert_eq!(row(&text, "West"), ["West", "-15"]);
    assert_eq!(row(&text, "East"), ["East", "-20"]);
    assert_eq!(row(&text, "North"), ["North", "+20"]);
    assert_eq!(row(&text, "South"), ["South", "0"]);
    assert_eq!(
        row(&text, "Unpaid penalties")[1],
        "15 (deducted, received by nobody)"
    );

    let v = json_out(&referee(&["penalty", "--json", &request.to_string()]));
    assert_eq!(v["rulings"][2]["occurrence"], 3);
    assert_eq!(
        v["rulings"][2]["sanctions"][0]["kind"],
        "SANCTION_KIND_DEDUCTION"
    );
    assert_eq!(v["rulings"][2]["sanctions"][0]["points"], 10);
    assert_eq!(v["rulings"][3]["sanctions"][0]["refereeGraded"], true);
    assert_eq!(v["unpaidPenalties"], 15);
}

#[test]
fn penalty_judges_a_declared_win() {
    // X2: North declares on East's discard while one tile short of ready (诈和): 20 to each
    // other player under 1998, 10 under the Green Book.
    for (ruleset, each) in [
        ("RULESET_CHINESE_OFFICIAL_1998", 20),
        ("RULESET_GREEN_BOOK_2006", 10),
    ] {
        let request = json!({
            "declaredWin": {
                "declarer": "SEAT_NORTH",
                "source": "WIN_SOURCE_DISCARD",
                "discarder": "SEAT_EAST",
                "winningHand": {"notation": "[123p][789p][123s]25m79s5m"},
            },
            "ruleset": ruleset,
        })
        .to_string();
        let text = ok(&referee(&["penalty", &request]));
        assert_eq!(
            row(&text, "Declared"),
            ["Declared", "North declares 和 on East's discard"]
        );
        assert_eq!(
            row(&text, "Verdict"),
            [
                "Verdict",
                "诈和 (win declared while not ready): the thirteen tiles before the declared one were 1 tile short of ready"
            ]
        );
        assert!(
            text.contains(&format!("pays {each} to each other player")),
            "{text}"
        );
        assert_eq!(row(&text, "North"), ["North", &format!("-{}", 3 * each)]);
        let v = json_out(&referee(&["penalty", "--json", &request]));
        assert_eq!(v["judgement"]["verdict"], "WIN_VERDICT_NOT_READY_WIN");
        assert_eq!(v["judgement"]["shanten"], 1);
        assert_eq!(v["accounts"][0]["delta"], each);
    }
}

// ---------------------------------------------------------------------------------------------
// standings

#[test]
fn standings_print_the_ranking_with_shared_places() {
    // X6 at one table under MIL's 4/2/1/0: A 612, B 520, D 520, C 400 → 4, 1.5, 1.5, 0.
    let request = json!({
        "players": [
            {"name": "A", "sessions": [{"handResults": [112]}]},
            {"name": "B", "sessions": [{"handResults": [20]}]},
            {"name": "C", "sessions": [{"handResults": [-88], "lateMinutes": 12}]},
            {"name": "D", "sessions": [{"handResults": [20]}]},
        ],
        "ruleset": "RULESET_MIL",
    })
    .to_string();
    let text = ok(&referee(&["standings", &request]));
    assert_eq!(
        row(&text, "Standard"),
        ["Standard", "per table 4/2/1/0, ties share"]
    );
    assert_eq!(
        row(&text, "Place"),
        ["Place", "Player", "标准分", "比赛分", "Best", "×", "局1"]
    );
    // C: 500 − 88 − 20 (12 minutes late) = 392.
    assert_eq!(row(&text, "1"), ["1", "A", "4", "612", "4", "1", "612 (4)"]);
    assert_eq!(
        row(&text, "2"),
        ["2", "B", "1.5", "520", "1.5", "1", "520 (1.5)"]
    );
    assert_eq!(
        row(&text, "4"),
        ["4", "C", "0", "392", "0", "1", "392 (0) late -20"]
    );
    assert!(text.contains("\n2      D  "), "{text}");

    let v = json_out(&referee(&["standings", "--json", &request]));
    assert_eq!(v["standings"][1]["name"], "B");
    assert_eq!(
        v["standings"][1]["standardPoints"],
        json!({"numerator": 3, "denominator": 2})
    );
    assert_eq!(v["standings"][3]["sessions"][0]["latePoints"], 20);
    assert_eq!(
        v["standardPointsMethod"],
        "STANDARD_POINTS_METHOD_TABLE_4210"
    );
}

// ---------------------------------------------------------------------------------------------
// Invalid requests

#[test]
fn an_invalid_settlement_lists_every_violation_and_exits_2() {
    let request = json!({
        "end": "HAND_END_DISCARD",
        "winner": "SEAT_SOUTH",
        "discarder": "SEAT_SOUTH",
        "fanCount": {"fanTotal": -2, "flowerCount": 9},
        "penalties": [
            {"offender": "SEAT_NORTH", "infraction": "INFRACTION_LATE_ARRIVAL", "lateMinutes": 5},
            {"infraction": 77},
        ],
    })
    .to_string();
    for args in [vec!["settle", &request], vec!["settle", "--json", &request]] {
        let o = referee(&args);
        assert_eq!(o.status.code(), Some(2));
        assert!(stdout(&o).is_empty(), "{}", stdout(&o));
        let err = stderr(&o);
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines[0], "invalid request: 6 violations", "{err}");
        let mut got: Vec<&str> = lines[1..]
            .iter()
            .map(|l| l.trim().split(": ").next().expect("CODE at field"))
            .collect();
        got.sort_unstable();
        assert_eq!(
            got,
            [
                "FLOWER_COUNT_INVALID at fan_count.flower_count",
                "INFRACTION_UNKNOWN at penalties[1].infraction",
                "PENALTY_OUT_OF_SCOPE at penalties[0].infraction",
                "SEAT_INVALID at penalties[1].offender",
                "VALUE_NEGATIVE at fan_count.fan_total",
                "WINNER_IS_PAYER at discarder",
            ]
        );
        assert!(
            err.contains("WINNER_IS_PAYER at discarder: South cannot win on a tile of his own")
        );
    }
}

#[test]
fn invalid_penalty_and_standings_requests_exit_2() {
    let o = referee(&[
        "penalty",
        r#"{"offences": [{"offender": "SEAT_EAST", "infraction": "INFRACTION_NAMING_DISCARD", "points": 99}], "occurrence": -1}"#,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "invalid request: 2 violations\n  \
         VALUE_NEGATIVE at occurrence: the occurrence must be 1 or more (0 to count from the list), found -1\n  \
         PENALTY_AMOUNT_OUT_OF_RANGE at offences[0].points: a graded deduction must be one of 5, 10, 20, 30, 40, 50 or 60 points under chinese-official-1998 (R98 §13-2(2)), found 99\n"
    );
    let o = referee_with_stdin(
        &["standings"],
        r#"{"players": [{"sessions": [{"lateMinutes": -1}]}, {"sessions": []}]}"#,
    );
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.starts_with("invalid request: 2 violations\n"), "{err}");
    assert!(err.contains("  VALUE_NEGATIVE at players[0].sessions[0].late_minutes: "));
    assert!(err.contains("  VALUE_INVALID at players[1].sessions: "));
}

#[test]
fn unreadable_requests_exit_2() {
    let o = referee(&["settle", "{\"end\": \"HAND_END_DRAW_GAME\", \"bogus\": 1}"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    assert!(
        stderr(&o).starts_with("mahjong-referee settle: invalid request: not a SettleHandRequest"),
        "{}",
        stderr(&o)
    );
    let o = referee(&["standings", "@/nonexistent/request.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with(
            "mahjong-referee standings: cannot read the request from `/nonexistent/request.json`"
        ),
        "{}",
        stderr(&o)
    );
    let o = referee_with_stdin(&["penalty"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("mahjong-referee penalty: invalid request"));
}

/// `--lang` on the accounting sheets: the README's settlement in Traditional characters,
/// and in English with no Chinese character left; a ruling and the standings too.
#[test]
fn lang_chooses_the_chinese_of_the_accounting_sheets() {
    let request = json!({
        "end": "HAND_END_DISCARD", "winner": "SEAT_SOUTH", "discarder": "SEAT_WEST",
        "fanCount": {"fanTotal": 13, "flowerCount": 1},
        "penalties": [{"offender": "SEAT_NORTH", "infraction": "INFRACTION_EMPTY_PUNG"},
                      {"offender": "SEAT_NORTH", "infraction": "INFRACTION_EMPTY_PUNG"}]
    })
    .to_string();
    let sheet = |command: &str, request: &str, lang: &str| {
        let out = referee(&[command, request, "--lang", lang]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stdout(&out)
    };
    let hant = sheet("settle", &request, "zh-hant");
    assert!(hant.contains("on West's discard (點和)"), "{hant}");
    assert!(
        hant.contains("North: 空碰 (empty pung), 2nd in this hand: 5 points deducted (罰分)"),
        "{hant}"
    );
    assert_eq!(row(&hant, "底分"), ["底分", "base", "to South", "-8"]);
    let hans = sheet("settle", &request, "zh-hans");
    assert!(hans.contains("5 points deducted (罚分)"), "{hans}");
    let chinese = |text: &str| text.chars().any(|c| ('\u{4E00}'..='\u{9FFF}').contains(&c));
    let en = sheet("settle", &request, "en");
    assert!(!chinese(&en), "{en}");
    assert!(
        en.contains("North: empty pung, 2nd in this hand: 5 points deducted"),
        "{en}"
    );
    assert_eq!(row(&en, "base"), ["base", "to South", "-8"]);

    let declared = json!({
        "declaredWin": {"declarer": "SEAT_NORTH", "source": "WIN_SOURCE_DISCARD",
                        "discarder": "SEAT_EAST",
                        "winningHand": {"notation": "[123p][789p][123s]25m79s5m"}}
    })
    .to_string();
    let standings = json!({
        "players": [{"name": "A", "sessions": [{"handResults": [30]}]},
                    {"name": "B", "sessions": [{"handResults": [-30]}]}]
    })
    .to_string();
    for (command, request) in [("penalty", &declared), ("standings", &standings)] {
        let en = sheet(command, request, "en");
        assert!(!chinese(&en), "{command}: {en}");
    }
    let hant = sheet("penalty", &declared, "zh-hant");
    assert!(hant.contains("declares 和"), "{hant}");
    let hant = sheet("standings", &standings, "zh-hant");
    assert!(hant.contains("標準分") && hant.contains("比賽分"), "{hant}");
}
