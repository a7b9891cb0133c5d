"use client";
// The chat's frame: the conversation sidebar beside the page, or a drawer on small screens. Pages open the drawer
// through `useChatShell()` (the menu button in their header).
import { usePathname } from "next/navigation";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { DrawerBackdrop } from "@/components/ui/drawer";

interface ChatShellContext {
  openSidebar: () => void;
  closeSidebar: () => void;
}

const ShellContext = createContext<ChatShellContext>({ openSidebar: () => {}, closeSidebar: () => {} });

export function useChatShell(): ChatShellContext {
  return useContext(ShellContext);
}

export function ChatShell({ sidebar, children }: { sidebar: ReactNode; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  // Following a link in the drawer closes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation
  useEffect(() => setOpen(false), [pathname]);
  const closeSidebar = useCallback(() => setOpen(false), []);
  const value = useMemo(() => ({ openSidebar: () => setOpen(true), closeSidebar }), [closeSidebar]);

  return (
    <ShellContext.Provider value={value}>
      <div className="flex h-full overflow-hidden">
        <DrawerBackdrop open={open} onClose={closeSidebar} hideFrom="md" testId="sidebar-backdrop" />
        <div
          className={`fixed inset-y-0 left-0 z-40 flex w-[min(20rem,85vw)] transition-transform duration-200 md:static md:z-auto md:w-64 md:translate-x-0 md:transition-none ${
            open ? "translate-x-0 shadow-2xl md:shadow-none" : "-translate-x-full"
          }`}
          data-testid="sidebar-container"
          data-open={open}
        >
          {sidebar}
        </div>
        <div className="flex min-w-0 flex-1 flex-col">{children}</div>
      </div>
    </ShellContext.Provider>
  );
}
