// `< 2 / 3 >`: the buttons to the version before and after the one shown, and its place among them. Reply variants
// and question versions both step this way.
import { ChevronRightIcon } from "@/components/ui/icons";

export function StepButtons({
  versions: { ids, index },
  enabled,
  onStep,
  what,
  testIds,
}: {
  /** The versions, oldest first, and which one is shown. */
  versions: { ids: string[]; index: number };
  /** False while nothing may change; the first and the last version disable their own end anyway. */
  enabled: boolean;
  /** Show the version with this id. */
  onStep: (versionId: string) => void;
  /** What the buttons step through, for their names: "variant" makes "Previous variant". */
  what: string;
  testIds: { previous: string; position: string; next: string };
}) {
  return (
    <>
      <button
        type="button"
        className="button-ghost-sm px-1"
        disabled={!enabled || index === 0}
        onClick={() => onStep(ids[index - 1])}
        aria-label={`Previous ${what}`}
        data-testid={testIds.previous}
      >
        <ChevronRightIcon size={14} className="rotate-180" />
      </button>
      <span className="tabular-nums text-xs" data-testid={testIds.position}>
        {index + 1} / {ids.length}
      </span>
      <button
        type="button"
        className="button-ghost-sm px-1"
        disabled={!enabled || index === ids.length - 1}
        onClick={() => onStep(ids[index + 1])}
        aria-label={`Next ${what}`}
        data-testid={testIds.next}
      >
        <ChevronRightIcon size={14} />
      </button>
    </>
  );
}
