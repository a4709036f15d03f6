//! The fan table: one row per fan with its stable id, names, points and exclusions.
//!
//! Ids are the 1998 rulebook numbers (1..=81); the supplementary fan 明暗杠 is 82.
//! `excludes` lists the fans a fan suppresses entirely under the Chinese (R98 + QA + MIL)
//! reading; a ruleset may lift single pairs ([`crate::Ruleset::lifted_exclusions`]).
//! Suppression of single sets (幺九刻 of a wind pung that scores 圈风刻, the pairings of a
//! chow already used by 清龙, …) is part of detection and listed in `excludes_for_its_sets`.

/// One of the 81 fans, plus the supplementary 明暗杠.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Fan {
    /// 大四喜.
    BigFourWinds = 1,
    /// 大三元.
    BigThreeDragons = 2,
    /// 绿一色.
    AllGreen = 3,
    /// 九莲宝灯.
    NineGates = 4,
    /// 四杠.
    FourKongs = 5,
    /// 连七对.
    SevenShiftedPairs = 6,
    /// 十三幺.
    ThirteenOrphans = 7,
    /// 清幺九.
    AllTerminals = 8,
    /// 小四喜.
    LittleFourWinds = 9,
    /// 小三元.
    LittleThreeDragons = 10,
    /// 字一色.
    AllHonors = 11,
    /// 四暗刻.
    FourConcealedPungs = 12,
    /// 一色双龙会.
    PureTerminalChows = 13,
    /// 一色四同顺.
    QuadrupleChow = 14,
    /// 一色四节高.
    FourPureShiftedPungs = 15,
    /// 一色四步高.
    FourPureShiftedChows = 16,
    /// 三杠.
    ThreeKongs = 17,
    /// 混幺九.
    AllTerminalsAndHonors = 18,
    /// 七对.
    SevenPairs = 19,
    /// 七星不靠.
    GreaterHonorsAndKnittedTiles = 20,
    /// 全双刻.
    AllEvenPungs = 21,
    /// 清一色.
    FullFlush = 22,
    /// 一色三同顺.
    PureTripleChow = 23,
    /// 一色三节高.
    PureShiftedPungs = 24,
    /// 全大.
    UpperTiles = 25,
    /// 全中.
    MiddleTiles = 26,
    /// 全小.
    LowerTiles = 27,
    /// 清龙.
    PureStraight = 28,
    /// 三色双龙会.
    ThreeSuitedTerminalChows = 29,
    /// 一色三步高.
    PureShiftedChows = 30,
    /// 全带五.
    AllFives = 31,
    /// 三同刻.
    TriplePung = 32,
    /// 三暗刻.
    ThreeConcealedPungs = 33,
    /// 全不靠.
    LesserHonorsAndKnittedTiles = 34,
    /// 组合龙.
    KnittedStraight = 35,
    /// 大于五.
    UpperFour = 36,
    /// 小于五.
    LowerFour = 37,
    /// 三风刻.
    BigThreeWinds = 38,
    /// 花龙.
    MixedStraight = 39,
    /// 推不倒.
    ReversibleTiles = 40,
    /// 三色三同顺.
    MixedTripleChow = 41,
    /// 三色三节高.
    MixedShiftedPungs = 42,
    /// 无番和.
    ChickenHand = 43,
    /// 妙手回春.
    LastTileDraw = 44,
    /// 海底捞月.
    LastTileClaim = 45,
    /// 杠上开花.
    OutWithReplacementTile = 46,
    /// 抢杠和.
    RobbingTheKong = 47,
    /// 碰碰和.
    AllPungs = 48,
    /// 混一色.
    HalfFlush = 49,
    /// 三色三步高.
    MixedShiftedChows = 50,
    /// 五门齐.
    AllTypes = 51,
    /// 全求人.
    MeldedHand = 52,
    /// 双暗杠.
    TwoConcealedKongs = 53,
    /// 双箭刻.
    TwoDragonPungs = 54,
    /// 全带幺.
    OutsideHand = 55,
    /// 不求人.
    FullyConcealedHand = 56,
    /// 双明杠.
    TwoMeldedKongs = 57,
    /// 和绝张.
    LastTile = 58,
    /// 箭刻.
    DragonPung = 59,
    /// 圈风刻.
    PrevalentWind = 60,
    /// 门风刻.
    SeatWind = 61,
    /// 门前清.
    ConcealedHand = 62,
    /// 平和.
    AllChows = 63,
    /// 四归一.
    TileHog = 64,
    /// 双同刻.
    DoublePung = 65,
    /// 双暗刻.
    TwoConcealedPungs = 66,
    /// 暗杠.
    ConcealedKong = 67,
    /// 断幺.
    AllSimples = 68,
    /// 一般高.
    PureDoubleChow = 69,
    /// 喜相逢.
    MixedDoubleChow = 70,
    /// 连六.
    ShortStraight = 71,
    /// 老少副.
    TwoTerminalChows = 72,
    /// 幺九刻.
    PungOfTerminalsOrHonors = 73,
    /// 明杠.
    MeldedKong = 74,
    /// 缺一门.
    OneVoidedSuit = 75,
    /// 无字.
    NoHonors = 76,
    /// 边张.
    EdgeWait = 77,
    /// 坎张.
    ClosedWait = 78,
    /// 单钓将.
    SingleWait = 79,
    /// 自摸.
    SelfDrawn = 80,
    /// 花牌.
    FlowerTiles = 81,
    /// 明暗杠: the supplementary fan for one melded and one concealed kong.
    MeldedAndConcealedKongs = 82,
}

