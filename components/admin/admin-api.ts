"use client";

// Query keys and response types for the admin pages, and the mapping of an API refusal (an ApiError, see
// components/ui/api-client.ts) to the form field its message names.

import { ApiError } from "@/components/ui/api-client";
import type { PersonaFields } from "@/db/admin-queries";
import type { ResolvedSettings } from "@/lib/domain/settings";
import type { ModelCapabilities, ProviderName, TokenizerName } from "@/lib/domain/types";
import type { SettingField } from "@/lib/settings-fields";

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

export interface PolicyResponse {
  version: number;
  settings: ResolvedSettings;
  help: Record<string, string>;
  defaults: ResolvedSettings;
  fields: SettingField[];
}

/** A persona as the admin routes send it: its stored fields, the override as plain JSON. */
export type PersonaRow = Omit<PersonaFields, "settingsOverride"> & {
  id: string;
  /** The persona's model id on the gateway (/v1). */
  slug: string | null;
  settingsOverride: Record<string, unknown>;
  conversationCount?: number;
};

export interface ModelRow {
  id: string;
  provider: ProviderName;
  providerModelName: string;
  label: string;
  apiKind: "chat" | "responses";
  capabilities: ModelCapabilities;
  contextWindow: number;
  maxOutputTokens: number;
  tokenizer: TokenizerName;
  enabled: boolean;
}

export interface UserRow {
  id: string;
  name: string;
  email: string;
  role: string;
}

export interface PreviewItem {
  id: string;
  tag: string;
  role: string;
  parts: Array<{ type: string; text?: string; [key: string]: unknown }>;
  tokens: number;
}

export interface PreviewResult {
  modelId: string;
  settingsVersion: number;
  items: PreviewItem[];
  request: { url: string; body: string };
}

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
