"use client";
// Scroll the transcript to a stored message and flash it, for the inspector's "source message" links.

export function revealMessage(messageId: string): boolean {
  const element = document.querySelector<HTMLElement>(
    `[data-testid="message"][data-message-id="${CSS.escape(messageId)}"]`,
  );
  if (!element) return false;
  element.scrollIntoView({ block: "center", behavior: "smooth" });
  element.dataset.highlighted = "true";
  const target = element.querySelector<HTMLElement>("[data-bubble]") ?? element;
  target.classList.remove("animate-flash");
  // Restart the animation when the same message is revealed twice in a row.
  void target.offsetWidth;
  target.classList.add("animate-flash");
  window.setTimeout(() => {
    target.classList.remove("animate-flash");
    delete element.dataset.highlighted;
  }, 2_000);
  return true;
}
