// Pipeline stages in the order they run, with the names the trace panel shows.
import type { StageName } from "@/lib/domain/types";

export const STAGES: { stage: StageName; label: string; phase: "A" | "B" }[] = [
  { stage: "load", label: "Load", phase: "A" },
  { stage: "unanswered", label: "Unanswered turns", phase: "A" },
  { stage: "collapse", label: "Collapse runs", phase: "A" },
  { stage: "blocks", label: "Persona user blocks", phase: "A" },
  { stage: "roles", label: "Role mapping", phase: "A" },
  { stage: "media-budget", label: "Media budget", phase: "A" },
  { stage: "artifacts", label: "Artifact replay", phase: "A" },
  { stage: "window", label: "History window", phase: "A" },
  { stage: "notes", label: "Context notes", phase: "A" },
  { stage: "system-prompt", label: "System prompt", phase: "A" },
  { stage: "summary", label: "Summary placement", phase: "A" },
  { stage: "current-input", label: "Current input", phase: "A" },
  { stage: "reasoning", label: "Replayable reasoning", phase: "B" },
  { stage: "media-resolution", label: "Media resolution", phase: "B" },
  { stage: "normalise", label: "Strict-provider normalisation", phase: "B" },
  { stage: "budget", label: "Token budget", phase: "B" },
  { stage: "stop-strings", label: "Stop strings", phase: "B" },
  { stage: "cache", label: "Prompt cache", phase: "B" },
  { stage: "serialise", label: "Serialise", phase: "B" },
];

export function stageLabel(stage: string): string {
  return STAGES.find((entry) => entry.stage === stage)?.label ?? stage;
}
