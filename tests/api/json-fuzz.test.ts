// A fuzz test of every JSON API route: random bodies (wrong types, unknown and missing keys, huge and
// out-of-range numbers, NUL, lone surrogates, zero-width and bidi text, deep nesting, valid bodies with one field
// gone wrong) sent to each POST/PUT/PATCH handler with a signed-in user's session and same-origin headers. Every
// answer must be a 2xx or a 4xx, never a 5xx; a 4xx must leave every table's row count as it was (nothing
// half-stored). FUZZ_RUNS sets the number of bodies (default keeps the file near half a minute); FUZZ_SEED
// replays a run fast-check reported. Works in a database of its own: the counts are this file's alone.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, test } from "vitest";
import * as blocksRoute from "@/app/api/admin/blocks/route";
import * as memoriesRoute from "@/app/api/admin/memories/route";
import * as modelRoute from "@/app/api/admin/models/[id]/route";
import * as modelsRoute from "@/app/api/admin/models/route";
import { createModelSchema } from "@/app/api/admin/models/schema";
import * as personaPreviewRoute from "@/app/api/admin/personas/[id]/preview/route";
import * as personaRoute from "@/app/api/admin/personas/[id]/route";
import * as personasRoute from "@/app/api/admin/personas/route";
import * as settingsRoute from "@/app/api/admin/settings/route";
import * as userRoute from "@/app/api/admin/users/[id]/route";
import * as replayRoute from "@/app/api/attempts/[id]/replay/route";
import * as authRoute from "@/app/api/auth/[...all]/route";
import * as compareRoute from "@/app/api/chat/[id]/compare/route";
import * as chatRoute from "@/app/api/chat/route";
import * as branchRoute from "@/app/api/conversations/[id]/branch/route";
import * as compactRoute from "@/app/api/conversations/[id]/compact/route";
import * as messageRoute from "@/app/api/conversations/[id]/messages/[messageId]/route";
import * as participantRoute from "@/app/api/conversations/[id]/participants/[userId]/route";
import * as participantsRoute from "@/app/api/conversations/[id]/participants/route";
import * as previewRoute from "@/app/api/conversations/[id]/preview/route";
import * as conversationRoute from "@/app/api/conversations/[id]/route";
import * as stopRoute from "@/app/api/conversations/[id]/stop/route";
import * as revertRoute from "@/app/api/conversations/[id]/summaries/[summaryId]/revert/route";
import * as summaryRoute from "@/app/api/conversations/[id]/summaries/[summaryId]/route";
import * as typingRoute from "@/app/api/conversations/[id]/typing/route";
import * as writeAsMeRoute from "@/app/api/conversations/[id]/write-as-me/route";
import * as importRoute from "@/app/api/conversations/import/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import * as experimentsRoute from "@/app/api/datasets/[id]/experiments/route";
import * as datasetsRoute from "@/app/api/datasets/route";
import * as keysRoute from "@/app/api/keys/route";
import * as ownMemoryRoute from "@/app/api/memories/[memoryId]/route";
import * as memoryPreferencesRoute from "@/app/api/memories/preferences/route";
import { getDb } from "@/db/client";
import { summaries } from "@/db/schema";
import { call, signUp, type TestUser } from "../api-client";
import { settleBackgroundWork } from "../background-work";
import { isolateDatabase, newModelBody } from "./admin-helpers";
import { tableRowCounts } from "./row-counts";

isolateDatabase("json_fuzz");

const ORIGIN = "http://localhost:3000";
const RUNS = Number(process.env.FUZZ_RUNS ?? 250);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const NOT_FOUND_ID = "0190aaaa-0000-7000-8000-000000000000";

type Handler = (request: Request, context: { params: Promise<never> }) => Promise<Response>;
type Method = "POST" | "PUT" | "PATCH";

interface Ids {
  conversationId: string;
  personaId: string;
  modelId: string;
  adminMemoryId: string;
  ownMemoryId: string;
  summaryId: string;
  datasetId: string;
  owner: TestUser;
}

