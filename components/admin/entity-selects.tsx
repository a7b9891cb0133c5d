"use client";
// The persona and user pickers the admin forms share, over one cached query each.
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/ui/api-client";
import { adminKeys, type PersonaRow, type UserRow } from "./admin-api";

export function usePersonas() {
  return useQuery({
    queryKey: adminKeys.personas,
    queryFn: () => apiFetch<{ personas: PersonaRow[] }>("/api/admin/personas"),
  });
}

export function useUsers() {
  return useQuery({
    queryKey: adminKeys.users,
    queryFn: () => apiFetch<{ users: UserRow[] }>("/api/admin/users"),
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

function EntitySelect({
  label,
  value,
  onChange,
  testId,
  anyLabel,
  options,
}: EntitySelectProps & { options: { id: string; text: string }[] }) {
  return (
    <label className="text-sm">
      {label}
      <select
        className="input"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        data-testid={testId}
      >
        {anyLabel !== undefined && <option value="">{anyLabel}</option>}
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.text}
          </option>
        ))}
      </select>
    </label>
  );
}

export function PersonaSelect(props: Omit<EntitySelectProps, "label"> & { label?: string }) {
  const personas = usePersonas();
  const options = (personas.data?.personas ?? []).map((persona) => ({ id: persona.id, text: persona.name }));
  return <EntitySelect label="Persona" {...props} options={options} />;
}

export function UserSelect(props: Omit<EntitySelectProps, "label"> & { label?: string }) {
  const users = useUsers();
  const options = (users.data?.users ?? []).map((user) => ({
    id: user.id,
    text: `${user.name} (${user.email})`,
  }));
  return <EntitySelect label="User" {...props} options={options} />;
}
