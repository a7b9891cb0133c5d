// A file a newcomer opens reads in one sitting: no source file outside the tests is longer than 600 lines. (A
// function's length, at most 120 lines outside the tests, is Biome's noExcessiveLinesPerFunction, in biome.json.)
// Tests are left out: a scenario table is long because each row is a case.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { ROOT, sourceFiles } from "./source-files";

const MAX_LINES = 600;
/** Tests, their fixtures and fake servers, and generated migrations. */
const NOT_COUNTED = /^(tests|e2e)\/|\.(test|spec)\.tsx?$|^db\/migrations\//;

test(`every source file outside the tests has at most ${MAX_LINES} lines`, () => {
  const counted = sourceFiles().filter((file) => !NOT_COUNTED.test(file));
  expect(counted).toContain("db/schema/tables.ts");
  const tooLong = counted
    .map((file) => [file, readFileSync(path.join(ROOT, file), "utf8").split("\n").length] as const)
    .filter(([, lines]) => lines > MAX_LINES);
  expect(tooLong).toEqual([]);
});
