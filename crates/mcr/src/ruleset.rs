//! Rulesets as data: the switches of docs/rules/rulesets.md.
//!
//! A ruleset is a value, not code: a tournament variant is a new [`Ruleset`] built from
//! these switches. The engine consults them at the one place each concerns.

use crate::fan::Fan;

/// How three kongs combine with concealed kongs (docs/rules/readings.md#kong-combinations).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ThreeKongsRule {
    /// MIL: one kong-family fan and one concealed-pung-family fan; one concealed kong adds nothing.
    FamilyOfEach,
    /// 1998 Q&A: as `FamilyOfEach`, but exactly one concealed kong among three also scores 暗杠.
    ConcealedKongAdds,
}

/// How many 幺九刻 九莲宝灯 suppresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NineGatesTerminalPungs {
    /// MIL: one fewer than the reading shows (a 2/5/8 win keeps one).
    OneFewer,
    /// 1998 Q&A and Green Book: none is counted.
    None,
}

/// The three rulesets the service offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RulesetId {
    /// 《中国麻将竞赛规则（试行）》1998 with its Q&A (the default).
    #[default]
    ChineseOfficial1998,
    /// Chinese practice with the MIL supplementary rulings.
    Mil,
    /// World Mahjong Organization, Mahjong Competition Rules (2006).
    GreenBook2006,
}

/// The minimum a hand must score, flowers excluded (起和分), in the three rulesets.
pub const MINIMUM_FAN: u32 = 8;

/// The base (底分) each loser pays the winner besides the fan points, in the three rulesets.
pub const BASE_POINTS: u32 = 8;

/// How tied players read the standard-point formula (标准分).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StandardPointTies {
    /// Tied players share the points of the places they occupy (two tied first of four
    /// under 4/2/1/0: (4 + 2) / 2 = 3 each).
    SharePlaces,
    /// Tied players all take the best place they occupy, the next player the place after
    /// them (两人并列第一: 4 each, the next is third).
    SamePlace,
}

/// Standard points (标准分) at the end of a session.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StandardPoints {
    /// 1998 group formula: N, N−2, N−3, …, 0.
    GroupFormula,
    /// Per table 4/2/1/0.
    Table4210,
}

/// Which wall a hand is played from (docs/rules/tiles-and-play.md#wall): how many tiles are drawn after the
/// deal, and which draw is the last tile (妙手回春, 海底捞月).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WallRule {
    /// One shared wall of the 136 tiles without flowers: 84 draws after the deal, replacement
    /// draws included; the 84th is the last tile.
    Shared136,
    /// One shared wall of all 144 tiles, flowers included (docs/rules/tiles-and-play.md#tiles): 92 draws after the deal,
    /// the replacements for flowers and kongs included.
    Shared144,
    /// Botzone's judge: 136 tiles, each seat draws from a wall of its own (13 dealt, 21 to
    /// draw); the hand ends when the seat to draw has none left.
    Botzone,
}

/// What may be claimed on the last discard, when the wall is empty (docs/rules/tiles-and-play.md#last-tile).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LastDiscardClaims {
    /// Only a win (海底捞月): no chow, pung or kong, since no discard can follow.
    WinsOnly,
    /// Any claim; a seat that claims must then discard, and that discard can only be won.
    All,
}

/// Which tile an added kong (加杠) may add to a melded pung (docs/rules/tiles-and-play.md#kongs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddedKongTile {
    /// Only the tile just drawn.
    JustDrawn,
    /// Any copy held, also one kept since an earlier draw (Botzone's records).
    AnyHeld,
}

/// Several players winning on one discard (docs/rules/scoring-and-payments.md#one-winner).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MultipleWinners {
    /// 截和: only the first claimant counter-clockwise from the discarder wins.
    HeadBump,
}

/// The switches of the procedure of play (行牌) that the rulebooks leave open. They are the
/// same in the three rulesets; house rules change them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlayRules {
    /// The wall.
    pub wall: WallRule,
    /// Claims on the last discard.
    pub last_discard_claims: LastDiscardClaims,
    /// The tile an added kong adds.
    pub added_kong_tile: AddedKongTile,
    /// Several winners on one discard.
    pub multiple_winners: MultipleWinners,
}

