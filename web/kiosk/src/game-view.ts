// The score card of a whole game: start it with four names, record each hand, read the
// running totals, and at the end the 局分, standard points and ranking (ComputeStandings).
// The game lives in the browser (localStorage); every change recomputes every hand with
// SettleHand, so fixing an early hand fixes everything after it. The server keeps nothing.
import { type ComputeStandingsResponse, type Fraction, type MahjongService, refereeError, rulesetFromName } from "@mahjong-referee/client";
import type { Client } from "@connectrpc/connect";
import { h } from "./dom.js";
import {
  type Game,
  type GameHand,
  type GamePenalty,
  HANDS_PER_GAME,
  type Player,
  type Wind,
  dealer,
  deltasByPlayer,
  newGame,
  prevailing,
  readGame,
  runningTotals,
  seatOf,
  settleRequest,
  standingsRequest,
} from "./game.js";
import { INFRACTIONS, type Lang, WIND_NAMES, named, t } from "./i18n.js";
import { pack } from "./share.js";

const STORAGE_KEY = "mahjong-kiosk.game.v1";

/** What the game view needs from the page. */
export interface GameHost {
  client: Client<typeof MahjongService>;
  lang(): Lang;
  render(): void;
  /** The hand on the Hand page: notation and circumstances, to record as a win. */
  currentHand(): { notation: string; lastCopy: boolean; kong: boolean; lastTile: boolean; flowers: number };
}

type HandResult = { deltas: number[] } | { error: string };

interface Draft {
  kind: "win" | "draw";
  winner: Player;
  /** -1 self-drawn. */
  discarder: Player | -1;
  notation: string;
  lastCopy: boolean;
  kong: boolean;
  lastTile: boolean;
  fan: string;
  flowers: number;
  penalties: GamePenalty[];
}

let host: GameHost;
let game: Game | null = null;
let results: HandResult[] = [];
let standings: ComputeStandingsResponse | null = null;
let standingsError: string | null = null;
let computing = false;
let sequence = 0;
/** The hand being edited, or the next one. */
let editing: number | null = null;
let draft: Draft = emptyDraft();
let names: [string, string, string, string] = ["", "", "", ""];
let notice = "";

function emptyDraft(): Draft {
  return { kind: "win", winner: 0, discarder: -1, notation: "", lastCopy: false, kong: false, lastTile: false, fan: "", flowers: 0, penalties: [] };
}

export function initGame(h0: GameHost): void {
  host = h0;
  try {
    const stored = globalThis.localStorage?.getItem(STORAGE_KEY);
    if (stored) game = readGame(JSON.parse(stored));
  } catch {
    game = null;
  }
  if (game) void recompute();
}

/** Replaces the game (an import or a share link) and recomputes it. */
export function loadGame(value: unknown): boolean {
  const read = readGame(value);
  if (!read) return false;
  setGame(read);
  return true;
}

function setGame(next: Game | null): void {
  game = next;
  if (next) globalThis.localStorage?.setItem(STORAGE_KEY, JSON.stringify(next));
  else globalThis.localStorage?.removeItem(STORAGE_KEY);
  editing = null;
  draft = emptyDraft();
  void recompute();
  host.render();
}

function message(error: unknown): string {
  const details = refereeError(error);
  if (details && details.violations.length > 0) return details.violations.map((v) => v.description).join("; ");
  return details?.message ?? String(error);
}

async function recompute(): Promise<void> {
  const mine = ++sequence;
  const g = game;
  if (!g) {
    results = [];
    standings = null;
    return;
  }
  computing = true;
  host.render();
  const ruleset = rulesetFromName(g.ruleset);
  const next: HandResult[] = await Promise.all(
    g.hands.map(async (_, i) => {
      try {
        const answer = await host.client.settleHand({ ...settleRequest(g, i), ruleset });
        return { deltas: deltasByPlayer(g, i, answer.accounts) };
      } catch (error) {
        return { error: message(error) };
      }
    }),
  );
  let table: ComputeStandingsResponse | null = null;
  let tableError: string | null = null;
  const deltas = next.map((r) => ("deltas" in r ? r.deltas : [0, 0, 0, 0]));
  if (g.hands.length > 0 && next.every((r) => "deltas" in r)) {
    try {
      table = await host.client.computeStandings({ ...standingsRequest(g, deltas), ruleset });
    } catch (error) {
      tableError = message(error);
    }
  }
  if (mine !== sequence) return;
  results = next;
  standings = table;
  standingsError = tableError;
  computing = false;
  host.render();
}

