import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import * as settingsRoute from "@/app/api/admin/settings/route";
import { describeSettingFields, type SettingField } from "@/app/api/admin/settings/setting-fields";
import * as restoreRoute from "@/app/api/admin/settings/versions/[version]/restore/route";
import * as versionRoute from "@/app/api/admin/settings/versions/[version]/route";
import * as versionsRoute from "@/app/api/admin/settings/versions/route";
import * as chatRoute from "@/app/api/chat/route";
import { listSettingsVersions } from "@/db/admin-queries";
import { getDb } from "@/db/client";
import { attempts, turns } from "@/db/schema";
import { defaultSettings, type ResolvedSettings, SETTING_HELP } from "@/lib/domain/settings";
import { call, expectError, readUIStream, signUp, type TestUser } from "../api-client";
import { createConversation } from "../fixtures/personas";
import { isolateDatabase, signUpAdmin } from "./admin-helpers";
import { itemText, type PreviewItem, preview } from "./preview-helpers";

isolateDatabase("admin_settings");

let admin: TestUser;
// The scenario table is generated from the schema's own ranges; the GET must describe exactly these fields.
const fields: SettingField[] = describeSettingFields();

interface PolicyResponse {
  version: number;
  settings: ResolvedSettings;
  help: Record<string, string>;
  defaults: ResolvedSettings;
  fields: SettingField[];
}

async function getPolicy(): Promise<PolicyResponse> {
  const response = await call(settingsRoute.GET, "/api/admin/settings", { user: admin });
  expect(response.status).toBe(200);
  return (await response.json()) as PolicyResponse;
}

function putPolicy(settings: unknown, extra: Record<string, unknown> = {}) {
  return call(settingsRoute.PUT, "/api/admin/settings", {
    user: admin,
    method: "PUT",
    body: { settings, ...extra },
  });
}

/** The keys each key's edge values need beside them so that no two settings contradict each other. */
const AGREEING_COMPANIONS: Record<string, Record<string, unknown>> = {
  "history.messageFetchLimit": { "summary.mode": "manual" },
  "history.maxItems": { "summary.keepRecentTurns": 1 },
  "tools.pruneMinChars": { "tools.pruneHead": 0, "tools.pruneTail": 0 },
  "tools.pruneHead": { "tools.pruneMinChars": 1_000_000, "tools.pruneTail": 0 },
  "tools.pruneTail": { "tools.pruneMinChars": 1_000_000, "tools.pruneHead": 0 },
};

/** The default document with `key` set to `value`, and its agreeing companions. */
function withKey(key: string, value: unknown): Record<string, unknown> {
  const document = structuredClone(defaultSettings()) as unknown as Record<
    string,
    Record<string, unknown> | unknown
  >;
  const set = (path: string, to: unknown) => {
    const [section, name] = path.split(".");
    if (name === undefined) document[section] = to;
    else (document[section] as Record<string, unknown>)[name] = to;
  };
  for (const [companion, to] of Object.entries(AGREEING_COMPANIONS[key] ?? {})) set(companion, to);
  set(key, value);
  return document as Record<string, unknown>;
}

function valueAt(settings: ResolvedSettings, key: string): unknown {
  const [section, name] = key.split(".");
  const sectionValue = (settings as unknown as Record<string, unknown>)[section];
  return name === undefined ? sectionValue : (sectionValue as Record<string, unknown>)[name];
}

beforeAll(async () => {
  admin = await signUpAdmin("Policy Admin");
});

