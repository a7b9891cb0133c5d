// Golden payloads: named scenarios, each a hand-built phase-A result, resolved for an OpenAI chat model,
// an OpenAI Responses model, a Gemini model and a Claude model (Anthropic's Messages API), then turned into wire
// bodies by the real provider packages. The bodies are pinned as pretty-printed JSON files in __golden__/ and
// reviewed when they change.

import { describe, expect, it } from "vitest";
import { defaultSettings, type ResolvedSettings } from "@/lib/domain/settings";
import type {
  BaseContext,
  ContextItem,
  ItemPart,
  ItemSender,
  ItemTag,
  MediaDescriptor,
  ModelCapabilities,
  ModelDescriptor,
} from "@/lib/domain/types";
import { mediaDescriptor, TEST_MODEL_CAPABILITIES } from "@/tests/context/fixtures";
import { makePdf, makeWav } from "@/tests/fixtures/media";
import { capturedBodies } from "@/tests/fixtures/wire-body";
import { elementAt } from "./indexing";
import { resolveForModel } from "./resolve-for-model";

// ---------------------------------------------------------------------------------------------------------------
// Models

type Protocol = "openai-chat" | "openai-responses" | "gemini" | "anthropic";
const PROTOCOLS: Protocol[] = ["openai-chat", "openai-responses", "gemini", "anthropic"];

const BASE_CAPABILITIES = TEST_MODEL_CAPABILITIES;

/** A model as the catalogue lists it: `name` at `provider`, its context and output limits, its capabilities. */
function catalogueModel(
  provider: ModelDescriptor["provider"],
  name: string,
  [contextWindow, maxOutputTokens]: [number, number],
  capabilities: Partial<ModelCapabilities>,
  { id = name, apiKind = "chat", tokenizer = "estimate" }: Partial<ModelDescriptor> = {},
): ModelDescriptor {
  return {
    id,
    provider,
    providerModelName: name,
    apiKind,
    capabilities: { ...BASE_CAPABILITIES, ...capabilities },
    contextWindow,
    maxOutputTokens,
    tokenizer,
  };
}

