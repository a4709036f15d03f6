// The kiosk at a real table (issue 26), in headless Chromium against the binary: tiles drawn
// with no Mahjong font on the machine, the hand in play (waits equal to AnalyzeHand's), a
// whole 16-hand game on the score card (equal to SettleHand and ComputeStandings called
// directly), kept over a reload, exported and shared; a replay stepped to the end; phone and
// tablet sizes; the picker by keyboard only; and no console error anywhere.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { nodeClient } from "@mahjong-referee/client/node";
import { DESKTOP, PHONE, ROOT, SHOTS, TABLET, inkPerBox, startSession, tid } from "./harness.mjs";

let session;
let page;
let client;

before(async () => {
  session = await startSession(TABLET);
  page = session.page;
  client = nodeClient(session.referee.baseUrl);
});

after(async () => {
  await session?.stop();
});

async function open(query) {
  await page.goto(`${session.referee.baseUrl}/kiosk/?${query}`);
  await page.locator("#app header").waitFor();
}

async function sheetSettled() {
  await page.locator(`${tid("sheet")}[data-pending="0"]`).waitFor({ timeout: 10_000 });
}

test("no font on this machine covers the Mahjong tiles block (fc-list :charset=1f000 is empty)", () => {
  // .ci/web.sh runs this under a fontconfig without such a font (FONTCONFIG_FILE).
  const fonts = execFileSync("fc-list", [":charset=1f000"], { encoding: "utf8" }).trim();
  assert.equal(fonts, "", `fonts covering U+1F000 are visible to Chromium: ${fonts}`);
});

test("every picker tile is drawn: its face is an SVG symbol of the sprite, with ink in it", async () => {
  await open("lang=en");
  const picks = page.locator(tid("pick"));
  assert.equal(await picks.count(), 34);
  // Each face refers to a symbol of the page's sprite that has shapes in it; no tile is text
  // of the U+1F000 block.
  const faces = await picks.evaluateAll((els) =>
    els.map((el) => {
      const use = el.querySelector("svg.face use");
      const id = use?.getAttribute("href")?.slice(1) ?? "";
      const symbol = id ? document.getElementById(id) : null;
      return { tile: el.dataset.tile, id, shapes: symbol?.querySelectorAll("path,circle,rect").length ?? 0, text: el.textContent };
    }),
  );
  for (const f of faces) {
    assert.equal(f.id, `tile-${f.tile}`, `${f.tile} shows ${f.id}`);
    assert.ok(f.shapes > 0, `${f.tile}: an empty symbol`);
    assert.doesNotMatch(f.text, /[\u{1F000}-\u{1F02B}]/u, `${f.tile} uses a Mahjong glyph`);
  }
  assert.equal(await page.locator(`${tid("tile-sprite")} symbol`).count(), 34 + 8 + 1);
  // The screenshot: inside each face's box (the caption excluded), at least 4% of the pixels
  // are ink. A blank face (a missing symbol, or a glyph with no font) has none.
  const picker = page.locator(tid("picker"));
  await picker.scrollIntoViewIfNeeded();
  const origin = await picker.boundingBox();
  const boxes = await page.locator(`${tid("pick")} svg.face`).evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()));
  const png = await picker.screenshot({ path: join(SHOTS, "kiosk-tablet-picker.png") });
  const inks = await inkPerBox(
    page,
    png,
    boxes.map((b) => ({ x: b.x - origin.x, y: b.y - origin.y, width: b.width, height: b.height })),
  );
  inks.forEach(({ ink, area }, i) => assert.ok(ink / area > 0.04, `${faces[i].tile}: ${ink} of ${area} pixels drawn`));
});

test("phone and tablet: the picker fits the width and its tiles stay large enough to read", async () => {
  for (const [name, size] of [["phone", PHONE], ["tablet", TABLET]]) {
    await page.setViewportSize(size);
    await open("lang=zh");
    const boxes = await page.locator(`${tid("pick")} svg.face`).evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()));
    for (const b of boxes) {
      assert.ok(b.right <= size.width, `${name}: a tile ends at ${b.right} > ${size.width}`);
      assert.ok(b.width >= 28, `${name}: a tile face ${b.width}px wide`);
    }
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scroll <= size.width, `${name}: the page scrolls sideways (${scroll}px)`);
    await page.screenshot({ path: join(SHOTS, `kiosk-${name}-picker.png`) });
  }
  await page.setViewportSize(TABLET);
});