impl PlayRules {
    /// The switches in the three rulesets: one shared 136-tile wall, only a win on the last
    /// discard, an added kong with the tile just drawn (R98 §7-7), head-bump.
    pub const DEFAULT: PlayRules = PlayRules {
        wall: WallRule::Shared136,
        last_discard_claims: LastDiscardClaims::WinsOnly,
        added_kong_tile: AddedKongTile::JustDrawn,
        multiple_winners: MultipleWinners::HeadBump,
    };
}

/// A complete set of scoring switches. The three rulesets are `Ruleset<'static>`; house rules
/// (`crate::house_rules`) borrow their lists from the overrides that made them.
#[allow(clippy::struct_excessive_bools)] // each bool is one yes/no question of the rulebooks
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ruleset<'a> {
    /// Which ruleset this is.
    pub id: RulesetId,
    /// Short name.
    pub name: &'static str,
    /// Fans whose points differ from the 1998 table.
    pub point_overrides: &'a [(Fan, u16)],
    /// `(fan, excluded)` pairs of the exclusion table this ruleset does not apply.
    pub lifted_exclusions: &'a [(Fan, Fan)],
    /// The minimum a winning hand must score, flowers excluded (起和分).
    pub minimum_fan: u32,
    /// 底分: what each loser pays the winner besides the fan points (R98 §10-1).
    pub base_points: u32,
    /// Three kongs with concealed kongs.
    pub three_kongs: ThreeKongsRule,
    /// 九莲宝灯 and 幺九刻.
    pub nine_gates_terminal_pungs: NineGatesTerminalPungs,
    /// A tile kind counts as a wait even when the winner holds all four copies (formal waits).
    pub wait_counts_exhausted_tiles: bool,
    /// In seven pairs, four identical honour tiles score 四归一 (suited tiles always do).
    pub seven_pairs_honor_tile_hog: bool,
    /// 全不靠 holding all nine knitted tiles also scores 组合龙.
    pub lesser_honors_knitted_straight: bool,
    /// The 组合龙 + set + pair form may score 平和.
    pub knitted_straight_all_chows: bool,
    /// 标准分.
    pub standard_points: StandardPoints,
    /// How tied players read the standard points.
    pub standard_point_ties: StandardPointTies,
    /// Penalty figures: false declarations and the referee-graded amounts (docs/rules/penalties.md).
    pub penalties: PenaltyFigures<'a>,
    /// Repeated 空吃/空碰/空杠, early draws and late pungs within one hand.
    pub repeat_offences: Escalation<'a>,
    /// Late arrival at a session (局).
    pub late_arrival: LateArrivalScale<'a>,
    /// The procedure of play: the wall and the claims the rulebooks leave open.
    pub play: PlayRules,
}

/// R98 §13–§14 (book pp.32–36): 错和/和错牌 10 and 诈和 20 to each other player with 停和,
/// 有意诈和 disqualifies, graded amounts 5–60 in seven grades.
const R98_PENALTIES: PenaltyFigures<'static> = PenaltyFigures {
    false_win_each: 10,
    not_ready_win_each: 20,
    false_win_loses_right_to_win: true,
    deliberate_false_win_disqualifies: true,
    graded_min: 5,
    graded_max: 60,
    grades: &[5, 10, 20, 30, 40, 50, 60],
};

/// Green Book 2006 as docs/rules/readings.md#green-book-penalties gives it: any false 和 costs 10 to each other
/// player, and the offender may not declare 和 again in that hand [TS-289]; other figures as
/// R98 (the GB penalty chapter's own figures are unverified).
const GREEN_BOOK_PENALTIES: PenaltyFigures<'static> = PenaltyFigures {
    not_ready_win_each: 10,
    ..R98_PENALTIES
};

/// docs/rules/readings.md#escalation-after-the-fourth: warning, 5, 10, 20, then 40, capped at 60 (R98 prints warning, 5, 10, 20, "以此类推").
const REPEAT_OFFENCES: Escalation<'static> = Escalation {
    first_is_warning: true,
    steps: &[5, 10, 20, 40],
    cap: 60,
};

/// docs/rules/penalties.md#late-arrival: up to 10 minutes warning + 10; up to 15 minutes 20; later forfeits (局分 0).
const LATE_ARRIVAL: LateArrivalScale<'static> = LateArrivalScale {
    tiers: &[
        LateTier {
            up_to_minutes: 10,
            points: 10,
            warning: true,
        },
        LateTier {
            up_to_minutes: 15,
            points: 20,
            warning: false,
        },
    ],
    forfeit_after_minutes: 15,
};

