// The inspector's pure logic: the payload diff, the prefix-stability figure, and "copy as cURL" — the last run
// for real through sh and curl against the fake provider, which must receive the identical body.
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { curlCommand, shellQuote } from "@/components/inspector/curl-command";
import { type FakeProviders, startFakeProviders } from "@/e2e/fake-providers/server";
import type { ContextItem } from "@/lib/domain/types";
import { describePrefixStability, diffItems, prefixStability } from "@/lib/payload-diff";

function item(id: string, text: string, overrides: Partial<ContextItem> = {}): ContextItem {
  return {
    id,
    role: "user",
    tag: "DIALOGUE_HISTORY",
    parts: [{ type: "text", text }],
    sourceMessageIds: [],
    tokens: 1,
    ...overrides,
  };
}

describe("diffItems", () => {
  test("a second turn: the new reply and input are added, the old input changed its tag", () => {
    const system = item("system:SYSTEM_PROMPT", "You are…", { role: "system", tag: "SYSTEM_PROMPT" });
    const first = [system, item("msg:u1", "Hi", { tag: "CURRENT_INPUT" })];
    const second = [
      system,
      item("msg:u1", "Hi"),
      item("msg:a1", "Hello!", { role: "assistant" }),
      item("msg:u2", "More", { tag: "CURRENT_INPUT" }),
    ];
    const diff = diffItems(first, second);
    expect(diff.entries.map((entry) => [entry.item.id, entry.change, entry.details])).toEqual([
      ["system:SYSTEM_PROMPT", "same", []],
      ["msg:u1", "changed", ["tag CURRENT_INPUT → DIALOGUE_HISTORY"]],
      ["msg:a1", "added", []],
      ["msg:u2", "added", []],
    ]);
    expect(diff.counts).toEqual({ added: 2, removed: 0, changed: 1, moved: 0, same: 1 });
  });

  test("removed items sit where they were; a note that jumped is moved, not changed", () => {
    const previous = [item("s", "S"), item("a", "A"), item("note", "N"), item("b", "B"), item("c", "C")];
    const current = [item("s", "S"), item("note", "N"), item("b", "B"), item("c", "C2"), item("d", "D")];
    const diff = diffItems(previous, current);
    expect(diff.entries.map((entry) => [entry.item.id, entry.change])).toEqual([
      ["s", "same"],
      ["a", "removed"],
      ["note", "same"],
      ["b", "same"],
      ["c", "changed"],
      ["d", "added"],
    ]);
    const moved = diffItems(
      [item("x", "X"), item("y", "Y"), item("note", "N")],
      [item("note", "N"), item("x", "X"), item("y", "Y")],
    );
    expect(moved.entries.map((entry) => [entry.item.id, entry.change, entry.details])).toEqual([
      ["note", "moved", ["position"]],
      ["x", "same", []],
      ["y", "same", []],
    ]);
  });

  test("identical payloads: everything the same", () => {
    const items = [item("a", "A"), item("b", "B")];
    expect(diffItems(items, items).counts).toEqual({ added: 0, removed: 0, changed: 0, moved: 0, same: 2 });
  });
});

describe("prefixStability", () => {
  test.each([
    {
      previous: '{"m":[1,2]}',
      current: '{"m":[1,2,3]}',
      stable: 9,
      divergeAt: 9,
      text: "Prefix stable for 9 of 11 bytes (81.8%)",
    },
    {
      previous: "abc",
      current: "abc",
      stable: 3,
      divergeAt: null,
      text: "Prefix stable for 3 of 3 bytes (100%)",
    },
    {
      previous: "abc",
      current: "abcdef",
      stable: 3,
      divergeAt: null,
      text: "Prefix stable for 3 of 3 bytes (100%)",
    },
    {
      previous: "xbc",
      current: "abc",
      stable: 0,
      divergeAt: 0,
      text: "Prefix stable for 0 of 3 bytes (0.0%)",
    },
    // "é" (c3 a9) and "è" (c3 a8) share their first UTF-8 byte: bytes count, not characters.
    {
      previous: "aé",
      current: "aè",
      stable: 2,
      divergeAt: 1,
      text: "Prefix stable for 2 of 3 bytes (66.7%)",
    },
  ])("$previous → $current", ({ previous, current, stable, divergeAt, text }) => {
    const result = prefixStability(previous, current);
    expect(result.stableBytes).toBe(stable);
    expect(result.divergeAt).toBe(divergeAt);
    expect(describePrefixStability(result)).toBe(text);
  });
});

