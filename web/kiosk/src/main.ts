// The scoring kiosk: build a hand with taps (or type its notation), set the circumstances,
// and read the score sheet and the settlement, from the referee over gRPC-Web (same origin).
import {
  type AnalyzeHandResponse,
  HandEnd,
  LineKind,
  Outcome,
  type PaymentLine,
  type ScoreHandResponse,
  Seat,
  type SettleHandResponse,
  Wind,
  outcomeName,
  refereeError,
  rulesetFromName,
} from "@mahjong-referee/client";
import { webClient } from "@mahjong-referee/client/web";
import { type Props, h, patch, tileFace as face } from "./dom.js";
import { gameView, initGame, loadGame, setRuleset } from "./game-view.js";
import { analysisView } from "./play-view.js";
import { initReplay, loadReplay, replayStep, replayText, replayView } from "./replay-view.js";
import { pack, unpack } from "./share.js";
import { faceId, faceSvg, installSprite } from "./tiles-art.js";
import { fanName } from "./names.js";
import { type Lang, RULESET_LABELS, named, WIND_NAMES, t, type Word } from "./i18n.js";
import {
  type From,
  type Hand,
  type Kind,
  KINDS,
  type MeldKind,
  code,
  chowStart,
  meldTiles,
  notation,
  parseNotation,
  standingSlots,
} from "./tiles.js";

type Mode = "hand" | MeldKind | "winning";
type View = "hand" | "game" | "replay";

interface State {
  hand: Hand;
  /** Typed notation the builder cannot show; scored as typed. */
  raw: string | null;
  mode: Mode;
  claim: From;
  selfDrawn: boolean;
  lastCopy: boolean;
  kong: boolean;
  lastTile: boolean;
  /** 0..3: E S W N */
  seat: number;
  prevalent: number;
  flowers: number;
  /** The discarder relative to the winner: 1 left, 2 opposite, 3 right. */
  discarder: From;
  ruleset: string;
  lang: Lang;
  /** Which page: scoring a hand (with the hand in play), the game's score card, a replay. */
  view: View;
}

interface Violation {
  code: string;
  field: string;
  message: string;
}

/** What the referee said about the current hand. */
type Result =
  | { kind: "empty" }
  | { kind: "score"; score: ScoreHandResponse; settlement: SettleHandResponse | null; analysis: AnalyzeHandResponse | null }
  | { kind: "analysis"; analysis: AnalyzeHandResponse }
  | { kind: "invalid"; violations: Violation[] }
  | { kind: "unreachable"; message: string };

const WIND_LETTERS = ["E", "S", "W", "N"];
const FROM_WORDS: Record<From, Word> = { 1: "left", 2: "opposite", 3: "right" };
const MODES: [Mode, Word][] = [
  ["hand", "modeHand"],
  ["chow", "modeChow"],
  ["pung", "modePung"],
  ["kong", "modeKong"],
  ["concealed_kong", "modeConcealedKong"],
  ["winning", "modeWinning"],
];

const client = webClient();
let state: State = fromUrl(new URL(globalThis.location.href));
let history: State[] = [];
let result: Result = { kind: "empty" };
let highlighted: number | null = null;
let sequence = 0;
/** A score is scheduled or in flight: the sheet shows an older hand (data-pending="1"). */
let pending = false;
let timer: ReturnType<typeof setTimeout> | undefined;

// --- the URL ---------------------------------------------------------------------------------

/** The replayed record, packed for the URL (share.ts), once loaded. */
let replayPacked: string | null = null;

/** A share link's game or record: the game replaces the stored one; the record is replayed at
 * the link's step. */
async function openShared(url: URL): Promise<void> {
  const q = url.searchParams;
  const game = q.get("game");
  if (game) {
    const text = await unpack(game);
    let ok = false;
    try {
      ok = text !== null && loadGame(JSON.parse(text));
    } catch {
      ok = false;
    }
    if (!ok) console.warn("the link's game could not be read");
  }
  const record = q.get("record");
  if (record) {
    const text = await unpack(record);
    if (text !== null) await loadReplay(text, Math.max(0, Math.trunc(Number(q.get("step") ?? 0)) || 0));
  }
}

