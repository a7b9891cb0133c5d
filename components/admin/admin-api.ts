"use client";

// Query keys and response types for the admin pages (as the routes send them: lib/api/responses.ts), and the mapping of an API refusal (an ApiError, see
// components/ui/api-client.ts) to the form field its message names.

import { ApiError, apiFetch } from "@/components/ui/api-client";
import type { ApiOutput } from "@/lib/api/responses";

export const adminKeys = {
  settings: ["admin", "settings"] as const,
  settingsVersions: ["admin", "settings", "versions"] as const,
  personas: ["admin", "personas"] as const,
  persona: (id: string) => ["admin", "personas", id] as const,
  models: ["admin", "models"] as const,
  blocks: ["admin", "blocks"] as const,
  memories: (filters: string) => ["admin", "memories", filters] as const,
  users: ["admin", "users"] as const,
  conversations: ["conversations"] as const,
};

export type PolicyResponse = ApiOutput<"GET /api/admin/settings">;
export type SettingsVersions = ApiOutput<"GET /api/admin/settings/versions">;

/** A persona as the admin routes send it: its stored fields, the override as plain JSON. */
export type PersonaRow = ApiOutput<"GET /api/admin/personas/:id">["persona"];
/** The personas with how many conversations use each, and the tools a persona may be given. */
export type PersonaRows = ApiOutput<"GET /api/admin/personas">;

export type ModelList = ApiOutput<"GET /api/admin/models">;
export type ModelRow = ModelList["models"][number];

/** The admin lists several pages read, each under its one key with its one fetch: `useQuery(adminQueries.models)`. */
export const adminQueries = {
  settings: { queryKey: adminKeys.settings, queryFn: () => apiFetch<PolicyResponse>("/api/admin/settings") },
  personas: { queryKey: adminKeys.personas, queryFn: () => apiFetch<PersonaRows>("/api/admin/personas") },
  models: { queryKey: adminKeys.models, queryFn: () => apiFetch<ModelList>("/api/admin/models") },
};

export type UserList = ApiOutput<"GET /api/admin/users">;
export type UserRow = UserList["users"][number];

export type BlockList = ApiOutput<"GET /api/admin/blocks">;
export type MemoryList = ApiOutput<"GET /api/admin/memories">;

/** A dry run of a conversation's next payload (the admin's preview of a policy or a persona draft). */
export type PreviewResult = ApiOutput<"POST /api/conversations/:id/preview">["preview"];
export type PersonaPreview = ApiOutput<"POST /api/admin/personas/:id/preview">;

/** Errors keyed by field, plus one for the form when the message names no field the form shows. */
export function errorsFrom(
  error: unknown,
  shownFields: readonly string[] = [],
): { fields: Record<string, string>; form: string | null } {
  if (!error) return { fields: {}, form: null };
  const path = error instanceof ApiError ? error.fieldKey : null;
  // The field itself or the list it belongs to ("stop.strings.3" → "stop.strings").
  const field = path ? shownFields.find((key) => path === key || path.startsWith(`${key}.`)) : undefined;
  if (field) {
    // Inline, the field's own label already names the key: show what follows the path.
    const message = (error as ApiError).message;
    return { fields: { [field]: message.slice(message.indexOf(": ") + 2) }, form: null };
  }
  return { fields: {}, form: error instanceof Error ? error.message : String(error) };
}
