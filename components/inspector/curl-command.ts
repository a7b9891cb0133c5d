// "Copy as cURL": the recorded request as a POSIX shell command. The body is the exact recorded string, single-
// quoted (each ' becomes '\''), and piped through printf (a shell builtin) so a large payload never meets the
// kernel's per-argument limit. The URL is the recorded one, the base URL the request really went to; attempts
// recorded before URLs were full hold only the path, so the host is then a placeholder with the provider's public
// default. The key is always a placeholder: keys are never stored.
import type { ProviderName } from "@/lib/domain/types";

interface ProviderShell {
  /** Shell expression for the origin, with the public default where there is one. */
  origin: string;
  /** Header lines, with the key as an environment-variable placeholder. */
  headers: string[];
  keyVariable: string | null;
  originVariable: string;
}

/** A shell parameter expansion, e.g. `${NAME:-default}` (written out so it is not mistaken for a template). */
function expansion(name: string, operator: ":-" | ":?", word: string): string {
  return `$${"{"}${name}${operator}${word}}`;
}

const PROVIDERS: Record<Exclude<ProviderName, "offline">, ProviderShell> = {
  openai: {
    origin: expansion("OPENAI_ORIGIN", ":-", "https://api.openai.com"),
    originVariable: "OPENAI_ORIGIN",
    headers: ['-H "Authorization: Bearer $OPENAI_API_KEY"'],
    keyVariable: "OPENAI_API_KEY",
  },
  google: {
    origin: expansion("GOOGLE_ORIGIN", ":-", "https://generativelanguage.googleapis.com"),
    originVariable: "GOOGLE_ORIGIN",
    headers: ['-H "x-goog-api-key: $GOOGLE_GENERATIVE_AI_API_KEY"'],
    keyVariable: "GOOGLE_GENERATIVE_AI_API_KEY",
  },
  anthropic: {
    origin: expansion("ANTHROPIC_ORIGIN", ":-", "https://api.anthropic.com"),
    originVariable: "ANTHROPIC_ORIGIN",
    headers: ['-H "x-api-key: $ANTHROPIC_API_KEY"', '-H "anthropic-version: 2023-06-01"'],
    keyVariable: "ANTHROPIC_API_KEY",
  },
  "openai-compatible": {
    origin: expansion(
      "OPENAI_COMPATIBLE_ORIGIN",
      ":?",
      "set OPENAI_COMPATIBLE_ORIGIN to your server, e.g. http://localhost:11434",
    ),
    originVariable: "OPENAI_COMPATIBLE_ORIGIN",
    headers: [`-H "Authorization: Bearer ${expansion("OPENAI_COMPATIBLE_API_KEY", ":-", "none")}"`],
    keyVariable: "OPENAI_COMPATIBLE_API_KEY",
  },
};

/** A POSIX single-quoted word: everything literal, each ' written as '\''. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, "'\\''")}'`;
}

/** Characters that are special inside double quotes are escaped, so a path is literal after the origin. */
function doubleQuotedLiteral(value: string): string {
  return value.replace(/[\\"$`]/g, "\\$&");
}

export interface CurlCommand {
  command: string;
  /** The environment variables the command reads, for the hint shown beside it. */
  variables: string[];
}

/** A recorded URL that names its host (http or https), as opposed to an older attempt's bare path. */
function isFullHttpUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

/** Null when the request cannot be replayed over HTTP (the offline model). */
export function curlCommand(
  provider: ProviderName | null,
  request: { url: string; body: string },
): CurlCommand | null {
  if (!provider || provider === "offline") return null;
  const fullUrl = isFullHttpUrl(request.url);
  if (!fullUrl && !request.url.startsWith("/")) return null;
  const shell = PROVIDERS[provider];
  const url = fullUrl ? shellQuote(request.url) : `"${shell.origin}${doubleQuotedLiteral(request.url)}"`;
  const curlLines = [
    `curl -sS -N ${url}`,
    `-H "Content-Type: application/json"`,
    ...shell.headers,
    "--data-binary @-",
  ];
  return {
    command: `printf '%s' ${shellQuote(request.body)} |\n  ${curlLines.join(" \\\n    ")}`,
    variables: [shell.keyVariable, fullUrl ? null : shell.originVariable].filter(
      (name): name is string => name !== null,
    ),
  };
}
