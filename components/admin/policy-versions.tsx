"use client";
// The context policy's versions, each comparable key by key with the one in force and restorable.
import { useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/components/ui/api-client";
import type { SettingField } from "@/lib/settings-fields";
import { adminKeys, type SettingsVersions } from "./admin-api";
import { readKey } from "./settings-override";
import { VersionHistory } from "./version-history";

export function PolicyVersions({ fields }: { fields: readonly SettingField[] }) {
  const queryClient = useQueryClient();
  return (
    <VersionHistory
      testId="policy-version"
      queryKey={adminKeys.settingsVersions}
      load={async () =>
        (await apiFetch<SettingsVersions>("/api/admin/settings/versions")).versions.map(
          ({ settings, ...row }) => ({
            ...row,
            document: settings as unknown as Record<string, unknown>,
          }),
        )
      }
      actions={{
        keys: fields.map(({ key }) => ({ key, read: (document) => readKey(document, key) })),
        restorePath: (version) => `/api/admin/settings/versions/${version}/restore`,
        onRestored: () => queryClient.invalidateQueries({ queryKey: adminKeys.settings }),
      }}
    />
  );
}
