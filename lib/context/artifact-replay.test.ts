import { describe, expect, it } from "vitest";
import type { SettingsOverride } from "@/lib/domain/settings";
import type { ContextItem, StoredArtifact, StoredMessage, TokenizerName } from "@/lib/domain/types";
import {
  artifactOfType,
  deepFreeze,
  functionCallArtifact,
  functionOutputArtifact,
  PERSONA,
  personaMessage,
  reasoningArtifact,
  settingsWith,
  userMessage,
  view,
  viewItems,
} from "@/tests/context/fixtures";
import { storedArtifact, storedText } from "@/tests/context/stored-parts";
import { pruneToolOutput, toolOutputText } from "./artifact-reading";
import { computeTurnIndices, replayArtifacts } from "./artifact-replay";
import { collapseRuns } from "./collapse-runs";
import { elementAt } from "./indexing";
import { mapRoles } from "./role-mapping";
import { artifactTokenCounts, messageTokenCounts } from "./token-cache";
import { countItemTokens, countTextTokens, TOKENS_PER_MESSAGE } from "./tokens";

function runReplay(
  messages: StoredMessage[],
  artifacts: StoredArtifact[],
  settings: SettingsOverride = {},
  options: {
    labels?: boolean;
    /** The tokenizer of both stages (role mapping's message counts and artifact replay's); absent: none, as before. */
    tokenizer?: TokenizerName;
    /** Count role mapping with `tokenizer` but call artifact replay without one. */
    replayWithoutTokenizer?: boolean;
  } = {},
) {
  deepFreeze(messages);
  deepFreeze(artifacts);
  const resolved = settingsWith({
    ...settings,
    history: { speakerLabels: options.labels ? "always" : "never" },
  });
  const { value: entries } = collapseRuns(messages);
  const mapped = mapRoles({
    entries,
    currentInput: userMessage(1_000, "now"),
    persona: PERSONA,
    participants: [],
    allMessages: messages,
    settings: resolved,
    tokenizer: options.tokenizer ?? null,
  });
  const result = replayArtifacts({
    items: mapped.value.history,
    messagesById: new Map(messages.map((message) => [message.id, message])),
    artifactsById: new Map(artifacts.map((artifact) => [artifact.id, artifact])),
    settings: resolved,
    ...(options.tokenizer !== undefined && !options.replayWithoutTokenizer
      ? { tokenizer: options.tokenizer }
      : {}),
  });
  return { ...result, view: viewItems(result.value.items) };
}

/** An assistant message: text, reasoning, a call, its output, then more text. */
function toolTurn(seq: number, output: unknown = "sunny") {
  const id = `m${seq}`;
  const message = personaMessage(seq, "", {
    parts: [
      storedText("Let me check."),
      storedArtifact(`r${seq}`),
      storedArtifact(`c${seq}`),
      storedArtifact(`o${seq}`),
      storedText(`Done ${seq}.`),
    ],
  });
  const artifacts: [StoredArtifact, StoredArtifact, StoredArtifact] = [
    reasoningArtifact(`r${seq}`, id, "think"),
    functionCallArtifact(`c${seq}`, id, `call${seq}`, "weather", '{"city":"Lisbon"}'),
    functionOutputArtifact(`o${seq}`, id, `call${seq}`, output),
  ];
  return { message, artifacts };
}

