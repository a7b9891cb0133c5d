import { AttemptPage } from "@/components/inspector/attempt-page";
import { requirePageUser } from "@/lib/session";

export const dynamic = "force-dynamic";

export default async function SingleAttemptPage({ params }: { params: Promise<{ id: string }> }) {
  await requirePageUser();
  return <AttemptPage attemptId={(await params).id} />;
}