function save(): void {
  if (!game) return;
  const hand = draftHand();
  if (typeof hand === "string") {
    notice = hand;
    host.render();
    return;
  }
  notice = "";
  const hands = [...game.hands];
  if (editing === null) hands.push(hand);
  else hands[editing] = hand;
  setGame({ ...game, hands });
}

function draftHand(): GameHand | string {
  const lang = host.lang();
  if (draft.kind === "draw") return { kind: "draw", penalties: draft.penalties };
  const discarder = draft.discarder === -1 ? null : draft.discarder;
  if (discarder === draft.winner) return t(lang, "discarderIsWinner");
  const notation = draft.notation.trim();
  if (notation !== "") {
    return {
      kind: "win",
      winner: draft.winner,
      discarder,
      value: { notation, lastCopy: draft.lastCopy, kong: draft.kong, lastTile: draft.lastTile },
      flowers: draft.flowers,
      penalties: draft.penalties,
    };
  }
  const fan = Number(draft.fan);
  if (draft.fan.trim() === "" || !Number.isInteger(fan) || fan < 0) return t(lang, "needValue");
  return { kind: "win", winner: draft.winner, discarder, value: { fan }, flowers: draft.flowers, penalties: draft.penalties };
}

function edit(i: number): void {
  const hand = game?.hands[i];
  if (!hand) return;
  editing = i;
  draft =
    hand.kind === "draw"
      ? { ...emptyDraft(), kind: "draw", penalties: [...hand.penalties] }
      : {
          ...emptyDraft(),
          winner: hand.winner,
          discarder: hand.discarder ?? -1,
          notation: "notation" in hand.value ? hand.value.notation : "",
          lastCopy: "notation" in hand.value && !!hand.value.lastCopy,
          kong: "notation" in hand.value && !!hand.value.kong,
          lastTile: "notation" in hand.value && !!hand.value.lastTile,
          fan: "fan" in hand.value ? String(hand.value.fan) : "",
          flowers: hand.flowers,
          penalties: [...hand.penalties],
        };
  host.render();
}

function fraction(f: Fraction | undefined): string {
  if (!f) return "–";
  if (f.denominator === 1) return String(f.numerator);
  return String(Math.round((f.numerator / f.denominator) * 100) / 100);
}

const fractionAttr = (f: Fraction | undefined) => (f ? `${f.numerator}/${f.denominator}` : "");

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

/** "Name (E)": a player with the seat wind at hand i. */
function playerLabel(g: Game, i: number, p: Player): string {
  return `${g.players[p]} (${WIND_NAMES[host.lang()][seatOf(g, i, p)]})`;
}

function describe(g: Game, i: number, hand: GameHand): string {
  const lang = host.lang();
  const penalties = hand.penalties.length > 0 ? ` · ${t(lang, "penalties")} ${hand.penalties.length}` : "";
  if (hand.kind === "draw") return t(lang, "drawGame") + penalties;
  const how = hand.discarder === null ? t(lang, "selfDrawn") : `${t(lang, "discardedBy")} ${g.players[hand.discarder]}`;
  const value = "fan" in hand.value ? `${hand.value.fan} ${t(lang, "fanUnit")}` : hand.value.notation;
  return `${g.players[hand.winner]} ${t(lang, "win")} · ${how} · ${value}${hand.flowers > 0 ? ` +${hand.flowers} ${t(lang, "flowerShort")}` : ""}${penalties}`;
}

function startForm() {
  const lang = host.lang();
  return h(
    "section",
    { class: "panel game-start", "data-testid": "game-start" },
    h("h2", {}, t(lang, "newGame")),
    h("p", { class: "hint" }, t(lang, "newGameHint")),
    h(
      "div",
      { class: "names" },
      [0, 1, 2, 3].map((i) =>
        h(
          "label",
          { class: "field" },
          h("span", { class: "label" }, `${WIND_NAMES[lang][i]} · ${t(lang, "player")} ${i + 1}`),
          h("input", {
            type: "text",
            "data-testid": "player-name",
            value: names[i]!,
            maxlength: 40,
            oninput: (e: Event) => {
              names[i] = (e.target as HTMLInputElement).value;
            },
          }),
        ),
      ),
    ),
    h(
      "button",
      {
        type: "button",
        class: "primary",
        "data-testid": "start-game",
        onclick: () => {
          const players = names.map((n, i) => n.trim() || `${t(lang, "player")} ${i + 1}`) as Game["players"];
          setGame(newGame(players, currentRuleset));
        },
      },
      t(lang, "startGame"),
    ),
    importBox(),
  );
}

