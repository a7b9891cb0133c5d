// What the chat hooks' tests share: a fetch that answers the app's routes and records each request, a stand-in
// EventSource the test pushes live events into, and a React Query client around the hook.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement, type ReactNode } from "react";
import { vi } from "vitest";
import type { ChatUIMessage } from "@/lib/chat/views/ui-messages";

export interface RecordedRequest {
  method: string;
  url: string;
  body: unknown;
}

type Route = (request: RecordedRequest) => Response | Promise<Response>;

/** Replaces fetch: each request is recorded, then answered by `route` (a 404 when it returns nothing). */
export function stubFetch(route: (request: RecordedRequest) => ReturnType<Route> | undefined) {
  const requests: RecordedRequest[] = [];
  vi.stubGlobal("fetch", async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const text = typeof init?.body === "string" ? init.body : undefined;
    const request = {
      method: init?.method ?? "GET",
      url,
      body: text === undefined ? undefined : JSON.parse(text),
    };
    requests.push(request);
    return (
      (await route(request)) ?? json({ error: { code: "not_found", message: `no route for ${url}` } }, 404)
    );
  });
  return requests;
}

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

/** A UI message stream (server-sent events), as /api/chat and its resume route answer. */
export function uiMessageStream(chunks: object[]): Response {
  const body = [...chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`), "data: [DONE]\n\n"].join("");
  return new Response(body, {
    headers: { "content-type": "text/event-stream", "x-vercel-ai-ui-message-stream": "v1" },
  });
}

/** A promise the test settles itself, to hold a request open while something else happens. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/** Stands in for the browser's EventSource: the test delivers events with `emit`. */
export class FakeEventSource {
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];
  readyState = 1;
  onopen: (() => void) | null = null;
  onmessage: ((message: { data: string; lastEventId: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  emit(id: number, event: object) {
    this.onmessage?.({ data: JSON.stringify(event), lastEventId: String(id) });
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
}

export function queryWrapper() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) =>
    createElement(QueryClientProvider, { client }, children);
  return { client, wrapper };
}

export function userMessage(id: string, text: string, seq?: number): ChatUIMessage {
  return { id, role: "user", parts: [{ type: "text", text }], metadata: { status: "complete", seq } };
}

export function reply(
  id: string,
  text: string,
  metadata: ChatUIMessage["metadata"] = { status: "complete" },
): ChatUIMessage {
  return { id, role: "assistant", parts: [{ type: "text", text }], metadata };
}

/** The stored form of a message, as GET /api/conversations/:id/messages sends it. */
export function storedMessage(
  id: string,
  authorType: "user" | "persona",
  text: string,
  seq: number,
  status = "complete",
) {
  return {
    id,
    authorType,
    authorName: authorType === "user" ? "Ada" : "Helper",
    parts: [{ type: "text", text }],
    status,
    seq,
    summarizedBy: null as string | null,
  };
}

export function transcriptResponse(messages: ReturnType<typeof storedMessage>[]) {
  const none = {};
  return json({
    messages,
    media: none,
    toolNames: none,
    reasoning: none,
    variants: none,
    questionVersions: none,
    replyModels: none,
    modelView: null,
  });
}

/** How long a test waits for the hook to settle: generous, since the machine running the suite may be busy. */
export const SETTLED = { timeout: 10_000 };
