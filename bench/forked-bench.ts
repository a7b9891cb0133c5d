// Benches that measure in a child node of their own module (concurrency, gateway): the parent forks the module with
// a flag in the child's environment, the module, loaded in the child, sees the flag, measures and sends the parent
// one message, its result. The child has node's default heap sizing, a fresh heap and its own database handle.

import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * The child side and the parent side of the bench in the module at `moduleUrl`, told apart by the environment
 * variable `flag`; `name` names the bench in errors.
 */
export function forkedBench(moduleUrl: string, flag: string, name: string) {
  return {
    /** In a child this bench forked: the flag's value (what the parent asked of it); elsewhere undefined. */
    childRequest: process.send ? process.env[flag] : undefined,

    /**
     * Forks the child with `request` as the flag's value (and `env`), and resolves with the result it sends
     * (`childName` names the child in errors).
     */
    measure<Result>(
      request: string,
      { execArgv = childExecArgv(), env = {} as Record<string, string>, childName = name } = {},
    ) {
      if (process.env[flag]) throw new Error(`${name} started inside its own child`);
      return runForked<Result>(moduleUrl, execArgv, { ...env, [flag]: request }, childName);
    },

    /** In the child: sends what `work` resolves with to the parent and exits; a failure is logged, and exits 1. */
    answer(work: Promise<unknown>): void {
      const send = process.send?.bind(process);
      if (!send) throw new Error(`${name}: answer is for the forked child`);
      work.then(
        (result) => send(result, () => process.exit(0)),
        (error) => {
          console.error(error);
          process.exit(1);
        },
      );
    },
  };
}

/**
 * The node flags of a bench's child process: the loader flags (tsx's --require and --import), the react-server
 * condition (server modules import "server-only", which throws without it) and --expose-gc, not the semi-space size.
 */
export function childExecArgv(): string[] {
  const execArgv: string[] = ["--expose-gc"];
  for (let index = 0; index < process.execArgv.length; index++) {
    const flag = process.execArgv[index];
    if (
      (flag === "--require" || flag === "--import" || flag === "--conditions") &&
      index + 1 < process.execArgv.length
    )
      execArgv.push(flag, process.execArgv[++index]);
    else if (/^--(require|import|conditions)=/.test(flag)) execArgv.push(flag);
  }
  if (!execArgv.some((flag) => flag.startsWith("--conditions"))) execArgv.push("--conditions=react-server");
  return execArgv;
}

/**
 * Fork the module at `moduleUrl` as a child with `env` added to this process's, and resolve with the last message
 * it sends before it exits (`name` says which child exited without one).
 */
export function runForked<Result>(
  moduleUrl: string,
  execArgv: string[],
  env: Record<string, string>,
  name: string,
): Promise<Result> {
  const child = fork(fileURLToPath(moduleUrl), [], {
    execArgv,
    env: { ...process.env, ...env },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise<Result>((resolve, reject) => {
    let result: Result | null = null;
    child.on("message", (message) => {
      result = message as Result;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (result) resolve(result);
      else reject(new Error(`${name} exited with code ${code}`));
    });
  });
}