let currentRuleset = "chinese-official-1998";
/** The ruleset chosen in the page header, used by a new game. */
export function setRuleset(name: string): void {
  currentRuleset = name;
}

let importText = "";
function importBox() {
  const lang = host.lang();
  return h(
    "details",
    { class: "import" },
    h("summary", {}, t(lang, "importJson")),
    h("textarea", {
      "data-testid": "import-text",
      rows: 4,
      oninput: (e: Event) => {
        importText = (e.target as HTMLTextAreaElement).value;
      },
    }),
    h(
      "button",
      {
        type: "button",
        "data-testid": "import-game",
        onclick: () => {
          let ok = false;
          try {
            ok = loadGame(JSON.parse(importText));
          } catch {
            ok = false;
          }
          notice = ok ? "" : t(lang, "importFailed");
          host.render();
        },
      },
      t(lang, "importJson"),
    ),
  );
}

function seatingRow(g: Game, round: number) {
  const lang = host.lang();
  const order = g.seating[round as Wind];
  return h(
    "div",
    { class: "seating-row", "data-testid": "seating", "data-round": round },
    h("span", { class: "label" }, `${WIND_NAMES[lang][round]}${t(lang, "roundShort")}`),
    [0, 1, 2, 3].map((w) =>
      h(
        "select",
        {
          "aria-label": `${WIND_NAMES[lang][round]}${t(lang, "roundShort")} ${WIND_NAMES[lang][w]}`,
          disabled: g.hands.length > round * 4,
          onchange: (e: Event) => {
            const p = Number((e.target as HTMLSelectElement).value) as Player;
            const next = [...order];
            const j = next.indexOf(p);
            next[j] = next[w]!;
            next[w] = p;
            const seating = [...g.seating] as Game["seating"];
            seating[round as Wind] = next;
            setGame({ ...g, seating });
          },
        },
        g.players.map((name, p) => h("option", { value: p, selected: order[w] === p }, name)),
      ),
    ),
  );
}

