import { ExperimentResults } from "@/components/lab/experiment-results";
import { requirePageUser } from "@/lib/session";

export const dynamic = "force-dynamic";

export default async function ExperimentPage({ params }: { params: Promise<{ id: string }> }) {
  await requirePageUser();
  return <ExperimentResults experimentId={(await params).id} />;
}
