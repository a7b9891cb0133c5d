// A Vitest reporter for the errors no test owns: a file that failed to load, a `beforeAll`/`afterAll` hook that
// threw (of the file or of a `describe`), and an error nothing handled. Vitest's JSON report keeps only the tests' own
// failures, so a file whose hook failed shows there as failed with no reason, and an unhandled error not at all.
// This writes each such error, with its file and suite, to the JSON file named by GLASSBOX_SUITE_ERRORS_FILE, and
// `npm test`'s summary (scripts/test.mjs) prints its first lines.
import { writeFileSync } from "node:fs";
import type { Reporter, SerializedError, TestModule, TestSuite } from "vitest/node";

export interface SuiteError {
  /** Empty for an unhandled error, which Vitest does not tie to a file. */
  file: string;
  /** The `describe` titles down to the suite whose hook threw; empty for the file itself. */
  suite: string[];
  message: string;
}

export default class SuiteErrorsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>) {
    const file = process.env.GLASSBOX_SUITE_ERRORS_FILE;
    if (!file) return;
    const errors: SuiteError[] = unhandledErrors.map((error) => ({
      file: "",
      suite: [],
      message: errorText(error),
    }));
    for (const testModule of testModules) {
      const record = (suite: string[], list: ReadonlyArray<SerializedError>) => {
        for (const error of list)
          errors.push({ file: testModule.moduleId, suite, message: errorText(error) });
      };
      record([], testModule.errors());
      for (const suite of testModule.children.allSuites()) record(suiteTitles(suite), suite.errors());
    }
    writeFileSync(file, JSON.stringify(errors));
  }
}

/** The titles from the outermost `describe` down to `suite`. */
function suiteTitles(suite: TestSuite): string[] {
  const titles: string[] = [];
  for (let current: TestSuite | TestModule = suite; current.type === "suite"; current = current.parent)
    titles.unshift(current.name);
  return titles;
}

function errorText(error: SerializedError): string {
  return error.stack || error.message || String(error);
}