function fromUrl(url: URL): State {
  const q = url.searchParams;
  const flag = (name: string) => q.get(name) === "1" || q.get(name) === "true";
  const wind = (name: string, fallback: number) => {
    const i = WIND_LETTERS.indexOf((q.get(name) ?? "").toUpperCase());
    return i >= 0 ? i : fallback;
  };
  const text = q.get("hand") ?? "";
  const parsed = parseNotation(text);
  const from = Number(q.get("from"));
  const ruleset = q.get("ruleset") ?? "chinese-official-1998";
  return {
    hand: parsed ?? { melds: [], standing: [], winning: null },
    raw: parsed === null && text !== "" ? text : null,
    mode: "hand",
    claim: 1,
    selfDrawn: flag("selfDrawn"),
    lastCopy: flag("lastCopy"),
    kong: flag("kong"),
    lastTile: flag("lastTile"),
    seat: wind("seat", 0),
    prevalent: wind("prevalent", 0),
    flowers: Math.min(8, Math.max(0, Math.trunc(Number(q.get("flowers") ?? 0)) || 0)),
    discarder: from === 2 || from === 3 ? from : 1,
    ruleset: rulesetFromName(ruleset) === undefined ? "chinese-official-1998" : ruleset,
    lang: q.get("lang") === "en" ? "en" : q.get("lang") === "zh-Hant" ? "hant" : "zh",
    view: q.get("view") === "game" ? "game" : q.get("view") === "replay" ? "replay" : "hand",
  };
}

function currentNotation(s: State): string {
  return s.raw ?? notation(s.hand);
}

function toUrl(s: State): string {
  const q = new URLSearchParams();
  const text = currentNotation(s);
  if (text !== "") q.set("hand", text);
  q.set("ruleset", s.ruleset);
  if (s.selfDrawn) q.set("selfDrawn", "1");
  if (s.lastCopy) q.set("lastCopy", "1");
  if (s.kong) q.set("kong", "1");
  if (s.lastTile) q.set("lastTile", "1");
  q.set("seat", WIND_LETTERS[s.seat]!);
  q.set("prevalent", WIND_LETTERS[s.prevalent]!);
  if (s.flowers > 0) q.set("flowers", String(s.flowers));
  if (!s.selfDrawn && s.discarder !== 1) q.set("from", String(s.discarder));
  q.set("lang", s.lang === "hant" ? "zh-Hant" : s.lang);
  if (s.view !== "hand") q.set("view", s.view);
  if (s.view === "replay" && replayPacked !== null) {
    q.set("record", replayPacked);
    q.set("step", String(replayStep()));
  }
  return `${globalThis.location.pathname}?${q.toString()}`;
}

// --- changes ---------------------------------------------------------------------------------

function update(change: (s: State) => State, rescore = true): void {
  history.push(state);
  if (history.length > 200) history = history.slice(-200);
  state = change(structuredClone(state));
  globalThis.history.replaceState(null, "", toUrl(state));
  if (rescore) {
    highlighted = null;
    schedule();
  }
  render();
}

function tap(k: Kind): void {
  update((s) => {
    const hand = s.hand;
    s.raw = null;
    switch (s.mode) {
      case "hand":
        if (hand.standing.length >= standingSlots(hand) && hand.winning === null) {
          hand.winning = k;
        } else {
          hand.standing.push(k);
        }
        break;
      case "winning":
        hand.winning = k;
        s.mode = "hand";
        break;
      case "chow":
        if (chowStart(k)) hand.melds.push({ kind: "chow", tile: k, from: 1 });
        break;
      case "pung":
      case "kong":
        hand.melds.push({ kind: s.mode, tile: k, from: s.claim });
        break;
      case "concealed_kong":
        hand.melds.push({ kind: "concealed_kong", tile: k, from: 1 });
        break;
    }
    return s;
  });
}

// --- calls -----------------------------------------------------------------------------------