describe("curlCommand", () => {
  let fake: FakeProviders;
  beforeAll(async () => {
    fake = await startFakeProviders({ port: 0 });
  });
  afterAll(async () => {
    await fake.close();
  });

  test("shellQuote survives every character a body can hold", () => {
    const hostile = `it's "quoted" $HOME \`id\` \\ \n tab\t ünïcødé 🙂 '' '\\''`;
    expect(execFileSync("sh", ["-c", `printf '%s' ${shellQuote(hostile)}`]).toString()).toBe(hostile);
  });

  test("the offline model cannot be replayed over HTTP", () => {
    expect(curlCommand("offline", { url: "offline://echo", body: "{}" })).toBeNull();
    expect(curlCommand(null, { url: "/v1/chat/completions", body: "{}" })).toBeNull();
  });

  // Each provider's header lines, as the command writes them (the key a placeholder).
  const KEY_HEADERS = {
    openai: ['-H "Authorization: Bearer $OPENAI_API_KEY"'],
    google: ['-H "x-goog-api-key: $GOOGLE_GENERATIVE_AI_API_KEY"'],
    anthropic: ['-H "x-api-key: $ANTHROPIC_API_KEY"', '-H "anthropic-version: 2023-06-01"'],
    "openai-compatible": [
      `-H "Authorization: Bearer ${["$", "{OPENAI_COMPATIBLE_API_KEY:-none}"].join("")}"`,
    ],
  };
  const command = (target: string, headers: string[]) =>
    [
      `printf '%s' '{"q":"it'\\''s"}' |`,
      `  curl -sS -N ${target} \\`,
      `    -H "Content-Type: application/json" \\`,
      ...headers.map((header) => `    ${header} \\`),
      "    --data-binary @-",
    ].join("\n");

  test.each([
    {
      name: "a full URL names the host the request went to",
      provider: "openai" as const,
      url: "http://127.0.0.1:4010/v1/chat/completions",
      target: "'http://127.0.0.1:4010/v1/chat/completions'",
      variables: ["OPENAI_API_KEY"],
    },
    {
      name: "a full URL keeps its port and query",
      provider: "google" as const,
      url: "https://gemini.example.test:8443/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
      target:
        "'https://gemini.example.test:8443/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse'",
      variables: ["GOOGLE_GENERATIVE_AI_API_KEY"],
    },
    {
      name: "a full URL with shell-special characters stays literal",
      provider: "anthropic" as const,
      url: "https://proxy.example.test/anthropic/v1/messages?note=$HOME'`x`",
      target: "'https://proxy.example.test/anthropic/v1/messages?note=$HOME'\\''`x`'",
      variables: ["ANTHROPIC_API_KEY"],
    },
    {
      name: "an OpenAI-compatible server is named, not asked for",
      provider: "openai-compatible" as const,
      url: "http://localhost:11434/v1/chat/completions",
      target: "'http://localhost:11434/v1/chat/completions'",
      variables: ["OPENAI_COMPATIBLE_API_KEY"],
    },
    {
      name: "an older attempt's bare path falls back to the origin placeholder",
      provider: "openai" as const,
      url: "/v1/chat/completions",
      target: `"${["$", "{OPENAI_ORIGIN:-https://api.openai.com}"].join("")}/v1/chat/completions"`,
      variables: ["OPENAI_API_KEY", "OPENAI_ORIGIN"],
    },
  ])("$name", ({ provider, url, target, variables }) => {
    expect(curlCommand(provider, { url, body: `{"q":"it's"}` })).toEqual({
      command: command(target, KEY_HEADERS[provider]),
      variables,
    });
  });

  test("a recorded full URL replays against the server it names, with the identical body", async () => {
    await fake.reset();
    const body = JSON.stringify({
      model: "gpt-4.1-mini",
      stream: true,
      messages: [{ role: "user", content: "$x 'y'" }],
    });
    const curl = curlCommand("openai", { url: `${fake.url}/v1/chat/completions`, body });
    const { stdout: output } = await promisify(execFile)("sh", ["-c", curl?.command as string], {
      env: { ...process.env, OPENAI_API_KEY: "sk-dummy", OPENAI_ORIGIN: "http://127.0.0.1:1" },
    });
    expect(output).toContain("data:");
    expect(fake.requests.map((request) => [request.path, request.body])).toEqual([
      ["/v1/chat/completions", body],
    ]);
  });

  test.each([
    {
      provider: "openai" as const,
      url: "/v1/chat/completions",
      env: { OPENAI_API_KEY: "sk-dummy", OPENAI_ORIGIN: "" },
      header: ["authorization", "Bearer sk-dummy"],
    },
    {
      provider: "google" as const,
      url: "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
      env: { GOOGLE_GENERATIVE_AI_API_KEY: "g-dummy", GOOGLE_ORIGIN: "" },
      header: ["x-goog-api-key", "g-dummy"],
    },
  ])("$provider: sh runs it and the provider receives the identical body", async ({ provider, url, env }) => {
    await fake.reset();
    const body =
      provider === "openai"
        ? JSON.stringify({
            model: "gpt-4.1-mini",
            stream: true,
            messages: [{ role: "user", content: 'it\'s a "test" with $PATH, `ticks`, \\n and ünïcødé 🙂' }],
          })
        : JSON.stringify({ contents: [{ role: "user", parts: [{ text: "it's $HOME \\ 'quoted'" }] }] });
    const curl = curlCommand(provider, { url, body });
    expect(curl).not.toBeNull();
    const originVariable = provider === "openai" ? "OPENAI_ORIGIN" : "GOOGLE_ORIGIN";
    expect(curl?.variables).toContain(originVariable);
    // Asynchronously: the fake server runs in this process and must keep answering while curl waits.
    const { stdout: output } = await promisify(execFile)("sh", ["-c", curl?.command as string], {
      env: { ...process.env, ...env, [originVariable]: fake.url },
    });
    expect(output).toContain("data:");
    const [received] = fake.requests;
    expect(received.body).toBe(body);
    expect(received.path).toBe(url);
    expect(received.strippedHeaders).toContain(provider === "openai" ? "authorization" : "x-goog-api-key");
  });
});
