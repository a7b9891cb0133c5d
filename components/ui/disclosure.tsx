// A native disclosure: the summary line stays, a click opens or folds what is under it.
import type { ReactNode } from "react";

export function Disclosure({
  summary,
  summaryClassName = "cursor-pointer text-zinc-500 dark:text-zinc-400",
  className,
  testId,
  children,
}: {
  summary: ReactNode;
  summaryClassName?: string;
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <details className={className} data-testid={testId}>
      <summary className={summaryClassName}>{summary}</summary>
      {children}
    </details>
  );
}