/** A hand one tile short of complete: 13 − 3·melds standing tiles and no winning tile. */
function inPlay(s: State): boolean {
  return s.raw === null && s.hand.winning === null && s.hand.standing.length > 0 && s.hand.standing.length === standingSlots(s.hand);
}

/** Scores the current state shortly; any answer still in flight is then stale. */
function schedule(): void {
  pending = true;
  const mine = ++sequence;
  clearTimeout(timer);
  timer = setTimeout(() => void score(mine), 120);
}

function context(s: State) {
  return {
    selfDrawn: s.selfDrawn,
    robbingKong: s.kong && !s.selfDrawn,
    replacementDraw: s.kong && s.selfDrawn,
    lastTile: s.lastTile,
    lastCopy: s.lastCopy,
    seatWind: (s.seat + 1) as Wind,
    prevalentWind: (s.prevalent + 1) as Wind,
    flowerCount: s.flowers,
  };
}

async function score(mine: number): Promise<void> {
  const s = state;
  const text = currentNotation(s);
  const ruleset = rulesetFromName(s.ruleset);
  let next: Result;
  if (text === "") {
    next = { kind: "empty" };
  } else {
    try {
      if (inPlay(s)) {
        const analysis = await client.analyzeHand({
          handInput: { case: "notation", value: text },
          context: { seatWind: (s.seat + 1) as Wind, prevalentWind: (s.prevalent + 1) as Wind, flowerCount: s.flowers },
          ruleset,
        });
        if (mine === sequence) {
          result = { kind: "analysis", analysis };
          pending = false;
          render();
        }
        return;
      }
      const sheet = await client.scoreHand({
        handInput: { case: "notation", value: text },
        context: context(s),
        ruleset,
      });
      let settlement: SettleHandResponse | null = null;
      if (sheet.outcome === Outcome.WIN) {
        const winner = s.seat;
        const discarder = (winner + 4 - s.discarder) % 4;
        settlement = await client.settleHand({
          end: s.selfDrawn ? HandEnd.SELF_DRAWN : s.kong ? HandEnd.ROBBING_KONG : HandEnd.DISCARD,
          winner: (winner + 1) as Seat,
          discarder: s.selfDrawn ? Seat.UNSPECIFIED : ((discarder + 1) as Seat),
          winValue: {
            case: "winningHand",
            value: { handInput: { case: "notation", value: text }, context: context(s) },
          },
          ruleset,
        });
      }
      // A full hand that is not a win: what to discard.
      const analysis =
        sheet.outcome === Outcome.NOT_WINNING_SHAPE && s.raw === null
          ? await client.analyzeHand({
              handInput: { case: "notation", value: text },
              context: { seatWind: (s.seat + 1) as Wind, prevalentWind: (s.prevalent + 1) as Wind, flowerCount: s.flowers },
              ruleset,
            })
          : null;
      next = { kind: "score", score: sheet, settlement, analysis };
    } catch (error) {
      const details = refereeError(error);
      if (details !== undefined && details.violations.length > 0) {
        next = {
          kind: "invalid",
          violations: details.violations.map((v) => ({
            code: v.reason || (/^([A-Z_]+): /.exec(v.description)?.[1] ?? ""),
            field: v.field,
            message: v.description.replace(/^[A-Z_]+: /, ""),
          })),
        };
      } else {
        next = { kind: "unreachable", message: details?.message ?? String(error) };
      }
    }
  }
  if (mine === sequence) {
    result = next;
    pending = false;
    render();
  }
}

// --- rendering -------------------------------------------------------------------------------

const tileFace = (k: Kind, extra: Props = {}, tag: "button" | "span" = "span") => face(k, state.lang, extra, tag);


function segmented<T extends string | number>(
  name: string,
  options: [T, string][],
  current: T,
  pick: (v: T) => void,
  disabled = false,
  style = "segmented",
) {
  return h(
    "div",
    { class: style, role: "group", "data-testid": name },
    options.map(([value, label]) =>
      h(
        "button",
        {
          type: "button",
          class: value === current ? "on" : "",
          "aria-pressed": value === current ? "true" : "false",
          "data-value": String(value),
          disabled,
          onclick: () => pick(value),
        },
        label,
      ),
    ),
  );
}

