"use client";
// The first Tab stop on every page: jumps past the navigation to the composer on a conversation, else to the
// page's main region. Visible only while focused.
import { usePathname } from "next/navigation";

const COMPOSER = '[data-testid="composer-input"]';

export function SkipLink() {
  const pathname = usePathname();
  const toComposer = /^\/chat\/[^/]+$/.test(pathname ?? "");
  return (
    // biome-ignore lint/a11y/useValidAnchor: a same-page link; the handler only moves focus where the hash cannot
    <a
      href="#main-content"
      className="sr-only fixed top-2 left-2 z-[100] rounded-lg bg-indigo-600 px-3 py-2 text-sm font-medium text-white shadow-lg focus:not-sr-only"
      data-testid="skip-link"
      onClick={(event) => {
        const target =
          (toComposer && document.querySelector<HTMLElement>(COMPOSER)) ||
          document.getElementById("main-content") ||
          document.querySelector<HTMLElement>("main");
        if (!target) return;
        event.preventDefault();
        // A region that is not focusable by itself still has to take focus, so the next Tab starts inside it.
        if (target.tabIndex < 0 && !target.matches("input, textarea, select, button, a[href]")) {
          target.setAttribute("tabindex", "-1");
        }
        target.focus();
        target.scrollIntoView({ block: "nearest" });
      }}
    >
      {toComposer ? "Skip to the composer" : "Skip to main content"}
    </a>
  );
}
