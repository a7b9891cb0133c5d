// Every environment variable the server reads, in one place: each one's type, default and meaning is here, and
// a value that does not parse stops the server at start-up (instrumentation.ts) with an error naming the
// variable. Read through env(), never process.env: outside production env() parses again whenever one of these
// variables changes, so tests (and the bench) that set a variable at run time see it at the next call.
// .env.example lists the same variables for people configuring the app. Next.js's own variables (NODE_ENV,
// NEXT_RUNTIME, NEXT_DIST_DIR) are read where Next.js substitutes them, not here.

import "server-only";
import { isIP } from "node:net";
import { z } from "zod";

/** An unset variable and an empty one (`NAME=` in .env files) mean the same: use the default. */
const unsetWhenEmpty = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;

const text = () => z.preprocess(unsetWhenEmpty, z.string().trim().optional());

const url = () =>
  z.preprocess(unsetWhenEmpty, z.url({ error: "must be a URL such as https://example.com" }).optional());

const wholeNumber = (fallback: number, minimum = 0) =>
  z.preprocess(
    unsetWhenEmpty,
    z.coerce
      .number({ error: "must be a whole number" })
      .int({ error: "must be a whole number" })
      .min(minimum, { error: `must be at least ${minimum}` })
      .default(fallback),
  );

/** Comma-separated entries, trimmed, empty ones dropped. */
const list = () =>
  z.preprocess(
    unsetWhenEmpty,
    z
      .string()
      .optional()
      .transform((value) =>
        (value ?? "")
          .split(",")
          .map((entry) => entry.trim())
          .filter(Boolean),
      ),
  );

function isAddressOrRange(entry: string): boolean {
  const [address, prefix, extra] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

const environmentSchema = z.object({
  // The database.
  DATABASE_URL: text(),
  PGLITE_DIR: text(),
  /** Postgres connections one instance may hold at once (docs/deploy.md#pool-sizing). */
  DATABASE_POOL_MAX: wholeNumber(10, 1),
  DATABASE_CONNECT_TIMEOUT_SECONDS: wholeNumber(5, 1),
  DATABASE_STATEMENT_TIMEOUT_MS: wholeNumber(10_000, 1),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: wholeNumber(30_000, 1),
  // Providers.
  OPENAI_API_KEY: text(),
  OPENAI_BASE_URL: url(),
  GOOGLE_GENERATIVE_AI_API_KEY: text(),
  GOOGLE_BASE_URL: url(),
  ANTHROPIC_API_KEY: text(),
  ANTHROPIC_BASE_URL: url(),
  OPENAI_COMPATIBLE_BASE_URL: url(),
  OPENAI_COMPATIBLE_API_KEY: text(),
  OPENAI_COMPATIBLE_MODELS: list().transform((names) => [...new Set(names)]),
  OFFLINE_MODEL_WORD_DELAY_MS: wholeNumber(15),
  PROVIDER_FIRST_CHUNK_TIMEOUT_MS: wholeNumber(60_000, 1),
  PROVIDER_CHUNK_TIMEOUT_MS: wholeNumber(30_000, 1),
  // Uploads and image links: the largest file of each kind (docs/features.md#documents-audio-and-video).
  MEDIA_MAX_IMAGE_BYTES: wholeNumber(10 * 1024 * 1024, 1),
  MEDIA_MAX_PDF_BYTES: wholeNumber(20 * 1024 * 1024, 1),
  MEDIA_MAX_AUDIO_BYTES: wholeNumber(20 * 1024 * 1024, 1),
  MEDIA_MAX_VIDEO_BYTES: wholeNumber(20 * 1024 * 1024, 1),
  /** How long fetching one image link may take, redirects included. */
  MEDIA_FETCH_TIMEOUT_MS: wholeNumber(10_000, 1),
  /**
   * Test-only: host names (or addresses) an image link may reach even though they resolve to a private or
   * loopback address, for a test's local image server. Empty in production, and the fetcher's SSRF tests run
   * with it unset.
   */
  MEDIA_FETCH_ALLOW_HOSTS: list().transform((hosts) => hosts.map((host) => host.toLowerCase())),
  // Turns, summaries and titles.
  GLASSBOX_RETRIES_PER_MODEL: wholeNumber(2),
  GLASSBOX_RETRY_BASE_MS: wholeNumber(1_000),
  GLASSBOX_SUMMARY_TIMEOUT_MS: wholeNumber(60_000, 1),
  GLASSBOX_TITLE_TIMEOUT_MS: wholeNumber(20_000, 1),
  TITLE_MODEL_ID: text(),
  CHAT_RATE_LIMIT_PER_MINUTE: wholeNumber(30, 1),
  /** Gateway (/v1) calls one API key may make per minute; unset: CHAT_RATE_LIMIT_PER_MINUTE. */
  GATEWAY_RATE_LIMIT_PER_MINUTE: z.preprocess(
    unsetWhenEmpty,
    z.coerce
      .number({ error: "must be a whole number" })
      .int({ error: "must be a whole number" })
      .min(1, { error: "must be at least 1" })
      .optional(),
  ),
  /**
   * Turns one process sets up at once; more wait their turn, in order (lib/chat/turn/turn-admission.ts). 8 gave
   * the burst on the built app its best first tokens and chunk gaps among 4, 8, 16 and 32 (bench/served-burst.ts).
   */
  TURN_SETUP_CONCURRENCY: wholeNumber(8, 1),
  // Accounts and origins.
  AUTH_SECRET: text(),
  BETTER_AUTH_SECRET: text(),
  BETTER_AUTH_URL: url(),
  ALLOWED_HOSTS: list().transform((hosts) => hosts.map((host) => host.toLowerCase())),
  ADMIN_EMAIL: z.preprocess(
    unsetWhenEmpty,
    z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.email({ error: "must be an email address" }))
      .optional(),
  ),
  TRUSTED_PROXIES: list().refine((entries) => entries.every(isAddressOrRange), {
    error: "must be IP addresses or CIDR ranges, comma-separated",
  }),
  // Telemetry: every model call as an OpenTelemetry span, sent over OTLP/HTTP when the endpoint is set.
  OTEL_EXPORTER_OTLP_ENDPOINT: url(),
  OTEL_SERVICE_NAME: z.preprocess(unsetWhenEmpty, z.string().trim().default("glassbox")),
  // The process.
  PORT: wholeNumber(3000, 1),
  /** After SIGTERM, how long running replies may go on before they are stored `interrupted` (docs/deploy.md). */
  SHUTDOWN_GRACE_MS: wholeNumber(25_000),
  INSTANCE_ID: text(),
  /** Set by scripts/serve.mjs in each of an instance's worker processes: its number, part of its instance id. */
  INSTANCE_WORKER: text(),
  REDIS_URL: url(),
  LOG_LEVEL: z.preprocess(
    unsetWhenEmpty,
    z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(),
  ),
  /** "1" under the test suites and the bench: quieter logs, better-auth's sign-up limit off. */
  GLASSBOX_TEST: z.preprocess(unsetWhenEmpty, z.string().optional()).transform((value) => value === "1"),
  /**
   * Set by the test command: every recorded attempt's wire map is checked against its body, and a violation is
   * appended to this file (one JSON line), which fails the run.
   */
  GLASSBOX_WIRE_CHECK_FILE: text(),
});

