"use client";
// Opens a conversation at a message: with ?message=<id> in the address (a search hit), the transcript scrolls to
// that message and flashes it once it is on the page. It tries for a few seconds, as the transcript may still be
// rendering (and pinning itself to the bottom) when the page arrives.
import { usePathname, useSearchParams } from "next/navigation";
import { useEffect } from "react";
import { revealMessage } from "./reveal-message";

const RETRY_MS = 150;
const GIVE_UP_AFTER_MS = 4_000;

export function RevealLinkedMessage() {
  const messageId = useSearchParams().get("message");
  const pathname = usePathname();

  useEffect(() => {
    if (!messageId || !pathname.startsWith("/chat/")) return;
    const started = Date.now();
    let timer = 0;
    const attempt = () => {
      if (revealMessage(messageId) || Date.now() - started > GIVE_UP_AFTER_MS) return;
      timer = window.setTimeout(attempt, RETRY_MS);
    };
    // After the transcript's first layout pass, which pins the view to the bottom.
    timer = window.setTimeout(attempt, RETRY_MS);
    return () => window.clearTimeout(timer);
  }, [messageId, pathname]);

  return null;
}
