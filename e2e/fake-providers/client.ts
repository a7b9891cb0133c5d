// Dependency-free client for the fake providers' control endpoints, for tests in another process.
import type { ScriptedReply } from "./script-schema";
import type { Protocol, RecordedRequest } from "./types";

export type { ScriptedReply } from "./script-schema";
export type { Protocol, RecordedRequest } from "./types";

export interface FakeProviderClient {
  requests(protocol?: Protocol | "unknown"): Promise<RecordedRequest[]>;
  /** Forgets the recorded requests. */
  clear(): Promise<void>;
  script(replies: ScriptedReply | readonly ScriptedReply[]): Promise<void>;
  pendingScripts(): Promise<ScriptedReply[]>;
  /** Drops queued scripts, recorded requests and what the fake Anthropic's prompt cache holds. */
  reset(): Promise<void>;
  health(): Promise<{ ok: boolean; requests: number; pendingScripts: number }>;
}

export function fakeProviderClient(url: string): FakeProviderClient {
  const origin = url.replace(/\/+$/, "");

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: body === undefined ? undefined : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok)
      throw new Error(`fake providers: ${method} ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  }

  return {
    requests: (protocol) =>
      call(
        "GET",
        protocol === undefined ? "/__requests" : `/__requests?protocol=${encodeURIComponent(protocol)}`,
      ),
    clear: async () => {
      await call("DELETE", "/__requests");
    },
    script: async (replies) => {
      await call("POST", "/__script", { replies: Array.isArray(replies) ? replies : [replies] });
    },
    pendingScripts: async () => (await call<{ pending: ScriptedReply[] }>("GET", "/__script")).pending,
    reset: async () => {
      await call("DELETE", "/__script");
      await call("DELETE", "/__requests");
      await call("DELETE", "/__prompt-cache");
    },
    health: () => call("GET", "/__health"),
  };
}