/// Number of fans in the table.
pub const FAN_COUNT: usize = 82;

/// One row of the fan table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FanSpec {
    /// The fan.
    pub fan: Fan,
    /// Chinese name in Simplified characters (docs/rules/fan-table.md).
    pub name_zh: &'static str,
    /// The same name in Traditional characters (繁體), written by hand: 杠 is 槓, 于 is
    /// 於, and 幺 stays 幺 (the standard form in both scripts).
    pub name_zh_hant: &'static str,
    /// English MCR name.
    pub name_en: &'static str,
    /// Points per instance under the 1998 table (a ruleset may override).
    pub points: u16,
    /// Fans this fan suppresses entirely (不计).
    pub excludes: &'static [Fan],
    /// Fans this fan suppresses only for the sets that form it.
    pub excludes_for_its_sets: &'static [Fan],
}

use Fan as F;

const fn row(
    fan: Fan,
    name_zh: &'static str,
    name_zh_hant: &'static str,
    name_en: &'static str,
    points: u16,
    excludes: &'static [Fan],
    excludes_for_its_sets: &'static [Fan],
) -> FanSpec {
    FanSpec {
        fan,
        name_zh,
        name_zh_hant,
        name_en,
        points,
        excludes,
        excludes_for_its_sets,
    }
}

