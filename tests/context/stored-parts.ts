// Stored message parts written short, so a message's parts (its text pieces between artifacts and media) read as
// one line in a test.
import type { StoredPart } from "@/lib/domain/types";

export const storedText = (text: string): StoredPart => ({ type: "text", text });
export const storedArtifact = (artifactId: string): StoredPart => ({ type: "artifact", artifactId });
export const storedMedia = (attachmentId: string): StoredPart => ({ type: "media", attachmentId });
