// The end of a grid form: the refusal that names no field, then the form's buttons, both across `span` columns.
import type { ReactNode } from "react";
import { ErrorMessage } from "./error-message";

export function FormFooter({
  error,
  errorTestId,
  span,
  actionsClassName = span,
  children,
}: {
  error: string | null | undefined;
  errorTestId: string;
  /** The grid columns to span, e.g. "sm:col-span-3". */
  span: string;
  /** The buttons' row, where it is more than the span. */
  actionsClassName?: string;
  children: ReactNode;
}) {
  return (
    <>
      <ErrorMessage message={error} testId={errorTestId} className={span} />
      <div className={actionsClassName}>{children}</div>
    </>
  );
}
