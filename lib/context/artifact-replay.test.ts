import { describe, expect, it } from "vitest";
import { computeTurnIndices, pruneToolOutput, replayArtifacts, toolOutputText } from "./artifact-replay";
import { collapseRuns } from "./collapse-runs";
import { mapRoles } from "./role-mapping";
import type { SettingsOverride } from "./settings";
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
  viewItems,
} from "./test-fixtures";
import type { StoredArtifact, StoredMessage } from "./types";

function runReplay(
  messages: StoredMessage[],
  artifacts: StoredArtifact[],
  settings: SettingsOverride = {},
  options: { labels?: boolean } = {},
) {
  deepFreeze(messages);
  deepFreeze(artifacts);
  const resolved = settingsWith({
    ...settings,
    history: { speakerLabels: options.labels ? "always" : "never" },
  });
  const { entries } = collapseRuns(messages);
  const mapped = mapRoles({
    entries,
    currentInput: userMessage(1_000, "now"),
    persona: PERSONA,
    participants: [],
    allMessages: messages,
    settings: resolved,
  });
  const result = replayArtifacts({
    items: mapped.history,
    messagesById: new Map(messages.map((message) => [message.id, message])),
    artifactsById: new Map(artifacts.map((artifact) => [artifact.id, artifact])),
    settings: resolved,
  });
  return { ...result, view: viewItems(result.items) };
}

/** An assistant message: text, reasoning, a call, its output, then more text. */
function toolTurn(seq: number, output: unknown = "sunny") {
  const id = `m${seq}`;
  const message = personaMessage(seq, "", {
    parts: [
      { type: "text", text: "Let me check." },
      { type: "artifact", artifactId: `r${seq}` },
      { type: "artifact", artifactId: `c${seq}` },
      { type: "artifact", artifactId: `o${seq}` },
      { type: "text", text: `Done ${seq}.` },
    ],
  });
  const artifacts = [
    reasoningArtifact(`r${seq}`, id, "think"),
    functionCallArtifact(`c${seq}`, id, `call${seq}`, "weather", '{"city":"Lisbon"}'),
    functionOutputArtifact(`o${seq}`, id, `call${seq}`, output),
  ];
  return { message, artifacts };
}

describe("artifact replay (stage 6)", () => {
  it("replays reasoning, the call and its output between the text pieces, in part order", () => {
    const turn = toolTurn(2);
    const result = runReplay(
      [userMessage(1, "weather?"), turn.message],
      turn.artifacts,
      {},
      { labels: true },
    );
    expect(result.view).toEqual([
      { id: "msg:m1", role: "user", tag: "DIALOGUE_HISTORY", text: "Ada: weather?" },
      { id: "msg:m2", role: "assistant", tag: "DIALOGUE_HISTORY", text: "Aria: Let me check." },
      { id: "artifact:r2", role: "assistant", tag: "REASONING", text: "«reasoning:think»" },
      {
        id: "artifact:c2",
        role: "assistant",
        tag: "TOOL_CALL",
        text: '«call:call2:weather:{"city":"Lisbon"}»',
      },
      { id: "artifact:o2", role: "tool", tag: "TOOL_RESULT", text: "«result:call2:sunny»" },
      { id: "msg:m2:text:1", role: "assistant", tag: "DIALOGUE_HISTORY", text: "Done 2." },
    ]);
    expect(result.items[4].parts[0]).toEqual({
      type: "tool-result",
      toolCallId: "call2",
      toolName: "weather",
      output: "sunny",
    });
    expect(result.items.every((item) => item.sourceMessageIds.length === 1)).toBe(true);
    expect(result.trace).toEqual([]);
  });

  it("groups parallel calls into one item and their outputs into one tool item", () => {
    const message = personaMessage(2, "", {
      parts: [
        { type: "artifact", artifactId: "c1" },
        { type: "artifact", artifactId: "c2" },
        { type: "artifact", artifactId: "o1" },
        { type: "artifact", artifactId: "o2" },
        { type: "text", text: "Both done." },
      ],
    });
    const artifacts = [
      functionCallArtifact("c1", "m2", "k1", "a", {}),
      functionCallArtifact("c2", "m2", "k2", "b", { x: 1 }),
      functionOutputArtifact("o1", "m2", "k1", { ok: true }),
      functionOutputArtifact("o2", "m2", "k2", "fine"),
    ];
    const result = runReplay([userMessage(1, "go"), message], artifacts);
    expect(result.view.slice(1)).toEqual([
      {
        id: "artifact:c1",
        role: "assistant",
        tag: "TOOL_CALL",
        text: '«call:k1:a:{}» | «call:k2:b:{"x":1}»',
      },
      {
        id: "artifact:o1",
        role: "tool",
        tag: "TOOL_RESULT",
        text: '«result:k1:{"ok":true}» | «result:k2:fine»',
      },
      { id: "msg:m2", role: "assistant", tag: "DIALOGUE_HISTORY", text: "Both done." },
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
    expect(result.trace).toEqual([
      {
        stage: "artifacts",
        action: "missing-artifact",
        reason: "1 artifact of the message not found; its text still replays",
        level: "warning",
        itemIds: ["msg:m2"],
        messageIds: ["m2"],
        details: { artifactIds: ["gone"] },
      },
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
    const outputs = result.items
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
    const output = result.items.find((item) => item.tag === "TOOL_RESULT")?.parts[0] as { output: string };
    expect(output.output).toHaveLength(length);
    expect(result.trace).toEqual([]);
  });

  it("prunes JSON outputs as their JSON text", () => {
    const old = toolTurn(2, { rows: "y".repeat(900) });
    const result = runReplay([userMessage(1, "a"), old.message, userMessage(3, "b")], old.artifacts, {
      tools: { outputRetentionTurns: 1 },
    });
    const output = result.items.find((item) => item.tag === "TOOL_RESULT")?.parts[0] as { output: string };
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
    expect(result.items.filter((item) => item.tag === "REASONING")).toHaveLength(reasoning);
    expect(result.trace.map((event) => event.action)).toEqual(actions);
    if (persist === "next_reply") expect(result.trace[0].details).toEqual({ artifactIds: ["r2"] });
    expect(result.replayedReasoningIds).toEqual(reasoning === 1 ? ["r2"] : []);
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
    expect(result.trace[2].itemIds).toEqual(["msg:m1", "msg:m3"]);
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
    });
  });
});
