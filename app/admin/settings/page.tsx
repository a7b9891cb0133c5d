import { ContextPolicyEditor } from "@/components/admin/context-policy-editor";

export default function AdminSettingsPage() {
  return <ContextPolicyEditor />;
}
