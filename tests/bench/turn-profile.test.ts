// The bench's CPU breakdown (bench/turn-profile.ts): each sample inside a turn's window goes to the nearest frame
// up its stack that belongs to a part; idle time and samples outside the windows count for nothing.
import { describe, expect, test } from "vitest";
import { cpuBreakdownOf, type Profile, type ProfileNode } from "@/bench/turn-profile";

/** The repository deployed at /app: its own files and its packages' both live under /app/. */
const ROOT = "file:///app";

const frame = (id: number, functionName: string, url: string, children: number[] = []): ProfileNode => ({
  id,
  callFrame: { functionName, url },
  children,
});

// (root) ─┬─ drizzle's execute ── writeBuffer (native)          → database
//         ├─ runChatTurn (lib/chat) ─┬─ zod's parse               → turn runner (zod owns nothing)
//         │                          └─ enqueue (web streams)     → web streams
//         ├─ processTicksAndRejections (Node)                     → Node internals
//         ├─ a package's lib/ file (pino)                         → Node internals (not the app's lib/)
//         ├─ routeTurn (bench/)                                   → the bench's client
//         ├─ (garbage collector), (idle), (program)
const NODES = [
  frame(1, "(root)", "", [2, 4, 7, 8, 9, 10, 11, 12]),
  frame(2, "execute", "file:///app/node_modules/drizzle-orm/pg-core/session.js", [3]),
  frame(3, "writeBuffer", ""),
  frame(4, "runChatTurn", "file:///app/lib/chat/turn/run-turn.ts", [5, 6]),
  frame(5, "parse", "file:///app/node_modules/zod/v4/core/schemas.js"),
  frame(6, "enqueue", "node:internal/webstreams/readablestream"),
  frame(7, "processTicksAndRejections", "node:internal/process/task_queues"),
  frame(8, "(garbage collector)", ""),
  frame(9, "(idle)", ""),
  frame(10, "(program)", ""),
  frame(11, "asJson", "file:///app/node_modules/pino/lib/tools.js"),
  frame(12, "routeTurn", "file:///app/bench/turn-overhead.ts"),
];

/** Samples 10 µs apart from t = 10: the i-th sample is at 10·(i+1) and counts the 10 µs up to the next one. */
function profileOf(samples: number[]): Profile {
  return { nodes: NODES, startTime: 0, samples, timeDeltas: samples.map(() => 10) };
}

const share = (breakdown: ReturnType<typeof cpuBreakdownOf>, part: string) =>
  breakdown.parts.find((entry) => entry.part === part)?.share ?? 0;

describe("cpuBreakdownOf", () => {
  test.each([
    { sample: 3, part: "database: postgres.js, drizzle, db/" },
    { sample: 5, part: "turn runner, lib/chat" },
    { sample: 6, part: "web streams" },
    { sample: 7, part: "Node internals (microtasks, timers)" },
    { sample: 8, part: "garbage collection" },
    { sample: 11, part: "Node internals (microtasks, timers)" },
    { sample: 12, part: "bench client: request, reading" },
  ])("a sample in node $sample goes to $part", ({ sample, part }) => {
    const breakdown = cpuBreakdownOf(profileOf([sample, sample]), [[0, 100]], { root: ROOT });
    expect(breakdown.parts).toEqual([{ part, share: 1 }]);
  });

  test("idle and (program) samples count for nothing; the rest are shares of what is left", () => {
    const breakdown = cpuBreakdownOf(profileOf([3, 9, 9, 5, 10, 3, 6, 3]), [[0, 1_000]], { root: ROOT });
    expect(breakdown.turns).toBe(1);
    // Five counted samples of 10 µs, the last one's delta unknown (no next sample): 3, 5, 3, 6 count.
    expect(share(breakdown, "database: postgres.js, drizzle, db/")).toBeCloseTo(2 / 4);
    expect(share(breakdown, "turn runner, lib/chat")).toBeCloseTo(1 / 4);
    expect(share(breakdown, "web streams")).toBeCloseTo(1 / 4);
    expect(breakdown.profiledCpuMs).toBeCloseTo(0.04);
    expect(breakdown.parts.map((entry) => entry.part)[0]).toBe("database: postgres.js, drizzle, db/");
  });

  test("only samples inside a turn's window count, and the CPU is per turn", () => {
    // Samples at 10, 20, …, 80: windows [15, 35] and [55, 75] hold the samples at 20, 30 and 60, 70.
    const breakdown = cpuBreakdownOf(
      profileOf([6, 3, 3, 6, 6, 5, 5, 6]),
      [
        [15, 35],
        [55, 75],
      ],
      { root: ROOT },
    );
    expect(breakdown.turns).toBe(2);
    expect(share(breakdown, "database: postgres.js, drizzle, db/")).toBeCloseTo(0.5);
    expect(share(breakdown, "turn runner, lib/chat")).toBeCloseTo(0.5);
    expect(share(breakdown, "web streams")).toBe(0);
    expect(breakdown.profiledCpuMs).toBeCloseTo(0.02);
  });
});