/// The fan table, indexed by `id - 1`.
pub const FAN_TABLE: [FanSpec; FAN_COUNT] = [
    row(
        F::BigFourWinds,
        "大四喜",
        "大四喜",
        "Big Four Winds",
        88,
        &[
            F::BigThreeWinds,
            F::AllPungs,
            F::PrevalentWind,
            F::SeatWind,
            F::PungOfTerminalsOrHonors,
        ],
        &[],
    ),
    row(
        F::BigThreeDragons,
        "大三元",
        "大三元",
        "Big Three Dragons",
        88,
        &[F::TwoDragonPungs, F::DragonPung],
        &[],
    ),
    row(
        F::AllGreen,
        "绿一色",
        "綠一色",
        "All Green",
        88,
        &[F::HalfFlush, F::OneVoidedSuit],
        &[],
    ),
    row(
        F::NineGates,
        "九莲宝灯",
        "九蓮寶燈",
        "Nine Gates",
        88,
        &[
            F::FullFlush,
            F::ConcealedHand,
            F::FullyConcealedHand,
            F::NoHonors,
        ],
        &[F::PungOfTerminalsOrHonors],
    ),
    row(
        F::FourKongs,
        "四杠",
        "四槓",
        "Four Kongs",
        88,
        &[
            F::AllPungs,
            F::SingleWait,
            F::ThreeKongs,
            F::TwoMeldedKongs,
            F::MeldedAndConcealedKongs,
            F::TwoConcealedKongs,
            F::MeldedKong,
            F::ConcealedKong,
        ],
        &[],
    ),
    row(
        F::SevenShiftedPairs,
        "连七对",
        "連七對",
        "Seven Shifted Pairs",
        88,
        &[
            F::FullFlush,
            F::SevenPairs,
            F::FullyConcealedHand,
            F::ConcealedHand,
            F::SingleWait,
            F::NoHonors,
        ],
        &[],
    ),
    row(
        F::ThirteenOrphans,
        "十三幺",
        "十三幺",
        "Thirteen Orphans",
        88,
        &[
            F::AllTypes,
            F::FullyConcealedHand,
            F::ConcealedHand,
            F::SingleWait,
            F::AllTerminalsAndHonors,
        ],
        &[],
    ),
    row(
        F::AllTerminals,
        "清幺九",
        "清幺九",
        "All Terminals",
        64,
        &[
            F::AllTerminalsAndHonors,
            F::AllPungs,
            F::OutsideHand,
            F::PungOfTerminalsOrHonors,
            F::NoHonors,
            F::DoublePung,
        ],
        &[],
    ),
    row(
        F::LittleFourWinds,
        "小四喜",
        "小四喜",
        "Little Four Winds",
        64,
        &[F::BigThreeWinds],
        &[F::PungOfTerminalsOrHonors],
    ),
    row(
        F::LittleThreeDragons,
        "小三元",
        "小三元",
        "Little Three Dragons",
        64,
        &[F::TwoDragonPungs, F::DragonPung],
        &[],
    ),
    row(
        F::AllHonors,
        "字一色",
        "字一色",
        "All Honors",
        64,
        &[
            F::AllPungs,
            F::AllTerminalsAndHonors,
            F::OutsideHand,
            F::PungOfTerminalsOrHonors,
        ],
        &[],
    ),
    row(
        F::FourConcealedPungs,
        "四暗刻",
        "四暗刻",
        "Four Concealed Pungs",
        64,
        &[
            F::AllPungs,
            F::ConcealedHand,
            F::FullyConcealedHand,
            F::ThreeConcealedPungs,
            F::TwoConcealedPungs,
        ],
        &[],
    ),
    row(
        F::PureTerminalChows,
        "一色双龙会",
        "一色雙龍會",
        "Pure Terminal Chows",
        64,
        &[
            F::SevenPairs,
            F::FullFlush,
            F::AllChows,
            F::PureDoubleChow,
            F::TwoTerminalChows,
            F::NoHonors,
        ],
        &[],
    ),
    row(
        F::QuadrupleChow,
        "一色四同顺",
        "一色四同順",
        "Quadruple Chow",
        48,
        &[
            F::PureTripleChow,
            F::PureShiftedPungs,
            F::PureDoubleChow,
            F::TileHog,
            F::SevenPairs,
        ],
        &[],
    ),
    row(
        F::FourPureShiftedPungs,
        "一色四节高",
        "一色四節高",
        "Four Pure Shifted Pungs",
        48,
        &[F::PureTripleChow, F::PureShiftedPungs, F::AllPungs],
        &[],
    ),
    row(
        F::FourPureShiftedChows,
        "一色四步高",
        "一色四步高",
        "Four Pure Shifted Chows",
        32,
        &[F::PureShiftedChows, F::ShortStraight, F::TwoTerminalChows],
        &[],
    ),
    row(
        F::ThreeKongs,
        "三杠",
        "三槓",
        "Three Kongs",
        32,
        &[
            F::TwoMeldedKongs,
            F::MeldedAndConcealedKongs,
            F::TwoConcealedKongs,
            F::MeldedKong,
        ],
        &[],
    ),
    row(
        F::AllTerminalsAndHonors,
        "混幺九",
        "混幺九",
        "All Terminals and Honors",
        32,
        &[F::AllPungs, F::OutsideHand, F::PungOfTerminalsOrHonors],
        &[],
    ),
    row(
        F::SevenPairs,
        "七对",
        "七對",
        "Seven Pairs",
        24,
        &[F::FullyConcealedHand, F::ConcealedHand, F::SingleWait],
        &[],
    ),
    row(
        F::GreaterHonorsAndKnittedTiles,
        "七星不靠",
        "七星不靠",
        "Greater Honors and Knitted Tiles",
        24,
        &[
            F::LesserHonorsAndKnittedTiles,
            F::AllTypes,
            F::FullyConcealedHand,
            F::ConcealedHand,
            F::SingleWait,
        ],
        &[],
    ),
    row(
        F::AllEvenPungs,
        "全双刻",
        "全雙刻",
        "All Even Pungs",
        24,
        &[F::AllPungs, F::AllSimples, F::NoHonors],
        &[],
    ),
    row(
        F::FullFlush,
        "清一色",
        "清一色",
        "Full Flush",
        24,
        &[F::NoHonors],
        &[],
    ),
    row(
        F::PureTripleChow,
        "一色三同顺",
        "一色三同順",
        "Pure Triple Chow",
        24,
        &[F::PureShiftedPungs, F::PureDoubleChow],
        &[],
    ),
    row(
        F::PureShiftedPungs,
        "一色三节高",
        "一色三節高",
        "Pure Shifted Pungs",
        24,
        &[F::PureTripleChow],
        &[],
    ),
    row(
        F::UpperTiles,
        "全大",
        "全大",
        "Upper Tiles",
        24,
        &[F::UpperFour, F::NoHonors],
        &[],
    ),
    row(
        F::MiddleTiles,
        "全中",
        "全中",
        "Middle Tiles",
        24,
        &[F::AllSimples, F::NoHonors],
        &[],
    ),
    row(
        F::LowerTiles,
        "全小",
        "全小",
        "Lower Tiles",
        24,
        &[F::LowerFour, F::NoHonors],
        &[],
    ),
    row(
        F::PureStraight,
        "清龙",
        "清龍",
        "Pure Straight",
        16,
        &[],
        &[F::ShortStraight, F::TwoTerminalChows],
    ),
    row(
        F::ThreeSuitedTerminalChows,
        "三色双龙会",
        "三色雙龍會",
        "Three-Suited Terminal Chows",
        16,
        &[
            F::AllChows,
            F::TwoTerminalChows,
            F::MixedDoubleChow,
            F::NoHonors,
        ],
        &[],
    ),
    row(
        F::PureShiftedChows,
        "一色三步高",
        "一色三步高",
        "Pure Shifted Chows",
        16,
        &[],
        &[],
    ),
    row(
        F::AllFives,
        "全带五",
        "全帶五",
        "All Fives",
        16,
        &[F::AllSimples, F::NoHonors],
        &[],
    ),
    row(
        F::TriplePung,
        "三同刻",
        "三同刻",
        "Triple Pung",
        16,
        &[],
        &[F::DoublePung],
    ),
    row(
        F::ThreeConcealedPungs,
        "三暗刻",
        "三暗刻",
        "Three Concealed Pungs",
        16,
        &[F::TwoConcealedPungs],
        &[],
    ),
    row(
        F::LesserHonorsAndKnittedTiles,
        "全不靠",
        "全不靠",
        "Lesser Honors and Knitted Tiles",
        12,
        &[
            F::AllTypes,
            F::FullyConcealedHand,
            F::ConcealedHand,
            F::SingleWait,
        ],
        &[],
    ),
    row(
        F::KnittedStraight,
        "组合龙",
        "組合龍",
        "Knitted Straight",
        12,
        &[],
        &[],
    ),
    row(
        F::UpperFour,
        "大于五",
        "大於五",
        "Upper Four",
        12,
        &[F::NoHonors],
        &[],
    ),
    row(
        F::LowerFour,
        "小于五",
        "小於五",
        "Lower Four",
        12,
        &[F::NoHonors],
        &[],
    ),
    row(
        F::BigThreeWinds,
        "三风刻",
        "三風刻",
        "Big Three Winds",
        12,
        &[],
        &[F::PungOfTerminalsOrHonors],
    ),
    row(
        F::MixedStraight,
        "花龙",
        "花龍",
        "Mixed Straight",
        8,
        &[],
        &[],
    ),
    row(
        F::ReversibleTiles,
        "推不倒",
        "推不倒",
        "Reversible Tiles",
        8,
        &[F::OneVoidedSuit],
        &[],
    ),
    row(
        F::MixedTripleChow,
        "三色三同顺",
        "三色三同順",
        "Mixed Triple Chow",
        8,
        &[],
        &[F::MixedDoubleChow],
    ),
    row(
        F::MixedShiftedPungs,
        "三色三节高",
        "三色三節高",
        "Mixed Shifted Pungs",
        8,
        &[],
        &[],
    ),
    row(
        F::ChickenHand,
        "无番和",
        "無番和",
        "Chicken Hand",
        8,
        &[],
        &[],
    ),
    row(
        F::LastTileDraw,
        "妙手回春",
        "妙手回春",
        "Last Tile Draw",
        8,
        &[F::SelfDrawn],
        &[],
    ),
    row(
        F::LastTileClaim,
        "海底捞月",
        "海底撈月",
        "Last Tile Claim",
        8,
        &[],
        &[],
    ),
    row(
        F::OutWithReplacementTile,
        "杠上开花",
        "槓上開花",
        "Out with Replacement Tile",
        8,
        &[F::SelfDrawn],
        &[],
    ),
    row(
        F::RobbingTheKong,
        "抢杠和",
        "搶槓和",
        "Robbing the Kong",
        8,
        &[F::LastTile],
        &[],
    ),
    row(F::AllPungs, "碰碰和", "碰碰和", "All Pungs", 6, &[], &[]),
    row(F::HalfFlush, "混一色", "混一色", "Half Flush", 6, &[], &[]),
    row(
        F::MixedShiftedChows,
        "三色三步高",
        "三色三步高",
        "Mixed Shifted Chows",
        6,
        &[],
        &[],
    ),
    row(F::AllTypes, "五门齐", "五門齊", "All Types", 6, &[], &[]),
    row(
        F::MeldedHand,
        "全求人",
        "全求人",
        "Melded Hand",
        6,
        &[F::SingleWait],
        &[],
    ),
    row(
        F::TwoConcealedKongs,
        "双暗杠",
        "雙暗槓",
        "Two Concealed Kongs",
        6,
        &[F::TwoConcealedPungs, F::ConcealedKong],
        &[],
    ),
    row(
        F::TwoDragonPungs,
        "双箭刻",
        "雙箭刻",
        "Two Dragon Pungs",
        6,
        &[F::DragonPung],
        &[],
    ),
    row(
        F::OutsideHand,
        "全带幺",
        "全帶幺",
        "Outside Hand",
        4,
        &[],
        &[],
    ),
    row(
        F::FullyConcealedHand,
        "不求人",
        "不求人",
        "Fully Concealed Hand",
        4,
        &[F::ConcealedHand, F::SelfDrawn],
        &[],
    ),
    row(
        F::TwoMeldedKongs,
        "双明杠",
        "雙明槓",
        "Two Melded Kongs",
        4,
        &[F::MeldedKong],
        &[],
    ),
    row(F::LastTile, "和绝张", "和絕張", "Last Tile", 4, &[], &[]),
    row(
        F::DragonPung,
        "箭刻",
        "箭刻",
        "Dragon Pung",
        2,
        &[],
        &[F::PungOfTerminalsOrHonors],
    ),
    row(
        F::PrevalentWind,
        "圈风刻",
        "圈風刻",
        "Prevalent Wind",
        2,
        &[],
        &[F::PungOfTerminalsOrHonors],
    ),
    row(
        F::SeatWind,
        "门风刻",
        "門風刻",
        "Seat Wind",
        2,
        &[],
        &[F::PungOfTerminalsOrHonors],
    ),
    row(
        F::ConcealedHand,
        "门前清",
        "門前清",
        "Concealed Hand",
        2,
        &[],
        &[],
    ),
    row(
        F::AllChows,
        "平和",
        "平和",
        "All Chows",
        2,
        &[F::NoHonors],
        &[],
    ),
    row(F::TileHog, "四归一", "四歸一", "Tile Hog", 2, &[], &[]),
    row(
        F::DoublePung,
        "双同刻",
        "雙同刻",
        "Double Pung",
        2,
        &[],
        &[],
    ),
    row(
        F::TwoConcealedPungs,
        "双暗刻",
        "雙暗刻",
        "Two Concealed Pungs",
        2,
        &[],
        &[],
    ),
    row(
        F::ConcealedKong,
        "暗杠",
        "暗槓",
        "Concealed Kong",
        2,
        &[],
        &[],
    ),
    row(
        F::AllSimples,
        "断幺",
        "斷幺",
        "All Simples",
        2,
        &[F::NoHonors],
        &[],
    ),
    row(
        F::PureDoubleChow,
        "一般高",
        "一般高",
        "Pure Double Chow",
        1,
        &[],
        &[],
    ),
    row(
        F::MixedDoubleChow,
        "喜相逢",
        "喜相逢",
        "Mixed Double Chow",
        1,
        &[],
        &[],
    ),
    row(
        F::ShortStraight,
        "连六",
        "連六",
        "Short Straight",
        1,
        &[],
        &[],
    ),
    row(
        F::TwoTerminalChows,
        "老少副",
        "老少副",
        "Two Terminal Chows",
        1,
        &[],
        &[],
    ),
    row(
        F::PungOfTerminalsOrHonors,
        "幺九刻",
        "幺九刻",
        "Pung of Terminals or Honors",
        1,
        &[],
        &[],
    ),
    row(F::MeldedKong, "明杠", "明槓", "Melded Kong", 1, &[], &[]),
    row(
        F::OneVoidedSuit,
        "缺一门",
        "缺一門",
        "One Voided Suit",
        1,
        &[],
        &[],
    ),
    row(F::NoHonors, "无字", "無字", "No Honors", 1, &[], &[]),
    row(F::EdgeWait, "边张", "邊張", "Edge Wait", 1, &[], &[]),
    row(F::ClosedWait, "坎张", "坎張", "Closed Wait", 1, &[], &[]),
    row(
        F::SingleWait,
        "单钓将",
        "單釣將",
        "Single Wait",
        1,
        &[],
        &[],
    ),
    row(F::SelfDrawn, "自摸", "自摸", "Self-Drawn", 1, &[], &[]),
    row(F::FlowerTiles, "花牌", "花牌", "Flower Tiles", 1, &[], &[]),
    row(
        F::MeldedAndConcealedKongs,
        "明暗杠",
        "明暗槓",
        "Melded and Concealed Kongs",
        6,
        &[F::MeldedKong, F::ConcealedKong],
        &[],
    ),
];

