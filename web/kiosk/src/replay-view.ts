// The replay view: a hand record (Botzone's text, or a structured HandRecord as JSON) sent to
// ReplayHand with include_states; the page steps through the tiles the referee returns after
// each event, shows each event's findings, and at the end the result, the derived
// circumstances and the score. The kiosk replays nothing itself.
import { fromJson } from "@bufbuild/protobuf";
import type { Client } from "@connectrpc/connect";
import {
  Consequence,
  FindingPlace,
  HandRecordSchema,
  type MahjongService,
  MeldKind,
  PlayAction,
  type PlayFinding,
  ReplayOutcome,
  type ReplayHandResponse,
  Seat,
  type SeatTiles,
  WinSource,
  refereeError,
} from "@mahjong-referee/client";
import { h, tileFace } from "./dom.js";
import { type Lang, WIND_NAMES, t } from "./i18n.js";
import { fanName } from "./names.js";
import { tilesText } from "./tiles.js";

export interface ReplayHost {
  client: Client<typeof MahjongService>;
  lang(): Lang;
  render(): void;
  /** The step changed: the page keeps it in its URL. */
  stepped(step: number): void;
}

let host: ReplayHost;
let text = "";
let answer: ReplayHandResponse | null = null;
let error: string | null = null;
let step = 0;
let loading = false;
/** The events as written (Botzone lines or structured events), for the step captions. */
let captions: string[] = [];

export function initReplay(h0: ReplayHost): void {
  host = h0;
}

export const replayText = () => text;
export const replayStep = () => step;

/** The first match of Botzone's text (from its `Match` line to the next). */
function firstMatch(all: string): string {
  const lines = all.replace(/\r/g, "").split("\n");
  const starts = lines.flatMap((l, i) => (l.startsWith("Match ") ? [i] : []));
  if (starts.length <= 1) return all.trim();
  return lines.slice(starts[0], starts[1]).join("\n").trim();
}

const ACTION_WORDS: Record<number, string> = {
  [PlayAction.DRAW]: "Draw",
  [PlayAction.FLOWER]: "Flower",
  [PlayAction.DISCARD]: "Play",
  [PlayAction.CHOW]: "Chi",
  [PlayAction.PUNG]: "Peng",
  [PlayAction.KONG]: "Gang",
  [PlayAction.CONCEALED_KONG]: "AnGang",
  [PlayAction.ADDED_KONG]: "BuGang",
  [PlayAction.WIN]: "Hu",
};