function toggle(word: Word, on: boolean, flip: () => void, testid: string) {
  return h(
    "button",
    {
      type: "button",
      class: `toggle ${on ? "on" : ""}`,
      "aria-pressed": on ? "true" : "false",
      "data-testid": testid,
      onclick: flip,
    },
    t(state.lang, word),
  );
}

/** An empty, hidden element of `tag`: keeps the place of something not shown, so that the
 * elements after it keep their positions for the patcher (and a tap on them is not lost). */
function placeholder(tag: "div" | "ul" | "table") {
  return h(tag, { hidden: true });
}

function violationsFor(prefix: (field: string) => boolean) {
  if (result.kind !== "invalid") return placeholder("ul");
  const mine = result.violations.filter((v) => prefix(v.field));
  if (mine.length === 0) return placeholder("ul");
  const building = stillBuilding(mine);
  return h(
    "ul",
    { class: `violations ${building ? "building" : ""}`, "data-testid": "violations" },
    mine.map((v) => h("li", {}, h("code", {}, v.field), " ", v.message)),
  );
}

const isContextField = (f: string) => f.startsWith("context") || f.startsWith("ruleset");

function handPanel() {
  const lang = state.lang;
  const hand = state.hand;
  const slots = standingSlots(hand);
  const removeMeld = (i: number) => () =>
    update((s) => {
      s.raw = null;
      s.hand.melds.splice(i, 1);
      return s;
    });
  const removeStanding = (i: number) => () =>
    update((s) => {
      s.raw = null;
      s.hand.standing.sort((a, b) => a - b).splice(i, 1);
      return s;
    });
  const sorted = [...hand.standing].sort((a, b) => a - b);
  const shown =
    state.raw !== null
      ? h("p", { class: "raw" }, state.raw)
      : hand.melds.length === 0 && hand.standing.length === 0 && hand.winning === null
        ? h("p", { class: "hint" }, t(lang, "emptyHand"))
        : h(
            "div",
            { class: "tiles-row", "data-testid": "hand" },
            hand.melds.map((m, i) =>
              h(
                "button",
                { type: "button", class: `meld ${m.kind}`, "data-testid": "meld", onclick: removeMeld(i), title: t(lang, "tapToRemove") },
                meldTiles(m).map((k, j) =>
                  tileFace(k, { class: m.kind === "concealed_kong" && (j === 0 || j === 3) ? "back" : "" }),
                ),
                m.kind === "chow" || m.kind === "concealed_kong"
                  ? null
                  : h("span", { class: "from" }, t(lang, FROM_WORDS[m.from])),
              ),
            ),
            h(
              "span",
              { class: "standing" },
              sorted.map((k, i) => tileFace(k, { onclick: removeStanding(i), "data-testid": "standing-tile" }, "button")),
              Array.from({ length: Math.max(0, slots - sorted.length) }, () => h("span", { class: "tile slot" })),
            ),
            h(
              "span",
              { class: "winning" },
              hand.winning === null
                ? h("span", { class: "tile slot win" })
                : tileFace(
                    hand.winning,
                    {
                      class: "win",
                      "data-testid": "winning-tile",
                      onclick: () =>
                        update((s) => {
                          s.hand.winning = null;
                          return s;
                        }),
                    },
                    "button",
                  ),
              h("span", { class: "label" }, t(lang, "winningTile")),
            ),
          );
  const input = h("input", {
    type: "text",
    class: "notation",
    "data-testid": "notation",
    value: currentNotation(state),
    spellcheck: "false",
    autocomplete: "off",
    autocapitalize: "off",
    "aria-label": t(lang, "notation"),
    placeholder: t(lang, "notationHint"),
    onchange: (e: Event) => {
      const text = (e.target as HTMLInputElement).value.trim();
      update((s) => {
        const parsed = parseNotation(text);
        s.hand = parsed ?? { melds: [], standing: [], winning: null };
        s.raw = parsed === null && text !== "" ? text : null;
        return s;
      });
    },
  });
  const meldMode = state.mode === "pung" || state.mode === "kong";
  return h(
    "section",
    { class: "panel hand-panel" },
    h(
      "div",
      { class: "panel-head" },
      h("h2", {}, t(lang, "hand")),
      h(
        "div",
        { class: "actions" },
        h("button", { type: "button", "data-testid": "undo", disabled: history.length === 0, onclick: undo }, t(lang, "undo")),
        h(
          "button",
          {
            type: "button",
            "data-testid": "clear",
            onclick: () =>
              update((s) => {
                s.hand = { melds: [], standing: [], winning: null };
                s.raw = null;
                s.mode = "hand";
                return s;
              }),
          },
          t(lang, "clear"),
        ),
      ),
    ),
    shown,
    violationsFor((f) => !isContextField(f)),
    h("label", { class: "notation-row" }, h("span", {}, t(lang, "notation")), input, h("button", { type: "button", onclick: copyLink, "data-testid": "copy-link" }, t(lang, "copyLink"))),
    h("div", { class: "picker-head" }, h("span", { class: "label" }, t(lang, "add"))),
    segmented<Mode>(
      "mode",
      MODES.map(([m, w]) => [m, t(lang, w)]),
      state.mode,
      (m) => update((s) => ({ ...s, mode: m }), false),
      false,
      "chips",
    ),
    h(
      "div",
      { class: `claim ${meldMode ? "" : "off"}` },
      h("span", { class: "label" }, t(lang, "claimFrom")),
      segmented<From>(
        "claim",
        ([1, 2, 3] as From[]).map((f) => [f, t(lang, FROM_WORDS[f])]),
        state.claim,
        (f) => update((s) => ({ ...s, claim: f }), false),
        !meldMode,
      ),
    ),
    h(
      "div",
      { class: "picker", "data-testid": "picker" },
      [0, 1, 2, 3].map((row) =>
        h(
          "div",
          { class: "picker-row" },
          KINDS.filter((k) => (row < 3 ? Math.floor(k / 9) === row && k < 27 : k >= 27)).map((k) =>
            tileFace(
              k,
              {
                type: "button",
                "data-testid": "pick",
                "data-tile": code(k),
                disabled: state.mode === "chow" && !chowStart(k),
                onclick: () => tap(k),
              },
              "button",
            ),
          ),
        ),
      ),
    ),
  );
}

