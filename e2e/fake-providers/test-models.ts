// Test support: real AI SDK provider models pointed at the fake servers, with a fetch that captures
// every HTTP attempt (retries included) exactly as sent.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogle } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import type { Protocol } from "./types";

export const TEST_API_KEY = "test-key-must-never-be-recorded";

export interface CapturedAttempt {
  url: string;
  body: string;
  status: number;
  responseHeaders: Record<string, string>;
}

export type FetchFunction = typeof globalThis.fetch;

function bodyText(body: RequestInit["body"]): string {
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  throw new Error(`unexpected request body type ${Object.prototype.toString.call(body)}`);
}

export function capturingFetch(attempts: CapturedAttempt[]): FetchFunction {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const body = bodyText(init?.body);
    const response = await globalThis.fetch(input, init);
    attempts.push({
      url,
      body,
      status: response.status,
      responseHeaders: Object.fromEntries(response.headers),
    });
    return response;
  };
}

export const MODEL_IDS: Record<Protocol, string> = {
  "openai-chat": "gpt-fake-chat",
  "openai-responses": "gpt-fake-responses",
  gemini: "gemini-2.5-flash",
  anthropic: "claude-sonnet-4-5",
};

export function fakeModel(
  protocol: Protocol,
  origin: string,
  fetch: FetchFunction,
  modelId = MODEL_IDS[protocol],
): LanguageModel {
  switch (protocol) {
    case "openai-chat":
      return createOpenAI({ baseURL: `${origin}/v1`, apiKey: TEST_API_KEY, fetch }).chat(modelId);
    case "openai-responses":
      return createOpenAI({ baseURL: `${origin}/v1`, apiKey: TEST_API_KEY, fetch }).responses(modelId);
    case "gemini":
      return createGoogle({ baseURL: `${origin}/v1beta`, apiKey: TEST_API_KEY, fetch })(modelId);
    case "anthropic":
      return createAnthropic({ baseURL: `${origin}/v1`, apiKey: TEST_API_KEY, fetch })(modelId);
  }
}