/** What AnalyzeHand says of a waiting hand, as the wait elements should show it. */
async function directWaits(notation) {
  const answer = await client.analyzeHand({ handInput: { case: "notation", value: notation } });
  const code = (tile) => (tile <= 27 ? `${((tile - 1) % 9) + 1}${"mps"[Math.floor((tile - 1) / 9)]}` : "ESWNCFP"[tile - 28]);
  return {
    answer,
    waits: answer.waits.map((w) => ({
      tile: code(w.tile),
      discard: w.dead ? "" : String(w.onDiscard.total),
      selfDrawn: w.dead ? "" : String(w.onSelfDrawn.total),
      reaches: w.winsOnDiscard && w.winsSelfDrawn ? "both" : w.winsOnDiscard ? "discard" : w.winsSelfDrawn ? "self-drawn" : "none",
    })),
  };
}

async function shownWaits() {
  return page.locator(tid("wait")).evaluateAll((els) =>
    els.map((e) => ({ tile: e.dataset.tile, discard: e.dataset.discard, selfDrawn: e.dataset.selfDrawn, reaches: e.getAttribute("data-reaches-8") })),
  );
}

test("keyboard only: a ready hand entered with Tab and Enter shows AnalyzeHand's waits and totals", async () => {
  await open("lang=en");
  // Tab to the picker's first tile, then add tiles with Enter, moving with Tab / Shift+Tab.
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute("data-tile") ?? null);
  for (let i = 0; i < 80 && (await focused()) !== "1m"; i++) await page.keyboard.press("Tab");
  assert.equal(await focused(), "1m", "Tab reaches the picker");
  const order = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "E"];
  const hand = ["1m", "2m", "3m", "4m", "5m", "6m", "7p", "8p", "9p", "2s", "3s", "4s", "5s"];
  let at = 0;
  for (const tile of hand) {
    const to = order.indexOf(tile);
    for (; at < to; at++) await page.keyboard.press("Tab");
    assert.equal(await focused(), tile);
    await page.keyboard.press("Enter");
  }
  await sheetSettled();
  assert.equal(await page.locator(tid("outcome")).innerText(), "IN_PLAY");
  const { answer, waits } = await directWaits("123456m789p2345s");
  assert.equal(await page.locator(tid("analysis")).getAttribute("data-shanten"), String(answer.shanten));
  assert.deepEqual(await shownWaits(), waits);
  assert.deepEqual(
    waits.map((w) => w.tile),
    ["2s", "5s"],
  );
  assert.equal(new URL(page.url()).searchParams.get("hand"), "123456m789p2345s");
  await page.screenshot({ path: join(SHOTS, "kiosk-tablet-in-play.png"), fullPage: true });
});

test("a share link with a hand in play opens its waits; one reaching 8 only self-drawn says so", async () => {
  // 九莲宝灯 shape minus one: every wait of 1112345678999m reaches 8 both ways.
  for (const notation of ["1112345678999m", "[123p]234m567s88sEE"]) {
    await open(`hand=${encodeURIComponent(notation)}&lang=en`);
    await sheetSettled();
    const { waits } = await directWaits(notation);
    assert.ok(waits.length > 0, notation);
    assert.deepEqual(await shownWaits(), waits, notation);
  }
  assert.ok((await shownWaits()).some((w) => w.reaches !== "both"), "a wait short of 8 one way is shown as such");
});

test("a hand of 14 tiles that is not a win shows the discard table", async () => {
  await open(`hand=${encodeURIComponent("123456m789p2345s9s")}&lang=en`);
  await sheetSettled();
  const direct = await client.analyzeHand({ handInput: { case: "notation", value: "123456m789p2345s9s" } });
  const rows = await page.locator(tid("discard-option")).evaluateAll((els) => els.map((e) => [e.dataset.tile, Number(e.dataset.shanten), Number(e.dataset.useful)]));
  assert.equal(rows.length, direct.discards.length);
  assert.deepEqual(
    rows.map((r) => [r[1], r[2]]),
    direct.discards.map((d) => [d.shanten, d.usefulCount]),
  );
});

// --- the score card -------------------------------------------------------------------------

const PLAYERS = ["Ann", "Bo", "Chen", "Dee"];
const WIN_HAND = "[123m][789m][123p]89p55s7p";
/** 16 hands: winner / discarder (null self-drawn) as player indices, a fan total or the
 * hand's notation, flowers, penalties. */
