import { MemoryManager } from "@/components/admin/memory-manager";

export default function AdminMemoriesPage() {
  return <MemoryManager />;
}