function circumstancesPanel() {
  const lang = state.lang;
  const winds = (current: number, pick: (i: number) => void, name: string) =>
    segmented<number>(name, WIND_NAMES[lang].map((w, i) => [i, w] as [number, string]), current, pick);
  return h(
    "section",
    { class: "panel circumstances" },
    h("h2", {}, t(lang, "circumstances")),
    h(
      "div",
      { class: "toggles" },
      toggle("selfDrawn", state.selfDrawn, () => update((s) => ({ ...s, selfDrawn: !s.selfDrawn })), "self-drawn"),
      toggle("lastCopy", state.lastCopy, () => update((s) => ({ ...s, lastCopy: !s.lastCopy })), "last-copy"),
      toggle("kong", state.kong, () => update((s) => ({ ...s, kong: !s.kong })), "kong"),
      toggle("lastTile", state.lastTile, () => update((s) => ({ ...s, lastTile: !s.lastTile })), "last-tile"),
    ),
    h(
      "div",
      { class: "fields" },
      h("div", { class: "field" }, h("span", { class: "label" }, t(lang, "seatWind")), winds(state.seat, (i) => update((s) => ({ ...s, seat: i })), "seat")),
      h("div", { class: "field" }, h("span", { class: "label" }, t(lang, "prevalentWind")), winds(state.prevalent, (i) => update((s) => ({ ...s, prevalent: i })), "prevalent")),
      h(
        "div",
        { class: "field" },
        h("span", { class: "label" }, t(lang, "flowers")),
        h(
          "div",
          { class: "stepper" },
          h("button", { type: "button", "data-testid": "flowers-down", disabled: state.flowers === 0, onclick: () => update((s) => ({ ...s, flowers: s.flowers - 1 })) }, "−"),
          h("output", { "data-testid": "flowers" }, String(state.flowers)),
          h("button", { type: "button", "data-testid": "flowers-up", disabled: state.flowers === 8, onclick: () => update((s) => ({ ...s, flowers: s.flowers + 1 })) }, "+"),
        ),
      ),
      h(
        "div",
        { class: "field" },
        h("span", { class: "label" }, t(lang, "discarder")),
        segmented<From>(
          "discarder",
          ([1, 2, 3] as From[]).map((f) => [f, t(lang, FROM_WORDS[f])]),
          state.discarder,
          (f) => update((s) => ({ ...s, discarder: f })),
          state.selfDrawn,
        ),
      ),
    ),
    violationsFor(isContextField),
  );
}

