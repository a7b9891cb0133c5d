// A corpus of bad requests across the routes: malformed and hostile JSON, addresses and queries, multipart
// uploads and chunked bodies. Each must be refused with a 4xx in the app's error format ({ error: { code,
// message } }), and the database must be exactly as it was (every table's row count), so nothing is half-stored.
// This file works in a database of its own, so other files' writes do not move the counts.
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import * as blocksRoute from "@/app/api/admin/blocks/route";
import * as memoriesRoute from "@/app/api/admin/memories/route";
import * as modelRoute from "@/app/api/admin/models/[id]/route";
import * as modelsRoute from "@/app/api/admin/models/route";
import * as personaPreviewRoute from "@/app/api/admin/personas/[id]/preview/route";
import * as personaRoute from "@/app/api/admin/personas/[id]/route";
import * as personasRoute from "@/app/api/admin/personas/route";
import * as settingsRoute from "@/app/api/admin/settings/route";
import * as userRoute from "@/app/api/admin/users/[id]/route";
import * as attachmentRoute from "@/app/api/attachments/[id]/route";
import * as attemptRoute from "@/app/api/attempts/[id]/route";
import * as authRoute from "@/app/api/auth/[...all]/route";
import * as chatRoute from "@/app/api/chat/route";
import * as uploadRoute from "@/app/api/conversations/[id]/attachments/route";
import * as compactRoute from "@/app/api/conversations/[id]/compact/route";
import * as messagesRoute from "@/app/api/conversations/[id]/messages/route";
import * as participantRoute from "@/app/api/conversations/[id]/participants/[userId]/route";
import * as participantsRoute from "@/app/api/conversations/[id]/participants/route";
import * as previewRoute from "@/app/api/conversations/[id]/preview/route";
import * as conversationRoute from "@/app/api/conversations/[id]/route";
import * as summaryRoute from "@/app/api/conversations/[id]/summaries/[summaryId]/route";
import * as writeAsMeRoute from "@/app/api/conversations/[id]/write-as-me/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import { getDb } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { summaries } from "@/db/schema";
import { TEST_IMAGES } from "@/tests/fixtures/images";
import { signUp, type TestUser } from "../api-client";
import { isolateDatabase } from "./admin-helpers";
import { tableRowCounts } from "./row-counts";

isolateDatabase("bad_input");

const ORIGIN = "http://localhost:3000";
type Handler = (request: Request, context: { params: Promise<never> }) => Promise<Response>;

interface Case {
  name: string;
  handler: Handler;
  method: string;
  path: string;
  params?: Record<string, string>;
  as?: "owner" | "admin" | "none";
  headers?: Record<string, string>;
  body?: BodyInit | (() => BodyInit);
  /** The status when it must be exact; otherwise any 4xx. */
  status?: number;
}

let owner: TestUser;
let admin: TestUser;
let conversationId: string;
let personaId: string;
let summaryId: string;

beforeAll(async () => {
  admin = await signUp("Admin"); // the first account of this file's database: admin
  owner = await signUp("Owner");
  const created = await send({
    name: "setup",
    handler: conversationsRoute.POST as Handler,
    method: "POST",
    path: "/api/conversations",
    body: "{}",
    headers: { "content-type": "application/json" },
  });
  conversationId = ((await created.json()) as { id: string }).id;
  const db = await getDb();
  const [persona] = await queryRows<{ id: string }>(db, sql`select id from personas limit 1`);
  personaId = persona.id;
  const [summary] = await db
    .insert(summaries)
    .values({ conversationId, content: "Earlier.", coversThroughSeq: 0, messageCount: 0, trigger: "manual" })
    .returning();
  summaryId = summary.id;
});

async function send(item: Case): Promise<Response> {
  const user = item.as === "none" ? null : item.as === "admin" ? admin : owner;
  const body = typeof item.body === "function" ? item.body() : item.body;
  const init: RequestInit & { duplex?: "half" } = {
    method: item.method,
    headers: {
      origin: ORIGIN,
      host: "localhost:3000",
      ...(user ? { cookie: user.cookie } : {}),
      ...item.headers,
    },
    body,
  };
  if (body instanceof ReadableStream) init.duplex = "half";
  return item.handler(new Request(`${ORIGIN}${item.path}`, init), {
    params: Promise.resolve(item.params ?? {}) as Promise<never>,
  });
}

const JSON_TYPE = { "content-type": "application/json" };
const utf8 = (text: string) => new TextEncoder().encode(text);