function cardTable(g: Game) {
  const lang = host.lang();
  const deltas = results.map((r) => ("deltas" in r ? r.deltas : [0, 0, 0, 0]));
  const totals = runningTotals(deltas);
  const byPlayer = new Map(standings?.standings.map((s) => [s.playerIndex, s]) ?? []);
  return h(
    "table",
    { class: "card", "data-testid": "score-card" },
    h(
      "thead",
      {},
      h("tr", {}, h("th", {}, "#"), h("th", {}, t(lang, "prevalentShort")), h("th", {}, t(lang, "dealer")), h("th", { class: "result" }, t(lang, "result")), g.players.map((n) => h("th", { class: "num", colspan: 2 }, n)), h("th", { class: "no-print" }, "")),
    ),
    h(
      "tbody",
      {},
      Array.from({ length: HANDS_PER_GAME }, (_, i) => {
        const hand = g.hands[i];
        const r = results[i];
        const error = r && "error" in r ? r.error : null;
        return h(
          "tr",
          { class: `${hand ? "played" : "open"} ${editing === i ? "editing" : ""}`, "data-testid": "card-row", "data-hand": i + 1 },
          h("td", { class: "num" }, String(i + 1)),
          h("td", {}, WIND_NAMES[lang][prevailing(i)]!),
          h("td", {}, g.players[dealer(g, i)]!),
          h("td", { class: "result" }, hand ? describe(g, i, hand) : "", error ? h("div", { class: "bad", "data-testid": "hand-error" }, error) : null),
          [0, 1, 2, 3].flatMap((p) => [
            h("td", { class: "num delta", "data-testid": "delta", "data-player": p }, hand && r && "deltas" in r ? signed(r.deltas[p]!) : ""),
            h("td", { class: "num running", "data-testid": "running", "data-player": p }, hand && r ? String(totals[i]![p]) : ""),
          ]),
          h("td", { class: "no-print" }, hand ? h("button", { type: "button", class: "small", "data-testid": "edit-hand", onclick: () => edit(i) }, t(lang, "edit")) : null),
        );
      }),
    ),
    h(
      "tfoot",
      {},
      h("tr", {}, h("th", { colspan: 4 }, t(lang, "handTotal")), [0, 1, 2, 3].map((p) => h("td", { class: "num", colspan: 2, "data-testid": "total-points", "data-player": p }, String(totals.at(-1)?.[p] ?? 0))), h("td", { class: "no-print" })),
      h(
        "tr",
        {},
        h("th", { colspan: 4 }, t(lang, "lateMinutes")),
        [0, 1, 2, 3].map((p) =>
          h(
            "td",
            { class: "num", colspan: 2 },
            h("input", {
              type: "number",
              min: 0,
              max: 1000,
              class: "late",
              "data-testid": "late-minutes",
              "data-player": p,
              "aria-label": `${t(lang, "lateMinutes")} ${g.players[p]}`,
              value: String(g.lateMinutes[p]),
              onchange: (e: Event) => {
                const minutes = Math.max(0, Math.min(1000, Math.trunc(Number((e.target as HTMLInputElement).value)) || 0));
                const lateMinutes = [...g.lateMinutes] as Game["lateMinutes"];
                lateMinutes[p] = minutes;
                setGame({ ...g, lateMinutes });
              },
            }),
          ),
        ),
        h("td", { class: "no-print" }),
      ),
      h("tr", {}, h("th", { colspan: 4 }, t(lang, "sessionScore")), [0, 1, 2, 3].map((p) => h("td", { class: "num", colspan: 2, "data-testid": "session-score", "data-player": p }, String(byPlayer.get(p)?.sessions[0]?.score ?? "–"))), h("td", { class: "no-print" })),
      h(
        "tr",
        {},
        h("th", { colspan: 4 }, t(lang, "standardPoints")),
        [0, 1, 2, 3].map((p) => h("td", { class: "num", colspan: 2, "data-testid": "standard-points", "data-player": p, "data-fraction": fractionAttr(byPlayer.get(p)?.standardPoints) }, fraction(byPlayer.get(p)?.standardPoints))),
        h("td", { class: "no-print" }),
      ),
      h("tr", {}, h("th", { colspan: 4 }, t(lang, "place")), [0, 1, 2, 3].map((p) => h("td", { class: "num place", colspan: 2, "data-testid": "place", "data-player": p }, String(byPlayer.get(p)?.place ?? "–"))), h("td", { class: "no-print" })),
    ),
  );
}

function penaltyRows(g: Game, i: number) {
  const lang = host.lang();
  const change = (j: number, f: (p: GamePenalty) => GamePenalty) => {
    draft.penalties = draft.penalties.map((p, k) => (k === j ? f(p) : p));
    host.render();
  };
  return h(
    "div",
    { class: "penalties", "data-testid": "penalties" },
    draft.penalties.map((p, j) => {
      const needs = INFRACTIONS.find((x) => x.value === p.infraction)?.needs ?? "";
      return h(
        "div",
        { class: "penalty-row", "data-testid": "penalty" },
        h(
          "select",
          { "aria-label": t(lang, "offender"), "data-testid": "penalty-offender", onchange: (e: Event) => change(j, (x) => ({ ...x, offender: Number((e.target as HTMLSelectElement).value) as Player })) },
          g.players.map((_, q) => h("option", { value: q, selected: p.offender === q }, playerLabel(g, i, q as Player))),
        ),
        h(
          "select",
          {
            "aria-label": t(lang, "infraction"),
            "data-testid": "penalty-infraction",
            onchange: (e: Event) =>
              change(j, (x) => {
                const value = Number((e.target as HTMLSelectElement).value);
                const out: GamePenalty = { offender: x.offender, infraction: value };
                return out;
              }),
          },
          INFRACTIONS.map((x) => h("option", { value: x.value, selected: p.infraction === x.value }, named(x.name, lang))),
        ),
        needs.includes("points")
          ? h("input", { type: "number", min: 0, "aria-label": t(lang, "points"), "data-testid": "penalty-points", value: String(p.points ?? ""), onchange: (e: Event) => change(j, (x) => ({ ...x, points: Number((e.target as HTMLInputElement).value) })) })
          : null,
        needs.includes("victim")
          ? h(
              "select",
              { "aria-label": t(lang, "victim"), "data-testid": "penalty-victim", onchange: (e: Event) => change(j, (x) => ({ ...x, victim: Number((e.target as HTMLSelectElement).value) as Player })) },
              h("option", { value: "" }, "–"),
              g.players.map((_, q) => h("option", { value: q, selected: p.victim === q }, playerLabel(g, i, q as Player))),
            )
          : null,
        h("button", { type: "button", class: "small", "aria-label": t(lang, "remove"), onclick: () => { draft.penalties = draft.penalties.filter((_, k) => k !== j); host.render(); } }, "×"),
      );
    }),
    h("button", { type: "button", class: "small", "data-testid": "add-penalty", onclick: () => { draft.penalties = [...draft.penalties, { offender: 0, infraction: INFRACTIONS[0]!.value }]; host.render(); } }, `+ ${t(lang, "penalty")}`),
  );
}