impl Fan {
    /// Every fan in id order.
    pub const ALL: [Fan; FAN_COUNT] = {
        let mut all = [Fan::BigFourWinds; FAN_COUNT];
        let mut i = 0;
        while i < FAN_COUNT {
            all[i] = FAN_TABLE[i].fan;
            i += 1;
        }
        all
    };

    /// The stable id (the 1998 rulebook number; 82 for 明暗杠).
    pub const fn id(self) -> u8 {
        self as u8
    }

    /// The fan with this id.
    pub const fn from_id(id: u8) -> Option<Fan> {
        if id >= 1 && id as usize <= FAN_COUNT {
            Some(FAN_TABLE[id as usize - 1].fan)
        } else {
            None
        }
    }

    /// Its row of the fan table.
    pub const fn spec(self) -> &'static FanSpec {
        &FAN_TABLE[self as usize - 1]
    }

    /// Position 0..82 in dense arrays.
    pub(crate) const fn slot(self) -> usize {
        self as usize - 1
    }
}

impl std::fmt::Display for Fan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.spec().name_en)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_rows_are_in_id_order_and_ids_round_trip() {
        for (i, spec) in FAN_TABLE.iter().enumerate() {
            assert_eq!(spec.fan.slot(), i, "{:?}", spec.fan);
            assert_eq!(Fan::from_id(spec.fan.id()), Some(spec.fan));
        }
        assert_eq!(Fan::from_id(0), None);
        assert_eq!(Fan::from_id(83), None);
    }

    #[test]
    fn a_fan_never_excludes_itself_and_points_follow_the_grades() {
        for spec in &FAN_TABLE {
            assert!(!spec.excludes.contains(&spec.fan), "{:?}", spec.fan);
            assert!([1, 2, 4, 6, 8, 12, 16, 24, 32, 48, 64, 88].contains(&spec.points));
        }
        let total: usize = FAN_TABLE
            .iter()
            .filter(|s| s.fan != Fan::MeldedAndConcealedKongs)
            .count();
        assert_eq!(total, 81);
    }

    #[test]
    fn a_fan_only_excludes_fans_worth_no_more_than_itself() {
        // The exclusion pass walks the fans from the highest value down, so a suppressed fan
        // never gets to suppress others.
        for spec in &FAN_TABLE {
            for ex in spec.excludes {
                assert!(
                    ex.spec().points <= spec.points,
                    "{:?} excludes {:?}",
                    spec.fan,
                    ex
                );
            }
        }
    }
}