export type ServerEnvironment = z.infer<typeof environmentSchema>;
type RawEnvironment = Record<string, string | undefined>;

const NAMES = Object.keys(environmentSchema.shape) as (keyof ServerEnvironment)[];

export class EnvironmentError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment: ${problems.join("; ")}. See .env.example for what each variable takes.`);
    this.name = "EnvironmentError";
  }
}

/** Parses `source` (the process environment unless given): the typed values, or an error naming each bad variable. */
export function parseEnvironment(source: RawEnvironment): ServerEnvironment {
  const result = environmentSchema.safeParse(source);
  if (result.success) return result.data;
  throw new EnvironmentError(
    result.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return `${name} ${issue.message} (got ${JSON.stringify(source[name])})`;
    }),
  );
}

let cached: { key: string; value: ServerEnvironment } | null = null;

/**
 * The server's configuration, parsed from process.env again only when one of its variables has changed. A
 * production server reads them once: nothing changes a running server's environment, and reading every variable
 * to see whether one changed would cost each call more than the rest of it (tests change them at run time).
 */
export function env(): ServerEnvironment {
  if (cached && process.env.NODE_ENV === "production") return cached.value;
  const key = JSON.stringify(NAMES.map((name) => process.env[name] ?? null));
  if (cached?.key !== key) cached = { key, value: parseEnvironment(process.env) };
  return cached.value;
}

/** Forgets the parsed configuration, so the next call reads process.env again (an in-process bench sets it up). */
export function forgetParsedEnvironment(): void {
  cached = null;
}

/**
 * At start-up (instrumentation.ts): a bad variable stops the process with each bad variable named. Next.js would
 * only log a thrown error and go on serving errors.
 */
export function exitUnlessEnvironmentValid(): void {
  try {
    env();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
