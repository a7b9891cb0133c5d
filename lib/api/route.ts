// The small frame every API route runs in: a state-changing request comes from this app's own pages (same
// origin, a body no cross-site form can send), the database is ready, errors become `{ error: { code, message } }`
// with a 4xx status (never a 500 for bad input), and the session is checked in one place.

import "server-only";
import type { z } from "zod";
import { databaseHandle } from "@/db/client";
import { type JsonLimits, parseJsonWithin } from "@/lib/api/json-body";
import { readBodyUpTo } from "@/lib/api/read-body";
import { guardStateChange } from "@/lib/api/same-origin";
import { sessionUser } from "@/lib/auth";
import { AppError, databaseUnavailable, isDatabaseUnavailable } from "@/lib/domain/errors";
import { isUuid } from "@/lib/ids";
import { logger } from "@/lib/logger";
import { trackRequest } from "@/lib/shutdown-hooks";
import { unstorableTextProblem } from "@/lib/text-rules";

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  role: "admin" | "user";
}

type Handler<Context> = (request: Request, context: Context) => Promise<Response>;

export function route<Context>(handler: Handler<Context>): Handler<Context> {
  return (request, context) => trackRequest(() => handle(request, context));
  async function handle(request: Request, context: Context): Promise<Response> {
    try {
      checkAddress(request.url);
      guardStateChange(request);
      await databaseHandle().ready;
      return await handler(request, context);
    } catch (error) {
      if (error instanceof AppError) return error.toResponse();
      if (isDatabaseUnavailable(error)) {
        logger.warn({ err: error, url: request.url, method: request.method }, "database unavailable");
        return databaseUnavailable(error).toResponse();
      }
      logger.error({ err: error, url: request.url, method: request.method }, "unhandled route error");
      return new AppError("internal", "Something went wrong on the server.").toResponse();
    }
  }
}

/**
 * The address itself: malformed percent-encoding is a 400 (not the framework's 500), and so is text the database
 * cannot store anywhere in the path or the query: NUL, or a lone surrogate. An encoded lone surrogate (`%ED%A0%80`)
 * is no UTF-8, so decoding refuses it with the malformed encodings; the check after decoding is for the rest.
 */
function checkAddress(url: string): void {
  const { pathname, search } = new URL(url);
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname) + decodeURIComponent(search.replaceAll("+", " "));
  } catch {
    throw new AppError(
      "bad_request",
      "The address has malformed percent-encoding (a % not followed by two hex digits, or bytes that are not UTF-8 text).",
    );
  }
  if (decoded.includes("\u0000")) {
    throw new AppError("bad_request", "The address must not contain NUL (%00) characters.");
  }
  const problem = unstorableTextProblem(decoded);
  if (problem) throw new AppError("bad_request", `The address ${problem}.`);
}

export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await sessionUser(request.headers);
  if (!user) throw new AppError("unauthorized", "Sign in first: this needs a session.");
  return user;
}

export async function requireAdmin(request: Request): Promise<SessionUser> {
  const user = await requireUser(request);
  if (user.role !== "admin") throw new AppError("forbidden", "Admins only.");
  return user;
}

/** Default cap on JSON bodies; routes that accept more say so. */
export const MAX_JSON_BYTES = 256 * 1024;

/**
 * Default limits on what a JSON body holds, tight for the small bodies the app's own pages send: no route's
 * request nests more than a few levels, holds more than a few hundred values, or has a field of more than
 * 20 000 characters. Routes that take more (the archive import) say so.
 */
const JSON_LIMITS: JsonLimits = {
  /** Deeper than any body this app takes; deeper still costs stack in the validators for nothing. */
  maxDepth: 64,
  maxElements: 10_000,
  maxStringChars: 64 * 1024,
};

/**
 * Read and validate a JSON body: size first (capped while it streams in), then the text (syntax and the limits,
 * in one pass before anything is parsed: lib/api/json-body.ts), then the schema, each with a message that says
 * what.
 */
export async function readJson<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
  {
    maxBytes = MAX_JSON_BYTES,
    whenEmpty,
    ...limits
  }: {
    maxBytes?: number;
    /** For routes whose body is optional: the value an empty (or blank) body stands for. */
    whenEmpty?: unknown;
  } & Partial<JsonLimits> = {},
): Promise<z.infer<Schema>> {
  const contentType = request.headers.get("content-type") ?? "";
  const isJson = /^application\/json\s*(;|$)/i.test(contentType.trim());
  // A route whose body is optional also takes no body at all, with no content type.
  const mayBeEmpty = whenEmpty !== undefined && contentType.trim() === "";
  if (!isJson && !mayBeEmpty) {
    await request.body?.cancel().catch(() => {});
    throw unsupportedMediaType(contentType);
  }
  const body = await readBodyUpTo(request, maxBytes, () => tooLarge(maxBytes));
  if (!isJson && body.byteLength > 0) throw unsupportedMediaType(contentType);
  let raw: string;
  try {
    raw = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    throw new AppError("invalid_json", "The request body is not valid UTF-8 text.");
  }
  const parsed =
    whenEmpty !== undefined && raw.trim() === ""
      ? whenEmpty
      : parseJsonWithin(raw, { ...JSON_LIMITS, ...limits });
  const result = schema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue.path.length ? `${issue.path.join(".")}: ` : "";
    throw new AppError("bad_request", `${where}${issue.message}`);
  }
  return result.data;
}

function unsupportedMediaType(contentType: string): AppError {
  return new AppError(
    "unsupported_media_type",
    `Send the request body as application/json${contentType ? `, not ${contentType.split(";")[0]}` : ""}.`,
  );
}

function tooLarge(maxBytes: number): AppError {
  return new AppError(
    "payload_too_large",
    `The request body is larger than ${Math.round(maxBytes / 1024)} KB.`,
  );
}

/** Route params validated as a UUID: anything else is simply not found. */
export function parseId(value: string, what: string): string {
  if (!isUuid(value)) {
    throw new AppError("not_found", `${what} not found`);
  }
  return value.toLowerCase();
}
