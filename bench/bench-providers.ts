// The fake providers a route benchmark talks to, in a child process of their own as a real provider is elsewhere:
// the app's process then pays for none of the provider's work or memory, and the provider's chunk timers do not wait
// behind the app's. In this process only for a diagnosis that wants them there.

import { spawn } from "node:child_process";
import path from "node:path";
import type { ScriptedReply } from "@/e2e/fake-providers/script-schema";
import type { RecordedRequest } from "@/e2e/fake-providers/types";

export interface BenchProviders {
  readonly url: string;
  /** Queue scripted replies, answered in order. */
  script(...replies: ScriptedReply[]): Promise<void>;
  /** Provider requests recorded and not taken yet. */
  requestCount(): Promise<number>;
  /** The requests recorded since the last call (their `receivedAt` is epoch ms, comparable across processes). */
  takeRequests(): Promise<RecordedRequest[]>;
  close(): Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, "..");
const READY_TIMEOUT_MS = 30_000;

export async function startBenchProviders(where: "in-process" | "child-process"): Promise<BenchProviders> {
  if (where === "in-process") {
    const { startFakeProviders } = await import("@/e2e/fake-providers/server");
    const providers = await startFakeProviders({ port: 0 });
    return {
      url: providers.url,
      script: async (...replies) => providers.script(...replies),
      requestCount: async () => providers.requests.length,
      takeRequests: async () => providers.requests.splice(0),
      close: () => providers.close(),
    };
  }
  const { fakeProviderClient } = await import("@/e2e/fake-providers/client");
  const child = spawn(process.execPath, ["--import", "tsx", "e2e/fake-providers/main.ts", "--port", "0"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the fake providers did not start")), READY_TIMEOUT_MS);
    let output = "";
    child.stdout.on("data", (data: Buffer) => {
      output += data.toString();
      const found = /listening on (http:\/\/\S+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    void exited.then((code) => reject(new Error(`the fake providers exited (${code}) before they listened`)));
  });
  const client = fakeProviderClient(url);
  return {
    url,
    script: (...replies) => client.script(replies),
    requestCount: async () => (await client.health()).requests,
    // Nothing else calls the provider between the two: the benches take requests between turns.
    takeRequests: async () => {
      const requests = await client.requests();
      await client.clear();
      return requests;
    },
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
