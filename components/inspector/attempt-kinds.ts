// How each kind of model call is named in the inspector and the find-attempts page.
import type { AttemptKind } from "./types";

export const ATTEMPT_KIND_LABELS: Record<AttemptKind, string> = {
  reply: "reply",
  summary: "summary",
  title: "title",
  write_as_me: "write as me",
  replay: "replay",
};
