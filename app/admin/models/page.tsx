import { ModelRegistry } from "@/components/admin/model-registry";

export default function AdminModelsPage() {
  return <ModelRegistry />;
}
