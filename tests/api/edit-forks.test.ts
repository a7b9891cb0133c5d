// Edits fork a question (issue 27): editing a question that was answered stores the new text as another version of
// it, with the old question and everything after it kept as the branch it was; choosing a version shows its whole
// branch, and the model is sent only the shown one. Nothing changes while a reply is written or once the question
// is summarised (409); a stranger is told the conversation does not exist (404).
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { participants } from "@/db/schema";
import { expectError } from "../api-client";
import {
  postChat,
  runTurn,
  storedMessages,
  storeUserMessage,
  textOf,
  UIStreamReader,
} from "../fixtures/turns";
import {
  chatRequests,
  patchMessage,
  regenerate,
  replyTestFile,
  transcript,
  wireHistory,
} from "./reply-helpers";
import { compactOk } from "./summary-helpers";

const { env, ada, bob, eve, newConversation } = replyTestFile("Ada", "Bob", "Eve");

/** A turn of Ada's asking `question`, the fake provider scripted to answer `answer`. */
function answeredTurn(conversationId: string, question: string, answer: string) {
  env.providers.script({ kind: "text", text: answer });
  return runTurn(ada, conversationId, question);
}

/** The shown transcript as [role, text] pairs, and the seqs along it. */
async function shownPath(conversationId: string) {
  const view = await transcript(ada, conversationId);
  return {
    pairs: view.messages.map((message) => [
      message.authorType,
      message.parts.map((part) => (part.type === "text" ? part.text : "")).join(""),
    ]),
    seqs: view.messages.map((message) => message.seq),
    questionVersions: view.questionVersions,
  };
}

/** The id of the stored message with this text (there is one in each scenario). */
async function idOf(conversationId: string, text: string): Promise<string> {
  const row = (await storedMessages(conversationId)).find((message) => textOf(message) === text);
  if (!row) throw new Error(`no message "${text}"`);
  return row.id;
}

