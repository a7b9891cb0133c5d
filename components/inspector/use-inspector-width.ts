"use client";
// The inspector column's width on large screens, chosen by dragging its edge and remembered per user in this
// browser. The width is clamped so the chat column keeps a readable width beside it.
import { useCallback, useEffect, useState } from "react";
import { useCurrentUserId } from "@/components/ui/current-user";

export const INSPECTOR_MIN_WIDTH = 320;
export const INSPECTOR_DEFAULT_WIDTH = 640;
/** The chat column never gets narrower than this beside the inspector (about 60 characters of text). */
export const CHAT_MIN_WIDTH = 480;
/** The conversation sidebar's width from the md breakpoint (w-64). */
const SIDEBAR_WIDTH = 256;

export function inspectorMaxWidth(viewportWidth: number): number {
  return Math.max(INSPECTOR_MIN_WIDTH, viewportWidth - SIDEBAR_WIDTH - CHAT_MIN_WIDTH);
}

export function clampInspectorWidth(width: number, viewportWidth: number): number {
  return Math.round(Math.min(inspectorMaxWidth(viewportWidth), Math.max(INSPECTOR_MIN_WIDTH, width)));
}

function storageKey(userId: string | null): string {
  return `glassbox:inspector-width:${userId ?? "anonymous"}`;
}

export function useInspectorWidth() {
  const userId = useCurrentUserId();
  const [width, setWidthState] = useState(INSPECTOR_DEFAULT_WIDTH);
  const [maxWidth, setMaxWidth] = useState(INSPECTOR_DEFAULT_WIDTH);
  useEffect(() => {
    const update = () => setMaxWidth(inspectorMaxWidth(window.innerWidth));
    update();
    window.addEventListener("resize", update);
    return () => window.removeEventListener("resize", update);
  }, []);
  useEffect(() => {
    try {
      const stored = Number(localStorage.getItem(storageKey(userId)));
      if (Number.isFinite(stored) && stored > 0) setWidthState(stored);
    } catch {
      // Storage unavailable (private mode): the default width it is.
    }
  }, [userId]);
  const setWidth = useCallback(
    (next: number, { persist = true }: { persist?: boolean } = {}) => {
      const clamped = clampInspectorWidth(next, window.innerWidth);
      setWidthState(clamped);
      if (!persist) return;
      try {
        localStorage.setItem(storageKey(userId), String(clamped));
      } catch {
        // As above: the width lasts for this page only.
      }
    },
    [userId],
  );
  // The stored width may not fit a smaller window: the shown one is clamped, the stored one kept.
  return { width: Math.min(width, maxWidth), maxWidth, setWidth };
}