/** Tiles the builder's hand still lacks (0 for typed notation or a full hand). */
function tilesMissing(): number {
  if (state.raw !== null) return 0;
  const hand = state.hand;
  return Math.max(0, standingSlots(hand) + 1 - hand.standing.length - (hand.winning === null ? 0 : 1));
}

/** Whether the only problems are those of a hand still being entered with the picker: too
 * few tiles, or melds with nothing after them yet (a notation syntax error). */
function stillBuilding(violations: readonly Violation[]): boolean {
  return tilesMissing() > 0 && violations.every((v) => v.code === "TILE_COUNT_WRONG" || v.code === "NOTATION_SYNTAX");
}

function problemCount(n: number): string {
  if (state.lang !== "en") return named({ zh: `${n} 处问题`, en: "" }, state.lang);
  return n === 1 ? "1 problem" : `${n} problems`;
}

function outcomeText(): [string, string, string] {
  const lang = state.lang;
  switch (result.kind) {
    case "empty":
      return ["", t(lang, "waiting"), "idle"];
    case "analysis":
      return ["IN_PLAY", t(lang, "inPlay"), "idle"];
    case "unreachable":
      return ["", `${t(lang, "unreachable")}: ${result.message}`, "error"];
    case "invalid": {
      const missing = tilesMissing();
      if (stillBuilding(result.violations)) {
        const text = named({ zh: `还差 ${missing} 张牌`, en: `${missing} more tile${missing === 1 ? "" : "s"} to go` }, lang);
        return ["INVALID", text, "idle"];
      }
      return ["INVALID", `${t(lang, "invalid")}: ${problemCount(result.violations.length)}`, "invalid"];
    }
    case "score": {
      const sc = result.score;
      const name = outcomeName(sc.outcome);
      switch (sc.outcome) {
        case Outcome.WIN:
          return [name, `${t(lang, "win")} · ${sc.total} ${t(lang, "fanUnit")}`, "win"];
        case Outcome.BELOW_MINIMUM:
          return [name, `${t(lang, "belowMinimum")} (${sc.fanTotal} ${t(lang, "fanUnit")})`, "below"];
        case Outcome.NOT_WINNING_SHAPE:
          return [name, t(lang, "notWinningShape"), "below"];
        default:
          return [name, name, "invalid"];
      }
    }
  }
}

