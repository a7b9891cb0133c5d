// A refusal shown where it happened (a form, a row action): announced to screen readers, nothing when there is
// no message.
export function ErrorMessage({
  message,
  testId,
  className = "",
  textClassName = "text-sm text-red-700 dark:text-red-300",
}: {
  message: string | null | undefined;
  testId: string;
  /** Layout only, e.g. the grid columns to span. */
  className?: string;
  /** The text's size and colours, where a place has its own. */
  textClassName?: string;
}) {
  if (!message) return null;
  return (
    <p role="alert" className={`${textClassName} ${className}`.trim()} data-testid={testId}>
      {message}
    </p>
  );
}
