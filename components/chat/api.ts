"use client";
// Small typed fetchers for the chat UI. Errors carry the server's `{ error: { message } }` text.

export interface ConversationSummary {
  id: string;
  title: string;
  personaId: string;
  updatedAt: string;
}

export async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, {
    ...init,
    headers: { "content-type": "application/json", ...(init?.headers ?? {}) },
  });
  if (!response.ok) {
    const body = await response.json().catch(() => null);
    throw new Error(body?.error?.message ?? `Request failed with status ${response.status}`);
  }
  return response.status === 204 ? (undefined as T) : ((await response.json()) as T);
}

export const conversationsKey = ["conversations"] as const;
