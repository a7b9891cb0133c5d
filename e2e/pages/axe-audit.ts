// The axe audit every accessibility check uses: serious and critical violations of the page as it is now, once
// its finite animations have ended (a fading element would be measured half-transparent).
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

export interface Finding {
  page: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

export async function audit(page: Page, name: string): Promise<Finding[]> {
  // Transitions (drawers sliding in) would be measured half-way: wait for them to settle.
  // (Endless ones, such as the typing dots, are left alone; one that is cancelled counts as settled.)
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => null)),
    ),
  );
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({
      page: name,
      rule: violation.id,
      impact: violation.impact ?? "",
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(" ")),
    }));
}
