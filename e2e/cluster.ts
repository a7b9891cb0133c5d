// A scale-out set-up on real parts, for e2e/scale-out.spec.ts and bench/scale-out.ts: two or more `next start`
// instances of the built app sharing one Postgres database and one Redis, behind nginx (Debian's package) run with
// deploy/nginx.conf as a child process, with its own prefix and temporary directories. Instances can be stopped
// (SIGTERM: the graceful shutdown; SIGKILL: a crash) and started again under the same name.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");

export interface ClusterOptions {
  /** One port per instance; nginx balances over them in this order. */
  instancePorts: number[];
  nginxPort: number;
  databaseUrl: string;
  redisUrl: string;
  /** Variables every instance gets besides the cluster's own (providers, timeouts). */
  env: Record<string, string>;
  /** Where each instance's output goes; ignored when unset. */
  logDir?: string;
  /**
   * Worker processes per instance (WEB_CONCURRENCY): more than 1 runs each instance as scripts/serve.mjs does for
   * `npm start`, one `next start` per worker on the instance's port; 1 (the default) runs a bare `next start`.
   */
  workersPerInstance?: number;
}

export interface Instance {
  /** Also its INSTANCE_ID: the same name after a restart. */
  readonly name: string;
  readonly port: number;
  readonly origin: string;
  /** The instance's process: `next start`, or with workers the process that runs them. */
  process: ChildProcess | null;
}

export interface Cluster {
  /** nginx's address: what clients use. */
  readonly url: string;
  readonly instances: Instance[];
  start(instance: Instance): Promise<void>;
  /** Sends the signal and resolves with the exit code once the process has exited. */
  stop(instance: Instance, signal: "SIGTERM" | "SIGKILL"): Promise<number | null>;
  instanceNamed(name: string): Instance;
  close(): Promise<void>;
}

export function nginxAvailable(): boolean {
  return spawnSync("nginx", ["-v"], { stdio: "ignore" }).status === 0;
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`${what} did not come up within ${timeoutMs} ms`);
}

/** Starts one instance's process, its output going to a file of its own when the options name a log folder. */
async function spawnInstance(
  options: ClusterOptions,
  instance: Instance,
  workers: number,
): Promise<ChildProcess> {
  const output = options.logDir ? path.join(options.logDir, `${instance.name}-${Date.now()}.log`) : undefined;
  const [command, args] =
    workers > 1
      ? [process.execPath, [path.join(ROOT, "scripts/serve.mjs")]]
      : [
          path.join(ROOT, "node_modules/.bin/next"),
          ["start", "-p", String(instance.port), "-H", "127.0.0.1"],
        ];
  const child = spawn(command, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: "1",
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next",
      // A bare `next start`, without NEXT_MANUAL_SIG_HANDLE: the app takes SIGTERM over from Next by itself.
      ...options.env,
      ...(workers > 1
        ? { WEB_CONCURRENCY: String(workers), PORT: String(instance.port), HOST: "127.0.0.1" }
        : {}),
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: options.redisUrl,
      INSTANCE_ID: instance.name,
      // nginx is the proxy in front: its forwarding headers are believed.
      TRUSTED_PROXIES: "127.0.0.1",
    },
    stdio: output ? ["ignore", "pipe", "pipe"] : "ignore",
    // Its own process group, so that a SIGKILL (which it cannot pass on) reaches its workers too.
    detached: workers > 1,
  });
  if (output) {
    const { createWriteStream } = await import("node:fs");
    const file = createWriteStream(output);
    child.stdout?.pipe(file);
    child.stderr?.pipe(file);
  }
  return child;
}

/** nginx's prefix (with the temporary folders its workers write) and deploy/nginx.conf filled in for the instances. */
function writeNginxConfig(
  options: ClusterOptions,
  instances: Instance[],
): { prefix: string; configFile: string } {
  const prefix = mkdtempSync(path.join(tmpdir(), "glassbox-nginx-"));
  for (const dir of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) {
    mkdirSync(path.join(prefix, dir));
    // nginx's workers drop root for an unprivileged user, which must be able to write its temporary files.
    chmodSync(path.join(prefix, dir), 0o777);
  }
  chmodSync(prefix, 0o755);
  const config = readFileSync(path.join(ROOT, "deploy", "nginx.conf"), "utf8")
    .replaceAll("{{PREFIX}}", prefix)
    .replaceAll("{{LISTEN}}", `127.0.0.1:${options.nginxPort}`)
    .replaceAll(
      "{{UPSTREAM_SERVERS}}",
      instances
        .map((instance) => `    server 127.0.0.1:${instance.port} max_fails=1 fail_timeout=2s;`)
        .join("\n"),
    );
  const configFile = path.join(prefix, "nginx.conf");
  writeFileSync(configFile, config);
  return { prefix, configFile };
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const instances: Instance[] = options.instancePorts.map((port, index) => ({
    name: `scale-${String.fromCharCode(97 + index)}`,
    port,
    origin: `http://127.0.0.1:${port}`,
    process: null,
  }));

  // Every process started, stopped or not: close() ends any still running (one draining after a SIGTERM, too).
  const spawned = new Set<ChildProcess>();
  const workers = options.workersPerInstance ?? 1;
  /** A SIGKILL for an instance with workers goes to its whole process group. */
  const kill = (child: ChildProcess, signal: NodeJS.Signals) => {
    if (workers > 1 && signal === "SIGKILL" && child.pid !== undefined) process.kill(-child.pid, signal);
    else child.kill(signal);
  };
  const start = async (instance: Instance) => {
    const child = await spawnInstance(options, instance, workers);
    instance.process = child;
    spawned.add(child);
    const exited = new Promise<never>((_, reject) =>
      child.once("exit", (code) =>
        reject(new Error(`${instance.name} exited (${code}) before it was ready`)),
      ),
    );
    exited.catch(() => {}); // once ready, a later exit is the caller's business
    await Promise.race([
      waitFor(async () => (await fetch(`${instance.origin}/api/ready`)).ok, instance.name),
      exited,
    ]);
  };

  const stop = (instance: Instance, signal: "SIGTERM" | "SIGKILL") => {
    const running = instance.process;
    instance.process = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) {
      return Promise.resolve(running?.exitCode ?? null);
    }
    return new Promise<number | null>((resolve) => {
      running.once("exit", (code) => resolve(code));
      kill(running, signal);
    });
  };

  const { prefix, configFile } = writeNginxConfig(options, instances);

  const nginx = spawn("nginx", ["-e", "stderr", "-p", prefix, "-c", configFile], { stdio: "ignore" });
  const url = `http://127.0.0.1:${options.nginxPort}`;
  const close = async () => {
    await Promise.all(instances.map((instance) => stop(instance, "SIGKILL")));
    for (const child of spawned)
      if (child.exitCode === null && child.signalCode === null) kill(child, "SIGKILL");
    if (nginx.exitCode === null) {
      await new Promise((resolve) => {
        nginx.once("exit", resolve);
        nginx.kill("SIGQUIT");
      });
    }
    rmSync(prefix, { recursive: true, force: true });
  };
  try {
    await Promise.all(instances.map(start));
    await waitFor(async () => (await fetch(`${url}/api/health`)).ok, "nginx", 15_000);
  } catch (error) {
    // Nothing is left running (and holding its port) when the set-up fails half-way.
    await close();
    throw error;
  }

  return {
    url,
    instances,
    start,
    stop,
    instanceNamed(name) {
      const found = instances.find((instance) => instance.name === name);
      if (!found) throw new Error(`no instance ${name}`);
      return found;
    },
    close,
  };
}