describe("artifact replay", () => {
  it("replays reasoning, the call and its output between the text pieces, in part order", () => {
    const turn = toolTurn(2);
    const result = runReplay(
      [userMessage(1, "weather?"), turn.message],
      turn.artifacts,
      {},
      { labels: true },
    );
    expect(result.view).toEqual([
      view("msg:m1", "user", "DIALOGUE_HISTORY", "Ada: weather?"),
      view("msg:m2", "assistant", "DIALOGUE_HISTORY", "Aria: Let me check."),
      view("artifact:r2", "assistant", "REASONING", "«reasoning:think»"),
      view("artifact:c2", "assistant", "TOOL_CALL", '«call:call2:weather:{"city":"Lisbon"}»'),
      view("artifact:o2", "tool", "TOOL_RESULT", "«result:call2:sunny»"),
      view("msg:m2:text:1", "assistant", "DIALOGUE_HISTORY", "Done 2."),
    ]);
    expect(result.value.items[4]?.parts[0]).toEqual({
      type: "tool-result",
      toolCallId: "call2",
      toolName: "weather",
      output: "sunny",
    });
    expect(result.value.items.every((item) => item.sourceMessageIds.length === 1)).toBe(true);
    expect(result.trace).toEqual([]);
  });

  it("groups parallel calls into one item and their outputs into one tool item", () => {
    const parts = ["c1", "c2", "o1", "o2"].map((id) => storedArtifact(id));
    const message = personaMessage(2, "", { parts: [...parts, storedText("Both done.")] });
    const artifacts = [
      functionCallArtifact("c1", "m2", "k1", "a", {}),
      functionCallArtifact("c2", "m2", "k2", "b", { x: 1 }),
      functionOutputArtifact("o1", "m2", "k1", { ok: true }),
      functionOutputArtifact("o2", "m2", "k2", "fine"),
    ];
    const result = runReplay([userMessage(1, "go"), message], artifacts);
    expect(result.view.slice(1)).toEqual([
      view("artifact:c1", "assistant", "TOOL_CALL", '«call:k1:a:{}» | «call:k2:b:{"x":1}»'),
      view("artifact:o1", "tool", "TOOL_RESULT", '«result:k1:{"ok":true}» | «result:k2:fine»'),
      view("msg:m2", "assistant", "DIALOGUE_HISTORY", "Both done."),
    ]);
  });

  it.each([
    "web_search_call",
    "image_generation_call",
    "file_search_call",
    "local_shell_call",
    "code_interpreter_call",
    "openrouter:web_search",
  ])("never replays %s", (type) => {
    const message = personaMessage(2, "Found it.", { artifacts: ["w1"] });
    const result = runReplay(
      [userMessage(1, "search"), message],
      [artifactOfType("w1", "m2", type, { query: "x" })],
    );
    expect(result.view.map((item) => item.id)).toEqual(["msg:m1", "msg:m2"]);
    expect(result.trace).toEqual([
      {
        stage: "artifacts",
        action: "dropped-non-replayable",
        reason: `1 artifact of a type never replayed (${type})`,
        itemIds: ["msg:m2"],
        messageIds: ["m2"],
        details: { artifactIds: ["w1"], types: [type] },
      },
    ]);
  });

  it("drops a call without its output and an output without its call, within the message", () => {
    const message = personaMessage(2, "Text stays.", { artifacts: ["c1", "o2", "c3", "o3"] });
    const artifacts = [
      functionCallArtifact("c1", "m2", "lonely-call", "a"),
      functionOutputArtifact("o2", "m2", "lonely-output", "x"),
      functionCallArtifact("c3", "m2", "pair", "b"),
      functionOutputArtifact("o3", "m2", "pair", "y"),
    ];
    const result = runReplay([userMessage(1, "go"), message], artifacts);
    expect(result.view.slice(1).map((item) => item.text)).toEqual([
      "Text stays.",
      "«call:pair:b:{}»",
      "«result:pair:y»",
    ]);
    expect(result.trace).toEqual([
      {
        stage: "artifacts",
        action: "dropped-orphan-tool-artifacts",
        reason: "2 tool artifacts without a matching call or output in the message",
        itemIds: ["msg:m2"],
        messageIds: ["m2"],
        details: { artifactIds: ["c1", "o2"] },
      },
    ]);
  });

  it("a missing artifact is a warning and the text still replays", () => {
    const result = runReplay(
      [userMessage(1, "go"), personaMessage(2, "Still here.", { artifacts: ["gone"] })],
      [],
    );
    expect(result.view.map((item) => item.text)).toEqual(["go", "Still here."]);
    const reason = "1 artifact of the message not found; its text still replays";
    const missing = { stage: "artifacts", action: "missing-artifact", reason, level: "warning" };
    expect(result.trace).toEqual([
      { ...missing, itemIds: ["msg:m2"], messageIds: ["m2"], details: { artifactIds: ["gone"] } },
    ]);
  });

  it("a malformed call (no name) is dropped with a warning, and its output becomes an orphan", () => {
    const message = personaMessage(2, "ok", { artifacts: ["c1", "o1"] });
    const artifacts = [
      { ...functionCallArtifact("c1", "m2", "k", "x"), payload: { callId: "k", arguments: "{}" } },
      functionOutputArtifact("o1", "m2", "k", "y"),
    ];
    const result = runReplay([userMessage(1, "go"), message], artifacts);
    expect(result.view.map((item) => item.text)).toEqual(["go", "ok"]);
    expect(result.trace.map((event) => event.action)).toEqual([
      "dropped-malformed-artifact",
      "dropped-orphan-tool-artifacts",
    ]);
  });

  it("prunes a long tool output older than outputRetentionTurns to head + note + tail, with the exact text", () => {
    const long = `${"H".repeat(300)}${"M".repeat(500)}${"T".repeat(200)}`; // 1000 chars
    const old = toolTurn(2, long);
    const recent = toolTurn(4, long);
    const result = runReplay(
      [userMessage(1, "first"), old.message, userMessage(3, "second"), recent.message],
      [...old.artifacts, ...recent.artifacts],
      { tools: { outputRetentionTurns: 2 } },
    );
    // Turns: m1 → 0, m3 → 1, current input → 2; 3 turns, keep the last 2: turn 0 is old.
    const outputs = result.value.items
      .filter((item) => item.tag === "TOOL_RESULT")
      .map((item) => (item.parts[0] as { output: unknown }).output);
    expect(outputs[0]).toBe(
      `${"H".repeat(256)}\n...\n[tool output pruned: removed 616 chars, older than 2 turns]\n...\n${"T".repeat(128)}`,
    );
    expect(outputs[1]).toBe(long);
    expect(result.trace).toEqual([
      {
        stage: "artifacts",
        action: "pruned-tool-output",
        reason: "pruned tool output (removed 616 chars, older than 2 turns)",
        itemIds: ["artifact:o2"],
        messageIds: ["m2"],
        counts: { removedChars: 616, originalChars: 1000, retentionTurns: 2 },
        details: { artifactId: "o2", toolCallId: "call2" },
      },
    ]);
  });

  it.each([
    {
      name: "retention 0 turns pruning off",
      settings: { tools: { outputRetentionTurns: 0 } },
      length: 5_000,
    },
    { name: "output under pruneMinChars", settings: { tools: { outputRetentionTurns: 1 } }, length: 799 },
    { name: "inside the retention window", settings: { tools: { outputRetentionTurns: 10 } }, length: 5_000 },
  ])("does not prune: $name", ({ settings, length }) => {
    const old = toolTurn(2, "x".repeat(length));
    const result = runReplay(
      [userMessage(1, "a"), old.message, userMessage(3, "b"), personaMessage(4, "c")],
      old.artifacts,
      settings,
    );
    const output = result.value.items.find((item) => item.tag === "TOOL_RESULT")?.parts[0] as {
      output: string;
    };
    expect(output.output).toHaveLength(length);
    expect(result.trace).toEqual([]);
  });

  it("prunes JSON outputs as their JSON text", () => {
    const old = toolTurn(2, { rows: "y".repeat(900) });
    const result = runReplay([userMessage(1, "a"), old.message, userMessage(3, "b")], old.artifacts, {
      tools: { outputRetentionTurns: 1 },
    });
    const output = result.value.items.find((item) => item.tag === "TOOL_RESULT")?.parts[0] as {
      output: string;
    };
    expect(output.output.startsWith('{"rows":"yyy')).toBe(true);
    expect(output.output).toContain("[tool output pruned: removed 527 chars, older than 1 turn]");
  });

  it.each([
    { persist: "conversation" as const, reasoning: 1, actions: [] as string[] },
    { persist: "next_reply" as const, reasoning: 1, actions: ["replayed-reasoning-once"] },
    { persist: "disabled" as const, reasoning: 0, actions: ["skipped-reasoning"] },
  ])("reasoning.persist = $persist", ({ persist, reasoning, actions }) => {
    const turn = toolTurn(2);
    const result = runReplay([userMessage(1, "q"), turn.message], turn.artifacts, { reasoning: { persist } });
    expect(result.value.items.filter((item) => item.tag === "REASONING")).toHaveLength(reasoning);
    expect(result.trace.map((event) => event.action)).toEqual(actions);
    if (persist === "next_reply") expect(result.trace[0]?.details).toEqual({ artifactIds: ["r2"] });
    expect(result.value.replayedReasoningIds).toEqual(reasoning === 1 ? ["r2"] : []);
  });

  it("drops messages with nothing to send, and does not replay artifacts on a user turn", () => {
    const result = runReplay(
      [
        userMessage(1, "", { parts: [] }),
        userMessage(2, "mine", { artifacts: ["c9"] }),
        personaMessage(3, "", { artifacts: ["w"] }),
      ],
      [functionCallArtifact("c9", "m2", "k", "x"), artifactOfType("w", "m3", "web_search_call")],
    );
    expect(result.view.map((item) => item.id)).toEqual(["msg:m2"]);
    expect(result.trace.map((event) => event.action)).toEqual([
      "dropped-non-replayable",
      "skipped-artifacts",
      "dropped-empty",
    ]);
    expect(result.trace[2]?.itemIds).toEqual(["msg:m1", "msg:m3"]);
  });

  it("turn indices: consecutive users share a turn, an assistant before any user is turn 0", () => {
    expect(computeTurnIndices(["user", "assistant", "user", "assistant"])).toEqual({
      turns: [0, 0, 1, 1],
      totalTurns: 3,
    });
    expect(computeTurnIndices(["user", "user", "assistant", "tool", "user"])).toEqual({
      turns: [0, 0, 0, 0, 1],
      totalTurns: 2,
    });
    expect(computeTurnIndices(["assistant", "user"], false)).toEqual({ turns: [0, 0], totalTurns: 1 });
    expect(computeTurnIndices(["assistant"])).toEqual({ turns: [0], totalTurns: 2 });
    expect(computeTurnIndices([])).toEqual({ turns: [], totalTurns: 1 });
  });

  it("prune helpers", () => {
    expect(toolOutputText(null)).toBe("");
    expect(toolOutputText({ a: 1 })).toBe('{"a":1}');
    expect(pruneToolOutput(`ab  ${"x".repeat(10)}  cd`, { head: 4, tail: 4, retentionTurns: 1 })).toEqual({
      text: "ab\n...\n[tool output pruned: removed 10 chars, older than 1 turn]\n...\ncd",
      removed: 10,
      note: "...\n[tool output pruned: removed 10 chars, older than 1 turn]\n...",
      keptChars: 4,
    });
  });

  describe("cached token counts (tokenizer o200k_base)", () => {
    const o200k = (text: string) => countTextTokens(text, "o200k_base");
    /** A message with hand-picked cached counts: whole text, and its segments when split. */
    const cachedMessage = (message: StoredMessage, tokens: number, segments?: number[]): StoredMessage => ({
      ...message,
      tokenCounts: { o200k_base: tokens },
      segmentTokenCounts: segments === undefined ? null : { o200k_base: segments },
    });
    const cachedArtifact = (artifact: StoredArtifact, tokens: number | null): StoredArtifact =>
      tokens === null ? artifact : { ...artifact, tokenCounts: { o200k_base: tokens } };
    /** Cached the way the writers cache them. */
    const writtenMessage = (message: StoredMessage): StoredMessage => ({
      ...message,
      ...messageTokenCounts(message.parts),
    });
    const writtenArtifact = (artifact: StoredArtifact): StoredArtifact => ({
      ...artifact,
      tokenCounts: artifactTokenCounts(artifact),
    });
    const tokensById = (items: readonly { id: string; tokens: number }[]) =>
      Object.fromEntries(items.map((item) => [item.id, item.tokens]));

    /** toolTurn(2) with cached counts: segments 3 and 4, reasoning 2, call 9, output 1. */
    function cachedToolTurn() {
      const turn = toolTurn(2);
      const [reasoning, call, output] = turn.artifacts;
      return {
        messages: [cachedMessage(userMessage(1, "weather?"), 2), cachedMessage(turn.message, 8, [3, 4])],
        artifacts: [cachedArtifact(reasoning, 2), cachedArtifact(call, 9), cachedArtifact(output, 1)],
      };
    }

    it("counts groups, text pieces and the main item from the cache", () => {
      const { messages, artifacts } = cachedToolTurn();
      const result = runReplay(messages, artifacts, {}, { tokenizer: "o200k_base" });
      // The items in order, each with its count.
      expect(result.value.items.map((item) => [item.id, item.tokens])).toEqual([
        ["msg:m1", TOKENS_PER_MESSAGE + 2],
        // Role mapping's count (framing + 3 + 4) less the second piece's segment.
        ["msg:m2", TOKENS_PER_MESSAGE + 3],
        ["artifact:r2", TOKENS_PER_MESSAGE + 2],
        ["artifact:c2", TOKENS_PER_MESSAGE + 9],
        ["artifact:o2", TOKENS_PER_MESSAGE + 1],
        ["msg:m2:text:1", TOKENS_PER_MESSAGE + 4],
      ]);
    });

    it("the label stays with the main item", () => {
      const { messages, artifacts } = cachedToolTurn();
      const result = runReplay(messages, artifacts, {}, { tokenizer: "o200k_base", labels: true });
      expect(tokensById(result.value.items)).toEqual({
        "msg:m1": TOKENS_PER_MESSAGE + 2 + o200k("Ada: "),
        "msg:m2": TOKENS_PER_MESSAGE + 3 + o200k("Aria: "),
        "artifact:r2": TOKENS_PER_MESSAGE + 2,
        "artifact:c2": TOKENS_PER_MESSAGE + 9,
        "artifact:o2": TOKENS_PER_MESSAGE + 1,
        "msg:m2:text:1": TOKENS_PER_MESSAGE + 4,
      });
    });

    it("every text piece gets its own segment; the main item keeps only the first", () => {
      const message = cachedMessage(
        personaMessage(2, "", {
          parts: [
            storedText("One."),
            storedArtifact("c1"),
            storedArtifact("o1"),
            storedText("Two."),
            storedArtifact("r1"),
            storedText("Three."),
          ],
        }),
        20,
        [5, 6, 7],
      );
      const artifacts = [
        cachedArtifact(functionCallArtifact("c1", "m2", "k1", "f", {}), 11),
        cachedArtifact(functionOutputArtifact("o1", "m2", "k1", "ok"), 12),
        cachedArtifact(reasoningArtifact("r1", "m2", "hmm"), 13),
      ];
      const result = runReplay([userMessage(1, "go"), message], artifacts, {}, { tokenizer: "o200k_base" });
      expect(tokensById(result.value.items.slice(1))).toEqual({
        "msg:m2": TOKENS_PER_MESSAGE + 5,
        "artifact:c1": TOKENS_PER_MESSAGE + 11,
        "artifact:o1": TOKENS_PER_MESSAGE + 12,
        "msg:m2:text:1": TOKENS_PER_MESSAGE + 6,
        "artifact:r1": TOKENS_PER_MESSAGE + 13,
        "msg:m2:text:2": TOKENS_PER_MESSAGE + 7,
      });
      // Nothing is counted twice: the pieces add up to role mapping's count of the message, one framing each.
      const pieces = result.value.items.filter(
        (item) => item.tag === "DIALOGUE_HISTORY" && item.id.startsWith("msg:m2"),
      );
      expect(pieces.reduce((sum, item) => sum + item.tokens, 0)).toBe(3 * TOKENS_PER_MESSAGE + 5 + 6 + 7);
    });

    /** Two parallel calls then their outputs, then text; `calls` and `outputs` are the cached counts. */
    function parallelTurn(calls: [number | null, number | null], outputs: [number | null, number | null]) {
      const message = cachedMessage(
        personaMessage(2, "", {
          parts: [
            storedArtifact("c1"),
            storedArtifact("c2"),
            storedArtifact("o1"),
            storedArtifact("o2"),
            storedText("Both done."),
          ],
        }),
        3,
        [3],
      );
      const artifacts = [
        cachedArtifact(functionCallArtifact("c1", "m2", "k1", "a", {}), calls[0]),
        cachedArtifact(functionCallArtifact("c2", "m2", "k2", "b", { x: 1 }), calls[1]),
        cachedArtifact(functionOutputArtifact("o1", "m2", "k1", { ok: true }), outputs[0]),
        cachedArtifact(functionOutputArtifact("o2", "m2", "k2", "fine"), outputs[1]),
      ];
      const result = runReplay([userMessage(1, "go"), message], artifacts, {}, { tokenizer: "o200k_base" });
      return tokensById(result.value.items.slice(1));
    }

    it("a group sums its parts' cached counts under one framing", () => {
      expect(parallelTurn([5, 7], [3, 2])).toEqual({
        "artifact:c1": TOKENS_PER_MESSAGE + 5 + 7,
        "artifact:o1": TOKENS_PER_MESSAGE + 3 + 2,
        "msg:m2": TOKENS_PER_MESSAGE + 3,
      });
    });

    it("a group with one uncached artifact is 0, whichever one it is", () => {
      expect(parallelTurn([5, null], [3, 2])).toEqual({
        "artifact:c1": 0,
        "artifact:o1": TOKENS_PER_MESSAGE + 3 + 2,
        "msg:m2": TOKENS_PER_MESSAGE + 3,
      });
      expect(parallelTurn([5, 7], [null, 2])).toEqual({
        "artifact:c1": TOKENS_PER_MESSAGE + 5 + 7,
        "artifact:o1": 0,
        "msg:m2": TOKENS_PER_MESSAGE + 3,
      });
      // Cached for another tokenizer only counts as uncached.
      const turn = toolTurn(2);
      const [reasoning, call, output] = turn.artifacts;
      const result = runReplay(
        [userMessage(1, "go"), cachedMessage(turn.message, 8, [3, 4])],
        [reasoning, { ...call, tokenCounts: { estimate: 9 } }, cachedArtifact(output, 1)],
        {},
        { tokenizer: "o200k_base" },
      );
      expect(tokensById(result.value.items)["artifact:c2"]).toBe(0);
      expect(tokensById(result.value.items)["artifact:r2"]).toBe(0);
      expect(tokensById(result.value.items)["artifact:o2"]).toBe(TOKENS_PER_MESSAGE + 1);
    });

    it("counts cached at write time match a full recount of every replayed item", () => {
      const turn = toolTurn(2, {
        forecast: [
          { day: "Mon", high: 24 },
          { day: "Tue", high: 22 },
        ],
      });
      const result = runReplay(
        [writtenMessage(userMessage(1, "What is the weather in Lisbon?")), writtenMessage(turn.message)],
        turn.artifacts.map(writtenArtifact),
        {},
        { tokenizer: "o200k_base" },
      );
      expect(result.value.items).toHaveLength(6);
      for (const item of result.value.items) {
        expect(item.tokens, item.id).toBeGreaterThan(TOKENS_PER_MESSAGE);
        expect(item.tokens, item.id).toBe(countItemTokens(item, "o200k_base"));
      }
    });

    it("a pruned old output is counted from the cache: head and tail scaled, plus the note", () => {
      const rows: string[] = [];
      for (let i = 0; i < 40; i++)
        rows.push(
          `${i + 1}. Lisbon day ${i + 1}: high ${18 + (i % 9)}°C, low ${11 + (i % 5)}°C, wind ${5 + ((i * 7) % 23)} km/h`,
        );
      const long = rows.join("\n");
      expect(long.length).toBeGreaterThan(1_500);
      const old = toolTurn(2, long);
      const recent = toolTurn(4, long);
      const result = runReplay(
        [
          writtenMessage(userMessage(1, "first")),
          writtenMessage(old.message),
          writtenMessage(userMessage(3, "second")),
          writtenMessage(recent.message),
        ],
        [...old.artifacts, ...recent.artifacts].map(writtenArtifact),
        { tools: { outputRetentionTurns: 2 } },
        { tokenizer: "o200k_base" },
      );
      const outputOf = (item: ContextItem) => (item.parts[0] as { output: unknown }).output;
      const toolResults = result.value.items.filter((item) => item.tag === "TOOL_RESULT");
      expect(toolResults.map((item) => item.id)).toEqual(["artifact:o2", "artifact:o4"]);
      const pruned = elementAt(toolResults, 0);
      const kept = elementAt(toolResults, 1);
      expect(outputOf(pruned)).toContain("[tool output pruned: removed");
      expect(outputOf(kept)).toBe(long);

      const cached = o200k(long);
      const cut = pruneToolOutput(long, { head: 256, tail: 128, retentionTurns: 2 });
      expect(cut.keptChars).toBe(256 + 128);
      expect(outputOf(pruned)).toBe(cut.text);
      expect(pruned.tokens).toBe(
        TOKENS_PER_MESSAGE + Math.ceil((cached * cut.keptChars) / long.length) + o200k(`\n${cut.note}\n`),
      );
      const recount = countItemTokens(pruned, "o200k_base");
      expect(Math.abs(pruned.tokens - recount)).toBeLessThanOrEqual(0.15 * recount);
      // Far below the whole output's count; the recent output keeps it whole.
      expect(pruned.tokens).toBeLessThan(cached / 2);
      expect(kept.tokens).toBe(TOKENS_PER_MESSAGE + cached);
    });

    it("without a tokenizer every count stays 0, as before", () => {
      const { messages, artifacts } = cachedToolTurn();
      const none = runReplay(messages, artifacts);
      expect(none.value.items).toHaveLength(6);
      expect(none.value.items.every((item) => item.tokens === 0)).toBe(true);
      // Role mapping counted, artifact replay called without a tokenizer: the expanded message's items are left for later,
      // the untouched user item keeps its count.
      const replayOnly = runReplay(
        messages,
        artifacts,
        {},
        { tokenizer: "o200k_base", replayWithoutTokenizer: true },
      );
      expect(tokensById(replayOnly.value.items)).toEqual({
        "msg:m1": TOKENS_PER_MESSAGE + 2,
        "msg:m2": 0,
        "artifact:r2": 0,
        "artifact:c2": 0,
        "artifact:o2": 0,
        "msg:m2:text:1": 0,
      });
    });
  });
});

