// Four 256 MB chunked JSON bodies at once, over real HTTP to the built server: each is refused with a 413 in the
// app's error format as soon as it passes the cap, and the server's resident memory grows by less than 100 MB, so
// a client cannot make the server hold what it sends. The bodies come from a generator (one 64 KB buffer sent
// again and again), never held by this test. The server is the one Playwright started; its pid is found from its
// listening port (ss), its memory read from /proc.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { Readable } from "node:stream";
import { expect, test } from "@playwright/test";
import { newAccountCookie } from "./cluster-client";
import { uniqueEmail } from "./pages/chat-page";

const PORT = Number(process.env.E2E_APP_PORT ?? 3100);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const BODY_BYTES = 256 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;
const CONCURRENT = 4;
const MAX_GROWTH_BYTES = 100 * 1024 * 1024;

test("4 concurrent 256 MB chunked bodies: each a 413 in the app's format, the server's RSS grows < 100 MB", async () => {
  test.setTimeout(120_000);
  const pid = listeningPid(PORT);
  const cookie = await signUp();

  // Warm up: the route's code is loaded and one oversized body refused before the baseline is read.
  const warmUp = await postChunked(cookie, 2 * CHUNK_BYTES * 8);
  expect(warmUp.status).toBe(413);
  const baseline = residentBytes(pid);

  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, residentBytes(pid));
  }, 25);
  const started = Date.now();
  const answers = await Promise.all(
    Array.from({ length: CONCURRENT }, () => postChunked(cookie, BODY_BYTES)),
  );
  clearInterval(sampler);
  peak = Math.max(peak, residentBytes(pid));
  const tookMs = Date.now() - started;

  const growth = peak - baseline;
  console.log(
    `RSS baseline ${mb(baseline)} MB, peak ${mb(peak)} MB, growth ${mb(growth)} MB; ` +
      `bytes sent per body before the answer: ${answers.map((answer) => mb(answer.bytesSent)).join(", ")} MB; ${tookMs} ms`,
  );
  for (const answer of answers) {
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: "payload_too_large", message: "The request body is larger than 256 KB." },
    });
    // Refused once past the cap, not after the whole body was taken in.
    expect(answer.bytesSent).toBeLessThan(BODY_BYTES);
  }
  expect(growth).toBeLessThan(MAX_GROWTH_BYTES);
});

/** The pid of the process listening on `port`, from `ss -ltnp` (the server is this user's, so ss may name it). */
function listeningPid(port: number): number {
  const out = execFileSync("ss", ["-Hltnp", `sport = :${port}`], { encoding: "utf8" });
  const match = out.match(/pid=(\d+)/);
  if (!match) throw new Error(`no process found listening on port ${port}: ${out}`);
  return Number(match[1]);
}

/** VmRSS of the process and its children (in case the server forks workers), in bytes. */
function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kilobytes = Number(status.match(/^VmRSS:\s+(\d+) kB/m)?.[1] ?? 0);
  return kilobytes * 1024 + childPids(pid).reduce((sum, child) => sum + residentBytes(child), 0);
}

function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

function signUp(): Promise<string> {
  return newAccountCookie(ORIGIN, "Big", uniqueEmail("big"));
}

/** A JSON body that never ends within `totalBytes`: `{"title":"xxxx…`, sent chunked from a generator. */
async function* chunkedJson(totalBytes: number, counter: { sent: number }): AsyncGenerator<Buffer> {
  const filler = Buffer.alloc(CHUNK_BYTES, "x");
  yield Buffer.from('{"title":"');
  while (counter.sent < totalBytes) {
    counter.sent += filler.byteLength;
    yield filler;
  }
  yield Buffer.from('"}');
}

/**
 * POSTs the body chunked (no content-length) and resolves with the answer as soon as it comes, then stops
 * sending: the server answers before it has read everything, and may close the connection under the upload.
 */
function postChunked(
  cookie: string,
  totalBytes: number,
): Promise<{ status: number; body: string; bytesSent: number }> {
  const counter = { sent: 0 };
  let answered = false;
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${ORIGIN}/api/conversations`, {
      method: "POST",
      headers: { "content-type": "application/json", "transfer-encoding": "chunked", origin: ORIGIN, cookie },
    });
    const source = Readable.from(chunkedJson(totalBytes, counter));
    request.on("response", (response) => {
      answered = true;
      const bytesSent = counter.sent;
      source.unpipe(request);
      source.destroy();
      const parts: Buffer[] = [];
      response.on("data", (part: Buffer) => parts.push(part));
      response.on("end", () => {
        request.destroy();
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(parts).toString("utf8"), bytesSent });
      });
      response.on("error", reject);
    });
    // A reset after the answer arrived is the server closing the upload it refused: not a failure.
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    source.pipe(request);
  });
}

function mb(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}
