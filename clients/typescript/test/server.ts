// The real referee binary on a free loopback port, for the tests of this package and of
// the kiosk. The binary: $MAHJONG_REFEREE_BIN, else target/release/mahjong-referee, else
// target/debug/mahjong-referee (from the repository root).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { nodeClient } from "../src/node.js";

/** The repository root (this file is clients/typescript/{test,build/test}/server.*). */
export const ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

function findRoot(from: string): string {
  let dir = from;
  while (!existsSync(resolve(dir, "Cargo.toml"))) {
    const up = dirname(dir);
    if (up === dir) {
      throw new Error(`no Cargo.toml above ${from}`);
    }
    dir = up;
  }
  return dir;
}

/** The binary under test. */
export function binary(): string {
  const candidates = [
    process.env.MAHJONG_REFEREE_BIN,
    resolve(ROOT, "target/release/mahjong-referee"),
    resolve(ROOT, "target/debug/mahjong-referee"),
  ];
  const found = candidates.find((c): c is string => c !== undefined && c !== "" && existsSync(c));
  if (found === undefined) {
    throw new Error("no mahjong-referee binary: build it or set MAHJONG_REFEREE_BIN");
  }
  return found;
}

/** A port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => done(port));
    });
  });
}

/** A running referee. */
export interface Referee {
  /** http://127.0.0.1:PORT */
  baseUrl: string;
  /** Stops it (SIGTERM, then SIGKILL after 5 s). */
  stop(): Promise<void>;
  /** What it logged so far. */
  log(): string;
}

/** Starts the binary with `args` added to `serve` and waits until it answers ListFans. */
export async function startReferee(args: string[] = []): Promise<Referee> {
  const port = await freePort();
  const metricsPort = await freePort();
  const child: ChildProcess = spawn(
    binary(),
    [
      "serve",
      "--listen-addr",
      `127.0.0.1:${port}`,
      "--metrics-addr",
      `127.0.0.1:${metricsPort}`,
      "--drain-seconds",
      "0",
      "--log-format",
      "text",
      "--log-level",
      "warn",
      ...args,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const client = nodeClient(baseUrl);
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`the referee exited with ${child.exitCode}:\n${output}`);
    }
    try {
      await client.listFans({}, { timeoutMs: 1000 });
      break;
    } catch (error) {
      if (Date.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(`the referee did not answer within 30 s: ${String(error)}\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    baseUrl,
    log: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}
