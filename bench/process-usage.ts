// A server's CPU time and resident memory read from /proc: a process and its children (an instance's workers).
// A worker that exited is not counted: none does unless the run fails.

import { readdirSync, readFileSync } from "node:fs";

export interface ProcessUsage {
  pid: number;
  /** User + system time so far, ms. */
  cpuMs: number;
  /** Resident memory, MB. */
  rssMb: number;
}

/** The process `pid` and its children, each on its own: the process first. */
export function processTreeUsage(pid: number | undefined): ProcessUsage[] {
  if (pid === undefined) return [];
  return [pid, ...childPids(pid)].map(oneProcessUsage);
}

/** CPU ms and resident MB of a process and its children together. */
export function processUsage(pid: number | undefined): { cpuMs: number; rssMb: number } {
  return processTreeUsage(pid).reduce(
    (sum, usage) => ({
      cpuMs: sum.cpuMs + usage.cpuMs,
      rssMb: sum.rssMb + usage.rssMb,
    }),
    { cpuMs: 0, rssMb: 0 },
  );
}

export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(" ")
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

function oneProcessUsage(pid: number): ProcessUsage {
  try {
    const { cpuMs } = processStat(pid);
    const rssPages = Number(readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]);
    return { pid, cpuMs, rssMb: (rssPages * 4096) / 1024 / 1024 };
  } catch {
    return { pid, cpuMs: 0, rssMb: 0 };
  }
}

/** Resident memory by kind (/proc/<pid>/status): anonymous (heaps, buffers) and file-backed (code), MB. */
export function residentKinds(pid: number): { anonMb: number; fileMb: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
    return { anonMb: kb("RssAnon") / 1024, fileMb: kb("RssFile") / 1024 };
  } catch {
    return { anonMb: 0, fileMb: 0 };
  }
}

/**
 * The CPU ms a local Postgres server has spent so far: its postmaster's own, that of its backends still running,
 * and that of the backends that have exited (which the kernel adds to their parent's children's time). Null when
 * `databaseUrl` names another host, or no postmaster is found here: the figure would not be this database's.
 */
export function localPostgresCpuMs(databaseUrl: string): number | null {
  const host = new URL(databaseUrl).hostname;
  if (!["127.0.0.1", "localhost", "::1", "[::1]", ""].includes(host)) return null;
  const processes = listProcesses();
  const postmasters = processes.filter(
    (entry) =>
      entry.name === "postgres" && processes.find((other) => other.pid === entry.parent)?.name !== "postgres",
  );
  if (postmasters.length === 0) return null;
  let cpuMs = 0;
  for (const postmaster of postmasters) {
    cpuMs += postmaster.cpuMs + postmaster.exitedChildrenCpuMs;
    for (const child of processes) if (child.parent === postmaster.pid) cpuMs += child.cpuMs;
  }
  return cpuMs;
}

interface ProcessStat {
  pid: number;
  parent: number;
  name: string;
  /** User + system time so far, ms. */
  cpuMs: number;
  /** User + system time of its children that have exited and been waited for, ms. */
  exitedChildrenCpuMs: number;
}

/** A process's line of /proc/<pid>/stat; throws when the process has ended. */
function processStat(pid: number): ProcessStat {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // After the name: state, ppid, … then utime, stime, cutime and cstime (fields 14 to 17 of the whole line), in
  // clock ticks (100 a second on Linux).
  return {
    pid,
    parent: Number(fields[1]),
    name: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")),
    cpuMs: (Number(fields[11]) + Number(fields[12])) * 10,
    exitedChildrenCpuMs: (Number(fields[13]) + Number(fields[14])) * 10,
  };
}

function listProcesses(): ProcessStat[] {
  const entries: ProcessStat[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      entries.push(processStat(Number(name)));
    } catch {
      // The process ended while the list was read.
    }
  }
  return entries;
}
