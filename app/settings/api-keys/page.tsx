import { ApiKeySettings } from "@/components/settings/api-key-settings";
import { requirePageUser } from "@/lib/session";

export const dynamic = "force-dynamic";

export default async function ApiKeysPage() {
  await requirePageUser();
  return <ApiKeySettings />;
}
