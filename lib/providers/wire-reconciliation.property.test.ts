// Wire reconciliation over random conversations (tests/context/conversation-arbitrary.ts) in all four wire
// formats: the pipeline resolves each conversation for a model of each format, the real provider package writes
// the body (captured, never sent), and the map must find every item the body carries, claim every element, and
// pass its own invariants. WIRE_PROPERTY_SEED / WIRE_PROPERTY_RUNS override the fixed seed and run count.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildContext } from "@/lib/context/build-context";
import { ContextBudgetError, resolveForModel } from "@/lib/context/resolve-for-model";
import type { ModelDescriptor } from "@/lib/domain/types";
import { blueprintArbitrary, materialise } from "@/tests/context/conversation-arbitrary";
import { capturedBodies } from "@/tests/fixtures/wire-body";
import type { WireFormat } from "./wire-elements";
import { reconcileWire, wireMapProblems } from "./wire-reconciliation";

const SEED = Number(process.env.WIRE_PROPERTY_SEED ?? 20_261_127);
const RUNS = Number(process.env.WIRE_PROPERTY_RUNS ?? 60);

const FORMATS: {
  format: WireFormat;
  provider: ModelDescriptor["provider"];
  apiKind: ModelDescriptor["apiKind"];
}[] = [
  { format: "openai-chat", provider: "openai", apiKind: "chat" },
  { format: "openai-responses", provider: "openai", apiKind: "responses" },
  { format: "anthropic", provider: "anthropic", apiKind: "chat" },
  { format: "gemini", provider: "google", apiKind: "chat" },
];

/**
 * Reasoning is the one part an adapter leaves out on its own (OpenAI chat has no place for it; the others take back
 * only their own signed or encrypted reasoning), and the map must then say so.
 */
function formatCannotCarry(kinds: string[]): boolean {
  return kinds.every((kind) => kind === "reasoning");
}

describe("wire reconciliation over random conversations, in every wire format", () => {
  it("finds every item the body carries, claims every element, and passes its invariants", async () => {
    await fc.assert(
      fc.asyncProperty(blueprintArbitrary, async (blueprint) => {
        const conversation = materialise(blueprint);
        const base = buildContext(conversation.input, { tokenizer: conversation.primary.tokenizer });
        for (const { format, provider, apiKind } of FORMATS) {
          const model: ModelDescriptor = { ...conversation.primary, provider, apiKind };
          let resolved: ReturnType<typeof resolveForModel>;
          try {
            resolved = resolveForModel(base, model, { enabledToolNames: conversation.enabledToolNames });
          } catch (error) {
            if (error instanceof ContextBudgetError) continue;
            throw error;
          }
          // Gemini downloads an https image before writing the body: with no network here, no body is written.
          const [body] = await capturedBodies(model, resolved.request);
          if (body === undefined) continue;
          const map = reconcileWire({ format, body, items: resolved.items });
          expect(wireMapProblems({ format, body, items: resolved.items, map }), format).toEqual([]);
          // Everything in the body comes from an item, but for an empty message the adapter writes in place of a
          // part it left out (OpenAI chat's assistant message for reasoning it cannot carry).
          const unexplained = map.unclaimed.filter((entry) => !entry.what.includes("with no content"));
          expect(
            unexplained.map((entry) => `${entry.pointer} ${entry.what}`),
            format,
          ).toEqual([]);
          for (const [index, item] of resolved.items.entries()) {
            const address = map.addresses[index];
            if (!address.dropped) continue;
            const kinds = item.parts.map((part) => part.type);
            const skippedAsEmpty = resolved.trace.some(
              (event) => event.action === "skipped-empty-items" && event.itemIds?.includes(item.id),
            );
            expect(
              skippedAsEmpty || formatCannotCarry(kinds),
              `${format}: ${item.id} (${kinds.join(", ")}) dropped: ${address.dropped.reason}`,
            ).toBe(true);
          }
        }
      }),
      { seed: SEED, numRuns: RUNS, interruptAfterTimeLimit: 40_000 },
    );
  }, 120_000);
});