function entryForm(g: Game) {
  const lang = host.lang();
  const i = editing ?? g.hands.length;
  if (i >= HANDS_PER_GAME) return h("p", { class: "hint", "data-testid": "game-over" }, t(lang, "gameOver"));
  const seg = <T extends string | number>(name: string, options: [T, string][], current: T, pick: (v: T) => void) =>
    h(
      "div",
      { class: "segmented wrap", role: "group", "data-testid": name },
      options.map(([v, label]) => h("button", { type: "button", class: v === current ? "on" : "", "aria-pressed": v === current ? "true" : "false", "data-value": String(v), onclick: () => { pick(v); host.render(); } }, label)),
    );
  const players = [0, 1, 2, 3] as Player[];
  const win = draft.kind === "win";
  return h(
    "section",
    { class: "panel entry no-print", "data-testid": "hand-entry", "data-hand": i + 1 },
    h("h2", {}, `${editing === null ? t(lang, "recordHand") : t(lang, "editHand")} ${i + 1} · ${WIND_NAMES[lang][prevailing(i)]}${t(lang, "roundShort")} · ${t(lang, "dealer")} ${g.players[dealer(g, i)]}`),
    seg<"win" | "draw">("entry-kind", [["win", t(lang, "win")], ["draw", t(lang, "drawGame")]], draft.kind, (v) => (draft.kind = v)),
    win
      ? h(
          "div",
          { class: "fields" },
          h("div", { class: "field" }, h("span", { class: "label" }, t(lang, "winner")), seg<Player>("entry-winner", players.map((p) => [p, playerLabel(g, i, p)]), draft.winner, (v) => {
            draft.winner = v;
            if (draft.discarder === v) draft.discarder = -1;
          })),
          h(
            "div",
            { class: "field" },
            h("span", { class: "label" }, t(lang, "discarder")),
            seg<Player | -1>("entry-discarder", [[-1, t(lang, "selfDrawn")], ...players.filter((p) => p !== draft.winner).map((p) => [p, playerLabel(g, i, p)] as [Player, string])], draft.discarder === draft.winner ? -1 : draft.discarder, (v) => (draft.discarder = v)),
          ),
          h(
            "div",
            { class: "field value" },
            h("span", { class: "label" }, t(lang, "handValue")),
            h("input", { type: "number", min: 0, inputmode: "numeric", "data-testid": "entry-fan", placeholder: t(lang, "fanUnit"), "aria-label": t(lang, "fanTotalInput"), value: draft.fan, oninput: (e: Event) => (draft.fan = (e.target as HTMLInputElement).value) }),
            h("span", { class: "label" }, t(lang, "orHand")),
            h("input", { type: "text", class: "notation", "data-testid": "entry-notation", spellcheck: "false", autocomplete: "off", "aria-label": t(lang, "notation"), value: draft.notation, oninput: (e: Event) => (draft.notation = (e.target as HTMLInputElement).value) }),
            h(
              "button",
              {
                type: "button",
                class: "small",
                "data-testid": "use-hand",
                onclick: () => {
                  const cur = host.currentHand();
                  draft = { ...draft, notation: cur.notation, lastCopy: cur.lastCopy, kong: cur.kong, lastTile: cur.lastTile, flowers: cur.flowers };
                  host.render();
                },
              },
              t(lang, "useHand"),
            ),
          ),
          h(
            "div",
            { class: "field" },
            h("span", { class: "label" }, t(lang, "flowers")),
            h(
              "div",
              { class: "stepper" },
              h("button", { type: "button", disabled: draft.flowers === 0, onclick: () => { draft.flowers -= 1; host.render(); } }, "−"),
              h("output", { "data-testid": "entry-flowers" }, String(draft.flowers)),
              h("button", { type: "button", disabled: draft.flowers === 8, onclick: () => { draft.flowers += 1; host.render(); } }, "+"),
            ),
          ),
        )
      : null,
    h("div", { class: "field" }, h("span", { class: "label" }, t(lang, "penalties")), penaltyRows(g, i)),
    notice ? h("p", { class: "bad", "data-testid": "entry-notice" }, notice) : null,
    h(
      "div",
      { class: "actions" },
      h("button", { type: "button", class: "primary", "data-testid": "save-hand", onclick: save }, t(lang, "saveHand")),
      editing !== null ? h("button", { type: "button", onclick: () => { editing = null; draft = emptyDraft(); host.render(); } }, t(lang, "cancel")) : null,
      editing !== null && editing === g.hands.length - 1
        ? h("button", { type: "button", "data-testid": "delete-hand", onclick: () => setGame({ ...g, hands: g.hands.slice(0, -1) }) }, t(lang, "deleteHand"))
        : null,
    ),
  );
}

