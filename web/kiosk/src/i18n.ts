// The kiosk's words in Chinese (Simplified, and Traditional 繁體 converted from it) and English.
/** zh: 简体; hant: 繁體; en: English. */
export type Lang = "zh" | "hant" | "en";

/** Simplified → Traditional for the characters of the kiosk's own words (each checked in its
 * words here: 发 is the dragon 發, 复 is 復 but 复制 is 複製, 干扰 stays 干擾). Names that
 * come from the referee (fans, infractions) come in 繁體 from it where it has them. */
const HANT_PHRASES: [string, string][] = [["复制", "複製"]];
const HANT_CHARS =
  "万萬东東严嚴书書余餘决決况況准準则則删刪务務发發后後听聽国國墙牆处處复復够夠导導将將庄莊开開张張录錄扰擾抢搶报報择擇捞撈换換数數无無时時显顯条條来來标標满滿点點盘盤种種竞競组組结結给給绝絕绿綠罚罰补補规規计計记記诈詐误誤请請谱譜贴貼赛賽输輸还還违違连連选選链鏈销銷错錯门門问問题題风風饼餅龙龍对對杠槓页頁并並迟遲钟鐘";
const HANT = new Map(Array.from({ length: HANT_CHARS.length / 2 }, (_, i) => [HANT_CHARS[2 * i]!, HANT_CHARS[2 * i + 1]!]));

/** Text in Traditional characters. */
export function hant(text: string): string {
  let out = text;
  for (const [from, to] of HANT_PHRASES) out = out.split(from).join(to);
  return Array.from(out, (c) => HANT.get(c) ?? c).join("");
}

/** A pair of Chinese and English names in `lang`. */
export function named(name: { zh: string; en: string }, lang: Lang): string {
  return lang === "hant" ? hant(name.zh) : name[lang];
}

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
  // the hand in play
  inPlay: { zh: "手牌分析", en: "The hand in play" },
  complete: { zh: "已和牌型", en: "complete" },
  ready: { zh: "听牌", en: "ready" },
  readyToWin: { zh: "听牌：可和（够 8 番）", en: "Ready: a wait reaches 8" },
  readyUnder8: { zh: "听牌，但不够 8 番", en: "Ready, but no wait reaches 8" },
  shantenUnit: { zh: "向听", en: "tile short" },
  shanten: { zh: "向听", en: "Shanten" },
  pickDiscard: { zh: "请选择打出的牌", en: "Choose a discard" },
  wait: { zh: "和张", en: "Wait" },
  copiesLeft: { zh: "剩余", en: "Left" },
  onDiscard: { zh: "点和", en: "Discard" },
  useful: { zh: "有效牌", en: "Useful tiles" },
  discard: { zh: "打出", en: "Discard" },
  waitsOrUseful: { zh: "听牌 / 有效牌", en: "Waits / useful" },
  shapeStandard: { zh: "基本和型", en: "Standard" },
  shapeSevenPairs: { zh: "七对", en: "Seven pairs" },
  shapeThirteenOrphans: { zh: "十三幺", en: "Thirteen orphans" },
  shapeHonorsKnitted: { zh: "全不靠", en: "Honours and knitted" },
  shapeKnittedStraight: { zh: "组合龙", en: "Knitted straight" },
  // the score card
  tabHand: { zh: "计分", en: "Score a hand" },
  tabGame: { zh: "记分卡", en: "Score card" },
  tabReplay: { zh: "牌局回放", en: "Replay" },
  newGame: { zh: "新对局", en: "New game" },
  newGameHint: { zh: "按首圈座位输入四位选手（东家先坐庄）", en: "Enter the four players in their first-round seats (East deals first)" },
  player: { zh: "选手", en: "Player" },
  startGame: { zh: "开始", en: "Start" },
  importJson: { zh: "导入 JSON", en: "Import JSON" },
  importFailed: { zh: "不是有效的对局 JSON", en: "Not a game's JSON" },
  exportJson: { zh: "导出 JSON", en: "Export JSON" },
  print: { zh: "打印", en: "Print" },
  confirmNewGame: { zh: "清除本局记录并开始新对局？", en: "Clear this game and start a new one?" },
  scoreCard: { zh: "记分卡", en: "Score card" },
  seatingHint: { zh: "每圈开始时的座位（规则未规定换位，由本桌决定）", en: "Seats at each round's start (the rules do not say whether players move: the table chooses)" },
  roundShort: { zh: "圈", en: " round" },
  prevalentShort: { zh: "圈风", en: "Wind" },
  dealer: { zh: "庄家", en: "Dealer" },
  result: { zh: "结果", en: "Result" },
  edit: { zh: "修改", en: "Edit" },
  handTotal: { zh: "盘分合计", en: "Hand points" },
  lateMinutes: { zh: "迟到（分钟）", en: "Late (minutes)" },
  sessionScore: { zh: "局分", en: "Session score (局分)" },
  standardPoints: { zh: "标准分", en: "Standard points" },
  place: { zh: "名次", en: "Place" },
  recordHand: { zh: "记录第", en: "Record hand" },
  editHand: { zh: "修改第", en: "Edit hand" },
  gameOver: { zh: "16 盘已满，本局结束", en: "All 16 hands played: the game is over" },
  drawGame: { zh: "荒庄", en: "Draw game" },
  winner: { zh: "和牌者", en: "Winner" },
  discardedBy: { zh: "点炮", en: "discarded by" },
  handValue: { zh: "番数", en: "Fan total" },
  fanTotalInput: { zh: "番数（不计花）", en: "Fan total (without flowers)" },
  orHand: { zh: "或手牌", en: "or the hand" },
  useHand: { zh: "用计分页的手牌", en: "Use the scored hand" },
  penalties: { zh: "罚则", en: "Penalties" },
  offender: { zh: "违例者", en: "Offender" },
  infraction: { zh: "违例", en: "Infraction" },
  victim: { zh: "受害者", en: "Victim" },
  remove: { zh: "删除", en: "Remove" },
  saveHand: { zh: "保存", en: "Save" },
  cancel: { zh: "取消", en: "Cancel" },
  deleteHand: { zh: "删除此盘", en: "Delete this hand" },
  discarderIsWinner: { zh: "点炮者不能是和牌者", en: "The discarder cannot be the winner" },
  needValue: { zh: "请输入番数或手牌", en: "Enter the fan total or the hand" },
  flowerShort: { zh: "花", en: "fl." },
  // the replay
  replayHint: { zh: "粘贴或打开一局牌谱（Botzone 文本或 HandRecord JSON），由裁判复盘", en: "Paste or open a hand record (Botzone's text or a HandRecord as JSON); the referee replays it" },
  replayRecord: { zh: "牌谱", en: "Hand record" },
  replayRun: { zh: "复盘", en: "Replay" },
  replayFile: { zh: "打开文件", en: "Open a file" },
  replayStep: { zh: "步", en: "Step" },
  afterDeal: { zh: "配牌后", en: "After the deal" },
  wallLeft: { zh: "牌墙余", en: "wall left" },
  eventOk: { zh: "合规", en: "legal" },
  barred: { zh: "停和", en: "barred from winning" },
  robbingKongShort: { zh: "抢杠", en: "robbing the kong of" },
  noResult: { zh: "无结果", en: "No result" },
  derived: { zh: "和牌情况", en: "Circumstances" },
  kongReplacement: { zh: "杠上开花", en: "Kong replacement" },
  robbingKong: { zh: "抢杠和", en: "Robbing the kong" },
} as const;

