// `npm start` as a container runs it (PID 1 of `CMD ["npm","start"]`): a SIGTERM to npm, to scripts/start.mjs or to
// scripts/serve.mjs drains the instance as docs/deploy.md#graceful-shutdown says. Readiness answers 503 and a new
// turn is refused while a reply already streaming finishes, and the title its conversation gets once the reply has
// ended is stored before the instance closes its database; then every process of the instance (npm, start.mjs,
// serve.mjs, the `next start` worker) exits, and npm exits 0. Each case starts its own `npm start` of the build the
// e2e run made (GLASSBOX_NO_BUILD: it must not build again) on its own port, with its own database when the run
// has no Postgres (a PGlite directory of its own).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { expect, test } from "@playwright/test";
import postgres from "postgres";
import { chatRequest, clusterAppEnv, newConversation, type Session, signUp } from "./cluster-client";
import { fakeProviderClient } from "./fake-providers/client";
import { readSse } from "./pages/ui-message-stream";

const ROOT = path.resolve(import.meta.dirname, "..");
const FAKE_URL = `http://127.0.0.1:${process.env.E2E_FAKE_PORT ?? 4010}`;
const fake = fakeProviderClient(FAKE_URL);
// 70 above the app's port (workers.spec.ts takes 60–61, scale-out.spec.ts 50–53).
const PORT = Number(process.env.E2E_APP_PORT ?? 3100) + 70;
const ORIGIN = `http://127.0.0.1:${PORT}`;

test.describe.configure({ mode: "serial" });

interface Tree {
  npm: number;
  startScript: number;
  serveScript: number;
  /** Every process of the instance, npm first, with its command line. */
  all: Array<{ pid: number; command: string }>;
}

let running: ChildProcess | null = null;
let pgliteDir: string | null = null;

test.afterEach(async () => {
  // A failed case leaves nothing behind, npm gone or not: the instance runs in a process group of its own.
  const child = running;
  running = null;
  if (child?.pid !== undefined) {
    const exited =
      child.exitCode === null && child.signalCode === null
        ? new Promise((resolve) => child.once("exit", resolve))
        : Promise.resolve();
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // nothing of the group is left
    }
    await exited;
  }
  if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
  pgliteDir = null;
});

function children(pid: number): number[] {
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
    return text === "" ? [] : text.split(" ").map(Number);
  } catch {
    return [];
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}