/// The special shapes that are concealed by construction, which the Green Book lets score
/// 不求人 when self-drawn.
const GREEN_BOOK_LIFTED: &[(Fan, Fan)] = &[
    (Fan::AllGreen, Fan::HalfFlush),
    (Fan::AllTerminals, Fan::DoublePung),
    (Fan::NineGates, Fan::FullyConcealedHand),
    (Fan::SevenShiftedPairs, Fan::FullyConcealedHand),
    (Fan::ThirteenOrphans, Fan::FullyConcealedHand),
    (Fan::FourConcealedPungs, Fan::FullyConcealedHand),
    (Fan::SevenPairs, Fan::FullyConcealedHand),
    (Fan::GreaterHonorsAndKnittedTiles, Fan::FullyConcealedHand),
    (Fan::LesserHonorsAndKnittedTiles, Fan::FullyConcealedHand),
];

impl Ruleset<'static> {
    /// `CHINESE_OFFICIAL_1998`: R98 + Q&A, gaps filled as MIL.
    pub const CHINESE_OFFICIAL_1998: Ruleset<'static> = Ruleset {
        id: RulesetId::ChineseOfficial1998,
        name: "chinese-official-1998",
        point_overrides: &[],
        lifted_exclusions: &[],
        minimum_fan: MINIMUM_FAN,
        base_points: BASE_POINTS,
        three_kongs: ThreeKongsRule::ConcealedKongAdds,
        nine_gates_terminal_pungs: NineGatesTerminalPungs::None,
        wait_counts_exhausted_tiles: true,
        seven_pairs_honor_tile_hog: true,
        lesser_honors_knitted_straight: true,
        knitted_straight_all_chows: true,
        standard_points: StandardPoints::GroupFormula,
        standard_point_ties: StandardPointTies::SharePlaces,
        penalties: R98_PENALTIES,
        repeat_offences: REPEAT_OFFENCES,
        late_arrival: LATE_ARRIVAL,
        play: PlayRules::DEFAULT,
    };

    /// `MIL`: the rulings of the common Chinese scoring apps (the public corpus).
    pub const MIL: Ruleset<'static> = Ruleset {
        id: RulesetId::Mil,
        name: "mil",
        point_overrides: &[(Fan::MeldedAndConcealedKongs, 5)],
        lifted_exclusions: &[],
        minimum_fan: MINIMUM_FAN,
        base_points: BASE_POINTS,
        three_kongs: ThreeKongsRule::FamilyOfEach,
        nine_gates_terminal_pungs: NineGatesTerminalPungs::OneFewer,
        wait_counts_exhausted_tiles: true,
        seven_pairs_honor_tile_hog: true,
        lesser_honors_knitted_straight: true,
        knitted_straight_all_chows: true,
        standard_points: StandardPoints::Table4210,
        standard_point_ties: StandardPointTies::SharePlaces,
        penalties: R98_PENALTIES,
        repeat_offences: REPEAT_OFFENCES,
        late_arrival: LATE_ARRIVAL,
        play: PlayRules::DEFAULT,
    };

    /// `GREEN_BOOK_2006`: the WMO Green Book as played at EMA tournaments.
    pub const GREEN_BOOK_2006: Ruleset<'static> = Ruleset {
        id: RulesetId::GreenBook2006,
        name: "green-book-2006",
        point_overrides: &[(Fan::TwoConcealedKongs, 8)],
        lifted_exclusions: GREEN_BOOK_LIFTED,
        minimum_fan: MINIMUM_FAN,
        base_points: BASE_POINTS,
        three_kongs: ThreeKongsRule::FamilyOfEach,
        nine_gates_terminal_pungs: NineGatesTerminalPungs::None,
        wait_counts_exhausted_tiles: true,
        seven_pairs_honor_tile_hog: false,
        lesser_honors_knitted_straight: true,
        knitted_straight_all_chows: true,
        standard_points: StandardPoints::Table4210,
        standard_point_ties: StandardPointTies::SharePlaces,
        penalties: GREEN_BOOK_PENALTIES,
        repeat_offences: REPEAT_OFFENCES,
        late_arrival: LATE_ARRIVAL,
        play: PlayRules::DEFAULT,
    };

    /// The ruleset for an id.
    pub const fn get(id: RulesetId) -> &'static Ruleset<'static> {
        match id {
            RulesetId::ChineseOfficial1998 => &Ruleset::CHINESE_OFFICIAL_1998,
            RulesetId::Mil => &Ruleset::MIL,
            RulesetId::GreenBook2006 => &Ruleset::GREEN_BOOK_2006,
        }
    }
}

