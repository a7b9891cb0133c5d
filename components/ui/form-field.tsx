// A form control with its label and, under it, the error that refused it. With `id`, the label points at the
// control of that id (the control may sit inside other markup) and the error carries the test id `<id>-error`;
// without, the label wraps the control.
import type { ReactNode } from "react";

export function FormField({
  id,
  label,
  error,
  className = "",
  children,
}: {
  id?: string;
  label: string;
  error?: string;
  /** Layout only, e.g. the grid columns to span. */
  className?: string;
  children: ReactNode;
}) {
  const message = error && (
    <span
      role="alert"
      className="block text-xs text-red-700 dark:text-red-300"
      data-testid={id ? `${id}-error` : undefined}
    >
      {error}
    </span>
  );
  if (id) {
    return (
      <div className={`block text-sm ${className}`.trim()}>
        <label htmlFor={id} className="font-medium">
          {label}
        </label>
        {children}
        {message}
      </div>
    );
  }
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control comes in as children
    <label className={`block text-sm ${className}`.trim()}>
      <span className="font-medium">{label}</span>
      {children}
      {message}
    </label>
  );
}
