// JSON control endpoints under /__ for tests running in another process (Playwright, the app's own tests).
import type { IncomingMessage, ServerResponse } from "node:http";
import { readRawBody, sendJson } from "./http-utils";
import type { PromptCache } from "./prompt-cache";
import type { RequestRecorder } from "./recorder";
import type { ScriptQueue } from "./script-queue";
import { scriptRequestSchema } from "./script-schema";
import { PROTOCOLS, type Protocol } from "./types";

export interface ControlState {
  recorder: RequestRecorder;
  scripts: ScriptQueue;
  promptCache: PromptCache;
}

export function isControlPath(pathname: string): boolean {
  return pathname.startsWith("/__");
}

function parseProtocolFilter(value: string | null): Protocol | "unknown" | undefined | Error {
  if (value === null || value === "") return undefined;
  if (value === "unknown" || (PROTOCOLS as readonly string[]).includes(value))
    return value as Protocol | "unknown";
  return new Error(`unknown protocol "${value}"; expected one of ${PROTOCOLS.join(", ")}, unknown`);
}

export async function handleControl(
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  state: ControlState,
): Promise<void> {
  const route = `${request.method} ${url.pathname}`;
  switch (route) {
    case "GET /__health":
      return sendJson(response, 200, {
        ok: true,
        protocols: PROTOCOLS,
        requests: state.recorder.requests.length,
        pendingScripts: state.scripts.pending().length,
      });
    case "GET /__requests": {
      const protocol = parseProtocolFilter(url.searchParams.get("protocol"));
      if (protocol instanceof Error) return sendJson(response, 400, { error: { message: protocol.message } });
      return sendJson(response, 200, state.recorder.list(protocol));
    }
    case "DELETE /__requests":
      return sendJson(response, 200, { cleared: state.recorder.clear() });
    case "GET /__script":
      return sendJson(response, 200, { pending: state.scripts.pending() });
    case "POST /__script":
      return queueScripts(request, response, state);
    case "DELETE /__script":
      return sendJson(response, 200, { cleared: state.scripts.clear() });
    case "DELETE /__prompt-cache":
      state.promptCache.clear();
      return sendJson(response, 200, { cleared: true });
    default:
      return sendJson(response, 404, { error: { message: `no control endpoint ${route}` } });
  }
}

async function queueScripts(
  request: IncomingMessage,
  response: ServerResponse,
  state: ControlState,
): Promise<void> {
  let json: unknown;
  try {
    json = JSON.parse((await readRawBody(request)).toString("utf8"));
  } catch {
    return sendJson(response, 400, { error: { message: "body is not JSON; expected { replies: [...] }" } });
  }
  const parsed = scriptRequestSchema.safeParse(json);
  if (!parsed.success) return sendJson(response, 400, { error: { message: parsed.error.message } });
  state.scripts.push(parsed.data.replies);
  return sendJson(response, 200, {
    queued: parsed.data.replies.length,
    pending: state.scripts.pending().length,
  });
}
