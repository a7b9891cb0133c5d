// The layers hold (docs/architecture.md, "Layers"): every import of the production code is read from the files,
// and an import that goes the wrong way, or any cycle of imports, fails this test with the edge named. Type-only
// imports are erased at build time, so the UI may name a server module's types; they may still not point up the
// layers, and they count for cycles: two files that need each other's types share them through a third. (dependency-cruiser would do this, but it needs TypeScript's JavaScript API to
// tell type-only imports apart, and TypeScript 7 has none.)
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const LAYERS = ["app", "components", "db", "lib"];

interface ImportEdge {
  from: string;
  to: string;
  typeOnly: boolean;
}

interface Rule {
  name: string;
  why: string;
  forbids(edge: ImportEdge): boolean;
}

/** Server-side modules of lib/ that the browser bundle must not pull in at run time. */
const SERVER_ONLY =
  /^(db\/|lib\/(api\/|auth\.ts|logger\.ts|rate-limit\.ts|providers\/|media\/(read-upload|upload-limits|fetch-image-link|image-links)\.ts|chat\/(?!views\/(ui-messages|summary-view|reasoning-view)\.ts)|live\/(?!events\.ts)|export\/(?!openai-chat-example\.ts)|telemetry\/|config\/|health\.ts|shutdown(-hooks)?\.ts))/;

/**
 * The layers, bottom first. A file may import its own layer and the layers below it, never one above: the order
 * is the whole rule, with no exceptions per file.
 */