describe("provider metadata (docs/features.md#reasoning-and-provider-metadata)", () => {
  it("replays every tagged part with what the provider attached: reasoning, the call, the output, the text", () => {
    const google = { google: { thoughtSignature: "sig-1" } };
    const openai = { openai: { itemId: "rs_1", reasoningEncryptedContent: "opaque" } };
    const message = personaMessage(2, "", {
      parts: [
        { type: "artifact", artifactId: "r2" },
        { type: "artifact", artifactId: "c2" },
        { type: "artifact", artifactId: "o2" },
        { type: "text", text: "Sunny.", providerMetadata: google },
      ],
    });
    const artifacts = [
      { ...reasoningArtifact("r2", "m2", ""), payload: { text: "", providerMetadata: openai } },
      {
        ...functionCallArtifact("c2", "m2", "call2", "weather", "{}"),
        payload: { callId: "call2", name: "weather", arguments: "{}", providerMetadata: google },
      },
      {
        ...functionOutputArtifact("o2", "m2", "call2", "sunny"),
        payload: {
          callId: "call2",
          name: "weather",
          output: "sunny",
          providerMetadata: { google: { id: "x" } },
        },
      },
    ];
    const result = runReplay([userMessage(1, "weather?"), message], artifacts);
    const parts = result.value.items.flatMap((item) => item.parts);
    expect(parts).toEqual([
      { type: "text", text: "weather?" },
      { type: "reasoning", text: "", providerMetadata: openai },
      { type: "tool-call", toolCallId: "call2", toolName: "weather", input: {}, providerMetadata: google },
      {
        type: "tool-result",
        toolCallId: "call2",
        toolName: "weather",
        output: "sunny",
        providerMetadata: { google: { id: "x" } },
      },
      { type: "text", text: "Sunny.", providerMetadata: google },
    ]);
  });

  it("ignores stored metadata that is not provider key → object", () => {
    const message = personaMessage(2, "", {
      parts: [storedArtifact("r2"), storedText("Hi.")],
    });
    const artifacts = [
      { ...reasoningArtifact("r2", "m2", "hmm"), payload: { text: "hmm", providerMetadata: "x" } },
    ];
    const result = runReplay([userMessage(1, "q"), message], artifacts);
    const reasoning = result.value.items.find((item) => item.tag === "REASONING");
    expect(reasoning?.parts).toEqual([{ type: "reasoning", text: "hmm" }]);
  });

  it("never collapses a reply's tagged text into the next one", () => {
    const tagged = personaMessage(2, "", {
      parts: [{ type: "text", text: "First.", providerMetadata: { google: { thoughtSignature: "s" } } }],
    });
    const result = runReplay([userMessage(1, "q"), tagged, personaMessage(3, "Second.")], []);
    expect(result.value.items.map((item) => item.parts)).toEqual([
      [{ type: "text", text: "q" }],
      [{ type: "text", text: "First.", providerMetadata: { google: { thoughtSignature: "s" } } }],
      [{ type: "text", text: "Second." }],
    ]);
  });
});

