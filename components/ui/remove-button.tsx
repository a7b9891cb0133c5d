// The small × that takes one entry out of a list (an attachment, a person): says which entry it removes.
import { CloseIcon } from "./icons";

export function RemoveButton({
  name,
  onClick,
  testId,
}: {
  name: string;
  onClick: () => void;
  testId: string;
}) {
  return (
    <button
      type="button"
      className="button-ghost-sm"
      onClick={onClick}
      aria-label={`Remove ${name}`}
      data-testid={testId}
    >
      <CloseIcon size={12} />
    </button>
  );
}
