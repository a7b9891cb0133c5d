// Playwright's `test` with `personPage`: tests of two or more people (rooms, blocks, redaction) give each person a
// browser context of their own (their own cookies, as another browser would), closed when the test ends.
import { type BrowserContext, test as base, type Page } from "@playwright/test";

export const test = base.extend<{ personPage: () => Promise<Page> }>({
  personPage: async ({ browser }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async () => {
      const context = await browser.newContext();
      contexts.push(context);
      return context.newPage();
    });
    for (const context of contexts) await context.close();
  },
});
