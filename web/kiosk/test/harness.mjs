// The browser tests' harness: the referee binary, Debian's Chromium (playwright-core, headless,
// a fresh profile), a page that records every console error, page error and failed request,
// and small helpers. Env: CHROMIUM (default /usr/bin/chromium), MAHJONG_REFEREE_BIN,
// KIOSK_SCREENSHOTS (default target/web-ci/screenshots); KIOSK_DIST, when set, serves
// kiosk.js and kiosk.css from that directory instead of the binary (to try a bundle without
// rebuilding the binary; CI never sets it).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { ROOT, startReferee } from "../../../clients/typescript/build/test/server.js";

export { ROOT, startReferee };
export const SHOTS = process.env.KIOSK_SCREENSHOTS ?? resolve(ROOT, "target/web-ci/screenshots");
export const PHONE = { width: 390, height: 844 };
export const TABLET = { width: 820, height: 1180 };
export const DESKTOP = { width: 1440, height: 960 };
export const tid = (id) => `[data-testid="${id}"]`;

/** Starts the referee and a browser; `session.problems` collects what went wrong in the page. */
export async function startSession(viewport = DESKTOP) {
  mkdirSync(SHOTS, { recursive: true });
  const referee = await startReferee();
  const profile = mkdtempSync(join(tmpdir(), "kiosk-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport,
  });
  if (process.env.KIOSK_DIST) {
    for (const file of ["kiosk.js", "kiosk.css"]) {
      await context.route(`**/kiosk/${file}`, (route) => route.fulfill({ path: join(process.env.KIOSK_DIST, file) }));
    }
  }
  const page = context.pages()[0] ?? (await context.newPage());
  const problems = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`);
  });
  page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  return {
    referee,
    context,
    page,
    problems,
    async stop() {
      await context.close();
      await referee.stop();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** How many pixels of a screenshot (PNG) inside each box differ clearly from the box's own
 * corner colour: the ink drawn there. Decoded in the page (a canvas), so no image library. */
export async function inkPerBox(page, png, boxes) {
  return page.evaluate(
    async ({ data, boxes }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      const canvas = document.createElement("canvas");
      canvas.width = image.width;
      canvas.height = image.height;
      const g = canvas.getContext("2d");
      g.drawImage(image, 0, 0);
      return boxes.map(({ x, y, width, height }) => {
        const px = g.getImageData(Math.round(x), Math.round(y), Math.max(1, Math.round(width)), Math.max(1, Math.round(height))).data;
        const [r0, g0, b0] = [px[0], px[1], px[2]];
        let ink = 0;
        for (let i = 0; i < px.length; i += 4) {
          if (Math.abs(px[i] - r0) + Math.abs(px[i + 1] - g0) + Math.abs(px[i + 2] - b0) > 90) ink++;
        }
        return { ink, area: px.length / 4 };
      });
    },
    { data: png.toString("base64"), boxes },
  );
}
