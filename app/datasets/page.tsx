import { DatasetList } from "@/components/lab/dataset-list";
import { requirePageUser } from "@/lib/session";

export const dynamic = "force-dynamic";

export default async function DatasetsPage() {
  await requirePageUser();
  return <DatasetList />;
}