/** Whether the process still runs: gone from /proc, or a zombie waiting for its parent, is not running. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

function processTree(npm: number): Tree {
  const all: Tree["all"] = [];
  const visit = (pid: number) => {
    all.push({ pid, command: commandLine(pid) });
    for (const child of children(pid)) visit(child);
  };
  visit(npm);
  const find = (script: string) => all.find((entry) => entry.command.includes(script))?.pid ?? -1;
  return { npm, startScript: find("scripts/start.mjs"), serveScript: find("scripts/serve.mjs"), all };
}

/** `npm start` on PORT; resolves once /api/ready answers 200. */
async function startInstance(): Promise<ChildProcess> {
  let database: Record<string, string>;
  if (process.env.E2E_DATABASE_URL) database = { DATABASE_URL: process.env.E2E_DATABASE_URL };
  else {
    pgliteDir = mkdtempSync(path.join(tmpdir(), "glassbox-npm-start-"));
    database = { DATABASE_URL: "", PGLITE_DIR: pgliteDir };
  }
  const child = spawn("npm", ["start"], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...clusterAppEnv(FAKE_URL),
      ...database,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      GLASSBOX_NO_BUILD: "1",
      WEB_CONCURRENCY: "",
      REDIS_URL: "",
      INSTANCE_ID: "npm-start-e2e",
      // Titles from the fake provider, which the test makes slow: still being generated when the drain begins.
      TITLE_MODEL_ID: "openai:gpt-4.1-mini",
    },
    stdio: process.env.NPM_START_LOG ? "inherit" : "ignore",
    detached: true,
  });
  running = child;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}) before it was ready`);
    const ready = await fetch(`${ORIGIN}/api/ready`).catch(() => null);
    if (ready?.ok) return child;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("npm start did not get ready within 90 s");
}

/** The conversation's title as stored, read once the instance has exited: in its Postgres, or its PGlite directory. */
async function storedTitle(conversationId: string): Promise<string | undefined> {
  const query = "select title from conversations where id = $1";
  if (process.env.E2E_DATABASE_URL) {
    const sql = postgres(process.env.E2E_DATABASE_URL, { max: 1, onnotice: () => {} });
    try {
      const [row] = await sql.unsafe<{ title: string }[]>(query, [conversationId]);
      return row?.title;
    } finally {
      await sql.end();
    }
  }
  const database = new PGlite(pgliteDir as string);
  try {
    return (await database.query<{ title: string }>(query, [conversationId])).rows[0]?.title;
  } finally {
    await database.close();
  }
}

const cases: Array<{ target: string; pick: (tree: Tree) => number }> = [
  { target: "npm (the container's PID 1)", pick: (tree) => tree.npm },
  { target: "scripts/start.mjs", pick: (tree) => tree.startScript },
  { target: "scripts/serve.mjs", pick: (tree) => tree.serveScript },
];

for (const { target, pick } of cases) {
  test(`SIGTERM to ${target}: not ready, new turns refused, the running reply finishes and its title is stored, everything exits 0`, async () => {
    test.setTimeout(180_000);
    await fake.reset();
    const npm = await startInstance();
    const tree = processTree(npm.pid as number);
    // npm runs start.mjs itself (its shell exec'd it), which runs serve.mjs, which runs one `next start` worker.
    expect
      .soft(tree.all.map((entry) => entry.command))
      .toEqual([
        expect.stringMatching(/^npm start/),
        expect.stringMatching(/^node scripts\/start\.mjs$/),
        expect.stringMatching(/scripts\/serve\.mjs$/),
        expect.stringMatching(/next/),
      ]);

    const reply = "Streamed to the end while the instance drained.";
    // The reply, then its conversation's title, which answers 1 s after it is asked: after the reply has ended and
    // the drain has begun.
    await fake.script([
      { kind: "text", text: reply, chunks: 20, chunkDelayMs: 250 },
      { kind: "text", text: "Draining instance", firstTokenDelayMs: 1_000 },
    ]);
    const ada: Session = await signUp(ORIGIN, "Drain");
    const [streaming, refused] = [await newConversation(ada, ORIGIN), await newConversation(ada, ORIGIN)];
    const response = await ada.call(ORIGIN, "/api/chat", chatRequest(streaming, "A long answer, please"));
    expect(response.status).toBe(200);
    const reader = response.body?.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    const decoder = new TextDecoder();
    let body = decoder.decode((await reader.read()).value);
    let finishedAt = 0;
    const reading = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        body += decoder.decode(value, { stream: true });
      }
      finishedAt = Date.now();
    })();

    const exited = new Promise<number | null>((resolve) => npm.once("exit", (code) => resolve(code)));
    process.kill(pick(tree), "SIGTERM");

    await expect
      .poll(async () => (await fetch(`${ORIGIN}/api/ready`)).status, { timeout: 15_000, intervals: [100] })
      .toBe(503);
    const notReadyAt = Date.now();
    const refusal = await ada.call(ORIGIN, "/api/chat", chatRequest(refused, "Too late?"));
    expect(refusal.status).toBe(503);
    expect(refusal.headers.get("retry-after")).toBe("1");

    await reading;
    expect(readSse(body)).toEqual({ text: reply, finished: true });
    // The instance said it was not ready while the reply was still streaming.
    expect(notReadyAt).toBeLessThan(finishedAt);

    expect(await exited).toBe(0);
    await expect
      .poll(() => tree.all.filter((entry) => isRunning(entry.pid)), { timeout: 10_000 })
      .toEqual([]);
    expect(await storedTitle(streaming)).toBe("Draining instance");
  });
}