/** Replays `record` (text); `at` is the step to open at. */
export async function loadReplay(record: string, at = 0): Promise<void> {
  text = record;
  loading = true;
  error = null;
  host.render();
  const trimmed = record.trim();
  try {
    let response: ReplayHandResponse;
    if (trimmed.startsWith("{")) {
      const structured = fromJson(HandRecordSchema, JSON.parse(trimmed));
      captions = structured.events.map((e) => `${WIND_NAMES.en[e.seat - 1] ?? "?"} ${ACTION_WORDS[e.action] ?? "?"} ${e.tile > 0 ? tilesText([e.tile - 1]) : e.flower > 0 ? `#${e.flower}` : ""}`);
      response = await host.client.replayHand({ record: { case: "structured", value: structured }, includeStates: true });
    } else {
      const match = firstMatch(trimmed);
      text = match;
      captions = match.split("\n").filter((l) => /^Player [0-3] /.test(l) && !/^Player [0-3] Deal/.test(l));
      response = await host.client.replayHand({ record: { case: "botzoneText", value: match }, includeStates: true });
    }
    answer = response;
    step = Math.max(0, Math.min(at, response.states.length - 1));
  } catch (e) {
    answer = null;
    const details = refereeError(e);
    error = details && details.violations.length > 0 ? details.violations.map((v) => `${v.field}: ${v.description}`).join("; ") : (details?.message ?? String(e));
  }
  loading = false;
  host.stepped(step);
  host.render();
}

function go(to: number): void {
  if (!answer) return;
  step = Math.max(0, Math.min(to, answer.states.length - 1));
  host.stepped(step);
  host.render();
}

const CONSEQUENCES: Record<number, string> = {
  [Consequence.NOTED]: "noted",
  [Consequence.CORRECTED]: "corrected",
  [Consequence.VOID]: "void",
  [Consequence.LOSES_RIGHT_TO_WIN]: "loses-right-to-win",
  [Consequence.STOPS]: "stops",
};

function finding(f: PlayFinding) {
  return h(
    "li",
    { class: `finding ${CONSEQUENCES[f.consequence] ?? ""}`, "data-testid": "finding", "data-code": f.code },
    h("code", {}, f.code),
    " ",
    f.message,
    f.rule ? h("small", {}, ` (${f.rule})`) : null,
  );
}

function seatPanel(lang: Lang, s: SeatTiles, active: boolean) {
  return h(
    "div",
    { class: `replay-seat ${active ? "active" : ""} ${s.barred ? "barred" : ""}`, "data-testid": "replay-seat", "data-seat": Seat[s.seat] ?? "" },
    h("div", { class: "seat-name" }, WIND_NAMES[lang][s.seat - 1] ?? "?", s.flowers.length > 0 ? h("small", {}, ` ${t(lang, "flowers")} ${s.flowers.length}`) : null, s.barred ? h("small", { class: "bad" }, ` ${t(lang, "barred")}`) : null),
    h(
      "div",
      { class: "tiles-row small hand-tiles" },
      s.melds.map((m) => h("span", { class: "meld small-meld", "data-testid": "replay-meld" }, m.tiles.map((tile, j) => tileFace(tile - 1, lang, { class: `mini ${m.kind === MeldKind.CONCEALED_KONG && (j === 0 || j === 3) ? "back" : ""}` })))),
      h("span", { class: "standing", "data-testid": "replay-concealed", "data-tiles": tilesText(s.concealed.map((x) => x - 1)) }, s.concealed.map((tile) => tileFace(tile - 1, lang, { class: "mini" }))),
    ),
    h("div", { class: "discards-row" }, s.discards.map((tile, i) => tileFace(tile - 1, lang, { class: `mini discard ${s.discardsTaken[i] ? "taken" : ""}` }))),
  );
}

function endPanel(lang: Lang, a: ReplayHandResponse) {
  const outcome = a.outcome === ReplayOutcome.WIN ? "WIN" : a.outcome === ReplayOutcome.DRAW_GAME ? "DRAW_GAME" : "NO_RESULT";
  const circ = a.derived;
  const flags = circ
    ? (
        [
          ["selfDrawn", circ.selfDrawn],
          ["kongReplacement", circ.kongReplacement],
          ["robbingKong", circ.robbingKong],
          ["lastTile", circ.lastTile],
          ["lastCopy", circ.lastCopy],
        ] as const
      ).filter(([, on]) => on)
    : [];
  const source = a.winSource === WinSource.SELF_DRAWN ? t(lang, "selfDrawn") : a.winSource === WinSource.ROBBING_KONG ? t(lang, "robbingKongShort") : t(lang, "discardedBy");
  return h(
    "div",
    { class: "replay-end", "data-testid": "replay-end", "data-outcome": outcome },
    h(
      "p",
      { class: "outcome-text" },
      a.outcome === ReplayOutcome.WIN
        ? [
            h("b", { "data-testid": "replay-winner", "data-seat": Seat[a.winner] ?? "" }, `${WIND_NAMES[lang][a.winner - 1]} ${t(lang, "win")}`),
            ` · ${source}${a.payer !== Seat.UNSPECIFIED ? ` ${WIND_NAMES[lang][a.payer - 1]}` : ""} · `,
            a.winningTile > 0 ? tileFace(a.winningTile - 1, lang, { class: "mini" }) : null,
            " · ",
            h("b", { "data-testid": "replay-total" }, String(a.score?.total ?? 0)),
            ` ${t(lang, "fanUnit")}`,
          ]
        : a.outcome === ReplayOutcome.DRAW_GAME
          ? t(lang, "drawGame")
          : t(lang, "noResult"),
    ),
    flags.length > 0 ? h("p", { class: "derived", "data-testid": "replay-derived" }, `${t(lang, "derived")}: `, flags.map(([w]) => t(lang, w)).join(", ")) : null,
    a.score && a.score.fans.length > 0
      ? h("ul", { class: "replay-fans" }, a.score.fans.map((f) => h("li", {}, `${fanName(f, lang)} · ${f.points}${f.count > 1 ? ` ×${f.count}` : ""}`)))
      : null,
    a.accounts.length > 0
      ? h("p", { class: "replay-accounts", "data-testid": "replay-accounts" }, a.accounts.map((acc) => `${WIND_NAMES[lang][acc.seat - 1]} ${acc.delta > 0 ? "+" : ""}${acc.delta}`).join(" · "))
      : null,
  );
}

export function replayView() {
  const lang = host.lang();
  const a = answer;
  const last = a ? a.states.length - 1 : 0;
  const state = a?.states[step];
  const eventIndex = step - 1;
  const here = a ? a.findings.filter((f) => f.place === FindingPlace.EVENT && f.eventIndex === eventIndex) : [];
  const elsewhere = a ? a.findings.filter((f) => f.place !== FindingPlace.EVENT) : [];
  const actor = step > 0 ? /^Player ([0-3])/.exec(captions[eventIndex] ?? "")?.[1] : undefined;
  return h(
    "div",
    { class: "replay", "data-testid": "replay" },
    h(
      "section",
      { class: "panel no-print" },
      h("h2", {}, t(lang, "tabReplay")),
      h("p", { class: "hint" }, t(lang, "replayHint")),
      h("textarea", {
        "data-testid": "replay-text",
        rows: 5,
        spellcheck: "false",
        "aria-label": t(lang, "replayRecord"),
        oninput: (e: Event) => {
          text = (e.target as HTMLTextAreaElement).value;
        },
      }),
      h(
        "div",
        { class: "actions" },
        h("button", { type: "button", class: "primary", "data-testid": "replay-load", disabled: loading, onclick: () => void loadReplay(text) }, t(lang, "replayRun")),
        h("input", {
          type: "file",
          accept: ".txt,.json,text/plain,application/json",
          "data-testid": "replay-file",
          "aria-label": t(lang, "replayFile"),
          onchange: (e: Event) => {
            const file = (e.target as HTMLInputElement).files?.[0];
            if (file) void file.text().then((x) => loadReplay(x));
          },
        }),
      ),
      error ? h("p", { class: "bad", "data-testid": "replay-error" }, error) : null,
    ),
    a && state
      ? h(
          "section",
          { class: "panel replay-board" },
          h(
            "div",
            { class: "stepper replay-steps", role: "group", "aria-label": t(lang, "replayStep") },
            h("button", { type: "button", "data-testid": "replay-first", disabled: step === 0, onclick: () => go(0) }, "«"),
            h("button", { type: "button", "data-testid": "replay-prev", disabled: step === 0, onclick: () => go(step - 1) }, "‹"),
            h("output", { "data-testid": "replay-step", "data-step": step, "data-steps": last }, `${step} / ${last}`),
            h("button", { type: "button", "data-testid": "replay-next", disabled: step === last, onclick: () => go(step + 1) }, "›"),
            h("button", { type: "button", "data-testid": "replay-last", disabled: step === last, onclick: () => go(last) }, "»"),
            h("input", { type: "range", min: 0, max: last, value: String(step), "aria-label": t(lang, "replayStep"), oninput: (e: Event) => go(Number((e.target as HTMLInputElement).value)) }),
          ),
          h("p", { class: "replay-event", "data-testid": "replay-event" }, step === 0 ? t(lang, "afterDeal") : (captions[eventIndex] ?? `#${step}`), h("small", {}, ` · ${t(lang, "wallLeft")} ${state.wallLeft}`)),
          here.length > 0 ? h("ul", { class: "findings", "data-testid": "event-findings" }, here.map(finding)) : h("p", { class: "ok", "data-testid": "event-ok" }, step === 0 ? "" : t(lang, "eventOk")),
          h("div", { class: "replay-seats" }, state.seats.map((s) => seatPanel(lang, s, actor !== undefined && Number(actor) === s.seat - 1))),
          step === last ? endPanel(lang, a) : null,
          step === last && elsewhere.length > 0 ? h("ul", { class: "findings" }, elsewhere.map(finding)) : null,
        )
      : null,
  );
}