export type Word = keyof typeof WORDS;

export function t(lang: Lang, word: Word): string {
  return named(WORDS[word], lang);
}

export const WIND_NAMES: Record<Lang, readonly string[]> = {
  zh: ["东", "南", "西", "北"],
  hant: ["東", "南", "西", "北"],
  en: ["East", "South", "West", "North"],
};

export const RULESET_LABELS: Record<string, { zh: string; en: string }> = {
  "chinese-official-1998": { zh: "竞赛规则 1998", en: "Chinese Official 1998" },
  mil: { zh: "MIL 补充裁定", en: "MIL rulings" },
  "green-book-2006": { zh: "绿皮书 2006", en: "Green Book 2006" },
};

/** The infractions a score card can record (proto Infraction values), with what each needs
 * besides the offender. Those that need tiles or a misled player are left to SettleHand's
 * callers with the details. */
export const INFRACTIONS: readonly { value: number; name: { zh: string; en: string }; needs?: "points" | "points victim" }[] = [
  { value: 2, name: { zh: "错吃", en: "Wrong chow" } },
  { value: 3, name: { zh: "错碰", en: "Wrong pung" } },
  { value: 4, name: { zh: "错杠", en: "Wrong kong" } },
  { value: 5, name: { zh: "空吃", en: "Empty chow" } },
  { value: 6, name: { zh: "空碰", en: "Empty pung" } },
  { value: 7, name: { zh: "空杠", en: "Empty kong" } },
  { value: 8, name: { zh: "摸牌", en: "Early draw" } },
  { value: 9, name: { zh: "碰牌超时", en: "Late pung" } },
  { value: 10, name: { zh: "错和", en: "False win" } },
  { value: 11, name: { zh: "和错牌", en: "Wrong winning tile" } },
  { value: 12, name: { zh: "诈和", en: "Not-ready win" } },
  { value: 13, name: { zh: "有意诈和", en: "Deliberate false win" } },
  { value: 16, name: { zh: "暴露他人牌", en: "Exposing others' tiles" }, needs: "points victim" },
  { value: 17, name: { zh: "出牌报牌名", en: "Naming a discard" }, needs: "points" },
  { value: 19, name: { zh: "相公", en: "Wrong tile count" } },
  { value: 20, name: { zh: "非法信息", en: "Illegal signals" }, needs: "points" },
  { value: 1, name: { zh: "作弊", en: "Cheating" } },
  { value: 21, name: { zh: "严重干扰比赛", en: "Serious disturbance" } },
];
