// Finding attempts across conversations: filters by model, status, kind, an item tag that was sent, a trace action
// and date, newest first with a cursor; only conversations the caller may read; bad filters are a 400 that names
// the filter.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as attemptsRoute from "@/app/api/attempts/route";
import * as conversationRoute from "@/app/api/conversations/[id]/route";
import { call, expectError, signUp, type TestUser } from "../api-client";
import { type FakeProviderEnv, startFakeProviderEnv } from "../fixtures/fake-provider-env";
import { createConversation, insertPersona } from "../fixtures/personas";
import { runTurn } from "../fixtures/turns";

let env: FakeProviderEnv;
let ada: TestUser;
let bob: TestUser;
let plain: string;
let noted: string;

interface Row {
  id: string;
  kind: string;
  status: string;
  modelId: string;
  conversationId: string;
  conversationTitle: string;
  cost: { totalUsd: number } | null;
  createdAt: string;
}

async function search(user: TestUser, query: string) {
  return call(attemptsRoute.GET, `/api/attempts${query}`, { user });
}

async function found(user: TestUser, query: string): Promise<{ attempts: Row[]; nextBefore: string | null }> {
  const response = await search(user, query);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

beforeAll(async () => {
  env = await startFakeProviderEnv();
  [ada, bob] = await Promise.all([signUp("Ada"), signUp("Bob")]);
  const persona = await insertPersona({ modelId: "openai:gpt-4.1-mini" });
  plain = await createConversation(ada, persona);
  env.providers.script(
    { kind: "error", status: 429, retryAfterMs: 20, message: "Rate limit reached" },
    { kind: "text", text: "Plain answer.", usage: { inputTokens: 100, outputTokens: 10 } },
  );
  await runTurn(ada, plain, "A plain question.");

  noted = await createConversation(ada, persona);
  const patched = await call(conversationRoute.PATCH, `/api/conversations/${noted}`, {
    user: ada,
    params: { id: noted },
    body: { settingsOverride: { contextNote: { text: "Be brief.", depth: 0, role: "system" } } },
  });
  expect(patched.status).toBe(200);
  env.providers.script({ kind: "text", text: "Brief." });
  await runTurn(ada, noted, "A question with a note.");
});

afterAll(async () => {
  await env.close();
});

describe("GET /api/attempts", () => {
  test("newest first across the caller's conversations, with the conversation's title and the cost", async () => {
    const { attempts } = await found(ada, "?kind=reply");
    expect(attempts.map((row) => [row.conversationId, row.status])).toEqual([
      [noted, "ok"],
      [plain, "ok"],
      [plain, "error"],
    ]);
    expect(attempts[1]?.cost?.totalUsd).toBeCloseTo((100 * 0.4 + 10 * 1.6) / 1_000_000, 12);
    expect(attempts[2]?.cost).toBeNull();
  });

  // Conversations by name: their ids exist only once beforeAll has run.
  test.each([
    ["status", "?status=error", [["plain", "error"]]],
    ["a tag that was sent", "?tag=CONTEXT_NOTE", [["noted", "ok"]]],
    ["a trace action", "?action=injected-note", [["noted", "ok"]]],
    [
      "model and kind",
      "?model=openai:gpt-4.1-mini&kind=reply&status=ok",
      [
        ["noted", "ok"],
        ["plain", "ok"],
      ],
    ],
    ["a model nobody used", "?model=google:gemini-2.5-flash", []],
    ["a date range that ends before them", "?to=2000-01-01", []],
    [
      "a range from a leap day to the year 9999",
      "?kind=reply&from=2024-02-29&to=9999-12-31T23:59:59.999Z",
      [
        ["noted", "ok"],
        ["plain", "ok"],
        ["plain", "error"],
      ],
    ],
    [
      "a range from an ISO time with an offset",
      "?kind=reply&from=2000-01-01T00:00%2B05:30",
      [
        ["noted", "ok"],
        ["plain", "ok"],
        ["plain", "error"],
      ],
    ],
    ["a range that starts after them", "?from=9999-01-01", []],
  ])("filtered by %s", async (_name, query, expected) => {
    const names = new Map([
      [plain, "plain"],
      [noted, "noted"],
    ]);
    const { attempts } = await found(ada, query);
    expect(attempts.map((row) => [names.get(row.conversationId), row.status])).toEqual(expected);
  });

  test("pages with a cursor, without gaps or repeats", async () => {
    const first = await found(ada, "?kind=reply&limit=2");
    expect(first.attempts).toHaveLength(2);
    expect(first.nextBefore).not.toBeNull();
    const second = await found(
      ada,
      `?kind=reply&limit=2&before=${encodeURIComponent(first.nextBefore ?? "")}`,
    );
    expect(second.nextBefore).toBeNull();
    const all = await found(ada, "?kind=reply");
    expect([...first.attempts, ...second.attempts].map((row) => row.id)).toEqual(
      all.attempts.map((row) => row.id),
    );
  });

  test("someone else's conversations are not searched", async () => {
    expect((await found(bob, "")).attempts).toEqual([]);
  });

  test.each([
    ["?status=maybe", "status must be ok, error or stopped"],
    ["?kind=poem", "kind must be one of"],
    ["?from=yesterday", "from must be a real date"],
    ["?from=-271821-04-20", "from must be a real date from 1970 to 9999"],
    ["?from=275760-09-13", "from must be a real date"],
    ["?to=0001-01-01", "to must be a real date from 1970 to 9999"],
    ["?from=2026-13-01", "from must be a real date"],
    ["?from=2026-02-30", "from must be a real date"],
    ["?to=2026-11-26T24:00", "to must be a real date"],
    ["?to=2026-11-26T10:60:00Z", "to must be a real date"],
    ["?to=2026-11-26T10:00%2B25:00", "to must be a real date"],
    ["?limit=0", "limit must be a whole number from 1 to 200"],
    ["?before=garbage", "before must be the cursor a previous page gave"],
    ["?before=2026-13-45Tzz_0190aaaa-0000-7000-8000-000000000000", "before must be the cursor"],
    ["?before=2026-02-30T10:00:00.000Z_0190aaaa-0000-7000-8000-000000000000", "before must be the cursor"],
    ["?before=2026-11-26T10:00:00.000Z_------------------------------------", "before must be the cursor"],
    ["?before=2026-11-26T10:00:00.000Z_0190aaaa-0000-7000-8000-00000000000g", "before must be the cursor"],
    ["?before=-271821-04-20T00:00:00.000Z_0190aaaa-0000-7000-8000-000000000000", "before must be the cursor"],
    ["?colour=red", 'Unrecognized key: "colour"'],
  ])("%s is a 400 naming the filter", async (query, message) => {
    expect(await expectError(await search(ada, query), 400, "bad_request")).toContain(message);
  });
});
