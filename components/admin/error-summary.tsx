"use client";
// The list of every invalid field, shown when Save is refused. It takes focus, so a keyboard or screen-reader user
// hears what is wrong even when the fields are off-screen; each entry links to its field.
import { useEffect, useRef } from "react";

export interface FieldProblem {
  /** The id of the field's control. */
  controlId: string;
  label: string;
  message: string;
}

export function ErrorSummary({
  problems,
  focusSignal,
  testId,
}: {
  problems: FieldProblem[];
  /** Changes on every refused Save: the summary takes focus again. */
  focusSignal: number;
  testId: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  // Focus follows each refused Save, not each edit; the errors may arrive a render after the signal, so this
  // waits until the summary is on screen.
  const focusedSignal = useRef(0);
  useEffect(() => {
    if (focusSignal > focusedSignal.current && ref.current) {
      focusedSignal.current = focusSignal;
      ref.current.focus();
    }
  });
  if (problems.length === 0) return null;
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="alert"
      aria-labelledby={`${testId}-title`}
      className="rounded-xl border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950/60 dark:text-red-100"
      data-testid={testId}
    >
      <p id={`${testId}-title`} className="font-medium">
        {problems.length === 1 ? "1 field needs" : `${problems.length} fields need`} attention before saving:
      </p>
      <ul className="mt-1 list-disc space-y-0.5 pl-5">
        {problems.map((problem) => (
          <li key={problem.controlId}>
            <a
              href={`#${problem.controlId}`}
              className="underline underline-offset-2"
              data-testid="error-summary-link"
              onClick={(event) => {
                const control = document.getElementById(problem.controlId);
                if (!control) return;
                event.preventDefault();
                control.focus();
                control.scrollIntoView({ block: "center" });
              }}
            >
              {problem.label}
            </a>
            : {problem.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
