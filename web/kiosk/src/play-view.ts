// The hand in play: what AnalyzeHand says of a hand one tile short of complete (shanten per
// shape, useful tiles, the waits and their worth) or of a hand with a tile to discard (the
// discard table). The kiosk only shows the referee's answer.
import { type AnalyzeHandResponse, HandState, Shape, type WaitingTile } from "@mahjong-referee/client";
import { h, tileFace } from "./dom.js";
import { type Lang, t, type Word } from "./i18n.js";
import { code } from "./tiles.js";

const SHAPE_WORDS: Record<number, Word> = {
  [Shape.STANDARD]: "shapeStandard",
  [Shape.SEVEN_PAIRS]: "shapeSevenPairs",
  [Shape.THIRTEEN_ORPHANS]: "shapeThirteenOrphans",
  [Shape.HONORS_AND_KNITTED]: "shapeHonorsKnitted",
  [Shape.KNITTED_STRAIGHT]: "shapeKnittedStraight",
};

/** Where a wait reaches the 8-point minimum: discard, self-drawn, both or none. */
export function reaches8(w: WaitingTile): "discard" | "self-drawn" | "both" | "none" {
  if (w.winsOnDiscard && w.winsSelfDrawn) return "both";
  if (w.winsOnDiscard) return "discard";
  if (w.winsSelfDrawn) return "self-drawn";
  return "none";
}

function shantenText(lang: Lang, n: number): string {
  if (n < 0) return t(lang, "complete");
  if (n === 0) return t(lang, "ready");
  return lang === "en" ? `${n} ${t(lang, "shantenUnit")}${n === 1 ? "" : "s"}` : `${n} ${t(lang, "shantenUnit")}`;
}

function waitsTable(lang: Lang, waits: readonly WaitingTile[]) {
  return h(
    "table",
    { class: "waits", "data-testid": "waits" },
    h("thead", {}, h("tr", {}, h("th", {}, t(lang, "wait")), h("th", { class: "num" }, t(lang, "copiesLeft")), h("th", { class: "num" }, t(lang, "onDiscard")), h("th", { class: "num" }, t(lang, "selfDrawn")))),
    h(
      "tbody",
      {},
      waits.map((w) => {
        const k = w.tile - 1;
        const discard = w.dead ? "" : String(w.onDiscard?.total ?? "");
        const self = w.dead ? "" : String(w.onSelfDrawn?.total ?? "");
        const cell = (value: string, wins: boolean) => h("td", { class: `num ${value === "" ? "" : wins ? "reaches" : "short"}` }, value === "" ? "–" : value);
        return h(
          "tr",
          {
            "data-testid": "wait",
            "data-tile": code(k),
            "data-discard": discard,
            "data-self-drawn": self,
            "data-reaches-8": reaches8(w),
            "data-remaining": w.remaining,
          },
          h("td", {}, tileFace(k, lang, { class: "mini" })),
          h("td", { class: "num" }, String(w.remaining)),
          cell(discard, w.winsOnDiscard),
          cell(self, w.winsSelfDrawn),
        );
      }),
    ),
  );
}

/** The analysis panel's body. */
export function analysisView(lang: Lang, a: AnalyzeHandResponse) {
  const waiting = a.state === HandState.WAITING;
  const summary = waiting
    ? a.shanten === 0
      ? a.readyToWin
        ? t(lang, "readyToWin")
        : t(lang, "readyUnder8")
      : shantenText(lang, a.shanten)
    : a.shanten < 0
      ? t(lang, "complete")
      : t(lang, "pickDiscard");
  return h(
    "div",
    { class: "analysis", "data-testid": "analysis", "data-state": waiting ? "waiting" : "drawn", "data-shanten": a.shanten },
    h("p", { class: "analysis-summary", "data-testid": "analysis-summary" }, summary),
    h(
      "ul",
      { class: "shapes" },
      a.shapes.map((s) =>
        h(
          "li",
          { "data-testid": "shape", "data-shanten": s.shanten },
          h("span", {}, t(lang, SHAPE_WORDS[s.shape] ?? "shapeStandard")),
          h("b", {}, shantenText(lang, s.shanten)),
        ),
      ),
    ),
    waiting && a.shanten === 0 ? waitsTable(lang, a.waits) : null,
    waiting && a.useful.length > 0 && a.shanten > 0
      ? h(
          "div",
          { class: "useful" },
          h("span", { class: "label" }, `${t(lang, "useful")} (${a.useful.reduce((n, u) => n + u.remaining, 0)})`),
          h(
            "div",
            { class: "tiles-row small" },
            a.useful.map((u) => h("span", { class: "useful-tile", "data-testid": "useful", "data-tile": code(u.tile - 1) }, tileFace(u.tile - 1, lang), h("small", {}, `×${u.remaining}`))),
          ),
        )
      : null,
    !waiting && a.discards.length > 0
      ? h(
          "table",
          { class: "discards", "data-testid": "discards" },
          h("thead", {}, h("tr", {}, h("th", {}, t(lang, "discard")), h("th", { class: "num" }, t(lang, "shanten")), h("th", { class: "num" }, t(lang, "useful")), h("th", {}, t(lang, "waitsOrUseful")))),
          h(
            "tbody",
            {},
            a.discards.map((d) =>
              h(
                "tr",
                { "data-testid": "discard-option", "data-tile": code(d.tile - 1), "data-shanten": d.shanten, "data-useful": d.usefulCount, "data-winning": d.winningCount },
                h("td", {}, tileFace(d.tile - 1, lang, { class: "mini" })),
                h("td", { class: "num" }, shantenText(lang, d.shanten)),
                h("td", { class: "num" }, String(d.usefulCount)),
                h(
                  "td",
                  { class: "tiles-cell" },
                  (d.waits.length > 0 ? d.waits.map((w) => w.tile) : d.useful.map((u) => u.tile)).map((tile) => tileFace(tile - 1, lang, { class: "mini" })),
                ),
              ),
            ),
          ),
        )
      : null,
  );
}