/** One JSON endpoint: where it is, who calls it, and (for the routes that store) a valid body to bend. */
interface Endpoint {
  handler: Handler;
  path: string;
  params?: Record<string, string>;
  as: "owner" | "admin" | "nobody";
  seed?: Record<string, unknown>;
}

/** Every route file's POST/PUT/PATCH, keyed `<file under app/api> <method>`, with its place and caller. */
function endpoints(ids: Ids): Record<string, Endpoint> {
  const c = ids.conversationId;
  const room = { id: c };
  const route = (module: Partial<Record<Method, unknown>>, method: Method) => module[method] as Handler;
  /** A route under the room's own path, called by its owner. */
  const ofRoom = (handler: Handler, under: string, seed?: Record<string, unknown>): Endpoint => ({
    handler,
    path: `/api/conversations/${c}${under}`,
    params: room,
    as: "owner",
    seed,
  });
  return {
    "admin/blocks POST": {
      handler: route(blocksRoute, "POST"),
      path: "/api/admin/blocks",
      as: "admin",
      seed: {
        personaId: ids.personaId,
        userId: ids.owner.id,
        blockType: "mute",
        reason: "spam",
        durationMinutes: 60,
      },
    },
    "admin/memories POST": {
      handler: route(memoriesRoute, "POST"),
      path: "/api/admin/memories",
      as: "admin",
      seed: { scope: "user", userId: ids.owner.id, area: "fact", content: "Keeps bees." },
    },
    "admin/memories PUT": {
      handler: route(memoriesRoute, "PUT"),
      path: "/api/admin/memories",
      as: "admin",
      seed: { id: ids.adminMemoryId, area: "fact", content: "Keeps two hives.", active: true },
    },
    "admin/models POST": {
      handler: route(modelsRoute, "POST"),
      path: "/api/admin/models",
      as: "admin",
      seed: newModelBody(`fuzz:${Date.now().toString(36)}`),
    },
    "admin/models/[id] PUT": {
      handler: route(modelRoute, "PUT"),
      path: `/api/admin/models/${ids.modelId}`,
      params: { id: ids.modelId },
      as: "admin",
      seed: { label: "Fuzzed", contextWindow: 16_384 },
    },
    "admin/personas POST": {
      handler: route(personasRoute, "POST"),
      path: "/api/admin/personas",
      as: "admin",
      seed: { name: "Fuzzy", modelId: "offline:echo", systemPrompt: "Be brief." },
    },
    "admin/personas/[id] PUT": {
      handler: route(personaRoute, "PUT"),
      path: `/api/admin/personas/${ids.personaId}`,
      params: { id: ids.personaId },
      as: "admin",
      seed: { name: "Sage", avatar: "🦉" },
    },
    "admin/personas/[id]/preview POST": {
      handler: route(personaPreviewRoute, "POST"),
      path: `/api/admin/personas/${ids.personaId}/preview`,
      params: { id: ids.personaId },
      as: "admin",
      seed: { conversationId: ids.conversationId, text: "Hello", draft: { name: "Draft" } },
    },
    "admin/settings PUT": { handler: route(settingsRoute, "PUT"), path: "/api/admin/settings", as: "admin" },
    "admin/users/[id] PUT": {
      handler: route(userRoute, "PUT"),
      path: `/api/admin/users/${ids.owner.id}`,
      params: { id: ids.owner.id },
      as: "admin",
      seed: { role: "user" },
    },
    "attempts/[id]/replay POST": {
      handler: route(replayRoute, "POST"),
      path: `/api/attempts/${NOT_FOUND_ID}/replay`,
      params: { id: NOT_FOUND_ID },
      as: "owner",
      seed: { modelId: "offline:echo", systemPrompt: "Be brief." },
    },
    "auth/[...all] POST": {
      handler: route(authRoute, "POST"),
      path: "/api/auth/update-user",
      as: "owner",
      seed: { name: "Owner" },
    },
    "chat POST": {
      handler: route(chatRoute, "POST"),
      path: "/api/chat",
      as: "owner",
      seed: {
        id: c,
        trigger: "submit-message",
        message: { id: "m1", role: "user", parts: [{ type: "text", text: "Hi" }] },
      },
    },
    "chat/[id]/compare POST": {
      handler: route(compareRoute, "POST"),
      path: `/api/chat/${c}/compare`,
      params: room,
      as: "owner",
      seed: { messageId: NOT_FOUND_ID, modelIds: ["offline:echo"] },
    },
    "conversations/[id]/branch POST": ofRoom(route(branchRoute, "POST"), "/branch", {
      messageId: NOT_FOUND_ID,
    }),
    "conversations/[id]/compact POST": ofRoom(route(compactRoute, "POST"), "/compact", {
      keepRecentTurns: 2,
    }),
    "conversations/[id]/messages/[messageId] PATCH": {
      handler: route(messageRoute, "PATCH"),
      path: `/api/conversations/${c}/messages/${NOT_FOUND_ID}`,
      params: { id: c, messageId: NOT_FOUND_ID },
      as: "owner",
      seed: { text: "Edited." },
    },
    "conversations/[id]/participants POST": ofRoom(route(participantsRoute, "POST"), "/participants", {
      email: "nobody@example.test",
    }),
    "conversations/[id]/participants/[userId] PATCH": {
      handler: route(participantRoute, "PATCH"),
      path: `/api/conversations/${c}/participants/${ids.owner.id}`,
      params: { id: c, userId: ids.owner.id },
      as: "owner",
      seed: { status: "accepted" },
    },
    "conversations/[id]/preview POST": ofRoom(route(previewRoute, "POST"), "/preview", {
      text: "What is next?",
    }),
    "conversations/[id] PATCH": ofRoom(route(conversationRoute, "PATCH"), "", {
      title: "Plans",
      instructions: "Be brief.",
    }),
    "conversations/[id]/stop POST": ofRoom(route(stopRoute, "POST"), "/stop", { shownChars: 10 }),
    "conversations/[id]/summaries/[summaryId]/revert POST": {
      handler: route(revertRoute, "POST"),
      path: `/api/conversations/${c}/summaries/${ids.summaryId}/revert`,
      params: { id: c, summaryId: ids.summaryId },
      as: "owner",
    },
    "conversations/[id]/summaries/[summaryId] PUT": {
      handler: route(summaryRoute, "PUT"),
      path: `/api/conversations/${c}/summaries/${ids.summaryId}`,
      params: { id: c, summaryId: ids.summaryId },
      as: "owner",
      seed: { content: "Earlier, plans were made." },
    },
    "conversations/[id]/typing POST": ofRoom(route(typingRoute, "POST"), "/typing"),
    "conversations/[id]/write-as-me POST": ofRoom(route(writeAsMeRoute, "POST"), "/write-as-me"),
    "conversations/import POST": {
      handler: route(importRoute, "POST"),
      path: "/api/conversations/import",
      as: "owner",
    },
    "conversations POST": {
      handler: route(conversationsRoute, "POST"),
      path: "/api/conversations",
      as: "owner",
      seed: { title: "New plans" },
    },
    "datasets POST": {
      handler: route(datasetsRoute, "POST"),
      path: "/api/datasets",
      as: "owner",
      seed: { name: "Tulip chats", conversationIds: [c] },
    },
    "datasets/[id]/experiments POST": {
      handler: route(experimentsRoute, "POST"),
      path: `/api/datasets/${ids.datasetId}/experiments`,
      params: { id: ids.datasetId },
      as: "owner",
      seed: { candidate: { settings: { contextNote: { text: "Fox.", depth: 0 } } }, live: false },
    },
    "keys POST": {
      handler: route(keysRoute, "POST"),
      path: "/api/keys",
      as: "owner",
      seed: { name: "My script", personaIds: [ids.personaId] },
    },
    "memories/[memoryId] PATCH": {
      handler: route(ownMemoryRoute, "PATCH"),
      path: `/api/memories/${ids.ownMemoryId}`,
      params: { memoryId: ids.ownMemoryId },
      as: "owner",
      seed: { content: "Keeps three hives." },
    },
    "memories/preferences PUT": {
      handler: route(memoryPreferencesRoute, "PUT"),
      path: "/api/memories/preferences",
      as: "owner",
      seed: { sessionSummaries: true },
    },
  };
}

