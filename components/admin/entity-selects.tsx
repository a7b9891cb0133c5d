"use client";
// The persona and user pickers the admin forms share, over one cached query each.
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/ui/api-client";
import { SelectField } from "@/components/ui/form-controls";
import { adminKeys, adminQueries, type UserList } from "./admin-api";

export function usePersonas() {
  return useQuery(adminQueries.personas);
}

export function useUsers() {
  return useQuery({
    queryKey: adminKeys.users,
    queryFn: () => apiFetch<UserList>("/api/admin/users"),
  });
}

interface EntitySelectProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
  /** Adds a first option with an empty value (for filters), labelled with this text. */
  anyLabel?: string;
}

function EntitySelect({ anyLabel, options, ...select }: EntitySelectProps & { options: [string, string][] }) {
  return (
    <SelectField {...select} options={anyLabel === undefined ? options : [["", anyLabel], ...options]} />
  );
}

export function PersonaSelect(props: Omit<EntitySelectProps, "label"> & { label?: string }) {
  const personas = usePersonas();
  const options = (personas.data?.personas ?? []).map((persona): [string, string] => [
    persona.id,
    persona.name,
  ]);
  return <EntitySelect label="Persona" {...props} options={options} />;
}

export function UserSelect(props: Omit<EntitySelectProps, "label"> & { label?: string }) {
  const users = useUsers();
  const options = (users.data?.users ?? []).map((user): [string, string] => [
    user.id,
    `${user.name} (${user.email})`,
  ]);
  return <EntitySelect label="User" {...props} options={options} />;
}
