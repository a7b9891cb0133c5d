"use client";
// Auto-scroll that respects a reader: new content keeps the view pinned to the bottom only while the reader is
// there. Scrolling up unpins it (the caller shows a "jump to latest" pill); sending pins it again.
import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";

const NEAR_BOTTOM_PX = 80;

export function useStickToBottom(container: RefObject<HTMLElement | null>, contentVersion: unknown) {
  const pinned = useRef(true);
  /** Where the view was last left by us or seen by the scroll handler; a smaller scrollTop means the reader moved up. */
  const lastTop = useRef(0);
  const [atBottom, setAtBottom] = useState(true);

  const setPinned = useCallback((value: boolean) => {
    pinned.current = value;
    setAtBottom(value);
  }, []);

  /** Follow new content, unless the reader scrolled up since we last looked (their scroll event may still be queued). */
  const follow = useCallback(() => {
    const element = container.current;
    if (!element || !pinned.current) return;
    if (element.scrollTop < lastTop.current - 2) {
      setPinned(false);
      return;
    }
    element.scrollTop = element.scrollHeight;
    lastTop.current = element.scrollTop;
  }, [container, setPinned]);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const onScroll = () => {
      const movedUp = element.scrollTop < lastTop.current - 2;
      const near = element.scrollHeight - element.scrollTop - element.clientHeight < NEAR_BOTTOM_PX;
      lastTop.current = element.scrollTop;
      if (movedUp && !near) setPinned(false);
      else if (near) setPinned(true);
    };
    const onWheel = (event: WheelEvent) => {
      if (event.deltaY < 0) setPinned(false);
    };
    element.addEventListener("scroll", onScroll, { passive: true });
    element.addEventListener("wheel", onWheel, { passive: true });
    // Opening the inspector narrows the transcript and reflows it taller: a pinned view stays at the bottom.
    const observer = new ResizeObserver(follow);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => {
      element.removeEventListener("scroll", onScroll);
      element.removeEventListener("wheel", onWheel);
      observer.disconnect();
    };
  }, [container, follow, setPinned]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: contentVersion changes whenever the content grows
  useLayoutEffect(follow, [contentVersion, follow]);

  const scrollToBottom = useCallback(
    (behavior: ScrollBehavior = "smooth") => {
      const element = container.current;
      if (!element) return;
      setPinned(true);
      lastTop.current = 0;
      element.scrollTo({ top: element.scrollHeight, behavior });
    },
    [container, setPinned],
  );

  return { atBottom, scrollToBottom };
}
