"use client";
// A tooltip on Radix's Tooltip: shown after a short hover and on keyboard focus, hidden on a click, on leaving and
// on Escape. It names nothing: the control keeps its own aria-label, the tooltip only shows it to sighted users.
// It takes no pointer events (.tooltip), so one left open by keyboard focus never covers what is clicked next.
import * as RadixTooltip from "@radix-ui/react-tooltip";
import type { ReactElement, ReactNode } from "react";

const HOVER_DELAY_MS = 400;

export function Tooltip({ content, children }: { content: ReactNode; children: ReactElement }) {
  return (
    // A provider per tooltip, so a control with one renders anywhere (tests included) without an app-wide wrapper.
    <RadixTooltip.Provider delayDuration={HOVER_DELAY_MS} disableHoverableContent>
      <RadixTooltip.Root>
        <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
        <RadixTooltip.Portal>
          <RadixTooltip.Content side="bottom" sideOffset={4} className="tooltip" data-testid="tooltip">
            {content}
          </RadixTooltip.Content>
        </RadixTooltip.Portal>
      </RadixTooltip.Root>
    </RadixTooltip.Provider>
  );
}
