// Response types from one source (lib/api/responses.ts): every JSON route of the app answers through `respond`, so
// its body is checked against the described type, and the browser's fetchers name their bodies by route
// (`apiFetch<ApiOutput<…>>` or a type derived from it), never with a shape written in place.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Routes whose JSON the browser's fetchers do not read: probes for the load balancer and the archive download. */
const NOT_READ_BY_THE_UI = new Set([
  "app/api/health/route.ts",
  "app/api/ready/route.ts",
  "app/api/conversations/[id]/export/route.ts",
]);

/** better-auth's own session route: its body is the library's, not described here. */
const LIBRARY_BODIES = [/apiFetch<\{ user: \{ id: string \} \}>\("\/api\/auth\/get-session"\)/];

function files(dir: string, name: RegExp): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, dir))) {
    const relative = `${dir}/${entry}`;
    if (statSync(path.join(ROOT, relative)).isDirectory()) found.push(...files(relative, name));
    else if (name.test(entry)) found.push(relative);
  }
  return found;
}

const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

describe("API responses come from one description", () => {
  test("every JSON route answers through respond(), not Response.json()", () => {
    const bypassing = files("app/api", /^route\.ts$/).filter(
      (file) => !NOT_READ_BY_THE_UI.has(file) && read(file).includes("Response.json("),
    );
    expect(bypassing).toEqual([]);
  });

  test("no fetcher of the UI writes a response's shape in place", () => {
    const inPlace = files("components", /\.tsx?$/).flatMap((file) =>
      read(file)
        .split("\n")
        .filter((line) => /apiFetch<\{/.test(line) && !LIBRARY_BODIES.some((allowed) => allowed.test(line)))
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(inPlace).toEqual([]);
  });
});