describe("GET /api/admin/settings", () => {
  test("returns the version in force, the document, the help, the defaults and one field per §4 key", async () => {
    const policy = await getPolicy();
    expect(policy.version).toBe(1);
    expect(policy.settings).toEqual(defaultSettings());
    expect(policy.defaults).toEqual(defaultSettings());
    expect(policy.help).toEqual(SETTING_HELP);
    // Every key of the context policy (the tool-prune trio and thinking pair counted one by one) has a field with help.
    expect(policy.fields).toEqual(fields);
    expect(policy.fields.map((field) => field.key).sort()).toEqual(Object.keys(SETTING_HELP).sort());
    expect(policy.fields).toHaveLength(29);
    for (const field of policy.fields) expect(field.help, field.key).not.toBe("");
    expect(policy.fields.find((field) => field.key === "history.messageFetchLimit")).toMatchObject({
      kind: "integer",
      min: 1,
      max: 10_000,
      default: 80,
      nullable: false,
      section: "history",
    });
    expect(policy.fields.find((field) => field.key === "contextNote.role")).toMatchObject({
      kind: "enum",
      values: ["user", "system", "assistant"],
      default: "user",
    });
    expect(policy.fields.find((field) => field.key === "stop.strings")).toMatchObject({
      kind: "strings",
      maxItems: 40,
      maxLength: 200,
    });
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The scenario table, generated from the schema's own ranges (the GET's field descriptions).

interface Scenario {
  name: string;
  key: string;
  value: unknown;
  ok: boolean;
  /** For refusals: what the message must say besides the key. */
  says?: string;
}

function scenariosFor(field: SettingField): Scenario[] {
  const { key } = field;
  switch (field.kind) {
    case "integer": {
      const min = field.min as number;
      const max = field.max as number;
      const range = `from ${min} to ${max}`;
      const list: Scenario[] = [
        { name: `${key} at its minimum ${min}`, key, value: min, ok: true },
        { name: `${key} at its maximum ${max}`, key, value: max, ok: true },
        { name: `${key} below its minimum (${min - 1})`, key, value: min - 1, ok: false, says: range },
        { name: `${key} above its maximum (${max + 1})`, key, value: max + 1, ok: false, says: range },
        { name: `${key} not a whole number`, key, value: min + 0.5, ok: false, says: range },
        { name: `${key} as text`, key, value: String(min), ok: false, says: range },
      ];
      list.push(
        field.nullable
          ? { name: `${key} null (unset)`, key, value: null, ok: true }
          : { name: `${key} null`, key, value: null, ok: false, says: range },
      );
      return list;
    }
    case "enum":
      return [
        ...(field.values as string[]).map((value) => ({ name: `${key} = ${value}`, key, value, ok: true })),
        {
          name: `${key} with a bad value`,
          key,
          value: "bogus",
          ok: false,
          says: `one of: ${(field.values as string[]).join(", ")}`,
        },
      ];
    case "text": {
      const max = field.maxLength as number;
      const list: Scenario[] = [
        { name: `${key} at ${max} characters`, key, value: "x".repeat(max), ok: true },
        {
          name: `${key} over ${max} characters`,
          key,
          value: "x".repeat(max + 1),
          ok: false,
          says: `at most ${max} characters`,
        },
        { name: `${key} not text`, key, value: 42, ok: false, says: "text" },
      ];
      if (field.nullable) list.push({ name: `${key} null (unset)`, key, value: null, ok: true });
      return list;
    }
    case "boolean":
      return [
        { name: `${key} true`, key, value: true, ok: true },
        { name: `${key} false`, key, value: false, ok: true },
        { name: `${key} as text`, key, value: "yes", ok: false, says: "true or false" },
      ];
    case "strings": {
      const maxItems = field.maxItems as number;
      const maxLength = field.maxLength as number;
      return [
        {
          name: `${key} with ${maxItems} entries`,
          key,
          value: Array.from({ length: maxItems }, (_, index) => `stop-${index}`),
          ok: true,
        },
        {
          name: `${key} with ${maxItems + 1} entries`,
          key,
          value: Array.from({ length: maxItems + 1 }, (_, index) => `stop-${index}`),
          ok: false,
          says: `at most ${maxItems} entries`,
        },
        {
          name: `${key} with an entry of ${maxLength} characters`,
          key,
          value: ["y".repeat(maxLength)],
          ok: true,
        },
        {
          name: `${key} with an entry over ${maxLength} characters`,
          key,
          value: ["y".repeat(maxLength + 1)],
          ok: false,
          says: `at most ${maxLength} characters`,
        },
        { name: `${key} with an empty entry`, key, value: [""], ok: false, says: "must not be empty" },
        { name: `${key} not a list`, key, value: "END", ok: false, says: "list" },
      ];
    }
  }
}

describe("PUT /api/admin/settings validates every §4 key at its edges and beyond", () => {
  const scenarios = fields.flatMap(scenariosFor);

  test("the table covers every key (integers min/max/min−1/max+1, enums, text length, lists, booleans)", () => {
    const keysCovered = new Set(scenarios.map((scenario) => scenario.key));
    expect([...keysCovered].sort()).toEqual(Object.keys(SETTING_HELP).sort());
    expect(scenarios.filter((scenario) => scenario.ok).length).toBeGreaterThan(40);
    expect(scenarios.filter((scenario) => !scenario.ok).length).toBeGreaterThan(60);
  });

  test.each(scenarios.filter((scenario) => scenario.ok))(
    "$name → stored as a new version",
    async ({ key, value }) => {
      const before = (await getPolicy()).version;
      const response = await putPolicy(withKey(key, value));
      expect(response.status, await response.clone().text()).toBe(200);
      expect(((await response.json()) as { version: number }).version).toBe(before + 1);
      const after = await getPolicy();
      expect(after.version).toBe(before + 1);
      expect(valueAt(after.settings, key)).toEqual(value);
    },
  );

  test.each(scenarios.filter((scenario) => !scenario.ok))(
    "$name → 400 naming the key and range, nothing stored",
    async ({ key, value, says }) => {
      const before = (await getPolicy()).version;
      const message = await expectError(await putPolicy(withKey(key, value)), 400, "bad_request");
      expect(message).toContain(key);
      expect(message).toContain(says);
      expect((await getPolicy()).version).toBe(before);
    },
  );

  const documentCases: Array<{ name: string; body: unknown; status: number; code: string; message: RegExp }> =
    [
      {
        name: "malformed JSON",
        body: '{"settings": ',
        status: 400,
        code: "invalid_json",
        message: /not valid JSON/,
      },
      {
        name: "no settings",
        body: {},
        status: 400,
        code: "bad_request",
        message: /settings must be an object/,
      },
      {
        name: "a section missing",
        body: { settings: { ...defaultSettings(), media: undefined } },
        status: 400,
        code: "bad_request",
        message: /media must be an object/,
      },
      {
        name: "an unknown key in a section",
        body: { settings: withKey("history.fetchLimit", 5) },
        status: 400,
        code: "bad_request",
        message: /history: Unrecognized key: "fetchLimit"/,
      },
      {
        name: "an unknown section",
        body: { settings: { ...defaultSettings(), extra: {} } },
        status: 400,
        code: "bad_request",
        message: /Unrecognized key: "extra"/,
      },
      {
        name: "an unknown top-level field",
        body: { settings: defaultSettings(), note: "x" },
        status: 400,
        code: "bad_request",
        message: /Unrecognized key: "note"/,
      },
      {
        name: "a bad baseVersion",
        body: { settings: defaultSettings(), baseVersion: "one" },
        status: 400,
        code: "bad_request",
        message: /baseVersion/,
      },
      {
        name: "an oversized body",
        body: { settings: withKey("keyContextReminder", "z".repeat(300_000)) },
        status: 413,
        code: "payload_too_large",
        message: /larger than 256 KB/,
      },
    ];

  test.each(documentCases)(
    "a document with $name is refused and stores nothing",
    async ({ body, status, code, message }) => {
      const before = (await getPolicy()).version;
      const response = await call(settingsRoute.PUT, "/api/admin/settings", {
        user: admin,
        method: "PUT",
        body,
      });
      expect(await expectError(response, status, code)).toMatch(message);
      expect((await getPolicy()).version).toBe(before);
    },
  );

  test.each([
    {
      name: "a fetch limit that cannot hold the turns kept verbatim",
      settings: { history: { messageFetchLimit: 20 }, summary: { keepRecentTurns: 15 } },
      field: "history.messageFetchLimit",
      other: "summary.keepRecentTurns",
    },
    {
      name: "a turn threshold the kept turns reach at once",
      settings: { summary: { mode: "turn", turnThreshold: 8, keepRecentTurns: 10 } },
      field: "summary.turnThreshold",
      other: "summary.keepRecentTurns",
    },
    {
      name: "a thinking budget as large as the reply's",
      settings: { thinking: { enabled: true, budgetTokens: 2_000 }, budget: { reservedOutputTokens: 1_000 } },
      field: "thinking.budgetTokens",
      other: "budget.reservedOutputTokens",
    },
  ])("$name → 400 with a sentence naming both keys, nothing stored", async ({ settings, field, other }) => {
    const before = (await getPolicy()).version;
    const document = structuredClone(defaultSettings()) as unknown as Record<string, Record<string, unknown>>;
    for (const [section, values] of Object.entries(settings)) Object.assign(document[section], values);
    const message = await expectError(await putPolicy(document), 400, "bad_request");
    expect(message.startsWith(`settings.${field}: `)).toBe(true);
    expect(message).toContain(other);
    expect((await getPolicy()).version).toBe(before);
  });

  test("keys left out of a section take their default", async () => {
    const response = await putPolicy({ ...defaultSettings(), history: { messageFetchLimit: 50 } });
    expect(response.status).toBe(200);
    expect((await getPolicy()).settings.history).toEqual({
      messageFetchLimit: 50,
      maxItems: null,
      speakerLabels: "auto",
    });
  });
});

describe("versions are only ever added", () => {
  test("each PUT adds version + 1 with who changed it; history lists every version, newest first, unchanged", async () => {
    const before = await getPolicy();
    const first = await putPolicy(withKey("media.window", 7));
    const second = await putPolicy(withKey("media.window", 9));
    expect(((await first.json()) as { version: number }).version).toBe(before.version + 1);
    expect(((await second.json()) as { version: number }).version).toBe(before.version + 2);

    const response = await call(versionsRoute.GET, "/api/admin/settings/versions", { user: admin });
    const { versions } = (await response.json()) as {
      versions: Array<{
        version: number;
        settings: ResolvedSettings;
        changedBy: string | null;
        changedByName: string | null;
      }>;
    };
    expect(versions.map((row) => row.version)).toEqual(
      Array.from({ length: before.version + 2 }, (_, index) => before.version + 2 - index),
    );
    expect(versions[0]).toMatchObject({ changedBy: admin.id, changedByName: "Policy Admin" });
    expect(versions[0].settings.media.window).toBe(9);
    expect(versions[1].settings.media.window).toBe(7);
    expect(versions.at(-1)).toMatchObject({ version: 1, changedBy: null, settings: defaultSettings() });
  });

  test("a PUT based on an old version is refused with 409 and stores nothing", async () => {
    const { version } = await getPolicy();
    const stale = await putPolicy(defaultSettings(), { baseVersion: version - 1 });
    expect(await expectError(stale, 409, "conflict")).toMatch(
      new RegExp(`changed since version ${version - 1}`),
    );
    expect((await getPolicy()).version).toBe(version);
    const fresh = await putPolicy(defaultSettings(), { baseVersion: version });
    expect(fresh.status).toBe(200);
    expect((await listSettingsVersions({ db: await getDb() }))[0].version).toBe(version + 1);
  });
});

describe("versions can be opened and restored", () => {
  const open = (version: string) =>
    call(versionRoute.GET, `/api/admin/settings/versions/${version}`, { user: admin, params: { version } });
  const restore = (version: string) =>
    call(restoreRoute.POST, `/api/admin/settings/versions/${version}/restore`, {
      user: admin,
      method: "POST",
      params: { version },
    });

  test("open one version; restore it as a new version, and the next preview runs with it", async () => {
    const reminder = "Restored: speak of tides.";
    const { version: kept } = (await (await putPolicy(withKey("keyContextReminder", reminder))).json()) as {
      version: number;
    };
    await putPolicy(withKey("keyContextReminder", "Later: speak of stars."));

    const opened = await open(String(kept));
    expect(opened.status).toBe(200);
    const { version } = (await opened.json()) as {
      version: { version: number; settings: ResolvedSettings; changedByName: string | null };
    };
    expect(version).toMatchObject({ version: kept, changedByName: "Policy Admin" });
    expect(version.settings.keyContextReminder).toBe(reminder);

    const before = (await getPolicy()).version;
    const restored = await restore(String(kept));
    expect(restored.status, await restored.clone().text()).toBe(201);
    expect(await restored.json()).toMatchObject({ version: before + 1, restoredFrom: kept });
    const now = await getPolicy();
    expect(now.version).toBe(before + 1);
    expect(now.settings).toEqual(version.settings);
    const restorer = await signUp("Restorer");
    const draft = await preview(restorer, await createConversation(restorer), "hello");
    expect(draft.settings.keyContextReminder).toBe(reminder);
    // The next tests start from the defaults.
    expect((await putPolicy(defaultSettings())).status).toBe(200);
  });

  test.each(["0", "999999", "abc", "1.5"])("version %s is not found; nothing restored", async (version) => {
    const before = (await getPolicy()).version;
    expect(await expectError(await open(version), 404, "not_found")).toMatch(/^Version .*not found$/);
    await expectError(await restore(version), 404, "not_found");
    expect((await getPolicy()).version).toBe(before);
  });
});

describe("the policy reaches the next turn", () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await signUp("Chatter");
  });

  test("after a PUT, the next turn and its attempt record the new version and use the new settings", async () => {
    const conversationId = await createConversation(user);
    await readUIStream(
      await call(chatRoute.POST, "/api/chat", { user, body: chatBody(conversationId, "before") }),
    );
    const reminder = "Always answer in the voice of a lighthouse keeper.";
    const put = await putPolicy(withKey("keyContextReminder", reminder));
    const { version } = (await put.json()) as { version: number };
    await readUIStream(
      await call(chatRoute.POST, "/api/chat", { user, body: chatBody(conversationId, "after") }),
    );

    const db = await getDb();
    const turnRows = await db
      .select()
      .from(turns)
      .where(eq(turns.conversationId, conversationId))
      .orderBy(turns.createdAt);
    expect(turnRows).toHaveLength(2);
    expect(turnRows[1].settingsVersion).toBe(version);
    expect(turnRows[0].settingsVersion).toBe(version - 1);
    const [attempt] = await db.select().from(attempts).where(eq(attempts.turnId, turnRows[1].id));
    expect(attempt.settingsVersion).toBe(version);
    expect(attempt.settings.keyContextReminder).toBe(reminder);
    const items = attempt.items as PreviewItem[];
    expect(items.filter((item) => item.tag === "KEY_CONTEXT_REMINDER").map(itemText)).toEqual([
      `# KEY CONTEXT REMINDER\n${reminder}`,
    ]);
    const [firstAttempt] = await db.select().from(attempts).where(eq(attempts.turnId, turnRows[0].id));
    expect((firstAttempt.items as PreviewItem[]).some((item) => item.tag === "KEY_CONTEXT_REMINDER")).toBe(
      false,
    );
  });

  test("a preview override changes only the keys it names (the saved reminder stays)", async () => {
    const reminder = "Mind the tide tables.";
    await putPolicy(withKey("keyContextReminder", reminder));
    const conversationId = await createConversation(user);
    const draft = await preview(user, conversationId, "hello", { contextNote: { depth: 0 } });
    expect(draft.settings.keyContextReminder).toBe(reminder);
    // The next tests start from the defaults.
    expect((await putPolicy(defaultSettings())).status).toBe(200);
    expect(draft.settings.contextNote).toEqual({ ...defaultSettings().contextNote, depth: 0 });
    expect(draft.items.some((item) => item.tag === "KEY_CONTEXT_REMINDER")).toBe(true);
  });
});

function chatBody(conversationId: string, text: string) {
  return {
    id: conversationId,
    message: { id: crypto.randomUUID(), role: "user", parts: [{ type: "text", text }] },
    trigger: "submit-message",
  };
}