/** Routes that take no JSON body, each with where it is fuzzed instead. */
const NOT_JSON: Record<string, string> = {
  "conversations/[id]/attachments POST":
    "a multipart upload: tests/api/bad-input-corpus.test.ts sends it bad forms",
  "admin/settings/versions/[version]/restore POST":
    "no body (the path names the version): tests/api/admin-settings.test.ts sends it bad versions",
  "admin/personas/[id]/versions/[version]/restore POST":
    "no body (the path names the version): tests/api/admin-persona-versions.test.ts sends it bad versions",
};

/** `<file under app/api> <method>` for every route.ts that exports POST, PUT or PATCH. */
function routeMethods(): string[] {
  const root = path.join(process.cwd(), "app", "api");
  const found: string[] = [];
  for (const file of readdirSync(root, { recursive: true, encoding: "utf8" })) {
    if (path.basename(file) !== "route.ts") continue;
    const source = readFileSync(path.join(root, file), "utf8");
    const where = path.dirname(file).split(path.sep).join("/");
    for (const [, method] of source.matchAll(/export (?:const|async function) (POST|PUT|PATCH)\b/g)) {
      found.push(`${where} ${method}`);
    }
  }
  return found.sort();
}

// ---- bodies ----

/** A number literal written as is: JSON.stringify cannot write 1e999 (Infinity when parsed) or 30 digits. */
class RawNumber {
  constructor(readonly text: string) {}
}