/** Edit a question and return the id the answer names (the fork's, when it forked). */
async function editQuestion(conversationId: string, text: string, newText: string): Promise<string> {
  const response = await patchMessage(ada, conversationId, await idOf(conversationId, text), {
    text: newText,
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { message: { id: string } }).message.id;
}

async function showVersion(conversationId: string, text: string) {
  const response = await patchMessage(ada, conversationId, await idOf(conversationId, text), {
    chosen: true,
  });
  expect(response.status).toBe(200);
}

/** Runs `action` (the provider's script is reset first) and returns what the provider was sent, as [role, text]. */
async function sentFor(action: () => Promise<unknown>) {
  env.providers.reset();
  await action();
  const [request] = chatRequests(env.providers.requests);
  return request ? wireHistory(request) : null;
}

describe("editing a question forks it", () => {
  test("the scenario, step by step: fork, answer, regenerate, switch back and forth, next turns", async () => {
    const conversationId = await newConversation();
    env.providers.script({ kind: "text", text: "Answer one." }, { kind: "text", text: "Answer two." });
    await runTurn(ada, conversationId, "First question.");
    await runTurn(ada, conversationId, "Second question.");
    const originalId = await idOf(conversationId, "First question.");
    let forkId = "";

    const steps: Array<{
      step: string;
      act: () => Promise<unknown>;
      shown: string[][];
      /** What the provider was sent for the step's turn, when the step runs one. */
      sent?: string[][];
    }> = [
      {
        step: "edit the answered first question: a fork with nothing after it",
        act: async () => {
          forkId = await editQuestion(conversationId, "First question.", "First question, edited.");
          expect(forkId).not.toBe(originalId);
        },
        shown: [["user", "First question, edited."]],
      },
      {
        step: "the client asks for an answer to the fork",
        act: () => {
          env.providers.script({ kind: "text", text: "Answer to the edit." });
          return regenerate(ada, conversationId, forkId);
        },
        shown: [
          ["user", "First question, edited."],
          ["persona", "Answer to the edit."],
        ],
        sent: [["user", "First question, edited."]],
      },
      {
        step: "regenerate on the new branch: a second variant there",
        act: async () => {
          env.providers.script({ kind: "text", text: "Another answer to the edit." });
          return regenerate(ada, conversationId, await idOf(conversationId, "Answer to the edit."));
        },
        shown: [
          ["user", "First question, edited."],
          ["persona", "Another answer to the edit."],
        ],
        sent: [["user", "First question, edited."]],
      },
      {
        step: "choose the original version: its answer and the later turns are back",
        act: () => showVersion(conversationId, "First question."),
        shown: [
          ["user", "First question."],
          ["persona", "Answer one."],
          ["user", "Second question."],
          ["persona", "Answer two."],
        ],
      },
      {
        step: "a turn on the original branch sends only that branch",
        act: () => answeredTurn(conversationId, "Third question.", "Answer three."),
        shown: [
          ["user", "First question."],
          ["persona", "Answer one."],
          ["user", "Second question."],
          ["persona", "Answer two."],
          ["user", "Third question."],
          ["persona", "Answer three."],
        ],
        sent: [
          ["user", "First question."],
          ["assistant", "Answer one."],
          ["user", "Second question."],
          ["assistant", "Answer two."],
          ["user", "Third question."],
        ],
      },
      {
        step: "choose the edited version again: the variant chosen there is remembered",
        act: () => showVersion(conversationId, "First question, edited."),
        shown: [
          ["user", "First question, edited."],
          ["persona", "Another answer to the edit."],
        ],
      },
      {
        step: "a turn on the edited branch sends only that branch",
        act: () => answeredTurn(conversationId, "Follow-up on the edit.", "Answer on the edit."),
        shown: [
          ["user", "First question, edited."],
          ["persona", "Another answer to the edit."],
          ["user", "Follow-up on the edit."],
          ["persona", "Answer on the edit."],
        ],
        sent: [
          ["user", "First question, edited."],
          ["assistant", "Another answer to the edit."],
          ["user", "Follow-up on the edit."],
        ],
      },
      {
        step: "choosing the version already shown changes nothing",
        act: () => showVersion(conversationId, "First question, edited."),
        shown: [
          ["user", "First question, edited."],
          ["persona", "Another answer to the edit."],
          ["user", "Follow-up on the edit."],
          ["persona", "Answer on the edit."],
        ],
      },
    ];

    for (const { step, act, shown, sent } of steps) {
      const wire = await sentFor(act);
      const path = await shownPath(conversationId);
      expect(path.pairs, step).toEqual(shown);
      // Seq grows along the shown path, whichever branch it is.
      expect(path.seqs, step).toEqual([...path.seqs].sort((a, b) => a - b));
      expect(
        path.questionVersions[path.pairs.length > 0 ? await idOf(conversationId, shown[0][1]) : ""],
        step,
      ).toEqual([originalId, forkId]);
      if (sent) expect(wire, step).toEqual(sent);
    }
    // Nothing was deleted: both branches are stored.
    expect((await storedMessages(conversationId)).map(textOf).sort()).toEqual(
      [
        "Answer one.",
        "Answer two.",
        "Answer three.",
        "Answer to the edit.",
        "Another answer to the edit.",
        "Answer on the edit.",
        "First question.",
        "First question, edited.",
        "Second question.",
        "Third question.",
        "Follow-up on the edit.",
      ].sort(),
    );
  });

  test("a question with nothing after it is edited in place, its earlier version kept", async () => {
    const conversationId = await newConversation();
    await runTurn(ada, conversationId, "Answered.");
    const lonely = await storeLoneQuestion(conversationId, "Not answered yet.");
    const id = await editQuestion(conversationId, "Not answered yet.", "Still not answered.");
    expect(id).toBe(lonely);
    expect((await shownPath(conversationId)).questionVersions).toEqual({});
  });

  test("editing a later question forks only from there: the exchanges before it stay", async () => {
    const conversationId = await newConversation();
    env.providers.script(
      { kind: "text", text: "A1." },
      { kind: "text", text: "A2." },
      { kind: "text", text: "A3." },
    );
    for (const text of ["Q1.", "Q2.", "Q3."]) await runTurn(ada, conversationId, text);
    const fork = await editQuestion(conversationId, "Q2.", "Q2 edited.");
    const wire = await sentFor(() => {
      env.providers.script({ kind: "text", text: "A2 edited." });
      return regenerate(ada, conversationId, fork);
    });
    expect(wire).toEqual([
      ["user", "Q1."],
      ["assistant", "A1."],
      ["user", "Q2 edited."],
    ]);
    expect((await shownPath(conversationId)).pairs).toEqual([
      ["user", "Q1."],
      ["persona", "A1."],
      ["user", "Q2 edited."],
      ["persona", "A2 edited."],
    ]);
    await showVersion(conversationId, "Q2.");
    expect((await shownPath(conversationId)).pairs.map(([, text]) => text)).toEqual([
      "Q1.",
      "A1.",
      "Q2.",
      "A2.",
      "Q3.",
      "A3.",
    ]);
  });
});

describe("what is refused", () => {
  test("while a reply is being written: no fork and no switch (409), nothing changes", async () => {
    const conversationId = await newConversation();
    await runTurn(ada, conversationId, "Question.");
    const fork = await editQuestion(conversationId, "Question.", "Question, edited.");
    await regenerate(ada, conversationId, fork);
    const before = await storedMessages(conversationId);

    env.providers.script({ kind: "text", text: "slow slow slow", chunks: 3, chunkDelayMs: 150 });
    const reader = new UIStreamReader(await postChat(ada, conversationId, "Next."));
    await reader.readDeltas(1);
    const original = await idOf(conversationId, "Question.");
    await expectError(await patchMessage(ada, conversationId, original, { chosen: true }), 409, "conflict");
    await expectError(await patchMessage(ada, conversationId, fork, { text: "Again." }), 409, "conflict");
    await reader.drain();
    const after = await storedMessages(conversationId);
    expect(after.filter((row) => before.some((old) => old.id === row.id))).toEqual(
      before.map((row) => expect.objectContaining({ id: row.id, chosen: row.chosen, parts: row.parts })),
    );
  });

  test("another person: a stranger gets 404, a member who did not ask it 403; the owner may switch", async () => {
    const conversationId = await newConversation();
    await (await getDb()).insert(participants).values({ conversationId, userId: bob.id, role: "member" });
    await runTurn(ada, conversationId, "Ada asks.");
    const original = await idOf(conversationId, "Ada asks.");
    await expectError(await patchMessage(eve, conversationId, original, { text: "Eve." }), 404, "not_found");
    await expectError(await patchMessage(eve, conversationId, original, { chosen: true }), 404, "not_found");
    await expectError(await patchMessage(bob, conversationId, original, { text: "Bob." }), 403, "forbidden");
    const fork = await editQuestion(conversationId, "Ada asks.", "Ada asks again.");
    await expectError(await patchMessage(bob, conversationId, original, { chosen: true }), 403, "forbidden");
    await expectError(await patchMessage(eve, conversationId, fork, { chosen: true }), 404, "not_found");
    await showVersion(conversationId, "Ada asks.");
    expect((await shownPath(conversationId)).pairs[0]).toEqual(["user", "Ada asks."]);
  });

  test("a summarised question is neither forked nor switched away (409 naming the summary)", async () => {
    const conversationId = await newConversation();
    for (const text of ["One.", "Two.", "Three."]) await runTurn(ada, conversationId, text);
    const fork = await editQuestion(conversationId, "Three.", "Three, edited.");
    await regenerate(ada, conversationId, fork);
    await runTurn(ada, conversationId, "Four.");
    await compactOk(ada, conversationId, { keepRecentTurns: 1 });
    const summarised = (await storedMessages(conversationId)).filter((row) => row.summarizedBy !== null);
    expect(summarised.map(textOf)).toContain("Three, edited.");

    const editRefused = await expectError(
      await patchMessage(ada, conversationId, await idOf(conversationId, "One."), { text: "Rewrite." }),
      409,
      "conflict",
    );
    expect(editRefused).toContain("summarised");
    const switchRefused = await expectError(
      await patchMessage(ada, conversationId, await idOf(conversationId, "Three."), { chosen: true }),
      409,
      "conflict",
    );
    expect(switchRefused).toContain("summarised");
    expect((await shownPath(conversationId)).pairs.map(([, text]) => text)).toContain("Three, edited.");
  });

  test("a version of a question on a hidden branch cannot be shown on its own (409)", async () => {
    const conversationId = await newConversation();
    for (const text of ["Q1.", "Q2."]) await runTurn(ada, conversationId, text);
    // Fork Q2 on the original branch, then fork Q1: the original Q2 and its fork are both hidden now.
    await editQuestion(conversationId, "Q2.", "Q2 edited.");
    await editQuestion(conversationId, "Q1.", "Q1 edited.");
    await expectError(
      await patchMessage(ada, conversationId, await idOf(conversationId, "Q2."), { chosen: true }),
      409,
      "conflict",
    );
    // Showing Q1 again shows its branch as it was left: with Q2's fork.
    await showVersion(conversationId, "Q1.");
    expect((await shownPath(conversationId)).pairs.map(([, text]) => text)).toEqual([
      "Q1.",
      expect.any(String),
      "Q2 edited.",
    ]);
  });
});

/** A question of Ada's with no reply (stored straight, as a turn refused before answering would leave it). */
async function storeLoneQuestion(conversationId: string, text: string): Promise<string> {
  return (await storeUserMessage(ada, conversationId, text)).id;
}
