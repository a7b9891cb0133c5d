// Generated titles: after the first complete exchange, the summary/utility model (or the persona's model) names
// the conversation; the offline model derives one from the first message. A title the user set, or one already
// generated, is never replaced; a failed or empty generation changes nothing and is retried by the next turn.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as attemptRoute from "@/app/api/attempts/[id]/route";
import * as turnsRoute from "@/app/api/conversations/[id]/turns/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import { getDb } from "@/db/client";
import { conversations, titleClaims } from "@/db/schema";
import { claimTitleGeneration, releaseTitleClaim, TITLE_CLAIM_LEASE_SECONDS } from "@/db/title-queries";
import { cleanTitle, settleTitleGenerations, TITLE_MAX_CHARS } from "@/lib/chat/generated/title";
import { call, type TestUser } from "../api-client";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { conversationWithPersona, createConversation } from "../fixtures/personas";
import { runTurn } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";
import { patchConversation } from "./room-helpers";
import { setOverride } from "./summary-helpers";

/** The test setup points every title at the offline model; these tests exercise the model choice itself. */
const titleModelOverride = process.env.TITLE_MODEL_ID;

beforeAll(() => {
  delete process.env.TITLE_MODEL_ID;
});

afterAll(() => {
  process.env.TITLE_MODEL_ID = titleModelOverride;
});

const env = fakeProvidersForFile();
const ada = signedUpForFile("Ada");

async function storedTitle(conversationId: string): Promise<string> {
  const db = await getDb();
  const [row] = await db
    .select({ title: conversations.title })
    .from(conversations)
    .where(eq(conversations.id, conversationId));
  return row.title;
}

/** Runs a turn, then waits for the title generation it started. */
async function turnThenTitle(user: TestUser, conversationId: string, text: string) {
  const turn = await runTurn(user, conversationId, text);
  await settleTitleGenerations();
  return turn;
}

async function listedTitle(user: TestUser, conversationId: string): Promise<string | undefined> {
  const response = await call(conversationsRoute.GET, "/api/conversations", { user });
  const { conversations: listed } = (await response.json()) as {
    conversations: Array<{ id: string; title: string }>;
  };
  return listed.find((conversation) => conversation.id === conversationId)?.title;
}

describe("cleanTitle", () => {
  test.each([
    ['"Planning a Trip to Lisbon."', "Planning a Trip to Lisbon"],
    ["Title: **Sourdough starter basics**\nSecond line", "Sourdough starter basics"],
    ["  \n# “Quantum tunnelling” explained!  ", "Quantum tunnelling explained"],
    ["'Rust lifetimes' and Ada's borrow checker", "Rust lifetimes and Ada's borrow checker"],
    ["   ", ""],
  ])("%j becomes %j", (raw, expected) => {
    expect(cleanTitle(raw)).toBe(expected);
  });

  test("a long answer is cut at a word, within the limit", () => {
    const title = cleanTitle(
      "A remarkably long title that keeps going well past the sixty character limit of the sidebar",
    );
    expect(title.length).toBeLessThanOrEqual(TITLE_MAX_CHARS);
    expect(title).toBe("A remarkably long title that keeps going well past the sixty");
  });
});

describe("the offline model", () => {
  test("names the conversation after the first sentence of the first message", async () => {
    const id = await createConversation(ada);
    expect(await storedTitle(id)).toBe("New conversation");
    await turnThenTitle(ada, id, "How do I keep a sourdough starter alive? I travel a lot.");
    expect(await storedTitle(id)).toBe("How do I keep a sourdough starter alive");
    expect(await listedTitle(ada, id)).toBe("How do I keep a sourdough starter alive");
    // A second exchange does not rename it.
    await turnThenTitle(ada, id, "What about rye flour instead?");
    expect(await storedTitle(id)).toBe("How do I keep a sourdough starter alive");
  });

  test("its title attempt lists the instructions and the prompt it was given, each as the body holds it", async () => {
    const id = await createConversation(ada);
    await turnThenTitle(ada, id, "How do I keep a sourdough starter alive? I travel a lot.");
    const turns = await call(turnsRoute.GET, `/api/conversations/${id}/turns`, { user: ada, params: { id } });
    const { otherCalls } = (await turns.json()) as { otherCalls: { id: string; kind: string }[] };
    const titleCall = otherCalls.find((attempt) => attempt.kind === "title");
    const response = await call(attemptRoute.GET, `/api/attempts/${titleCall?.id}`, {
      user: ada,
      params: { id: titleCall?.id ?? "" },
    });
    const { attempt } = (await response.json()) as {
      attempt: {
        items: {
          id: string;
          tag: string;
          parts: { type: string; text: string }[];
          tokens: number;
          wirePaths?: string[];
        }[];
        requests: { body: string }[];
      };
    };
    // The offline model is given the instructions and the prompt: its recorded "request" is that call.
    const sent = JSON.parse(attempt.requests[0]?.body ?? "null") as { instructions: string; prompt: string };
    expect(attempt.items.map((item) => [item.id, item.tag, item.parts])).toEqual([
      ["call:instructions", "SYSTEM_PROMPT", [{ type: "text", text: sent.instructions }]],
      ["call:prompt", "CURRENT_INPUT", [{ type: "text", text: sent.prompt }]],
    ]);
    expect(sent.prompt).toContain("How do I keep a sourdough starter alive? I travel a lot.");
    expect(attempt.items.every((item) => item.tokens > 4)).toBe(true);
    // Each points at the argument that carried it (docs/features.md#wire-reconciliation).
    expect(attempt.items.map((item) => item.wirePaths)).toEqual([["/instructions"], ["/prompt"]]);
  });

  test("a very long first message makes a title of at most 60 characters, with no quotes", async () => {
    const id = await createConversation(ada);
    await turnThenTitle(
      ada,
      id,
      'Please "compare" the energy density of lithium iron phosphate cells with nickel manganese cobalt cells',
    );
    const title = await storedTitle(id);
    expect(title.length).toBeLessThanOrEqual(60);
    expect(title).toBe("Please compare the energy density of lithium iron phosphate");
  });
});