/** A body that streams in chunks with no content-length, `total` bytes of a JSON string. */
function chunkedJson(total: number): () => ReadableStream<Uint8Array> {
  return () => {
    let sent = 0;
    const chunk = utf8("x".repeat(64 * 1024));
    return new ReadableStream({
      pull(controller) {
        if (sent === 0) controller.enqueue(utf8('{"title":"'));
        if (sent >= total) {
          controller.enqueue(utf8('"}'));
          controller.close();
          return;
        }
        controller.enqueue(chunk);
        sent += chunk.byteLength;
      },
    });
  };
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Target = Pick<Case, "handler" | "method" | "path" | "params">;

/** Where a case goes: `method` of `route`, at `path` (as sent, so it may be malformed) with `params`. */
function target(
  route: Partial<Record<Method, unknown>>,
  method: Method,
  path: string,
  params?: Record<string, string>,
): Target {
  return { handler: route[method] as Handler, method, path, ...(params ? { params } : {}) };
}

const ADMIN = { as: "admin" } as const;

// The JSON endpoints, each with a path; every generic bad body below is sent to each.
function jsonEndpoints(): Array<Omit<Case, "name" | "body" | "headers" | "status"> & { label: string }> {
  const c = conversationId;
  const room = { id: c };
  return [
    { label: "POST /api/conversations", ...target(conversationsRoute, "POST", "/api/conversations") },
    {
      label: "PATCH /api/conversations/:id",
      ...target(conversationRoute, "PATCH", `/api/conversations/${c}`, room),
    },
    { label: "POST /api/chat", ...target(chatRoute, "POST", "/api/chat") },
    {
      label: "POST participants",
      ...target(participantsRoute, "POST", `/api/conversations/${c}/participants`, room),
    },
    { label: "POST preview", ...target(previewRoute, "POST", `/api/conversations/${c}/preview`, room) },
    { label: "POST compact", ...target(compactRoute, "POST", `/api/conversations/${c}/compact`, room) },
    {
      label: "PUT summary",
      ...target(summaryRoute, "PUT", `/api/conversations/${c}/summaries/${summaryId}`, { id: c, summaryId }),
    },
    { label: "POST admin/blocks", ...target(blocksRoute, "POST", "/api/admin/blocks"), ...ADMIN },
    { label: "POST admin/memories", ...target(memoriesRoute, "POST", "/api/admin/memories"), ...ADMIN },
    { label: "PUT admin/memories", ...target(memoriesRoute, "PUT", "/api/admin/memories"), ...ADMIN },
    { label: "POST admin/models", ...target(modelsRoute, "POST", "/api/admin/models"), ...ADMIN },
    {
      label: "PUT admin/models/:id",
      ...target(modelRoute, "PUT", "/api/admin/models/offline:echo", { id: "offline:echo" }),
      ...ADMIN,
    },
    { label: "POST admin/personas", ...target(personasRoute, "POST", "/api/admin/personas"), ...ADMIN },
    {
      label: "PUT admin/personas/:id",
      ...target(personaRoute, "PUT", `/api/admin/personas/${personaId}`, { id: personaId }),
      ...ADMIN,
    },
    {
      label: "POST admin/personas/:id/preview",
      ...target(personaPreviewRoute, "POST", `/api/admin/personas/${personaId}/preview`, { id: personaId }),
      ...ADMIN,
    },
    { label: "PUT admin/settings", ...target(settingsRoute, "PUT", "/api/admin/settings"), ...ADMIN },
    {
      label: "PUT admin/users/:id",
      ...target(userRoute, "PUT", `/api/admin/users/${owner.id}`, { id: owner.id }),
      ...ADMIN,
    },
  ];
}

const GENERIC_BAD_BODIES: Array<Pick<Case, "name" | "body" | "headers" | "status">> = [
  { name: "malformed JSON", body: '{"title": ', headers: JSON_TYPE, status: 400 },
  {
    name: "bytes that are not UTF-8",
    body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    headers: JSON_TYPE,
    status: 400,
  },
  { name: "a JSON string, not an object", body: '"hello"', headers: JSON_TYPE, status: 400 },
  { name: "a JSON array", body: "[]", headers: JSON_TYPE, status: 400 },
  { name: "JSON null", body: "null", headers: JSON_TYPE, status: 400 },
  {
    name: "NUL inside a string",
    body: '{"title":"a\\u0000b","text":"a\\u0000b","content":"\\u0000","email":"a\\u0000@b.c","name":"\\u0000"}',
    headers: JSON_TYPE,
    status: 400,
  },
  {
    name: "valid JSON sent as text/plain (what a form can send)",
    body: "{}",
    headers: { "content-type": "text/plain" },
    status: 415,
  },
  {
    name: "form-urlencoded",
    body: "title=x",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    status: 415,
  },
  {
    name: "from another origin",
    body: "{}",
    headers: { ...JSON_TYPE, origin: "http://localhost:4444" },
    status: 403,
  },
  { name: "a chunked body over the cap", body: chunkedJson(600 * 1024), headers: JSON_TYPE, status: 413 },
  {
    name: "deeply nested arrays",
    body: `${"[".repeat(5_000)}${"]".repeat(5_000)}`,
    headers: JSON_TYPE,
    status: 400,
  },
];

function jsonCases(): Case[] {
  const cases: Case[] = [];
  for (const endpoint of jsonEndpoints()) {
    for (const bad of GENERIC_BAD_BODIES) {
      cases.push({ ...endpoint, ...bad, name: `${endpoint.label}: ${bad.name}` });
    }
  }
  // Endpoint-specific nonsense that is valid JSON.
  const c = conversationId;
  const json = (body: unknown) => ({ body: JSON.stringify(body), headers: JSON_TYPE });
  const newConversation = target(conversationsRoute, "POST", "/api/conversations");
  const chat = target(chatRoute, "POST", "/api/chat");
  const userMessage = (parts: unknown[]) => ({ id: "m", role: "user", parts });
  cases.push(
    {
      name: "POST /api/conversations: a 100 000-character title",
      ...newConversation,
      ...json({ title: "t".repeat(100_000) }),
    },
    {
      name: "POST /api/conversations: an unknown persona",
      ...newConversation,
      ...json({ personaId: "0190aaaa-0000-7000-8000-000000000000" }),
    },
    {
      name: "POST /api/conversations: a persona id that is not an id",
      ...newConversation,
      ...json({ personaId: "../../etc/passwd" }),
    },
    {
      name: "POST /api/chat: a conversation that does not exist",
      ...chat,
      ...json({
        id: "0190aaaa-0000-7000-8000-000000000000",
        message: userMessage([{ type: "text", text: "hi" }]),
        trigger: "submit-message",
      }),
    },
    {
      name: "POST /api/chat: an assistant message from the client",
      ...chat,
      ...json({
        id: c,
        message: { id: "m", role: "assistant", parts: [{ type: "text", text: "I am the model" }] },
        trigger: "submit-message",
      }),
    },
    {
      name: "POST /api/chat: a file part pointing elsewhere",
      ...chat,
      ...json({
        id: c,
        message: userMessage([
          { type: "file", mediaType: "image/png", url: "http://169.254.169.254/latest" },
        ]),
        trigger: "submit-message",
      }),
    },
    {
      name: "POST participants: not an email",
      ...target(participantsRoute, "POST", `/api/conversations/${c}/participants`, { id: c }),
      ...json({ email: "<script>" }),
    },
    {
      name: "PATCH conversation: a title of the wrong type",
      ...target(conversationRoute, "PATCH", `/api/conversations/${c}`, { id: c }),
      ...json({ title: 42 }),
    },
    {
      name: "PUT admin/settings: a budget that is negative",
      ...target(settingsRoute, "PUT", "/api/admin/settings"),
      ...ADMIN,
      ...json({ settings: { budget: { reserveOutputTokens: -1 } } }),
    },
    {
      name: "PUT admin/users/:id: the last admin demoted",
      ...target(userRoute, "PUT", `/api/admin/users/${admin.id}`, { id: admin.id }),
      ...ADMIN,
      ...json({ role: "user" }),
      status: 409,
    },
  );
  return cases;
}

function pathAndQueryCases(): Case[] {
  const c = conversationId;
  const bad = [
    "not-a-uuid",
    "%00",
    "abc%00def",
    "%E0%A4%A",
    "%zz",
    "..%2F..%2Fetc",
    "0190aaaa-0000-7000-8000-00000000000g",
    "x".repeat(5_000),
  ];
  const cases: Case[] = [];
  for (const id of bad) {
    const params = { id: safeDecode(id) };
    const shown = id.slice(0, 20);
    cases.push(
      {
        name: `GET conversation ${shown}`,
        ...target(conversationRoute, "GET", `/api/conversations/${id}`, params),
      },
      {
        name: `GET messages of ${shown}`,
        ...target(messagesRoute, "GET", `/api/conversations/${id}/messages`, params),
      },
      { name: `GET attempt ${shown}`, ...target(attemptRoute, "GET", `/api/attempts/${id}`, params) },
      {
        name: `GET attachment ${shown}`,
        ...target(attachmentRoute, "GET", `/api/attachments/${id}`, params),
      },
      {
        name: `DELETE admin model ${shown}`,
        ...target(modelRoute, "DELETE", `/api/admin/models/${id}`, params),
        ...ADMIN,
      },
    );
  }
  const searchFor = (query: string) => target(conversationsRoute, "GET", `/api/conversations?q=${query}`);
  const deleteTheRoom = target(conversationRoute, "DELETE", `/api/conversations/${c}`, { id: c });
  const writeAsMe = target(writeAsMeRoute, "POST", `/api/conversations/${c}/write-as-me`, { id: c });
  cases.push(
    {
      name: "GET messages of someone's participant path with NUL user",
      ...target(participantRoute, "DELETE", `/api/conversations/${c}/participants/a%00b`, {
        id: c,
        userId: "a\u0000b",
      }),
    },
    { name: "?q= with NUL", ...searchFor("a%00b") },
    { name: "?q= with malformed percent-encoding", ...searchFor("%E0%A4%A") },
    { name: "?q= of 10 000 characters", ...searchFor("q".repeat(10_000)) },
    {
      name: "admin memories ?scope= unknown",
      ...target(memoriesRoute, "GET", "/api/admin/memories?scope=everyone"),
      ...ADMIN,
    },
    {
      name: "admin memories DELETE ?id= garbage",
      ...target(memoriesRoute, "DELETE", "/api/admin/memories?id=%00"),
      ...ADMIN,
    },
    {
      name: "admin blocks DELETE ?id= not an id",
      ...target(blocksRoute, "DELETE", "/api/admin/blocks?id=nope"),
      ...ADMIN,
    },
    {
      name: "DELETE conversation from another origin",
      ...deleteTheRoom,
      headers: { origin: "https://evil.example" },
      status: 403,
    },
    {
      name: "DELETE conversation with no Origin and no fetch metadata",
      ...deleteTheRoom,
      headers: { origin: "" },
      status: 403,
    },
    {
      name: "DELETE conversation with a text/plain body",
      ...deleteTheRoom,
      body: "delete it",
      headers: { "content-type": "text/plain" },
      status: 415,
    },
    {
      name: "write-as-me with a text/plain body",
      ...writeAsMe,
      body: "{}",
      headers: { "content-type": "text/plain" },
      status: 415,
    },
    { name: "write-as-me from Origin: null", ...writeAsMe, headers: { origin: "null" }, status: 403 },
  );
  return cases;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function uploadCases(): Case[] {
  const c = conversationId;
  const form =
    (bytes: Uint8Array | string, filename = "image.png", field = "file") =>
    () => {
      const data = new FormData();
      data.append(field, new Blob([typeof bytes === "string" ? bytes : new Uint8Array(bytes)]), filename);
      return data;
    };
  const png = TEST_IMAGES.png;
  const upload = (
    name: string,
    body: Case["body"],
    status?: number,
    headers?: Record<string, string>,
  ): Case => ({
    name: `upload: ${name}`,
    handler: uploadRoute.POST as Handler,
    method: "POST",
    path: `/api/conversations/${c}/attachments`,
    params: { id: c },
    body,
    status,
    headers,
  });
  const twoFiles = () => {
    const data = new FormData();
    data.append("file", new Blob([new Uint8Array(png)]), "a.png");
    data.append("file", new Blob([new Uint8Array(png)]), "b.png");
    return data;
  };
  const bigChunked = () => {
    let sent = 0;
    const boundary = "----corpus";
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) {
          controller.enqueue(
            utf8(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\n\r\n`),
          );
        }
        if (sent > 21 * 1024 * 1024) {
          controller.enqueue(utf8(`\r\n--${boundary}--\r\n`));
          controller.close();
          return;
        }
        controller.enqueue(new Uint8Array(256 * 1024));
        sent += 256 * 1024;
      },
    });
  };
  return [
    upload("an 8-byte PNG signature", form(png.subarray(0, 8)), 415),
    upload("a bare RIFF…WEBP header", form(Buffer.from("RIFF\u0004\u0000\u0000\u0000WEBP", "latin1")), 415),
    upload(
      "a PNG followed by HTML",
      form(Buffer.concat([png, Buffer.from("<html><script>alert(1)</script>")])),
      415,
    ),
    upload("a truncated PNG", form(png.subarray(0, png.length - 5)), 415),
    upload("a truncated JPEG", form(TEST_IMAGES.jpegBaseline.subarray(0, 40)), 415),
    upload("a GIF header only", form(Buffer.from("GIF89a\u0003\u0000\u0002\u0000", "latin1")), 415),
    upload("an SVG", form(TEST_IMAGES.svg, "image.svg"), 415),
    upload("HTML named .png", form("<!doctype html><script>alert(1)</script>"), 415),
    upload("an empty file", form(new Uint8Array(0)), 400),
    upload("no file field", form(png, "a.png", "picture"), 400),
    upload("two files", twoFiles, 400),
    upload("a NUL in the file name", form(png, "a\u0000.png"), 400),
    upload("a broken multipart body", "--nope\r\nnot multipart", 400, {
      "content-type": "multipart/form-data; boundary=abc",
    }),
    upload("JSON instead of multipart", '{"file":"x"}', 415, JSON_TYPE),
    upload("a chunked body over the upload limit", bigChunked, 413, {
      "content-type": "multipart/form-data; boundary=----corpus",
    }),
    upload("from another origin", form(png), 403, { origin: "http://127.0.0.1:9999" }),
  ];
}

function authCases(): Case[] {
  const auth = (
    name: string,
    path: string,
    body: BodyInit,
    headers: Record<string, string>,
    status?: number,
  ): Case => ({
    name: `auth: ${name}`,
    handler: authRoute.POST as unknown as Handler,
    method: "POST",
    path: `/api/auth${path}`,
    as: "none",
    body,
    headers,
    status,
  });
  const account = (overrides: Record<string, unknown>) =>
    JSON.stringify({
      name: "Corpus",
      email: `corpus-${Math.random()}@example.test`,
      password: "violet kettle marathon",
      ...overrides,
    });
  return [
    auth("sign-up with a weak password", "/sign-up/email", account({ password: "12345678" }), JSON_TYPE, 400),
    auth(
      "sign-up with a common 10-character password",
      "/sign-up/email",
      account({ password: "password12" }),
      JSON_TYPE,
      400,
    ),
    auth("sign-up with an empty name", "/sign-up/email", account({ name: "" }), JSON_TYPE, 400),
    auth(
      "sign-up with a 100 000-character name",
      "/sign-up/email",
      account({ name: "n".repeat(100_000) }),
      JSON_TYPE,
    ),
    auth("sign-up as text/plain", "/sign-up/email", account({}), { "content-type": "text/plain" }, 415),
    auth(
      "sign-up from another port",
      "/sign-up/email",
      account({}),
      { ...JSON_TYPE, origin: "http://localhost:3001" },
      403,
    ),
    auth("sign-up from Origin: null", "/sign-up/email", account({}), { ...JSON_TYPE, origin: "null" }, 403),
    auth("sign-up with malformed JSON", "/sign-up/email", '{"name": ', JSON_TYPE),
  ];
}

describe("bad input is refused with a 4xx that says why, and nothing is stored", () => {
  test("the corpus has at least 120 cases", () => {
    expect(
      jsonCases().length + pathAndQueryCases().length + uploadCases().length + authCases().length,
    ).toBeGreaterThanOrEqual(120);
  });

  for (const [group, make] of [
    ["JSON bodies", jsonCases],
    ["paths and queries", pathAndQueryCases],
    ["uploads", uploadCases],
    ["better-auth", authCases],
  ] as const) {
    describe(group, () => {
      // Cases are built once the fixtures exist; vitest collects tests before beforeAll, so each group is one
      // test that reports every failing case by name.
      test(`every case in ${group}`, async () => {
        const failures: string[] = [];
        let cases = 0;
        for (const item of make()) {
          cases++;
          const before = await tableRowCounts();
          const response = await send(item);
          const text = await response.text();
          const after = await tableRowCounts();
          let parsed: { error?: { code?: string; message?: string } } | null = null;
          try {
            parsed = JSON.parse(text);
          } catch {
            // reported below
          }
          const problems: string[] = [];
          if (response.status < 400 || response.status >= 500) problems.push(`status ${response.status}`);
          if (item.status !== undefined && response.status !== item.status)
            problems.push(`status ${response.status}, expected ${item.status}`);
          if (!parsed?.error?.code || !parsed.error.message)
            problems.push(`not the error format: ${text.slice(0, 120)}`);
          const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
          if (changed.length > 0) problems.push(`stored something in ${changed.join(", ")}`);
          if (problems.length > 0) failures.push(`${item.name}: ${problems.join("; ")}`);
        }
        expect(failures, `${failures.length} of ${cases} cases failed`).toEqual([]);
      });
    });
  }
});
