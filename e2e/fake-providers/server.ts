// Fake LLM provider servers (OpenAI chat completions, OpenAI Responses, Gemini) in one node:http server:
// real HTTP on 127.0.0.1, real wire formats, every request recorded, replies scriptable.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { handleControl, isControlPath } from "./control-routes";
import { PromptCache } from "./prompt-cache";
import { handleProviderRequest } from "./provider-routes";
import { RequestRecorder } from "./recorder";
import { ScriptQueue } from "./script-queue";
import { type ScriptedReply, scriptedReplySchema } from "./script-schema";
import type { RecordedRequest } from "./types";

export type { ScriptedReply } from "./script-schema";
export type { Protocol, RecordedRequest, TokenUsage } from "./types";

export interface FakeProvidersOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
}

export interface FakeProviders {
  /** Origin, e.g. "http://127.0.0.1:4010"; OpenAI base URL is `${url}/v1`, Gemini's `${url}/v1beta`. */
  url: string;
  port: number;
  /** Live list of recorded provider requests (control endpoint calls are not recorded). */
  requests: RecordedRequest[];
  /** Queues replies; each request consumes the first one whose protocol / match fits. */
  script(...replies: ScriptedReply[]): void;
  pendingScripts(): ScriptedReply[];
  clearRequests(): void;
  /** Back to the initial state: no scripts, no recorded requests, nothing in the prompt cache. */
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeProviders(options: FakeProvidersOptions = {}): Promise<FakeProviders> {
  const host = options.host ?? "127.0.0.1";
  const recorder = new RequestRecorder();
  const scripts = new ScriptQueue();
  const promptCache = new PromptCache();
  const state = { recorder, scripts, promptCache };
  // One controller per open response, so close() can stop streams that are still sleeping between chunks.
  const openResponses = new Set<AbortController>();

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const controller = new AbortController();
    openResponses.add(controller);
    response.on("close", () => {
      controller.abort();
      openResponses.delete(controller);
    });
    const url = new URL(request.url ?? "/", `http://${host}`);
    try {
      if (isControlPath(url.pathname)) await handleControl(request, response, url, state);
      else await handleProviderRequest(request, response, url, state, controller.signal);
    } catch (error) {
      if (!response.headersSent) {
        response.writeHead(500, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: { message: `fake provider failed: ${String(error)}` } }));
      } else {
        response.destroy();
      }
    }
  };

  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${host}:${port}`,
    port,
    requests: recorder.requests,
    script: (...replies) => scripts.push(replies.map((reply) => scriptedReplySchema.parse(reply))),
    pendingScripts: () => scripts.pending(),
    clearRequests: () => void recorder.clear(),
    reset: () => {
      scripts.clear();
      recorder.clear();
      promptCache.clear();
    },
    close: async () => {
      for (const controller of openResponses) controller.abort();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}