const HANDS = [
  { kind: "win", winner: 0, discarder: 1, fan: 8 },
  { kind: "win", winner: 2, discarder: null, fan: 12, flowers: 2 },
  { kind: "draw" },
  { kind: "win", winner: 3, discarder: 0, fan: 24 },
  { kind: "win", winner: 1, discarder: 2, notation: WIN_HAND },
  { kind: "win", winner: 1, discarder: null, fan: 9 },
  { kind: "draw", penalty: { offender: 2, infraction: 17, points: 10 } },
  { kind: "win", winner: 0, discarder: 3, fan: 16 },
  { kind: "win", winner: 2, discarder: 1, fan: 8, flowers: 1 },
  { kind: "win", winner: 3, discarder: null, fan: 32 },
  { kind: "win", winner: 0, discarder: 2, fan: 10 },
  { kind: "draw" },
  { kind: "win", winner: 1, discarder: 0, fan: 48 },
  { kind: "win", winner: 2, discarder: null, fan: 8 },
  { kind: "win", winner: 3, discarder: 1, fan: 13 },
  { kind: "win", winner: 0, discarder: null, fan: 64 },
];

/** The seat (proto Seat, 1 East) of player p at hand i: the deal passes every hand. */
const seat = (i, p) => ((p - (i % 4) + 4) % 4) + 1;

/** The game computed without the kiosk: SettleHand per hand, then ComputeStandings. */
async function direct(hands, late = [0, 0, 0, 0]) {
  const deltas = [];
  for (const [i, hand] of hands.entries()) {
    const penalties = hand.penalty ? [{ offender: seat(i, hand.penalty.offender), infraction: hand.penalty.infraction, points: hand.penalty.points }] : [];
    const request =
      hand.kind === "draw"
        ? { end: 4, penalties }
        : {
            end: hand.discarder === null ? 1 : 2,
            winner: seat(i, hand.winner),
            discarder: hand.discarder === null ? 0 : seat(i, hand.discarder),
            winValue: hand.notation
              ? {
                  case: "winningHand",
                  value: {
                    handInput: { case: "notation", value: hand.notation },
                    context: { selfDrawn: hand.discarder === null, seatWind: seat(i, hand.winner), prevalentWind: Math.floor(i / 4) + 1, flowerCount: hand.flowers ?? 0 },
                  },
                }
              : { case: "fanCount", value: { fanTotal: hand.fan, flowerCount: hand.flowers ?? 0 } },
            penalties,
          };
    const answer = await client.settleHand(request);
    const row = [0, 0, 0, 0];
    for (const a of answer.accounts) row[[0, 1, 2, 3].find((p) => seat(i, p) === a.seat)] = a.delta;
    deltas.push(row);
  }
  const standings = await client.computeStandings({
    players: PLAYERS.map((name, p) => ({ name, sessions: [{ handResults: deltas.map((r) => r[p]), lateMinutes: late[p], table: 0 }] })),
  });
  const byPlayer = PLAYERS.map((_, p) => standings.standings.find((s) => s.playerIndex === p));
  return {
    totals: PLAYERS.map((_, p) => deltas.reduce((sum, r) => sum + r[p], 0)),
    scores: byPlayer.map((s) => s.sessions[0].score),
    standard: byPlayer.map((s) => `${s.standardPoints.numerator}/${s.standardPoints.denominator}`),
    places: byPlayer.map((s) => s.place),
  };
}

async function shownCard() {
  await page.locator(`${tid("game")}[data-computing="0"]`).waitFor({ timeout: 20_000 });
  const cells = (id, attr) =>
    page.locator(tid(id)).evaluateAll((els, attr) => els.sort((a, b) => a.dataset.player - b.dataset.player).map((e) => (attr ? e.dataset[attr] : e.textContent)), attr);
  return {
    totals: (await cells("total-points")).map(Number),
    scores: (await cells("session-score")).map(Number),
    standard: await cells("standard-points", "fraction"),
    places: (await cells("place")).map(Number),
  };
}

async function enterHand(hand) {
  const entry = page.locator(tid("hand-entry"));
  await entry.locator(`${tid("entry-kind")} button[data-value="${hand.kind}"]`).click();
  if (hand.kind === "win") {
    await entry.locator(`${tid("entry-winner")} button[data-value="${hand.winner}"]`).click();
    await entry.locator(`${tid("entry-discarder")} button[data-value="${hand.discarder ?? -1}"]`).click();
    if (hand.notation) await entry.locator(tid("entry-notation")).fill(hand.notation);
    else await entry.locator(tid("entry-fan")).fill(String(hand.fan));
    for (let f = 0; f < (hand.flowers ?? 0); f++) await entry.locator(`${tid("entry-flowers")} + button`).click();
  }
  if (hand.penalty) {
    await entry.locator(tid("add-penalty")).click();
    await entry.locator(tid("penalty-offender")).selectOption(String(hand.penalty.offender));
    await entry.locator(tid("penalty-infraction")).selectOption(String(hand.penalty.infraction));
    await entry.locator(tid("penalty-points")).fill(String(hand.penalty.points));
    await entry.locator(tid("penalty-points")).press("Tab");
  }
  const before = Number(await page.locator(tid("game")).getAttribute("data-hands"));
  await entry.locator(tid("save-hand")).click();
  await page.locator(`${tid("game")}[data-hands="${before + 1}"]`).waitFor();
}

