// The kiosk's words in Chinese and English.
export type Lang = "zh" | "en";

const WORDS = {
  title: { zh: "国标麻将 · 计分台", en: "Mahjong scoring kiosk" },
  subtitle: { zh: "中国麻将竞赛规则 · 81 番", en: "Chinese Official rules · 81 fan" },
  hand: { zh: "手牌", en: "Hand" },
  notation: { zh: "牌谱", en: "Notation" },
  notationHint: { zh: "可直接输入，如 [123m][555p2]789s55s9s", en: "or type it, e.g. [123m][555p2]789s55s9s" },
  add: { zh: "点牌加入", en: "Tap a tile to add" },
  modeHand: { zh: "立牌", en: "Standing" },
  modeChow: { zh: "吃", en: "Chow" },
  modePung: { zh: "碰", en: "Pung" },
  modeKong: { zh: "明杠", en: "Kong" },
  modeConcealedKong: { zh: "暗杠", en: "Concealed kong" },
  modeWinning: { zh: "和张", en: "Winning tile" },
  claimFrom: { zh: "来自", en: "Claimed from" },
  left: { zh: "上家", en: "Left" },
  opposite: { zh: "对家", en: "Opposite" },
  right: { zh: "下家", en: "Right" },
  undo: { zh: "撤销", en: "Undo" },
  clear: { zh: "清空", en: "Clear" },
  copyLink: { zh: "复制链接", en: "Copy link" },
  copied: { zh: "已复制", en: "Copied" },
  winningTile: { zh: "和张", en: "winning tile" },
  emptyHand: { zh: "点下方的牌组成手牌", en: "Tap the tiles below to build the hand" },
  tapToRemove: { zh: "点牌可移除", en: "tap a tile to remove it" },
  circumstances: { zh: "和牌情况", en: "Circumstances" },
  selfDrawn: { zh: "自摸", en: "Self-drawn" },
  lastCopy: { zh: "和绝张", en: "Last copy" },
  kong: { zh: "杠上开花 / 抢杠和", en: "Kong (replacement / robbed)" },
  lastTile: { zh: "海底捞月 / 妙手回春", en: "Last tile" },
  seatWind: { zh: "门风", en: "Seat wind" },
  prevalentWind: { zh: "圈风", en: "Prevalent wind" },
  flowers: { zh: "花牌", en: "Flowers" },
  discarder: { zh: "点炮", en: "Discarded by" },
  ruleset: { zh: "规则", en: "Ruleset" },
  scoreSheet: { zh: "计分表", en: "Score sheet" },
  reading: { zh: "组合", en: "Reading" },
  fan: { zh: "番种", en: "Fan" },
  fanTotal: { zh: "番数（不计花）", en: "Fan total (without flowers)" },
  flowerPoints: { zh: "花牌", en: "Flowers" },
  total: { zh: "合计", en: "Total" },
  tapLine: { zh: "点番种可高亮其组合", en: "tap a line to highlight its sets" },
  win: { zh: "和牌", en: "Win" },
  belowMinimum: { zh: "不足 8 番：不能和牌", en: "Under 8 fan: not a win" },
  notWinningShape: { zh: "不是和牌牌型", en: "Not a winning shape" },
  invalid: { zh: "手牌有误", en: "Invalid hand" },
  waiting: { zh: "等待输入", en: "Waiting for a hand" },
  unreachable: { zh: "无法连接裁判服务", en: "The referee cannot be reached" },
  problems: { zh: "问题", en: "Problems" },
  settlement: { zh: "结算", en: "Settlement" },
  settlementNone: { zh: "和牌后显示各家得失", en: "Shown once the hand is a win" },
  base: { zh: "底分", en: "base" },
  fanPoints: { zh: "番分", en: "fan points" },
  penalty: { zh: "罚分", en: "penalty" },
  from: { zh: "来自", en: "from" },
  to: { zh: "付给", en: "to" },
  points: { zh: "分", en: "pts" },
  fanUnit: { zh: "番", en: "fan" },
} as const;

export type Word = keyof typeof WORDS;

export function t(lang: Lang, word: Word): string {
  return WORDS[word][lang];
}

export const WIND_NAMES: Record<Lang, readonly string[]> = {
  zh: ["东", "南", "西", "北"],
  en: ["East", "South", "West", "North"],
};

export const RULESET_LABELS: Record<string, Record<Lang, string>> = {
  "chinese-official-1998": { zh: "竞赛规则 1998", en: "Chinese Official 1998" },
  mil: { zh: "MIL 补充裁定", en: "MIL rulings" },
  "green-book-2006": { zh: "绿皮书 2006", en: "Green Book 2006" },
};