function sheetPanel() {
  const lang = state.lang;
  const [code, text, tone] = outcomeText();
  const sc = result.kind === "score" ? result.score : null;
  const lit = highlighted !== null && sc ? new Set(sc.fans[highlighted]?.elementIndices ?? []) : new Set<number>();
  return h(
    "section",
    { class: `panel sheet ${pending ? "pending" : ""}`, "data-testid": "sheet", "data-pending": pending ? "1" : "0" },
    h("h2", {}, t(lang, "scoreSheet")),
    h(
      "div",
      { class: `outcome ${tone}` },
      h("span", { class: "outcome-text", "data-testid": "outcome-text" }, text),
      h("span", { class: "outcome-code", "data-testid": "outcome" }, code),
    ),
    result.kind === "analysis"
      ? analysisView(lang, result.analysis)
      : result.kind === "score" && result.analysis
        ? analysisView(lang, result.analysis)
        : placeholder("div"),
    sc && sc.reading
      ? h(
          "div",
          { class: "reading", "data-testid": "reading" },
          h("span", { class: "label" }, t(lang, "reading")),
          h(
            "div",
            { class: "tiles-row small" },
            sc.reading.elements.map((e, i) =>
              h(
                "span",
                { class: `element ${lit.has(i) ? "lit" : ""}`, "data-testid": "element", "data-lit": lit.has(i) ? "1" : "0" },
                e.tiles.map((tile) => tileFace(tile - 1)),
              ),
            ),
          ),
        )
      : placeholder("div"),
    sc && sc.fans.length > 0
      ? h(
          "table",
          { class: "fans" },
          h("caption", {}, t(lang, "tapLine")),
          h(
            "tbody",
            {},
            sc.fans.map((f, i) =>
              h(
                "tr",
                {
                  class: `fan-line ${highlighted === i ? "lit" : ""}`,
                  "data-testid": "fan-line",
                  tabindex: 0,
                  "aria-pressed": highlighted === i ? "true" : "false",
                  onclick: () => {
                    highlighted = highlighted === i ? null : i;
                    render();
                  },
                  onkeydown: (e: Event) => {
                    if ((e as KeyboardEvent).key === "Enter" || (e as KeyboardEvent).key === " ") {
                      e.preventDefault();
                      highlighted = highlighted === i ? null : i;
                      render();
                    }
                  },
                },
                h("td", { class: "name" }, h("span", { class: "primary" }, fanName(f, lang)), h("span", { class: "secondary" }, lang === "en" ? f.nameZh : f.nameEn)),
                h("td", { class: "num" }, String(f.points)),
                h("td", { class: "num times" }, `×${f.count}`),
                h("td", { class: "num line-total" }, String(f.totalPoints)),
              ),
            ),
          ),
        )
      : placeholder("table"),
    h(
      "dl",
      { class: "totals" },
      h("dt", {}, t(lang, "fanTotal")),
      h("dd", {}, sc ? String(sc.fanTotal) : "–"),
      h("dt", {}, t(lang, "flowerPoints")),
      h("dd", {}, sc ? String(sc.flowerPoints) : "–"),
      h("dt", { class: "grand" }, t(lang, "total")),
      h("dd", { class: "grand", "data-testid": "total" }, sc ? String(sc.total) : "0"),
    ),
    result.kind === "invalid"
      ? h(
          "ul",
          {
            class: `violations all ${stillBuilding(result.violations) ? "building" : ""}`,
            "data-testid": "all-violations",
          },
          result.violations.map((v) => h("li", {}, h("code", {}, v.field), " ", v.message)),
        )
      : placeholder("ul"),
  );
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

/** A seat's payment lines grouped by counterparty (base and fan points together). */
function groupLines(lines: readonly PaymentLine[]) {
  const groups: { counterparty: Seat; total: number; parts: PaymentLine[] }[] = [];
  for (const line of lines) {
    const sign = Math.sign(line.amount);
    const group = groups.find((g) => g.counterparty === line.counterparty && Math.sign(g.total) === sign);
    if (group) {
      group.total += line.amount;
      group.parts.push(line);
    } else {
      groups.push({ counterparty: line.counterparty, total: line.amount, parts: [line] });
    }
  }
  return groups;
}

function settlementPanel() {
  const lang = state.lang;
  const settlement = result.kind === "score" ? result.settlement : null;
  const kindWord: Record<number, Word> = { [LineKind.BASE]: "base", [LineKind.FAN_POINTS]: "fanPoints", [LineKind.PENALTY]: "penalty" };
  return h(
    "section",
    { class: "panel settlement" },
    h("h2", {}, t(lang, "settlement")),
    settlement === null
      ? h("p", { class: "hint" }, t(lang, "settlementNone"))
      : h(
          "div",
          { class: "seats", "data-testid": "settlement" },
          settlement.accounts.map((a) =>
            h(
              "div",
              { class: `seat ${a.delta > 0 ? "plus" : a.delta < 0 ? "minus" : ""}`, "data-testid": "seat-account", "data-seat": Seat[a.seat] },
              h("div", { class: "seat-name" }, WIND_NAMES[lang][a.seat - 1] ?? "?"),
              h("div", { class: "delta", "data-testid": "delta" }, a.delta > 0 ? `+${a.delta}` : String(a.delta)),
              h(
                "ul",
                {},
                groupLines(a.lines).map((g) =>
                  h(
                    "li",
                    { title: g.parts.map((p) => `${t(lang, kindWord[p.kind] ?? "penalty")} ${signed(p.amount)}`).join(", ") },
                    h(
                      "span",
                      {},
                      g.counterparty === Seat.UNSPECIFIED
                        ? t(lang, "penalty")
                        : `${g.total > 0 ? t(lang, "from") : t(lang, "to")} ${WIND_NAMES[lang][g.counterparty - 1] ?? ""}`,
                      h("small", {}, g.parts.map((p) => Math.abs(p.amount)).join(" + ")),
                    ),
                    h("b", {}, signed(g.total)),
                  ),
                ),
              ),
            ),
          ),
        ),
  );
}

function header() {
  const lang = state.lang;
  const select = h(
    "select",
    {
      "data-testid": "ruleset",
      "aria-label": t(lang, "ruleset"),
      onchange: (e: Event) => {
        const value = (e.target as HTMLSelectElement).value;
        setRuleset(value);
        update((s) => ({ ...s, ruleset: value }));
      },
    },
    Object.entries(RULESET_LABELS).map(([name, label]) => h("option", { value: name, selected: name === state.ruleset }, named(label, lang))),
  );
  return h(
    "header",
    { class: "top" },
    h("div", { class: "brand" }, h("span", { class: "logo", "aria-hidden": "true" }, faceSvg(faceId(31))), h("div", {}, h("h1", {}, t(lang, "title")), h("p", {}, t(lang, "subtitle")))),
    h(
      "div",
      { class: "top-controls" },
      h("label", { class: "ruleset" }, h("span", { class: "label" }, t(lang, "ruleset")), select),
      segmented<View>(
        "view",
        [
          ["hand", t(lang, "tabHand")],
          ["game", t(lang, "tabGame")],
          ["replay", t(lang, "tabReplay")],
        ],
        state.view,
        (v) => update((s) => ({ ...s, view: v }), false),
      ),
      segmented<Lang>("lang", [["zh", "简体"], ["hant", "繁體"], ["en", "English"]], lang, (l) => update((s) => ({ ...s, lang: l }), false)),
    ),
  );
}

function render(): void {
  const app = document.getElementById("app");
  if (!app) return;
  document.documentElement.lang = state.lang === "zh" ? "zh-Hans" : state.lang === "hant" ? "zh-Hant" : "en";
  document.title = t(state.lang, "title");
  patch(
    app,
    h(
      "div",
      { id: "app" },
      header(),
      state.view === "game"
        ? h("main", { class: "single" }, gameView())
        : state.view === "replay"
          ? h("main", { class: "single" }, replayView())
          : h("main", { class: "layout" }, h("div", { class: "col input" }, handPanel(), circumstancesPanel()), h("div", { class: "col output" }, sheetPanel(), settlementPanel())),
    ),
  );
}

function undo(): void {
  const previous = history.pop();
  if (previous) {
    state = previous;
    globalThis.history.replaceState(null, "", toUrl(state));
    highlighted = null;
    schedule();
    render();
  }
}

function copyLink(): void {
  const link = globalThis.location.href;
  void navigator.clipboard?.writeText(link).catch(() => undefined);
}

installSprite();
initReplay({
  client,
  lang: () => state.lang,
  render,
  stepped: () => {
    const text = replayText();
    void pack(text).then((packed) => {
      replayPacked = text === "" ? null : packed;
      globalThis.history.replaceState(null, "", toUrl(state));
    });
  },
});
initGame({
  client,
  lang: () => state.lang,
  render,
  currentHand: () => ({ notation: currentNotation(state), lastCopy: state.lastCopy, kong: state.kong, lastTile: state.lastTile, flowers: state.flowers }),
});
setRuleset(state.ruleset);
void openShared(new URL(globalThis.location.href));
globalThis.history.replaceState(null, "", toUrl(state));
pending = true;
render();
void score(++sequence);
