// The kiosk in a real browser: Debian's Chromium driven by playwright-core loads /kiosk/ from
// the running referee binary, enters three hands by clicks (a win, an under-8 hand, a
// malformed one), switches language, taps a fan line, opens a share link, and saves
// screenshots at a tablet and a desktop size into $KIOSK_SCREENSHOTS (default
// target/web-ci/screenshots). Needs clients/typescript built (npm run build there).
// The browser and the referee come from ./harness.mjs (its environment variables apply).
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { DESKTOP, SHOTS, startReferee, startSession, tid } from "./harness.mjs";

// Landscape, as a tablet on a stand.
const TABLET = { width: 1180, height: 820 };

let session;
let referee;
let context;
let page;
let problems;

before(async () => {
  session = await startSession(DESKTOP);
  ({ referee, context, page, problems } = session);
});

after(async () => {
  await session?.stop();
});

const text = (id) => page.locator(tid(id)).first().innerText();

async function open(query = "lang=en") {
  await page.goto(`${referee.baseUrl}/kiosk/?${query}`);
  await page.locator(tid("picker")).waitFor();
}

/** Waits until the sheet shows the latest hand, checks its outcome hook, returns the total. */
async function settled(outcome) {
  await page.locator(`${tid("sheet")}[data-pending="0"]`).waitFor({ timeout: 10_000 });
  assert.equal(await text("outcome"), outcome, await text("outcome-text"));
  return Number(await text("total"));
}

async function mode(name) {
  await page.locator(`${tid("mode")} button[data-value="${name}"]`).click();
}

async function pick(...tiles) {
  for (const tile of tiles) {
    const button = page.locator(`${tid("pick")}[data-tile="${tile}"]`);
    try {
      await button.click({ timeout: 5000 });
    } catch (error) {
      const why = await button.evaluate((el) => {
        const chain = [];
        for (let e = el; e; e = e.parentElement) chain.push(`${e.tagName}${e.disabled ? "[disabled]" : ""}.${e.className}`);
        return `${el.outerHTML.slice(0, 200)} in ${chain.join(" < ")}; mode ${document.querySelector('[data-testid="mode"] .on')?.textContent}`;
      });
      throw new Error(`cannot tap ${tile}: ${why}\n${error.message}`);
    }
  }
}

test("the page loads from the binary and waits for a hand", async () => {
  await open();
  assert.equal(await page.locator(tid("pick")).count(), 34);
  assert.match(await text("outcome-text"), /Waiting/);
  assert.equal(await text("total"), "0");
});

test("a win entered by clicks: 三色双龙会 self-drawn, 18 fan, settled per seat", async () => {
  await open("lang=en&ruleset=mil");
  await mode("chow");
  await pick("1m", "7m", "1p");
  await mode("hand");
  await pick("5s", "5s", "8p", "9p", "7p");
  await page.locator(tid("self-drawn")).click();
  assert.equal(await settled("WIN"), 18);
  assert.equal(await page.locator(tid("notation")).inputValue(), "[123m][789m][123p]89p55s7p");
  const lines = await page.locator(tid("fan-line")).allInnerTexts();
  assert.equal(lines.length, 3, lines.join(" | "));
  assert.match(lines[0], /Three-Suited Terminal Chows/);
  assert.match(await text("outcome-text"), /Win · 18 fan/);
  // Self-drawn by East: 8 + 18 from each of the three others.
  await page.locator(tid("settlement")).waitFor();
  const east = page.locator(`${tid("seat-account")}[data-seat="EAST"] ${tid("delta")}`);
  assert.equal(await east.innerText(), "+78");
  const south = page.locator(`${tid("seat-account")}[data-seat="SOUTH"] ${tid("delta")}`);
  assert.equal(await south.innerText(), "-26");
  // The page keeps its own URL as the hand is built.
  const url = new URL(page.url());
  assert.equal(url.searchParams.get("hand"), "[123m][789m][123p]89p55s7p");
  assert.equal(url.searchParams.get("selfDrawn"), "1");
  assert.equal(url.searchParams.get("ruleset"), "mil");
});

