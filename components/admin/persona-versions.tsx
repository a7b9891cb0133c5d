"use client";
// A persona's versions, each comparable field by field with the one in force and restorable.
import { useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/components/ui/api-client";
import type { ApiOutput } from "@/lib/api/responses";
import { adminKeys } from "./admin-api";
import { VersionHistory } from "./version-history";

const FIELDS = [
  "name",
  "avatar",
  "systemPrompt",
  "modelId",
  "fallbackModelIds",
  "toolNames",
  "settingsOverride",
] as const;

export function PersonaVersions({ personaId, onRestored }: { personaId: string; onRestored: () => void }) {
  const queryClient = useQueryClient();
  const path = `/api/admin/personas/${personaId}/versions`;
  return (
    <VersionHistory
      testId="persona-version"
      queryKey={[...adminKeys.persona(personaId), "versions"]}
      load={async () =>
        (await apiFetch<ApiOutput<"GET /api/admin/personas/:id/versions">>(path)).versions.map(
          ({ fields, ...row }) => ({ ...row, document: fields as unknown as Record<string, unknown> }),
        )
      }
      actions={{
        keys: FIELDS.map((key) => ({ key, read: (document) => document[key] })),
        restorePath: (version) => `${path}/${version}/restore`,
        onRestored: async () => {
          await queryClient.invalidateQueries({ queryKey: adminKeys.persona(personaId) });
          await queryClient.invalidateQueries({ queryKey: adminKeys.personas });
          onRestored();
        },
      }}
    />
  );
}