test("a 16-hand game entered through the score card equals SettleHand + ComputeStandings called directly", async () => {
  await page.setViewportSize(DESKTOP);
  await open("view=game&lang=en");
  await page.evaluate(() => localStorage.clear());
  await open("view=game&lang=en");
  const names = page.locator(tid("player-name"));
  for (const [i, name] of PLAYERS.entries()) await names.nth(i).fill(name);
  await page.locator(tid("start-game")).click();
  for (const hand of HANDS) await enterHand(hand);
  const shown = await shownCard();
  assert.equal(await page.locator(tid("hand-error")).count(), 0, await page.locator(tid("hand-error")).allInnerTexts().then((x) => x.join(" | ")));
  const expected = await direct(HANDS);
  assert.deepEqual(shown, expected);
  assert.equal(shown.totals.reduce((a, b) => a + b, 0), -10, "zero-sum but for the 10-point deduction");
  // The dealer advances every hand and the prevailing wind every four.
  const rows = await page.locator(tid("card-row")).evaluateAll((els) => els.map((e) => [e.children[1].textContent, e.children[2].textContent]));
  assert.deepEqual(rows[0], ["East", "Ann"]);
  assert.deepEqual(rows[5], ["South", "Bo"]);
  assert.deepEqual(rows[15], ["North", "Dee"]);
  assert.equal(await page.locator(`${tid("ranking")} li`).count(), 4);
  await page.screenshot({ path: join(SHOTS, "kiosk-desktop-score-card.png"), fullPage: true });
});

test("the game survives a reload; editing a hand recomputes everything after it", async () => {
  const before = await shownCard();
  await page.reload();
  await page.locator(tid("score-card")).waitFor();
  assert.deepEqual(await shownCard(), before);
  // Hand 1 was 8 fan; make it 20.
  await page.locator(`${tid("card-row")}[data-hand="1"] ${tid("edit-hand")}`).click();
  await page.locator(`${tid("hand-entry")} ${tid("entry-fan")}`).fill("20");
  await page.locator(`${tid("hand-entry")} ${tid("save-hand")}`).click();
  const edited = [{ ...HANDS[0], fan: 20 }, ...HANDS.slice(1)];
  await page.locator(`${tid("card-row")}[data-hand="1"]`).filter({ hasText: "20 fan" }).waitFor();
  assert.deepEqual(await shownCard(), await direct(edited));
  assert.notDeepEqual(await shownCard(), before);
  // Dee was 7 minutes late: the 局分 and what follows from it, as ComputeStandings says.
  const late = page.locator(`${tid("late-minutes")}[data-player="3"]`);
  await late.fill("7");
  await late.press("Tab");
  await page.waitForFunction(() => JSON.parse(localStorage.getItem("mahjong-kiosk.game.v1")).lateMinutes[3] === 7);
  const withLate = await direct(edited, [0, 0, 0, 7]);
  assert.deepEqual(await shownCard(), withLate);
  assert.notDeepEqual(withLate.scores, (await direct(edited)).scores, "late minutes change the 局分");
});

test("export and import as JSON, and a share link carrying the game", async () => {
  const shown = await shownCard();
  const stored = await page.evaluate(() => localStorage.getItem("mahjong-kiosk.game.v1"));
  assert.equal(JSON.parse(stored).hands.length, 16);
  // A share link (compressed) opened with nothing stored.
  await page.locator(tid("share-game")).click();
  await page.waitForURL(/game=/);
  const link = page.url();
  await page.evaluate(() => localStorage.clear());
  await page.goto(link);
  await page.locator(tid("score-card")).waitFor();
  assert.deepEqual(await shownCard(), shown);
  // Import: clear, then paste the JSON.
  page.once("dialog", (d) => d.accept());
  await page.locator(tid("new-game")).click();
  await page.locator(tid("game-start")).waitFor();
  await page.locator(`${tid("game-start")} details summary`).click();
  await page.locator(`${tid("game-start")} ${tid("import-text")}`).fill(stored);
  await page.locator(`${tid("game-start")} ${tid("import-game")}`).click();
  await page.locator(tid("score-card")).waitFor();
  assert.deepEqual(await shownCard(), shown);
  // The printed card: one page, the card only.
  await page.emulateMedia({ media: "print" });
  assert.equal(await page.locator("header.top").isVisible(), false);
  assert.equal(await page.locator(tid("hand-entry")).isVisible(), false);
  assert.equal(await page.locator(tid("score-card")).isVisible(), true);
  const pdf = await page.pdf({ format: "A4", landscape: true, preferCSSPageSize: true });
  const pages = (pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) ?? []).length;
  assert.equal(pages, 1, `the printed card has ${pages} pages`);
  await page.emulateMedia({ media: "screen" });
});

