// A control under its label text; the label wraps the control, so the text names it and a click on it focuses it.
import type { ReactNode } from "react";

export function Labelled({
  label,
  title,
  className = "block",
  children,
}: {
  label: ReactNode;
  /** The tooltip, e.g. what the setting does. */
  title?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control comes in as children
    <label className={className} title={title}>
      <span className="label-text">{label}</span>
      {children}
    </label>
  );
}