test("tapping a fan line highlights the sets that form it", async () => {
  assert.equal(await page.locator(`${tid("element")}[data-lit="1"]`).count(), 0);
  const edge = page.locator(tid("fan-line")).filter({ hasText: "Edge Wait" });
  await edge.click();
  const lit = page.locator(`${tid("element")}[data-lit="1"]`);
  assert.equal(await lit.count(), 1);
  assert.match(await lit.first().getAttribute("class"), /lit/);
  const tiles = await lit.first().locator(".tile").evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")));
  assert.deepEqual(tiles, ["7 Dots", "8 Dots", "9 Dots"]);
  const chows = page.locator(tid("fan-line")).filter({ hasText: "Three-Suited Terminal Chows" });
  await chows.click();
  assert.equal(await lit.count(), 5);
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: join(SHOTS, "kiosk-desktop-win.png"), fullPage: true });
  await page.setViewportSize(TABLET);
  await page.screenshot({ path: join(SHOTS, "kiosk-tablet-win.png"), fullPage: true });
  await page.setViewportSize(DESKTOP);
});

test("the language switch: Chinese names first, the outcome in Chinese", async () => {
  await page.locator(`${tid("lang")} button[data-value="zh"]`).click();
  const first = page.locator(`${tid("fan-line")} .primary`).first();
  assert.equal(await first.innerText(), "三色双龙会");
  assert.match(await text("outcome-text"), /和牌/);
  assert.equal(new URL(page.url()).searchParams.get("lang"), "zh");
  await page.screenshot({ path: join(SHOTS, "kiosk-desktop-zh.png"), fullPage: true });
  await page.locator(`${tid("lang")} button[data-value="en"]`).click();
  assert.equal(await first.innerText(), "Three-Suited Terminal Chows");
});

test("an under-8 hand is scored and called not a win", async () => {
  await page.locator(tid("clear")).click();
  await mode("chow");
  await pick("1m");
  await mode("hand");
  await pick("3p");
  // Validated as it is built: a hand still being entered is told how many tiles it lacks.
  assert.equal(await settled("INVALID"), 0);
  assert.match(await text("outcome-text"), /^10 more tiles to go$/);
  assert.match(await text("violations"), /needs 10 standing tiles plus the winning tile, found 0/);
  await pick( "4p", "5p", "5s", "6s", "7s", "6m", "7m", "8m", "9p", "9p");
  const total = await settled("BELOW_MINIMUM");
  assert.ok(total > 0 && total < 8, `total ${total}`);
  assert.match(await text("outcome-text"), /Under 8 fan: not a win/);
  assert.ok((await page.locator(tid("fan-line")).count()) > 0);
  assert.equal(await page.locator(tid("settlement")).count(), 0);
  await page.setViewportSize(TABLET);
  await page.screenshot({ path: join(SHOTS, "kiosk-tablet-below.png"), fullPage: true });
  await page.setViewportSize(DESKTOP);
});

test("a malformed hand (five 5p) is invalid, every violation shown", async () => {
  await page.locator(tid("clear")).click();
  await mode("pung");
  await pick("5p");
  await mode("hand");
  await pick("5p", "5p", "1m", "2m", "3m", "7s", "8s", "9s", "E", "E", "E");
  assert.equal(await settled("INVALID"), 0);
  assert.match(await text("outcome-text"), /Invalid hand/);
  const shown = await page.locator(`${tid("all-violations")} li`).allInnerTexts();
  assert.ok(shown.length >= 1, "violations listed");
  assert.ok(shown.some((v) => /5p|five|4|copies/i.test(v)), shown.join(" | "));
  assert.ok((await page.locator(`${tid("violations")}`).count()) >= 1, "shown next to the hand");
  await page.screenshot({ path: join(SHOTS, "kiosk-desktop-invalid.png"), fullPage: true });
});