impl Ruleset<'_> {
    /// Points of one instance of a fan under this ruleset.
    pub fn points(&self, fan: Fan) -> u16 {
        self.point_overrides
            .iter()
            .find(|(f, _)| *f == fan)
            .map_or(fan.spec().points, |(_, p)| *p)
    }

    /// Whether `fan` suppresses `excluded` under this ruleset.
    pub fn excludes(&self, fan: Fan, excluded: Fan) -> bool {
        fan.spec().excludes.contains(&excluded)
            && !self.lifted_exclusions.contains(&(fan, excluded))
    }
}

impl Default for Ruleset<'static> {
    fn default() -> Self {
        Ruleset::CHINESE_OFFICIAL_1998
    }
}

impl RulesetId {
    /// All rulesets.
    pub const ALL: [RulesetId; 3] = [
        RulesetId::ChineseOfficial1998,
        RulesetId::Mil,
        RulesetId::GreenBook2006,
    ];

    /// The command-line name (`chinese-official-1998`, `mil`, `green-book-2006`).
    pub const fn name(self) -> &'static str {
        Ruleset::get(self).name
    }
}

impl std::str::FromStr for RulesetId {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RulesetId::ALL
            .into_iter()
            .find(|id| id.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown ruleset `{s}` (expected chinese-official-1998, mil or green-book-2006)"
                )
            })
    }
}

/// Penalty figures of a ruleset for false declarations and referee-graded infringements.
#[allow(clippy::struct_excessive_bools)] // each bool is one yes/no question of the rulebooks
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PenaltyFigures<'a> {
    /// 错和 (under 8 fan) and 和错牌 (wrong winning tile): points paid to each other player.
    pub false_win_each: u32,
    /// 诈和 (declared while one tile short of ready): points paid to each other player.
    pub not_ready_win_each: u32,
    /// A false declaration also costs the right to win this hand (停和).
    pub false_win_loses_right_to_win: bool,
    /// 有意诈和 (two or more tiles short of ready) disqualifies; otherwise it is ruled as 诈和.
    pub deliberate_false_win_disqualifies: bool,
    /// The smallest amount the referee may give where an infraction's own rule gives a range
    /// paid to a victim (R98 §14-7(3), exposing another's tiles: 5–60).
    pub graded_min: u32,
    /// The largest such amount.
    pub graded_max: u32,
    /// The graded deductions (R98 §13-2(2): 5, 10, 20, 30, 40, 50, 60, increasing): the only
    /// amounts a referee-graded deduction may take (naming a discard, illegal signals).
    pub grades: &'a [u32],
}

/// Points for a repeated offence within one hand (空吃/空碰/空杠, drawing early, a late pung).
///
/// Occurrence 1 is a warning when `first_is_warning`; the following occurrences take
/// `steps` in order; past the end of `steps` each occurrence doubles the previous amount
/// ("以此类推"); no amount exceeds `cap`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Escalation<'a> {
    /// The first occurrence is a warning without points.
    pub first_is_warning: bool,
    /// The points of the following occurrences.
    pub steps: &'a [u32],
    /// The highest amount of a single occurrence.
    pub cap: u32,
}

/// One tier of the late-arrival scale: arriving at most `up_to_minutes` late.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LateTier {
    /// The tier covers lateness up to and including this many minutes.
    pub up_to_minutes: u32,
    /// Points deducted from the session total (局分).
    pub points: u32,
    /// A warning is given as well.
    pub warning: bool,
}

/// Sanctions for arriving late at a session (局), deducted when the session total is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LateArrivalScale<'a> {
    /// Tiers in increasing order of minutes.
    pub tiers: &'a [LateTier],
    /// More minutes late than this forfeits the session: its total (局分) is 0.
    pub forfeit_after_minutes: u32,
}
