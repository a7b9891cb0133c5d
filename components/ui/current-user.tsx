"use client";
// The signed-in user's id for client components that remember per-user preferences (the layout knows it from the
// session on the server, so no extra request is needed).
import { createContext, type ReactNode, useContext } from "react";

const CurrentUserContext = createContext<string | null>(null);

export function CurrentUserProvider({ userId, children }: { userId: string; children: ReactNode }) {
  return <CurrentUserContext.Provider value={userId}>{children}</CurrentUserContext.Provider>;
}

export function useCurrentUserId(): string | null {
  return useContext(CurrentUserContext);
}
