// A line across the list with words in its middle: marks where something changes between two messages. The words
// carry the test id `<testId>-text`.
import type { HTMLAttributes, ReactNode } from "react";

export function TextDivider({
  className,
  lineClassName,
  testId,
  title,
  after,
  children,
  ...attributes
}: Omit<HTMLAttributes<HTMLDivElement>, "title"> & {
  /** The text's size and colours, on top of the row's layout. */
  className: string;
  /** The colour of the line on either side. */
  lineClassName: string;
  testId: string;
  /** The words' tooltip. */
  title?: string;
  /** Beside the words, e.g. a button. */
  after?: ReactNode;
  children: ReactNode;
}) {
  const line = <span className={`h-px flex-1 ${lineClassName}`} />;
  return (
    <div className={`flex items-center gap-3 ${className}`} data-testid={testId} {...attributes}>
      {line}
      <span className="text-center" title={title} data-testid={`${testId}-text`}>
        {children}
      </span>
      {after}
      {line}
    </div>
  );
}
