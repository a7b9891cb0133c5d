import { DatasetDetail } from "@/components/lab/dataset-detail";
import { requirePageUser } from "@/lib/session";

export const dynamic = "force-dynamic";

export default async function DatasetPage({ params }: { params: Promise<{ id: string }> }) {
  await requirePageUser();
  return <DatasetDetail datasetId={(await params).id} />;
}
