import { PersonaList } from "@/components/admin/persona-list";

export default function AdminPersonasPage() {
  return <PersonaList />;
}
