// The preview route called in-process, and the items of the payload it returns: shared by the API tests that
// check what the next turn would send.
import * as previewRoute from "@/app/api/conversations/[id]/preview/route";
import type { ResolvedSettings, SettingsOverride } from "@/lib/domain/settings";
import { call, type TestUser } from "../api-client";

export interface PreviewItem {
  id: string;
  tag: string;
  role: string;
  parts: Array<{ type: string; text?: string }>;
  sourceMessageIds: string[];
}

/** The payload the next turn would send with `text` (and a draft of settings, if given); throws unless 200. */
export async function preview(
  user: TestUser,
  conversationId: string,
  text: string,
  settings?: SettingsOverride,
) {
  const response = await call(previewRoute.POST, `/api/conversations/${conversationId}/preview`, {
    user,
    params: { id: conversationId },
    body: settings ? { text, settings } : { text },
  });
  if (response.status !== 200) throw new Error(`preview failed: ${response.status} ${await response.text()}`);
  return (
    (await response.json()) as {
      preview: {
        items: PreviewItem[];
        trace: Array<Record<string, unknown>>;
        request: { body: string };
        settings: ResolvedSettings;
        /** A reply is still being written: its text in the payload is the part stored so far. */
        replyInProgress: boolean;
      };
    }
  ).preview;
}

/** The text of an item's text parts, one a line. */
export function itemText(item: Pick<PreviewItem, "parts">): string {
  return item.parts
    .filter((part) => part.type === "text")
    .map((part) => part.text ?? "")
    .join("\n");
}