async function shareLink(g: Game): Promise<string> {
  const url = new URL(globalThis.location.href);
  url.search = "";
  url.searchParams.set("view", "game");
  url.searchParams.set("game", await pack(JSON.stringify(g)));
  url.searchParams.set("lang", host.lang());
  return url.toString();
}

function exportJson(g: Game): void {
  const blob = new Blob([JSON.stringify(g, null, 1)], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = "mahjong-game.json";
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

export function gameView() {
  const lang = host.lang();
  const g = game;
  if (!g) return h("div", { class: "game", "data-testid": "game" }, startForm(), notice ? h("p", { class: "bad" }, notice) : null);
  const complete = g.hands.length === HANDS_PER_GAME;
  return h(
    "div",
    { class: "game", "data-testid": "game", "data-computing": computing ? "1" : "0", "data-hands": g.hands.length },
    h(
      "section",
      { class: "panel card-panel printable" },
      h(
        "div",
        { class: "panel-head" },
        h("h2", {}, `${t(lang, "scoreCard")}${complete ? "" : ` · ${g.hands.length}/${HANDS_PER_GAME}`}`),
        h(
          "div",
          { class: "actions no-print" },
          h("button", { type: "button", "data-testid": "print-card", onclick: () => globalThis.print() }, t(lang, "print")),
          h("button", { type: "button", "data-testid": "export-game", onclick: () => exportJson(g) }, t(lang, "exportJson")),
          h(
            "button",
            {
              type: "button",
              "data-testid": "share-game",
              onclick: () => void shareLink(g).then((link) => {
                globalThis.history.replaceState(null, "", link);
                return navigator.clipboard?.writeText(link).catch(() => undefined);
              }),
            },
            t(lang, "copyLink"),
          ),
          h("button", { type: "button", "data-testid": "new-game", onclick: () => { if (globalThis.confirm(t(lang, "confirmNewGame"))) setGame(null); } }, t(lang, "newGame")),
        ),
      ),
      h("div", { class: "seating no-print" }, h("span", { class: "label" }, t(lang, "seatingHint")), [0, 1, 2, 3].map((r) => seatingRow(g, r))),
      h("div", { class: "card-scroll" }, cardTable(g)),
      standingsError ? h("p", { class: "bad" }, standingsError) : null,
      standings && complete
        ? h(
            "ol",
            { class: "ranking", "data-testid": "ranking" },
            standings.standings.map((s) => h("li", { "data-place": s.place }, h("b", {}, `${s.place}. ${s.name}`), ` ${fraction(s.standardPoints)} · ${s.totalScore}`)),
          )
        : null,
    ),
    entryForm(g),
    h("section", { class: "panel no-print" }, importBox()),
  );
}