test("a share link opens the kiosk with the hand entered and scored", async () => {
  const hand = encodeURIComponent("[123m][789m][123p]55s89p7p");
  await open(`hand=${hand}&ruleset=mil&selfDrawn=1&lastCopy=0&seat=S&prevalent=E&flowers=2&lang=en`);
  assert.equal(await settled("WIN"), 20);
  assert.equal(await page.locator(tid("flowers")).innerText(), "2");
  assert.equal(await page.locator(`${tid("seat")} button.on`).innerText(), "South");
  const south = page.locator(`${tid("seat-account")}[data-seat="SOUTH"] ${tid("delta")}`);
  assert.equal(await south.innerText(), "+84");
});

test("typed notation: the builder shows the melds and the sheet scores it", async () => {
  await open("lang=en&ruleset=mil");
  const input = page.locator(tid("notation"));
  await input.fill("[123m][789m][123p]55s89p7p");
  await input.press("Enter");
  assert.equal(await settled("WIN"), 17);
  assert.equal(await page.locator(tid("meld")).count(), 3);
  assert.equal(await page.locator(tid("winning-tile")).getAttribute("aria-label"), "7 Dots");
  assert.equal(new URL(page.url()).searchParams.get("hand"), "[123m][789m][123p]89p55s7p");
  // Text the builder cannot show is scored as typed, and the referee says what is wrong.
  await input.fill("[1234m]5p");
  await input.press("Enter");
  assert.equal(await settled("INVALID"), 0);
  assert.ok((await page.locator(`${tid("all-violations")} li`).count()) >= 1);
});

test("gRPC-Web from an allowed origin: the CORS preflight passes and the status headers are exposed", async () => {
  // A blank page of another origin (a second loopback port, served here), calling with fetch,
  // as any gRPC-Web client would, a referee that lists that origin in --cors-origins (no
  // origin is allowed by default).
  const site = createServer((_, res) => res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>other</title>"));
  await new Promise((done) => site.listen(0, "127.0.0.1", done));
  const allowing = await startReferee(["--cors-origins", `http://127.0.0.1:${site.address().port}`]);
  const other = await context.newPage();
  await other.goto(`http://127.0.0.1:${site.address().port}/`);
  const answer = await other.evaluate(async (base) => {
    const call = async (method, frame) => {
      const response = await fetch(`${base}/mahjong.v1.MahjongService/${method}`, {
        method: "POST",
        headers: { "content-type": "application/grpc-web+proto", "x-grpc-web": "1" },
        body: frame,
      });
      const body = new Uint8Array(await response.arrayBuffer());
      return {
        status: response.status,
        grpcStatus: response.headers.get("grpc-status"),
        details: response.headers.get("grpc-status-details-bin") !== null,
        // The trailer frame (flag 0x80) at the end of the body, as text.
        trailers: new TextDecoder().decode(body.slice(body.lastIndexOf(0x80) + 5)),
        bytes: body.length,
      };
    };
    const empty = new Uint8Array([0, 0, 0, 0, 0]); // one frame holding an empty message
    return { listFans: await call("ListFans", empty), scoreHand: await call("ScoreHand", empty) };
  }, allowing.baseUrl);
  await other.close();
  site.close();
  await allowing.stop();
  assert.equal(answer.listFans.status, 200);
  assert.ok(answer.listFans.bytes > 1000, `ListFans answered ${answer.listFans.bytes} bytes`);
  assert.match(answer.listFans.trailers, /grpc-status:\s*0/);
  // An empty ScoreHandRequest has no hand: INVALID_ARGUMENT, trailers only, details readable.
  assert.equal(answer.scoreHand.status, 200);
  assert.equal(answer.scoreHand.grpcStatus, "3");
  assert.equal(answer.scoreHand.details, true);
});

test("no console error, page error or failed request in the whole session", () => {
  assert.deepEqual(problems, []);
});