/** The provider's next two answers: the reply to the turn, then the title it is given. */
function scriptReplyAndTitle(reply: string, title: string) {
  env.providers.script({ kind: "text", text: reply }, { kind: "text", text: title });
}

describe("a provider model", () => {
  test("the persona's model writes the title from the first exchange", async () => {
    const id = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini" });
    scriptReplyAndTitle("Lisbon is lovely in spring.", '"Spring Trip to Lisbon."');
    const { text } = await turnThenTitle(ada, id, "Plan me four days in Lisbon in April.");
    expect(text).toBe("Lisbon is lovely in spring.");
    expect(await storedTitle(id)).toBe("Spring Trip to Lisbon");

    const [, titleCall] = env.providers.requests;
    const body = JSON.parse(titleCall.body);
    expect(body.model).toBe("gpt-4.1-mini");
    expect(body.stream).toBeFalsy();
    const sent = JSON.stringify(body.messages);
    expect(sent).toContain("short title");
    expect(sent).toContain("Plan me four days in Lisbon in April.");
    expect(sent).toContain("Lisbon is lovely in spring.");
  });

  test("summary.modelId, when set, writes the title instead of the persona's model", async () => {
    const id = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini" });
    await setOverride(ada, id, { summary: { modelId: "openai:gpt-4o" } });
    scriptReplyAndTitle("Sure.", "Garden Soil Testing");
    await turnThenTitle(ada, id, "How do I test my garden soil?");
    expect(await storedTitle(id)).toBe("Garden Soil Testing");
    expect(env.providers.requests.map((request) => JSON.parse(request.body).model)).toEqual([
      "gpt-4.1-mini",
      "gpt-4o",
    ]);
  });

  test("a turn that ends while the title is still being written asks for no second title", async () => {
    const id = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini" });
    await setOverride(ada, id, { summary: { modelId: "openai:gpt-4o" } });
    env.providers.script(
      { kind: "text", text: "First answer.", match: { model: "gpt-4.1-mini" } },
      { kind: "text", text: "Second answer.", match: { model: "gpt-4.1-mini" } },
      // The title model answers late: the second turn begins and ends while the conversation's title is the default.
      { kind: "text", text: "Slow Title", match: { model: "gpt-4o" }, firstTokenDelayMs: 3_000 },
    );
    await runTurn(ada, id, "First question.");
    await runTurn(ada, id, "Second question.");
    expect(await storedTitle(id)).toBe("New conversation");
    await settleTitleGenerations();
    expect(await storedTitle(id)).toBe("Slow Title");
    expect(env.providers.requests.map((request) => JSON.parse(request.body).model).sort()).toEqual([
      "gpt-4.1-mini",
      "gpt-4.1-mini",
      "gpt-4o",
    ]);
  });

  test("a title another instance is generating is left to it; a claim past its lease is taken over", async () => {
    const id = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini" });
    const db = await getDb();
    // Another instance's claim, as its generation holds it while the title model answers.
    await db.insert(titleClaims).values({ conversationId: id, claimedAt: new Date() });
    env.providers.script({ kind: "text", text: "First answer." });
    await turnThenTitle(ada, id, "First question.");
    expect(env.providers.requests).toHaveLength(1);
    expect(await storedTitle(id)).toBe("New conversation");

    // That instance died: its claim lapses with its lease, and the next finished turn generates the title.
    await db
      .update(titleClaims)
      .set({ claimedAt: new Date(Date.now() - (TITLE_CLAIM_LEASE_SECONDS + 1) * 1000) })
      .where(eq(titleClaims.conversationId, id));
    scriptReplyAndTitle("Second answer.", "Questions Answered");
    await turnThenTitle(ada, id, "Second question.");
    expect(await storedTitle(id)).toBe("Questions Answered");
    expect(await db.select().from(titleClaims).where(eq(titleClaims.conversationId, id))).toEqual([]);
  });

  test("a failed or empty generation changes nothing, and the next turn tries again", async () => {
    const id = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini" });
    const before = await getDb().then((db) =>
      db.select().from(conversations).where(eq(conversations.id, id)),
    );
    // A 500 is retried like any model call: three tries in all, each one refused.
    const titleError = { kind: "error", status: 500, message: "title service exploded" } as const;
    env.providers.script({ kind: "text", text: "First answer." }, titleError, titleError, titleError);
    await turnThenTitle(ada, id, "First question.");
    expect(env.providers.requests).toHaveLength(4);
    expect(await storedTitle(id)).toBe("New conversation");

    env.providers.script({ kind: "text", text: "Second answer." }, { kind: "text", text: "  \n \n" });
    await turnThenTitle(ada, id, "Second question.");
    expect(env.providers.requests).toHaveLength(6);
    const after = await getDb().then((db) => db.select().from(conversations).where(eq(conversations.id, id)));
    expect(after[0].title).toBe(before[0].title);

    env.providers.script(
      { kind: "text", text: "Third answer." },
      { kind: "text", text: "Questions in Order" },
    );
    await turnThenTitle(ada, id, "Third question.");
    expect(await storedTitle(id)).toBe("Questions in Order");
  });
});

