// Where a turn's CPU goes, from the handler call to its first text chunk: a CPU profile (node:inspector, one
// sample every 100 µs) taken while route turns run one after another, each sample inside a turn's window given
// to the part of the system that owns it. The owner is the nearest frame up the sample's stack whose file belongs
// to a part (a socket write made by postgres.js is the database's; a JSON parse called from the AI SDK is the
// SDK's). Web streams are a part of their own: their work runs from the microtask queue, whose stacks do not say
// which stage enqueued it. The profiler itself slows the process down, so the parts are reported as shares of the
// profiled time, and in milliseconds as those shares of the unprofiled median (turn-overhead.ts).

import { writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** What the profiled turns need from the turn bench: one turn, and when it started and saw its first token. */
export interface ProfiledTurn {
  /** performance.now() of the handler call and of the first text chunk through the route. */
  startedAt: number;
  firstTokenAt: number;
}

export interface CpuPart {
  part: string;
  /** Of the profiled CPU time inside the turns' windows. */
  share: number;
}

export interface CpuBreakdown {
  turns: number;
  /** Profiled CPU ms per turn (slower than unprofiled: the sampling costs time). */
  profiledCpuMs: number;
  parts: CpuPart[];
}

/**
 * A frame's file as the part rules read it: a package's path from its `node_modules/` on (`node_modules/ai/…`),
 * a file of this repository from its root (`lib/chat/turn/run-turn.ts`), Node's own as is (`node:internal/…`).
 */
function sourceOf(url: string, root: string): string {
  const packageAt = url.lastIndexOf("/node_modules/");
  if (packageAt !== -1) return url.slice(packageAt + 1);
  return url.startsWith(`${root}/`) ? url.slice(root.length + 1) : url;
}

/** The parts, in the order they are tried on each frame; a frame that matches none passes to its caller. */
const PARTS: { part: string; owns: (source: string) => boolean }[] = [
  {
    part: "database: postgres.js, drizzle, db/",
    owns: (source) => /^(node_modules\/(postgres|drizzle-orm)\/|db\/)/.test(source),
  },
  { part: "web streams", owns: (source) => source.startsWith("node:internal/webstreams") },
  {
    part: "fetch to the provider (undici)",
    owns: (source) => source.startsWith("node:internal/deps/undici"),
  },
  { part: "AI SDK", owns: (source) => /^node_modules\/(ai|@ai-sdk\/[^/]+)\//.test(source) },
  { part: "context pipeline, lib/context", owns: (source) => source.startsWith("lib/context/") },
  { part: "turn runner, lib/chat", owns: (source) => source.startsWith("lib/chat/") },
  {
    part: "route, auth, other app code",
    owns: (source) => /^(app\/|lib\/|node_modules\/better-auth\/)/.test(source),
  },
  { part: "bench client: request, reading", owns: (source) => /^(bench|tests)\//.test(source) },
];
const GARBAGE_COLLECTION = "garbage collection";
const OTHER = "Node internals (microtasks, timers)";

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

export interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Run `turns` turns under the profiler and say where their CPU went. */
export async function profileTurnCpu(
  runTurn: () => Promise<ProfiledTurn>,
  { turns }: { turns: number },
): Promise<CpuBreakdown> {
  const session = new Session();
  session.connect();
  const windows: [number, number][] = [];
  let profile: Profile;
  try {
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: 100 });
    await session.post("Profiler.start");
    // The profile's clock is the monotonic one of process.hrtime, in µs; performance.now() is offset from it.
    const offsetMicros = Number(process.hrtime.bigint() / 1_000n) - performance.now() * 1_000;
    for (let index = 0; index < turns; index++) {
      const turn = await runTurn();
      windows.push([offsetMicros + turn.startedAt * 1_000, offsetMicros + turn.firstTokenAt * 1_000]);
    }
    profile = (await session.post("Profiler.stop")).profile as unknown as Profile;
    // For a look at single functions (Chrome DevTools opens it): the profile and the turns' windows.
    const saveTo = process.env.BENCH_TURN_PROFILE_FILE;
    if (saveTo) await writeFile(saveTo, JSON.stringify({ ...profile, turnWindows: windows }));
  } finally {
    session.disconnect();
  }
  return cpuBreakdownOf(profile, windows);
}

/** This repository's root as a file URL, as the profile names its files. */
const REPOSITORY_ROOT = pathToFileURL(path.resolve(import.meta.dirname, "..")).href;

/**
 * The breakdown of a profile's samples inside `windows` (µs on the profile's clock, in order, not overlapping).
 * `root` is the repository's root as a file URL (the tests give their own).
 */
export function cpuBreakdownOf(
  profile: Profile,
  windows: [number, number][],
  { root = REPOSITORY_ROOT }: { root?: string } = {},
): CpuBreakdown {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const partOf = new Map<number, string | null>();
  const ownerOf = (id: number): string | null => {
    const known = partOf.get(id);
    if (known !== undefined) return known;
    const node = nodes.get(id) as ProfileNode;
    const name = node.callFrame.functionName;
    let part: string | null;
    if (name === "(idle)" || name === "(program)") part = null;
    else if (name === "(garbage collector)") part = GARBAGE_COLLECTION;
    else {
      const source = sourceOf(node.callFrame.url, root);
      const own = PARTS.find((candidate) => candidate.owns(source))?.part;
      const parent = parentOf.get(id);
      part = own ?? (parent === undefined ? OTHER : (ownerOf(parent) ?? OTHER));
    }
    partOf.set(id, part);
    return part;
  };

  // A sample's time is the delta to the next sample; a sample counts when it falls inside a turn's window.
  const micros = new Map<string, number>();
  let time = profile.startTime;
  let window = 0;
  for (let index = 0; index < profile.samples.length; index++) {
    time += profile.timeDeltas[index];
    while (window < windows.length && time > windows[window][1]) window++;
    if (window === windows.length) break;
    if (time < windows[window][0]) continue;
    const part = ownerOf(profile.samples[index]);
    if (part === null) continue;
    micros.set(part, (micros.get(part) ?? 0) + (profile.timeDeltas[index + 1] ?? 0));
  }
  const total = [...micros.values()].reduce((sum, value) => sum + value, 0);
  return {
    turns: windows.length,
    profiledCpuMs: total / 1_000 / windows.length,
    parts: [...micros]
      .map(([part, value]) => ({ part, share: total === 0 ? 0 : value / total }))
      .sort((left, right) => right.share - left.share),
  };
}
