import { BlockManager } from "@/components/admin/block-manager";

export default function AdminBlocksPage() {
  return <BlockManager />;
}