function modelFor(protocol: Protocol): ModelDescriptor {
  if (protocol === "anthropic") {
    // As the catalogue's Claude: one system block, strictly alternating turns.
    const capabilities = { strictAlternation: true, maxStopSequences: 16 };
    return catalogueModel("anthropic", "claude-sonnet-4-5", [200_000, 64_000], capabilities);
  }
  if (protocol === "gemini") {
    return catalogueModel("google", "gemini-2.5-flash", [1_048_576, 65_536], {
      video: true,
      maxStopSequences: 5,
    });
  }
  const apiKind = protocol === "openai-chat" ? "chat" : "responses";
  // The Responses API takes no stop sequences (the SDK drops them with a warning), so the registry says 0.
  const capabilities = { maxStopSequences: apiKind === "chat" ? 4 : 0 };
  return catalogueModel("openai", "gpt-4.1-mini", [1_047_576, 32_768], capabilities, {
    id: `gpt-4.1-mini:${apiKind}`,
    apiKind,
    tokenizer: "o200k_base",
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Item builders

const ada: ItemSender = { type: "user", name: "Ada", userId: "u-ada" };
const bob: ItemSender = { type: "user", name: "Bob", userId: "u-bob" };
const cleo: ItemSender = { type: "user", name: "Cleo", userId: "u-cleo" };
const tomori: ItemSender = { type: "persona", name: "Tomori", personaId: "p-tomori" };

function text(value: string): ItemPart {
  return { type: "text", text: value };
}

/** An item of a stored reply's tool-loop step. */
function inStep(step: number, item: ContextItem): ContextItem {
  return { ...item, step: `m2:step:${step}` };
}

function make(
  id: string,
  role: ContextItem["role"],
  tag: ItemTag,
  parts: ItemPart[],
  sender?: ItemSender,
): ContextItem {
  return {
    id,
    role,
    tag,
    parts,
    sourceMessageIds: id.startsWith("msg:") ? [id.slice(4)] : [],
    ...(sender ? { sender } : {}),
    tokens: 0,
  };
}

const system = (id: string, tag: ItemTag, value: string) => make(id, "system", tag, [text(value)]);
const user = (id: string, value: string, sender: ItemSender = ada) =>
  make(id, "user", "DIALOGUE_HISTORY", [text(value)], sender);
const assistant = (id: string, value: string) =>
  make(id, "assistant", "DIALOGUE_HISTORY", [text(value)], tomori);
const input = (value: string, sender: ItemSender = ada, extra: ItemPart[] = []) =>
  make("msg:input", "user", "CURRENT_INPUT", [...extra, text(value)], sender);

type Tags = Record<string, Record<string, unknown>>;

/** Replayed reasoning, with what the provider attached to it. */
const reasoningItem = (id: string, value: string, providerMetadata?: Tags) =>
  make(id, "assistant", "REASONING", [{ type: "reasoning", text: value, providerMetadata }], tomori);

/** A replayed current_time call (tagged by its provider) and its output. */
const clockCall = (input: unknown, output: string, providerMetadata: Tags) => [
  make(
    "artifact:c1",
    "assistant",
    "TOOL_CALL",
    [{ type: "tool-call", toolCallId: "call_1", toolName: "current_time", input, providerMetadata }],
    tomori,
  ),
  make("artifact:o1", "tool", "TOOL_RESULT", [
    { type: "tool-result", toolCallId: "call_1", toolName: "current_time", output },
  ]),
];

/** The reply's text after its calls, tagged by its provider. */
const taggedReply = (value: string, providerMetadata: Tags) =>
  make(
    "msg:2:text:1",
    "assistant",
    "DIALOGUE_HISTORY",
    [{ type: "text", text: value, providerMetadata }],
    tomori,
  );

function image(handle: string, state: MediaDescriptor["state"] = "render", messageSeq = 1): MediaDescriptor {
  return mediaDescriptor(handle, { state, messageSeq });
}

// A one-page PDF and a short WAV of silence, small enough to read in the golden files.
const PDF = `data:application/pdf;base64,${makePdf("Invoice 42").toString("base64")}`;
const WAV = `data:audio/wav;base64,${makeWav(20).toString("base64")}`;

function documentOrAudio(handle: string, kind: "file" | "audio", messageSeq: number): MediaDescriptor {
  return mediaDescriptor(handle, {
    kind,
    mime: kind === "file" ? "application/pdf" : "audio/wav",
    url: kind === "file" ? PDF : WAV,
    messageSeq,
    ...(kind === "file" ? { filename: "invoice-42.pdf" } : {}),
  });
}

/** What the registry says of each provider's models: OpenAI reads PDFs, Gemini reads PDFs and hears audio. */
const realMediaCapabilities = (model: ModelDescriptor): ModelDescriptor =>
  capabilities({ documents: true, audio: model.provider === "google" })(model);

function withMedia(entry: ContextItem, descriptors: MediaDescriptor[]): ContextItem {
  return {
    ...entry,
    parts: [...entry.parts, ...descriptors.map((descriptor): ItemPart => ({ type: "media", descriptor }))],
    mediaDescriptors: descriptors,
  };
}

function settings(change: (settings: ResolvedSettings) => void = () => {}): ResolvedSettings {
  const resolved = defaultSettings();
  change(resolved);
  return resolved;
}

const PERSONA_PROMPT = "You are Tomori, a warm and concise assistant. Answer in the user's language.";

// ---------------------------------------------------------------------------------------------------------------
// Scenarios

interface Scenario {
  name: string;
  base: BaseContext;
  /** Per-scenario model changes (capabilities, model name, window). */
  adjust?: (model: ModelDescriptor) => ModelDescriptor;
  enabledToolNames?: string[];
  /** Trace actions this scenario must produce for every protocol. */
  expectActions?: string[];
}

const capabilities =
  (change: Partial<ModelCapabilities>) =>
  (model: ModelDescriptor): ModelDescriptor => ({
    ...model,
    capabilities: { ...model.capabilities, ...change },
  });

/**
 * The Kyoto trip's recap that scenarios build on: the key-context reminder, the summary of the first 40 messages
 * (its text, then `summaryTail`), and the exchange since.
 */
const kyotoRecap = (summaryTail = "") => [
  system("reminder", "KEY_CONTEXT_REMINDER", "# KEY CONTEXT REMINDER\nThe trip is on 12 May."),
  make("summary", "user", "SUMMARY", [
    text(
      `[CONVERSATION SUMMARY - 2026-05-01 10:00] (40 messages condensed)\n\nAda planned a trip to Kyoto.${summaryTail}`,
    ),
  ]),
  user("msg:41", "Did I tell you the date?"),
  assistant("msg:42", "Yes, 12 May."),
];

/** A scenario's input on default settings, with nothing traced: the persona's prompt, then `items`. */
const personaBase = (items: BaseContext["items"]): BaseContext => ({
  settings: settings(),
  trace: [],
  items: [system("system-prompt", "SYSTEM_PROMPT", PERSONA_PROMPT), ...items],
});

const longReport = (label: string) =>
  `${label}: ${Array.from({ length: 120 }, (_, row) => `row ${row}: temperature ${(row * 7) % 31} C, humidity ${(row * 13) % 97}%`).join("; ")}`;

const SCENARIOS: Scenario[] = [
  {
    name: "plain-chat",
    base: personaBase([
      user("msg:1", "Hi Tomori!"),
      assistant("msg:2", "Hello Ada! How can I help today?"),
      input("What is the capital of France?"),
    ]),
  },
  {
    name: "persona-memories-reminder",
    base: {
      settings: settings(),
      trace: [{ stage: "summary", action: "placed-summary", reason: "summary covers #1–#40" }],
      items: [
        system("system-prompt", "SYSTEM_PROMPT", PERSONA_PROMPT),
        system(
          "core-memories",
          "CORE_MEMORIES",
          "# CORE MEMORIES\n- Ada prefers metric units.\n- Ada is learning Japanese.",
        ),
        system("tool-rules", "TOOL_RULES", "# TOOLS\nUse `current_time` when asked about the time."),
        system(
          "instructions",
          "CONVERSATION_INSTRUCTIONS",
          "# CONVERSATION INSTRUCTIONS\nKeep answers under 100 words.",
        ),
        system(
          "blocks",
          "PERSONA_USER_BLOCKS",
          "# PERSONA USER BLOCKS\n- Mallory: block (hides their messages), expires in 24 h. Reason: spam.",
        ),
        ...kyotoRecap(
          "\n\nFocus on the most recent messages below for the user's current intent. This summary provides background context only.",
        ),
        make("note:0", "user", "CONTEXT_NOTE", [text("[System: Stay in character as Tomori.]")]),
        input("How warm is Kyoto then?"),
      ],
    },
  },
  ...(["vision", "blind"] as const).map(
    (kind): Scenario => ({
      name: `images-${kind}`,
      adjust: kind === "blind" ? capabilities({ vision: false, video: false }) : undefined,
      enabledToolNames: kind === "blind" ? ["analyze_image", "current_time"] : undefined,
      base: personaBase([
        withMedia(user("msg:1", "Here is my cat from last year."), [image("media_1", "out_of_window", 1)]),
        assistant("msg:2", "What a lovely cat!"),
        withMedia(user("msg:3", "And these two from today:"), [
          image("media_2", "render", 3),
          image("media_3", "render", 3),
        ]),
        assistant("msg:4", "They look happy."),
        withMedia(input("Which one is sleepier?"), [image("media_4", "render", 5)]),
      ]),
    }),
  ),
  ...(["pdf", "audio"] as const).map(
    (kind): Scenario => ({
      name: `${kind}-upload`,
      adjust: realMediaCapabilities,
      expectActions: kind === "pdf" ? ["attached-media"] : [],
      base: personaBase([
        user("msg:1", "I will send you something."),
        assistant("msg:2", "Go ahead."),
        withMedia(input(kind === "pdf" ? "What is the total of this invoice?" : "What do you hear?"), [
          documentOrAudio("media_1", kind === "pdf" ? "file" : "audio", 3),
        ]),
      ]),
    }),
  ),
  {
    name: "tool-call-replay",
    base: personaBase([
      user("msg:1", "What time is it in Tokyo?"),
      make(
        "msg:2:call",
        "assistant",
        "TOOL_CALL",
        [
          text("Let me check."),
          {
            type: "tool-call",
            toolCallId: "call_1",
            toolName: "current_time",
            input: { timezone: "Asia/Tokyo" },
          },
        ],
        tomori,
      ),
      make("msg:2:result", "tool", "TOOL_RESULT", [
        {
          type: "tool-result",
          toolCallId: "call_1",
          toolName: "current_time",
          output: { time: "21:04", timezone: "Asia/Tokyo" },
        },
      ]),
      assistant("msg:2", "It is 21:04 in Tokyo."),
      user("msg:3", "And in Paris?"),
      // An interior call whose output was never recorded: it gets a stub output.
      make(
        "msg:4:call",
        "assistant",
        "TOOL_CALL",
        [
          {
            type: "tool-call",
            toolCallId: "call_2",
            toolName: "current_time",
            input: '{"timezone":"Europe/Paris"}',
          },
        ],
        tomori,
      ),
      assistant("msg:4", "Sorry, the clock tool failed."),
      // An output with no call: dropped.
      make("msg:5:result", "tool", "TOOL_RESULT", [
        { type: "tool-result", toolCallId: "call_ghost", toolName: "current_time", output: "14:04" },
      ]),
      input("Try again please."),
    ]),
  },
  {
    // A reply's tool loop as stored with its steps: step 0 thinks, writes, calls two tools at once (one unknown,
    // answered with the SDK's error) and runs Anthropic's own code execution; step 1 answers. Each step goes out as
    // the loop sent it; the provider-run tool only to the provider that ran it (left out, and traced, elsewhere).
    name: "step-replay",
    base: personaBase([
      user("msg:1", "How warm is it, and what is 2 + 2?"),
      inStep(0, assistant("msg:2", "Let me look.")),
      inStep(
        0,
        make("artifact:c1", "assistant", "TOOL_CALL", [
          { type: "tool-call", toolCallId: "call_1", toolName: "current_time", input: {} },
          { type: "tool-call", toolCallId: "call_2", toolName: "weather", input: { city: "Oslo" } },
          {
            type: "tool-call",
            toolCallId: "srvtoolu_1",
            toolName: "code_execution",
            input: { type: "bash_code_execution", command: "echo $((2+2))" },
            providerExecuted: true,
            executedBy: "anthropic",
          },
          {
            type: "tool-result",
            toolCallId: "srvtoolu_1",
            toolName: "code_execution",
            output: {
              type: "bash_code_execution_result",
              stdout: "4\n",
              stderr: "",
              return_code: 0,
              content: [],
            },
            providerExecuted: true,
            executedBy: "anthropic",
          },
        ]),
      ),
      inStep(
        0,
        make("artifact:o1", "tool", "TOOL_RESULT", [
          { type: "tool-result", toolCallId: "call_1", toolName: "current_time", output: { utc: "12:00" } },
          {
            type: "tool-result",
            toolCallId: "call_2",
            toolName: "weather",
            output: "AI_NoSuchToolError: Model tried to call unavailable tool 'weather'.",
            outputType: "error-text",
          },
        ]),
      ),
      inStep(1, assistant("msg:2:text:1", "It is noon; 2 + 2 = 4.")),
      input("Thanks!"),
    ]),
  },
  {
    name: "strict-leading-assistant-merge",
    adjust: capabilities({ strictAlternation: true }),
    base: {
      settings: settings((value) => {
        value.history.speakerLabels = "always";
      }),
      trace: [],
      items: [
        system("system-prompt", "SYSTEM_PROMPT", PERSONA_PROMPT),
        assistant("msg:1", "Welcome to the room! I'm Tomori."),
        user("msg:2", "Ada: hi all", ada),
        user("msg:3", "Bob: hey", bob),
        assistant("msg:4", "Hi Ada and Bob!"),
        assistant("msg:5", "What shall we plan today?"),
        user("msg:6", "Ada: a picnic", ada),
        input("Bob: somewhere with shade", bob),
      ],
    },
  },
  {
    name: "no-system-instructions",
    adjust: (model) => ({
      ...capabilities({ systemInstruction: false })(model),
      providerModelName: model.provider === "google" ? "gemma-3-27b-it" : model.providerModelName,
    }),
    base: personaBase([
      system("core-memories", "CORE_MEMORIES", "# CORE MEMORIES\n- Ada prefers metric units."),
      user("msg:1", "Hello"),
      assistant("msg:2", "Hi Ada!"),
      input("How tall is Mount Fuji?"),
    ]),
  },
  {
    name: "budget-overflow",
    adjust: (model) => ({ ...model, contextWindow: 3_000, maxOutputTokens: 500 }),
    expectActions: ["trimmed-tool-result", "dropped-oldest-turns"],
    base: personaBase([
      ...Array.from({ length: 14 }, (_, index) => index + 1).flatMap((turn): ContextItem[] => [
        user(`msg:${turn}0`, `Weather report for station ${turn}, please.`),
        make(
          `msg:${turn}1:call`,
          "assistant",
          "TOOL_CALL",
          [
            {
              type: "tool-call",
              toolCallId: `call_${turn}`,
              toolName: "weather",
              input: { station: turn },
            },
          ],
          tomori,
        ),
        make(`msg:${turn}1:result`, "tool", "TOOL_RESULT", [
          {
            type: "tool-result",
            toolCallId: `call_${turn}`,
            toolName: "weather",
            output: longReport(`station ${turn}`),
          },
        ]),
        assistant(`msg:${turn}1`, `Station ${turn} looks mild.`),
      ]),
      input("Which station was warmest?"),
    ]),
  },
  {
    name: "stop-strings-over-cap",
    // Claude takes more stop sequences than the others: cap it at OpenAI's 4 so the cap still binds.
    adjust: (model) =>
      model.provider === "anthropic" ? capabilities({ maxStopSequences: 4 })(model) : model,
    expectActions: ["dropped-stop-strings"],
    base: {
      settings: settings((value) => {
        value.stop.strings = ["###", "<|user|>", "\nAda:", "END"];
        value.stop.speakerPattern = true;
      }),
      trace: [],
      items: [
        system("system-prompt", "SYSTEM_PROMPT", PERSONA_PROMPT),
        user("msg:1", "Cleo: morning", cleo),
        user("msg:2", "Bob: hi", bob),
        assistant("msg:3", "Good morning, everyone!"),
        input("Ada: what's for lunch?", ada),
      ],
    },
  },
  {
    // A Responses reasoning model's turn replayed: a reasoning item with its summary and encrypted content, one
    // hidden (encrypted only), the message and call item ids (docs/features.md#reasoning-and-provider-metadata).
    name: "reasoning-replay-responses",
    adjust: capabilities({ reasoning: true }),
    base: personaBase([
      user("msg:1", "What time is it in Lisbon? Plan the evening."),
      reasoningItem("artifact:r1", "Lisbon is on WET; check the clock first.", {
        openai: { itemId: "rs_1", reasoningEncryptedContent: "gAAAA-opaque-1" },
      }),
      ...clockCall({ timezone: "Europe/Lisbon" }, "18:40", { openai: { itemId: "fc_1" } }),
      reasoningItem("artifact:r2", "", {
        openai: { itemId: "rs_2", reasoningEncryptedContent: "gAAAA-opaque-2" },
      }),
      taggedReply("It is 18:40: sunset at the Miradouro, then dinner in Alfama.", {
        openai: { itemId: "msg_1" },
      }),
      input("And tomorrow morning?"),
    ]),
  },
  {
    // A Gemini tool turn replayed: its thought, the call's thought signature, the signed text.
    name: "reasoning-replay-gemini",
    adjust: capabilities({ reasoning: true }),
    base: personaBase([
      user("msg:1", "What time is it in Tokyo?"),
      reasoningItem("artifact:r1", "**Checking the clock**\nI need the current time in Tokyo."),
      ...clockCall({ timezone: "Asia/Tokyo" }, "21:04", { google: { thoughtSignature: "CiQBsig-call-1" } }),
      taggedReply("It is 21:04 in Tokyo.", { google: { thoughtSignature: "CiQBsig-text-1" } }),
      input("And in Paris?"),
    ]),
  },
  {
    name: "thinking-enabled",
    adjust: (model) => ({
      ...capabilities({ reasoning: true })(model),
      providerModelName: model.provider === "openai" ? "o4-mini" : model.providerModelName,
    }),
    base: {
      settings: settings((value) => {
        value.thinking.enabled = true;
        value.thinking.budgetTokens = 4_096;
      }),
      trace: [],
      items: [
        system("system-prompt", "SYSTEM_PROMPT", PERSONA_PROMPT),
        user("msg:1", "Is 1 001 prime?"),
        make(
          "msg:2",
          "assistant",
          "DIALOGUE_HISTORY",
          [{ type: "reasoning", text: "1001 = 7 × 11 × 13." }, text("No: 1001 = 7 × 11 × 13.")],
          tomori,
        ),
        input("And 1 009?"),
      ],
    },
  },
  ...(["on", "off"] as const).map(
    (breakpoints): Scenario => ({
      // A conversation's build: OpenAI gets its prompt_cache_key, Claude breakpoints after the system block, the
      // summary and the history; with cache.breakpoints off, neither.
      name: breakpoints === "on" ? "prompt-cache" : "prompt-cache-off",
      expectActions: [],
      base: {
        settings: settings((value) => {
          value.cache.breakpoints = breakpoints;
        }),
        trace: [],
        conversationId: "0190c0de-0000-7000-8000-000000000001",
        items: [
          system("system-prompt", "SYSTEM_PROMPT", PERSONA_PROMPT),
          ...kyotoRecap(),
          input("How warm is Kyoto then?"),
        ],
      },
    }),
  ),
];

// ---------------------------------------------------------------------------------------------------------------
// Capturing the body through the real provider packages

async function wireBody(protocol: Protocol, scenario: Scenario): Promise<string> {
  const model = (scenario.adjust ?? ((value: ModelDescriptor) => value))(modelFor(protocol));
  const resolved = resolveForModel(scenario.base, model, { enabledToolNames: scenario.enabledToolNames });
  const bodies = await capturedBodies(model, resolved.request);
  expect(bodies).toHaveLength(1);
  const actions = resolved.trace.map((event) => event.action);
  for (const action of scenario.expectActions ?? []) expect(actions).toContain(action);
  return `${JSON.stringify(JSON.parse(elementAt(bodies, 0)), null, 2)}\n`;
}

describe("golden payloads", () => {
  it("has at least 8 named scenarios", () => {
    expect(SCENARIOS.length).toBeGreaterThanOrEqual(8);
    expect(new Set(SCENARIOS.map((scenario) => scenario.name)).size).toBe(SCENARIOS.length);
  });

  for (const scenario of SCENARIOS) {
    for (const protocol of PROTOCOLS) {
      it(`${scenario.name} (${protocol})`, async () => {
        const body = await wireBody(protocol, scenario);
        await expect(body).toMatchFileSnapshot(`__golden__/${scenario.name}.${protocol}.json`);
        // Deterministic: a second resolution gives byte-identical bytes.
        expect(await wireBody(protocol, scenario)).toBe(body);
      });
    }
  }
});
