// The Chromium the end-to-end tests drive (playwright.config.ts) and whose presence npm test checks: CHROMIUM_PATH
// when set, else Debian's headless shell (the lighter headless Chromium Playwright itself uses for headless runs:
// the suite needs about a third less CPU than with the full browser), else Debian's full Chromium.
import { existsSync } from "node:fs";

const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const FULL_BROWSER = "/usr/bin/chromium";

/** @returns {string} */
export function chromiumPath() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_BROWSER;
}