/** The JSON text of `value`; lone surrogates come out as \\udXXX escapes, which JSON.parse turns back into them. */
function serialize(value: unknown): string {
  if (value instanceof RawNumber) return value.text;
  if (Array.isArray(value)) return `[${value.map(serialize).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}:${serialize(item)}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The keys the routes' schemas know, so that random bodies get past "unknown key" to the values. */
const KEYS = [
  "title",
  "conversationIds",
  "candidate",
  "live",
  "personaId",
  "instructions",
  "settingsOverride",
  "modelId",
  "content",
  "sessionSummaries",
  "scope",
  "userId",
  "area",
  "active",
  // id, provider, providerModelName, … prices: the model registry's fields.
  ...Object.keys(createModelSchema.shape),
  "name",
  "avatar",
  "systemPrompt",
  "fallbackModelIds",
  "toolNames",
  "blockType",
  "reason",
  "durationMinutes",
  "settings",
  "baseVersion",
  "role",
  "email",
  "status",
  "text",
  "restoreVersionId",
  "chosen",
  "keepRecentTurns",
  "message",
  "trigger",
  "messageId",
  "parts",
  "type",
  "url",
  "mediaType",
  "image",
  "password",
  "format",
  "conversation",
  "messages",
  "version",
  "__proto__",
  "constructor",
];

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
const awkward = fc.constantFrom(
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u200b\u200b",
  "\ufeff",
  "\u202eevil",
  "\u3164",
  "💥",
  "👨‍👩‍👧",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "%00",
  "null",
  "NaN",
  "true",
  "user",
  "offline:echo",
  "openai",
  "accepted",
  "submit-message",
  "regenerate-message",
  NOT_FOUND_ID,
  "a@b.c",
  "x".repeat(5_000),
  "y".repeat(300),
);
const text = fc.oneof(
  awkward,
  fc.string({
    unit: fc.oneof(fc.string({ unit: "binary", minLength: 1, maxLength: 1 }), loneSurrogate, awkward),
  }),
  fc.string({ maxLength: 30 }),
);
const number = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1, -1, 60, 256, 2 ** 31, 2 ** 53 + 1, 1e21, 1e308, -1e308, 5e-324, 0.5),
  fc
    .constantFrom("1e999", "-1e999", "123456789012345678901234567890", "-0.0e-0", "1E400")
    .map((literal) => new RawNumber(literal)),
);
const key = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...KEYS) }, { weight: 1, arbitrary: text });
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 4 },
    text,
    number,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(key, tie("value"), { maxKeys: 5 }),
  ),
}));
/** A value inside hundreds of arrays or objects. */
const deep = fc
  .tuple(fc.integer({ min: 16, max: 1_500 }), fc.boolean(), value)
  .map(([depth, arrays, inner]) => {
    let nested: unknown = inner;
    for (let level = 0; level < depth; level++) nested = arrays ? [nested] : { a: nested };
    return nested;
  });
const fieldValue = fc.oneof({ weight: 6, arbitrary: value }, { weight: 1, arbitrary: deep });
const randomObject = fc.dictionary(key, fieldValue, { maxKeys: 6 });

/** The seed with one field wrong, gone, or joined by another: a body that gets as far as the route's own work. */
function bent(seed: Record<string, unknown>) {
  const keys = Object.keys(seed);
  return fc.oneof(
    fc.tuple(fc.constantFrom(...keys), fieldValue).map(([field, wrong]) => ({ ...seed, [field]: wrong })),
    fc.tuple(fc.constantFrom(...keys), text).map(([field, wrong]) => ({ ...seed, [field]: wrong })),
    fc
      .constantFrom(...keys)
      .map((field) => Object.fromEntries(Object.entries(seed).filter(([k]) => k !== field))),
    fc.tuple(key, fieldValue).map(([extra, item]) => ({ ...seed, [extra]: item })),
  );
}

function bodyFor(endpoint: Endpoint): fc.Arbitrary<unknown> {
  const shapes = [
    { weight: 5, arbitrary: randomObject as fc.Arbitrary<unknown> },
    { weight: 1, arbitrary: fieldValue },
  ];
  if (endpoint.seed) shapes.push({ weight: 6, arbitrary: bent(endpoint.seed) });
  return fc.oneof(...shapes);
}

// ---- the run ----

let ids: Ids;
let admin: TestUser;

beforeAll(async () => {
  admin = await signUp("Fuzz Admin"); // the first account of this file's database: an admin
  const owner = await signUp("Fuzz Owner");
  const json = async (response: Response) => {
    const text = await response.text();
    if (response.status >= 300) throw new Error(`set-up failed: ${response.status} ${text}`);
    return JSON.parse(text) as Record<string, { id: string }> & { id: string };
  };
  const conversation = await json(
    await call(conversationsRoute.POST, "/api/conversations", { user: owner, body: {} }),
  );
  const persona = await json(
    await call(personasRoute.POST, "/api/admin/personas", {
      user: admin,
      body: { name: "Sage", modelId: "offline:echo" },
    }),
  );
  const modelId = `fuzz:model-${Date.now().toString(36)}`;
  await json(await call(modelsRoute.POST, "/api/admin/models", { user: admin, body: newModelBody(modelId) }));
  const memory = (body: Record<string, unknown>) =>
    call(memoriesRoute.POST, "/api/admin/memories", {
      user: admin,
      body: { area: "fact", content: "Keeps bees.", ...body },
    }).then(json);
  const adminMemory = await memory({ scope: "persona", personaId: persona.persona.id });
  const ownMemory = await memory({ scope: "user", userId: owner.id });
  const db = await getDb();
  const [summary] = await db
    .insert(summaries)
    .values({
      conversationId: conversation.id,
      content: "Earlier.",
      coversThroughSeq: 0,
      messageCount: 0,
      trigger: "manual",
    })
    .returning();
  const dataset = await json(
    await call(datasetsRoute.POST, "/api/datasets", {
      user: owner,
      body: { name: "Fuzzed", conversationIds: [conversation.id] },
    }),
  );
  ids = {
    datasetId: dataset.dataset.id,
    conversationId: conversation.id,
    personaId: persona.persona.id,
    modelId,
    adminMemoryId: adminMemory.memory.id,
    ownMemoryId: ownMemory.memory.id,
    summaryId: summary.id,
    owner,
  };
});

async function send(label: string, endpoint: Endpoint, body: string): Promise<Response> {
  const user = endpoint.as === "admin" ? admin : endpoint.as === "owner" ? ids.owner : null;
  const method = label.split(" ").at(-1) as Method;
  return endpoint.handler(
    new Request(`${ORIGIN}${endpoint.path}`, {
      method,
      headers: {
        origin: ORIGIN,
        host: "localhost:3000",
        "content-type": "application/json",
        ...(user ? { cookie: user.cookie } : {}),
      },
      body,
    }),
    { params: Promise.resolve(endpoint.params ?? {}) as Promise<never> },
  );
}

/**
 * Runs the property; when it fails, the failing request's own line (route, body, status, answer) comes first in the
 * error, before fast-check's seed and counterexample: the first lines are what the test run's closing list shows.
 */
async function withFailureFirst(check: () => Promise<void>): Promise<void> {
  try {
    await check();
  } catch (error) {
    const cause = (error as Error).cause;
    if (!(cause instanceof Error)) throw error;
    throw new Error(`${cause.message.split("\n")[0]}\n${(error as Error).message}`, { cause });
  }
}

/** Whether the last request succeeded, so may still be writing. */
let unsettled = false;

/** The row counts once two reads 100 ms apart agree (5 s at most). */
async function settledRowCounts(): Promise<Record<string, number>> {
  let counts = await tableRowCounts();
  for (let tries = 0; tries < 50; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = await tableRowCounts();
    if (JSON.stringify(again) === JSON.stringify(counts)) return again;
    counts = again;
  }
  return counts;
}

describe("JSON routes under random bodies", () => {
  test("every POST/PUT/PATCH route is fuzzed here or named with where its body is tested", () => {
    const covered = [...Object.keys(endpoints(ids)), ...Object.keys(NOT_JSON)].sort();
    expect(covered).toEqual(routeMethods());
  });

  test(`${RUNS} random bodies: a 2xx or a 4xx, never a 5xx; a 4xx stores nothing`, async () => {
    const table = endpoints(ids);
    const labels = Object.keys(table);
    const request = fc
      .constantFrom(...labels)
      .chain((label) => fc.tuple(fc.constant(label), bodyFor(table[label])));
    await withFailureFirst(() =>
      fc.assert(
        fc.asyncProperty(request, async ([label, body]) => {
          const endpoint = table[label];
          const text = serialize(body);
          // A 2xx may have started work that goes on after its answer (an experiment, a turn's title, live events):
          // wait for it by the same waits a shutdown uses; then the counts must also hold still, for any work those
          // waits do not know of.
          if (unsettled) await settleBackgroundWork();
          const before = unsettled ? await settledRowCounts() : await tableRowCounts();
          const response = await send(label, endpoint, text);
          const answer = await response.text();
          unsettled = response.status < 300;
          const shown = `${label} with ${text.slice(0, 300)} → ${response.status} ${answer.slice(0, 300)}`;
          expect((response.status >= 200 && response.status < 300) || response.status >= 400, shown).toBe(
            true,
          );
          expect(response.status, shown).toBeLessThan(500);
          if (response.status >= 400) {
            const after = await tableRowCounts();
            const changed = Object.keys(after)
              .filter((name) => after[name] !== before[name])
              .map((name) => `${name} ${before[name]} → ${after[name]}`);
            expect(changed, `${shown}; rows changed`).toEqual([]);
          }
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      ),
    );
  }, 600_000);
});