const LAYER_ORDER: { name: string; files: RegExp }[] = [
  // The vocabulary every layer shares: types, the settings schema, errors, the catalogue of known models.
  { name: "domain", files: /^lib\/domain\// },
  // What the process is configured with (environment variables, which providers have keys).
  { name: "configuration", files: /^lib\/config\// },
  // The context pipeline: pure and framework-free.
  { name: "pipeline", files: /^lib\/context\// },
  { name: "database", files: /^db\// },
  // The turn runner, providers, media, live events and the rest of the server.
  { name: "services", files: /^lib\// },
  { name: "components", files: /^components\// },
  { name: "routes and pages", files: /^app\// },
];

function layerOf(file: string): number {
  return LAYER_ORDER.findIndex((layer) => layer.files.test(file));
}

const RULES: Rule[] = [
  {
    name: "imports-go-down",
    why: "a file imports only its own layer and the layers below it (domain, configuration, pipeline, database, services, components, routes and pages)",
    forbids: ({ from, to }) => layerOf(to) > layerOf(from),
  },
  {
    name: "components-client-safe",
    why: "the UI imports only client-safe modules at run time (types are erased and allowed)",
    forbids: ({ from, to, typeOnly }) => from.startsWith("components/") && !typeOnly && SERVER_ONLY.test(to),
  },
  {
    name: "components-not-routes",
    why: "the UI shares code with routes through lib/, never by importing a route's module",
    forbids: ({ from, to }) => from.startsWith("components/") && to.startsWith("app/api/"),
  },
];

function sourceFiles(): string[] {
  const files: string[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(path.join(ROOT, dir))) {
      const relative = `${dir}/${entry}`;
      if (statSync(path.join(ROOT, relative)).isDirectory()) visit(relative);
      else if (/\.tsx?$/.test(entry) && !/\.(test|spec)\.tsx?$/.test(entry)) files.push(relative);
    }
  };
  for (const layer of LAYERS) visit(layer);
  return files;
}

const IMPORT = /^\s*(?:import|export)\s+(type\s+)?(?:([^'";]*?)\s+from\s+)?["']([^"']+)["']/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** Whether every name in `{ … }` is marked `type` (the whole import is erased). */
function allNamesAreTypes(clause: string | undefined): boolean {
  const braces = clause?.match(/^\{([\s\S]*)\}$/);
  if (!braces) return false;
  const names = braces[1]
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  return names.length > 0 && names.every((name) => name.startsWith("type "));
}

function resolveImport(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("@/")) base = specifier.slice(2);
  else if (specifier.startsWith(".")) base = path.posix.join(path.posix.dirname(from), specifier);
  else return null; // a package
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    if (existsSync(path.join(ROOT, candidate)) && statSync(path.join(ROOT, candidate)).isFile())
      return candidate;
  }
  return null;
}

function importsOf(file: string, text: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const to = resolveImport(file, match[3]);
    if (to) edges.push({ from: file, to, typeOnly: Boolean(match[1]) || allNamesAreTypes(match[2]?.trim()) });
  }
  for (const match of text.matchAll(DYNAMIC_IMPORT)) {
    const to = resolveImport(file, match[1]);
    if (to) edges.push({ from: file, to, typeOnly: false });
  }
  return edges;
}

/** Cycles of imports (type-only ones included), each as the list of files around it. */
function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const to of next.get(file) ?? []) {
      if (state.get(to) === "open") cycles.push([...stack.slice(stack.indexOf(to)), to]);
      else if (!state.has(to)) visit(to);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of next.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

function violations(edges: readonly ImportEdge[]): string[] {
  const found: string[] = [];
  for (const edge of edges) {
    for (const rule of RULES) {
      if (rule.forbids(edge)) found.push(`${rule.name}: ${edge.from} → ${edge.to} (${rule.why})`);
    }
  }
  for (const cycle of importCycles(edges)) found.push(`no-cycles: ${cycle.join(" → ")}`);
  return found;
}

describe("the import graph", () => {
  const edges = sourceFiles().flatMap((file) => importsOf(file, readFileSync(path.join(ROOT, file), "utf8")));

  test("reads the project's imports", () => {
    // A sanity floor: the parser found the graph, not nothing.
    expect(edges.length).toBeGreaterThan(500);
    expect(edges).toContainEqual({
      from: "lib/context/build-context.ts",
      to: "lib/context/stage.ts",
      typeOnly: false,
    });
  });

  test("every import goes down the layers, and no imports form a cycle", () => {
    expect(violations(edges)).toEqual([]);
  });

  test.each([
    [
      "an upward import from the pipeline",
      "lib/context/budget.ts",
      "db/message-queries.ts",
      "imports-go-down",
    ],
    [
      "the database layer reaching up",
      "db/message-queries.ts",
      "lib/chat/turn/run-turn.ts",
      "imports-go-down",
    ],
    [
      "the vocabulary reaching into the pipeline",
      "lib/domain/types.ts",
      "lib/context/tokens.ts",
      "imports-go-down",
    ],
    ["configuration reaching into the database", "lib/config/env.ts", "db/client.ts", "imports-go-down"],
    [
      "lib importing a component",
      "lib/chat/turn/run-turn.ts",
      "components/chat/chat-view.tsx",
      "imports-go-down",
    ],
    [
      "a component importing a page",
      "components/chat/chat-view.tsx",
      "app/chat/[id]/page.tsx",
      "imports-go-down",
    ],
    [
      "the UI pulling in the database",
      "components/chat/chat-view.tsx",
      "db/client.ts",
      "components-client-safe",
    ],
  ])("fails on %s", (_name, from, to, rule) => {
    expect(violations([{ from, to, typeOnly: false }])).toEqual([
      expect.stringContaining(`${rule}: ${from} → ${to}`),
    ]);
  });

  test("a type-only import into a server module is allowed from the UI; a runtime one is not", () => {
    const edge = { from: "components/chat/api.ts", to: "lib/chat/views/transcript.ts" };
    expect(violations([{ ...edge, typeOnly: true }])).toEqual([]);
    expect(violations([{ ...edge, typeOnly: false }])).toHaveLength(1);
  });

  test("finds a cycle of imports, one closed by a type import too", () => {
    const cycle = [
      { from: "lib/a.ts", to: "lib/b.ts", typeOnly: false },
      { from: "lib/b.ts", to: "lib/a.ts", typeOnly: false },
    ];
    expect(violations(cycle)).toEqual(["no-cycles: lib/a.ts → lib/b.ts → lib/a.ts"]);
    expect(violations([cycle[0], { ...cycle[1], typeOnly: true }])).toEqual([
      "no-cycles: lib/a.ts → lib/b.ts → lib/a.ts",
    ]);
    expect(violations([cycle[0]])).toEqual([]);
  });

  test("tells type-only imports apart", () => {
    const text = [
      'import type { A } from "@/lib/domain/types";',
      'import { type B, type C } from "@/lib/domain/types";',
      'import { type D, e } from "@/lib/domain/types";',
      'export { f } from "@/lib/domain/types";',
    ].join("\n");
    expect(importsOf("lib/context/stage.ts", text).map((edge) => edge.typeOnly)).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});