test("TITLE_MODEL_ID, when set, writes every title", async () => {
  const id = await conversationWithPersona(ada, { modelId: "openai:gpt-4.1-mini" });
  await setOverride(ada, id, { summary: { modelId: "openai:gpt-4o" } });
  process.env.TITLE_MODEL_ID = "offline:echo";
  try {
    env.providers.script({ kind: "text", text: "Sure." });
    await turnThenTitle(ada, id, "Which tomatoes grow well on a balcony? Mine get little sun.");
  } finally {
    delete process.env.TITLE_MODEL_ID;
  }
  expect(await storedTitle(id)).toBe("Which tomatoes grow well on a balcony");
  expect(env.providers.requests).toHaveLength(1);
});

describe("the claim", () => {
  test.each([
    ["an untitled conversation, claimed once until released", "New conversation", [true, false]],
    ["a titled one, never: its title may have been stored just before", "Tides", [false, false]],
  ])("%s", async (_, title, expected) => {
    const id = await createConversation(ada);
    await patchConversation(ada, id, { title });
    const db = await getDb();
    const claims = [];
    for (const _try of expected) claims.push(await claimTitleGeneration({ db, conversationId: id }));
    expect(claims).toEqual(expected);
    await releaseTitleClaim({ db, conversationId: id });
    expect(await claimTitleGeneration({ db, conversationId: id })).toBe(title === "New conversation");
  });

  test("a conversation that is gone is not claimed (and no claim row points at nothing)", async () => {
    const db = await getDb();
    expect(await claimTitleGeneration({ db, conversationId: crypto.randomUUID() })).toBe(false);
  });
});

describe("titles the user set are kept", () => {
  test("a conversation created with a title is never renamed by the model", async () => {
    const response = await call(conversationsRoute.POST, "/api/conversations", {
      user: ada,
      body: { title: "My own title" },
    });
    const { id } = (await response.json()) as { id: string };
    await turnThenTitle(ada, id, "Something entirely different.");
    expect(await storedTitle(id)).toBe("My own title");
  });

  test("a rename before the first reply wins, and a generated title can be renamed", async () => {
    const id = await createConversation(ada);
    const rename = (title: string) => patchConversation(ada, id, { title });
    expect((await rename("Chosen by Ada")).status).toBe(200);
    await turnThenTitle(ada, id, "Tell me about tides.");
    expect(await storedTitle(id)).toBe("Chosen by Ada");

    const second = await createConversation(ada);
    await turnThenTitle(ada, second, "Tell me about tides.");
    expect(await storedTitle(second)).toBe("Tell me about tides");
    const renamed = await patchConversation(ada, second, { title: "Tides, renamed" });
    expect(renamed.status).toBe(200);
    await turnThenTitle(ada, second, "And about waves?");
    expect(await storedTitle(second)).toBe("Tides, renamed");
  });
});
