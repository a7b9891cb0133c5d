import { AttemptFinder } from "@/components/inspector/attempt-finder";
import { requirePageUser } from "@/lib/session";

export const dynamic = "force-dynamic";

export default async function AttemptsPage() {
  await requirePageUser();
  return <AttemptFinder />;
}
