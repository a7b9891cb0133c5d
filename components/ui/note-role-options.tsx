// The roles a context note can be sent as, as the options of a select: the conversation settings and the
// inspector's preview offer the same three.
import type { ResolvedSettings } from "@/lib/domain/settings";

export type NoteRole = ResolvedSettings["contextNote"]["role"];

const NOTE_ROLES: readonly NoteRole[] = ["user", "system", "assistant"];

export function NoteRoleOptions() {
  return NOTE_ROLES.map((role) => (
    <option key={role} value={role}>
      {role}
    </option>
  ));
}