// --- the replay -----------------------------------------------------------------------------

function firstMatch() {
  const lines = readFileSync(join(ROOT, "tests/data/replay-public.txt"), "utf8").split("\n");
  const next = lines.findIndex((l, i) => i > 0 && l.startsWith("Match "));
  return lines.slice(0, next).join("\n").trim();
}

test("a Botzone record replayed and stepped to the end shows the referee's winner and total", async () => {
  const text = firstMatch();
  const answer = await client.replayHand({ record: { case: "botzoneText", value: text }, includeStates: true });
  assert.equal(answer.outcome, 1, "the sample is a win");
  await page.setViewportSize(TABLET);
  await open("view=replay&lang=en");
  await page.locator(tid("replay-text")).fill(text);
  await page.locator(tid("replay-load")).click();
  const stepper = page.locator(tid("replay-step"));
  await stepper.waitFor();
  assert.equal(await stepper.getAttribute("data-steps"), String(answer.states.length - 1));
  // Each seat's concealed tiles after the deal, and after step 3, are the referee's.
  const concealed = () => page.locator(tid("replay-concealed")).evaluateAll((els) => els.map((e) => e.querySelectorAll(".tile").length));
  assert.deepEqual(await concealed(), answer.states[0].seats.map((s) => s.concealed.length));
  for (let i = 0; i < 3; i++) await page.locator(tid("replay-next")).click();
  assert.equal(await stepper.getAttribute("data-step"), "3");
  assert.deepEqual(await concealed(), answer.states[3].seats.map((s) => s.concealed.length));
  await page.locator(tid("replay-last")).click();
  const winner = page.locator(tid("replay-winner"));
  await winner.waitFor();
  assert.equal(await winner.getAttribute("data-seat"), "EAST");
  assert.equal(Number(await page.locator(tid("replay-total")).innerText()), answer.score.total);
  assert.match(await page.locator(tid("replay-derived")).innerText(), /Last tile/);
  await page.screenshot({ path: join(SHOTS, "kiosk-tablet-replay.png"), fullPage: true });
  // The link opens the same record at the same step.
  await page.waitForURL(/record=.*step=/);
  const link = new URL(page.url());
  link.searchParams.set("step", "5");
  await page.goto(link.toString());
  await page.locator(`${tid("replay-step")}[data-step="5"]`).waitFor();
  assert.deepEqual(await concealed(), answer.states[5].seats.map((s) => s.concealed.length));
});

test("the score card and the replay in 简体 and 繁體, fan names in 繁體 from the referee", async () => {
  await open("view=game&lang=zh");
  assert.match(await page.locator(`${tid("score-card")} tfoot`).innerText(), /局分/);
  assert.match(await page.locator(`${tid("score-card")} tfoot`).innerText(), /标准分/);
  await page.locator(`${tid("view")} button[data-value="replay"]`).click();
  assert.match(await page.locator(tid("replay")).innerText(), /复盘/);
  await page.locator(`${tid("lang")} button[data-value="hant"]`).click();
  assert.match(await page.locator(tid("replay")).innerText(), /復盤/);
  assert.equal(new URL(page.url()).searchParams.get("lang"), "zh-Hant");
  await page.locator(`${tid("view")} button[data-value="game"]`).click();
  assert.match(await page.locator(`${tid("score-card")} tfoot`).innerText(), /標準分/);
  await open(`hand=${encodeURIComponent(WIN_HAND)}&ruleset=mil&selfDrawn=1&lang=zh-Hant`);
  await sheetSettled();
  assert.equal(await page.locator(`${tid("fan-line")} .primary`).first().innerText(), "三色雙龍會");
  assert.equal(await page.evaluate(() => document.documentElement.lang), "zh-Hant");
});

test("no console error, page error or failed request in this session", () => {
  assert.deepEqual(session.problems, []);
});
