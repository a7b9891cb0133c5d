import { notFound } from "next/navigation";
import { PersonaEditor } from "@/components/admin/persona-editor";
import { isUuid } from "@/lib/ids";

export default async function AdminPersonaPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!isUuid(id)) notFound();
  return <PersonaEditor personaId={id} />;
}
