// Issue 11's property, on the wire: over random sequences of send / stop / regenerate / retry / edit / choose /
// branch / provider failure against the fake provider, no request ever holds a user message twice, and every
// request's history (the user and assistant texts in the body) is the transcript's chosen path at that moment.
import fc from "fast-check";
import { expect, test } from "vitest";
import type { RecordedRequest } from "@/e2e/fake-providers/types";
import { UNANSWERED_NOTICE } from "@/lib/context/unanswered-turns";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { createConversation, insertPersona } from "../fixtures/personas";
import { fetchTurns, postChat, runTurn, UIStreamReader } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";
import {
  branch,
  chatRequests,
  patchMessage,
  regenerate,
  stop,
  type TranscriptView,
  transcript,
  wireHistory,
} from "./reply-helpers";

const env = fakeProvidersForFile({ resetBeforeEach: false });
const ada = signedUpForFile("Ada");

type Action =
  | { kind: "send" }
  | { kind: "stop"; deltas: number }
  | { kind: "fail" }
  | { kind: "regenerate" }
  | { kind: "edit"; pick: number }
  | { kind: "choose"; pick: number }
  | { kind: "branch" };

const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  { arbitrary: fc.constant({ kind: "send" as const }), weight: 3 },
  fc.record({ kind: fc.constant("stop" as const), deltas: fc.integer({ min: 1, max: 6 }) }),
  fc.constant({ kind: "fail" as const }),
  { arbitrary: fc.constant({ kind: "regenerate" as const }), weight: 2 },
  fc.record({ kind: fc.constant("edit" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("choose" as const), pick: fc.nat() }),
  fc.constant({ kind: "branch" as const }),
);

function textOfParts(parts: Array<{ type: string; text?: string }>): string {
  return parts
    .filter((part) => part.type === "text")
    .map((part) => part.text ?? "")
    .join("\n");
}

/**
 * The chosen path up to the turn's user message, as the model should get it: a reply that failed before any text
 * is not sent, and the message it did not answer carries the unanswered notice.
 */
function expectedHistory(view: TranscriptView, userMessageId: string): Array<[string, string]> {
  const upTo = view.messages.findIndex((message) => message.id === userMessageId);
  expect(upTo).toBeGreaterThanOrEqual(0);
  const path = view.messages.slice(0, upTo + 1);
  const unanswered = new Set(
    path
      .filter((message) => message.authorType === "persona" && message.status === "error")
      .filter((message) => textOfParts(message.parts as Array<{ type: string; text?: string }>) === "")
      .map((message) => message.replyToMessageId),
  );
  const history = path
    .map((message): [string, string] => {
      const text = textOfParts(message.parts as Array<{ type: string; text?: string }>);
      if (message.authorType === "user") {
        return ["user", unanswered.has(message.id) ? `${text}\n${UNANSWERED_NOTICE}` : text];
      }
      return ["assistant", text];
    })
    .filter(([role, text]) => role === "user" || text !== "");
  // With the failed reply gone, the unanswered message and the next one are one author's run of text: the
  // pipeline collapses them into one turn, joined by a newline. The current input (last) always stands alone.
  const collapsed: Array<[string, string]> = [];
  for (const [index, [role, text]] of history.entries()) {
    const last = collapsed.at(-1);
    const isCurrentInput = index === history.length - 1;
    if (last && !isCurrentInput && role === "user" && last[0] === "user") last[1] = `${last[1]}\n${text}`;
    else collapsed.push([role, text]);
  }
  return collapsed;
}

test("random reply actions: no user message twice, every request's history is the chosen path", async () => {
  let counter = 0;
  const unique = (label: string) => `${label} m${++counter}x.`;

  await fc.assert(
    fc.asyncProperty(fc.array(actionArbitrary, { minLength: 1, maxLength: 6 }), async (actions) => {
      env.providers.reset();
      const persona = await insertPersona({ modelId: "openai:gpt-4.1-mini" });
      let conversationId = await createConversation(ada, persona);
      const log: string[] = [];

      /** Checks the requests received since `from` against the transcript as it stands after the turn. */
      const checkRequests = async (from: number) => {
        const fresh = chatRequests(env.providers.requests.slice(from));
        if (fresh.length === 0) return;
        const view = await transcript(ada, conversationId);
        const { turns } = await fetchTurns(ada, conversationId);
        const turn = turns.at(-1);
        if (!turn) throw new Error("a request without a turn");
        const expected = expectedHistory(view, turn.userMessageId);
        for (const request of fresh as RecordedRequest[]) {
          const history = wireHistory(request);
          const userTexts = history.filter(([role]) => role === "user").map(([, text]) => text);
          expect(new Set(userTexts).size, `${log.join(" → ")}: a user message twice`).toBe(userTexts.length);
          expect(history, `${log.join(" → ")}: history is not the chosen path`).toEqual(expected);
        }
      };

      const latestReply = async () => {
        const view = await transcript(ada, conversationId);
        const last = view.messages.at(-1);
        return last?.authorType === "persona" ? { view, reply: last } : null;
      };

      for (const action of actions) {
        log.push(action.kind);
        const from = env.providers.requests.length;
        switch (action.kind) {
          case "send":
            await runTurn(ada, conversationId, unique("Send"));
            break;
          case "fail":
            env.providers.script({ kind: "error", status: 500, message: "Down", times: 3 });
            await runTurn(ada, conversationId, unique("Fail"));
            break;
          case "stop": {
            env.providers.script({ kind: "text", text: "s ".repeat(20), chunks: 20, chunkDelayMs: 25 });
            const reader = new UIStreamReader(await postChat(ada, conversationId, unique("Stop")));
            await reader.readDeltas(action.deltas);
            const response = await stop(ada, conversationId, { shownChars: reader.text.length });
            // The reply may have finished just before the stop: then nothing runs (409).
            expect([200, 409]).toContain(response.status);
            await reader.drain();
            break;
          }
          case "regenerate": {
            const latest = await latestReply();
            if (!latest) break;
            await regenerate(ada, conversationId, latest.reply.id);
            break;
          }
          case "edit": {
            const view = await transcript(ada, conversationId);
            // The user's own messages and (as the owner) the persona's replies.
            const candidates = view.messages.filter((message) => message.summarizedBy === null);
            if (candidates.length === 0) break;
            const target = candidates[action.pick % candidates.length];
            const response = await patchMessage(ada, conversationId, target.id, { text: unique("Edited") });
            expect(response.status).toBe(200);
            break;
          }
          case "choose": {
            const latest = await latestReply();
            const userMessageId = latest?.reply.replyToMessageId;
            const variants = userMessageId ? latest?.view.variants[userMessageId] : undefined;
            if (!variants) break;
            const target = variants[action.pick % variants.length];
            const response = await patchMessage(ada, conversationId, target.id, { chosen: true });
            expect(response.status).toBe(200);
            break;
          }
          case "branch": {
            const view = await transcript(ada, conversationId);
            const last = view.messages.at(-1);
            if (!last) break;
            const response = await branch(ada, conversationId, last.id);
            expect(response.status).toBe(201);
            conversationId = ((await response.json()) as { id: string }).id;
            break;
          }
        }
        await checkRequests(from);
      }
    }),
    { numRuns: Number(process.env.REPLY_PROPERTY_RUNS ?? 15) },
  );
}, 240_000);
