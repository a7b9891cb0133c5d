// The axe audit every accessibility check uses: serious and critical violations of the page as it is now, once
// its finite animations have ended (a fading element would be measured half-transparent).
//
// axe runs in the page itself (axe.run, the builder's legacy mode): the app has no frames, so the partial runs per
// frame and their merge in a blank page of the default mode would find the same and cost a page each time. Only
// violations are gathered in full (resultTypes): every rule still runs on every node, but the passes are not
// collected node by node.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

export interface Finding {
  page: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/** The rules that read colours: all a change of theme can change, since the themes differ only in colours. */
export const COLOUR_RULES = ["color-contrast", "link-in-text-block"] as const;

/** Waits until the page's finite animations and transitions have ended. */
async function settle(page: Page): Promise<void> {
  // Transitions (drawers sliding in, colours after a theme switch) would be measured half-way.
  // (Endless ones, such as the typing dots, are left alone; one that is cancelled counts as settled.)
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => null)),
    ),
  );
}

/** Audits the page as it is now: every rule axe runs by default, or only `rules`. */
export async function audit(page: Page, name: string, rules?: readonly string[]): Promise<Finding[]> {
  await settle(page);
  let builder = new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ["violations"] });
  if (rules) builder = builder.withRules([...rules]);
  const results = await builder.analyze();
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

export type Theme = "light" | "dark";

/** Switches the theme in place, as the theme toggle does: the `dark` class on <html>, remembered in localStorage. */
export async function switchTheme(page: Page, theme: Theme): Promise<void> {
  await page.evaluate((value) => {
    document.documentElement.classList.toggle("dark", value === "dark");
    localStorage.setItem("theme", value);
  }, theme);
  await expect(page.locator("html")).toHaveClass(theme === "dark" ? /dark/ : /^(?!.*dark)/);
}

/**
 * Audits one page state in both themes: every rule in the light theme, then the colour rules in the dark one (the
 * same page with other colours; a theme changes nothing else). Leaves the page in the dark theme.
 */
export async function auditBothThemes(page: Page, name: string): Promise<Finding[]> {
  await switchTheme(page, "light");
  const findings = await audit(page, `${name} (light)`);
  await switchTheme(page, "dark");
  findings.push(...(await audit(page, `${name} (dark)`, COLOUR_RULES)));
  return findings;
}
