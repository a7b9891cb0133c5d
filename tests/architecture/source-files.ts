// The project's own source files, walked from its root, for the tests that read every one of them.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../..");
/** Not sources: installed packages, build output, the embedded database, test reports. */
const SKIPPED_DIRECTORIES = /^(node_modules|\.next.*|\.data|\.git|test-results.*|playwright-report)$/;

/** Every .ts, .tsx, .mjs, .cjs and .js file below `dir`, as a path from the root. */
export function sourceFiles(dir = ""): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, dir))) {
    const relative = dir ? `${dir}/${entry}` : entry;
    if (statSync(path.join(ROOT, relative)).isDirectory()) {
      if (!SKIPPED_DIRECTORIES.test(entry)) files.push(...sourceFiles(relative));
    } else if (/\.(tsx?|mjs|cjs|js)$/.test(entry)) files.push(relative);
  }
  return files;
}
