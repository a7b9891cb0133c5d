import { MemorySettings } from "@/components/settings/memory-settings";
import { requirePageUser } from "@/lib/session";

export const dynamic = "force-dynamic";

export default async function MemoriesPage() {
  await requirePageUser();
  return <MemorySettings />;
}