describe("history goes back in the form it came: steps and provider-run tools", () => {
  /** A stored artifact with payload fields added (step, providerExecuted, …). */
  const withPayload = (artifact: StoredArtifact, extra: Record<string, unknown>): StoredArtifact => ({
    ...artifact,
    payload: { ...artifact.payload, ...extra },
  });

  /**
   * Call `n` of the reply (artifacts c<n> and o<n>, tool call id call_<n>) to `toolName` and its `output`, with
   * `callExtra` and `outputExtra` added to their payloads.
   */
  const toolRound = (
    n: number,
    toolName: string,
    output: string,
    callExtra: Record<string, unknown> = {},
    outputExtra = callExtra,
  ) => [
    withPayload(functionCallArtifact(`c${n}`, "m2", `call_${n}`, toolName), callExtra),
    withPayload(functionOutputArtifact(`o${n}`, "m2", `call_${n}`, output, toolName), outputExtra),
  ];

  /** Each replayed item as role, step number within the message and part kinds. */
  function shape(items: readonly ContextItem[]) {
    return items
      .filter((entry) => entry.sourceMessageIds.includes("m2"))
      .map((entry) => ({
        role: entry.role,
        step: entry.step?.split(":step:")[1] ?? null,
        parts: entry.parts.map((part) =>
          part.type === "tool-call" || part.type === "tool-result"
            ? `${part.type}${part.providerExecuted ? "(provider)" : ""}${part.type === "tool-result" && part.outputType ? `(${part.outputType})` : ""}`
            : part.type,
        ),
      }));
  }

  const scenarios: Array<{
    name: string;
    parts: ReturnType<typeof storedArtifact | typeof storedText>[];
    artifacts: StoredArtifact[];
    expected: ReturnType<typeof shape>;
  }> = [
    {
      name: "a thought and parallel calls with their outputs: one step, outputs together",
      parts: ["r", "c1", "c2", "o1", "o2"].map((id) => storedArtifact(id)).concat(storedText("Both done.")),
      artifacts: [
        withPayload(reasoningArtifact("r", "m2", "thinking"), {}),
        withPayload(functionCallArtifact("c1", "m2", "call_1", "read"), { step: 0 }),
        withPayload(functionCallArtifact("c2", "m2", "call_2", "read"), { step: 0 }),
        withPayload(functionOutputArtifact("o1", "m2", "call_1", "a", "read"), { step: 0 }),
        withPayload(functionOutputArtifact("o2", "m2", "call_2", "b", "read"), { step: 0 }),
      ],
      expected: [
        { role: "assistant", step: "0", parts: ["reasoning"] },
        { role: "assistant", step: "0", parts: ["tool-call", "tool-call"] },
        { role: "tool", step: "0", parts: ["tool-result", "tool-result"] },
        { role: "assistant", step: "1", parts: ["text"] },
      ],
    },
    {
      name: "an invalid call answered at once, then another call: the stored step keeps them in one step",
      parts: ["c1", "o1", "c2", "o2"].map((id) => storedArtifact(id)).concat(storedText("Sorry.")),
      artifacts: [
        ...toolRound(1, "nope", "no such tool", { step: 0 }, { step: 0, outputType: "error-text" }),
        ...toolRound(2, "nope", "no such tool", { step: 0 }, { step: 0, outputType: "error-text" }),
      ],
      expected: [
        { role: "assistant", step: "0", parts: ["tool-call"] },
        { role: "tool", step: "0", parts: ["tool-result(error-text)"] },
        { role: "assistant", step: "0", parts: ["tool-call"] },
        { role: "tool", step: "0", parts: ["tool-result(error-text)"] },
        { role: "assistant", step: "1", parts: ["text"] },
      ],
    },
    {
      name: "two steps stored with their numbers",
      parts: ["c1", "o1", "c2", "o2"].map((id) => storedArtifact(id)),
      artifacts: [...toolRound(1, "read", "a", { step: 0 }), ...toolRound(2, "read", "b", { step: 1 })],
      expected: [
        { role: "assistant", step: "0", parts: ["tool-call"] },
        { role: "tool", step: "0", parts: ["tool-result"] },
        { role: "assistant", step: "1", parts: ["tool-call"] },
        { role: "tool", step: "1", parts: ["tool-result"] },
      ],
    },
    {
      name: "older rows without steps: the model's words after the outputs open the next step",
      parts: [storedText("Let me look."), storedArtifact("c1"), storedArtifact("o1"), storedArtifact("c2")]
        .concat(storedArtifact("o2"))
        .concat(storedText("Found it.")),
      artifacts: [...toolRound(1, "read", "a"), ...toolRound(2, "read", "b")],
      expected: [
        { role: "assistant", step: "0", parts: ["text"] },
        { role: "assistant", step: "0", parts: ["tool-call"] },
        { role: "tool", step: "0", parts: ["tool-result"] },
        { role: "assistant", step: "1", parts: ["tool-call"] },
        { role: "tool", step: "1", parts: ["tool-result"] },
        { role: "assistant", step: "2", parts: ["text"] },
      ],
    },
    {
      name: "a provider-run tool: its call and result stay in the assistant's step, the text around them too",
      parts: [
        storedText("Running code."),
        storedArtifact("c1"),
        storedArtifact("o1"),
        storedText("It printed 4."),
      ],
      artifacts: [
        withPayload(functionCallArtifact("c1", "m2", "srv_1", "code_execution", { code: "2+2" }), {
          step: 0,
          providerExecuted: true,
          executedBy: "anthropic",
        }),
        withPayload(functionOutputArtifact("o1", "m2", "srv_1", { stdout: "4" }, "code_execution"), {
          step: 0,
          providerExecuted: true,
          executedBy: "anthropic",
        }),
      ],
      expected: [
        { role: "assistant", step: "0", parts: ["text"] },
        { role: "assistant", step: "0", parts: ["tool-call(provider)", "tool-result(provider)"] },
        { role: "assistant", step: "0", parts: ["text"] },
      ],
    },
  ];

  for (const scenario of scenarios) {
    it(scenario.name, () => {
      const message = personaMessage(2, "", { parts: scenario.parts });
      const result = runReplay([userMessage(1, "go"), message], scenario.artifacts);
      expect(shape(result.value.items)).toEqual(scenario.expected);
    });
  }

  it("never prunes a provider-run tool's result (its schema would break), while an old client output is", () => {
    const long = "x".repeat(2_000);
    const message = personaMessage(2, "", {
      parts: [storedArtifact("c1"), storedArtifact("o1"), storedArtifact("c2"), storedArtifact("o2")],
    });
    const artifacts = [
      withPayload(functionCallArtifact("c1", "m2", "srv_1", "code_execution"), { providerExecuted: true }),
      withPayload(functionOutputArtifact("o1", "m2", "srv_1", long, "code_execution"), {
        providerExecuted: true,
      }),
      functionCallArtifact("c2", "m2", "call_2", "read"),
      functionOutputArtifact("o2", "m2", "call_2", long, "read"),
    ];
    const messages = [userMessage(1, "go"), message, userMessage(3, "more"), userMessage(5, "again")];
    const result = runReplay(messages, artifacts, {
      tools: { outputRetentionTurns: 1, pruneMinChars: 100, pruneHead: 10, pruneTail: 10 },
    });
    const outputs = result.value.items.flatMap((entry) =>
      entry.parts.flatMap((part) => (part.type === "tool-result" ? [part] : [])),
    );
    expect(outputs.map((part) => (part.output as string).length === long.length)).toEqual([true, false]);
  });
});
