// The labelled controls of the admin forms: an input, a text area, a number or a choice in a FormField, each
// handing back its value (not the change event) and carrying the test id the tests read.
import type { ButtonHTMLAttributes, InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";
import { FormField } from "./form-field";

interface Frame {
  label: string;
  error?: string;
  /** The field's layout, e.g. the grid columns to span. */
  className?: string;
  testId: string;
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange" | "className">;

export function TextField({
  label,
  error,
  className,
  testId,
  value,
  onChange,
  inputClassName = "input",
  ...input
}: Frame & InputProps & { value: string; onChange: (value: string) => void; inputClassName?: string }) {
  return (
    <FormField label={label} error={error} className={className}>
      <input
        className={inputClassName}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        data-testid={testId}
        {...input}
      />
    </FormField>
  );
}

/** A whole number; an empty box is NaN, which the server refuses naming the field. */
export function NumberField({
  value,
  onChange,
  ...rest
}: Frame & InputProps & { value: number; onChange: (value: number) => void }) {
  return (
    <TextField
      type="number"
      value={Number.isNaN(value) ? "" : String(value)}
      onChange={(raw) => onChange(raw === "" ? Number.NaN : Number(raw))}
      {...rest}
    />
  );
}

export function TextAreaField({
  label,
  error,
  className,
  testId,
  value,
  onChange,
  ...textarea
}: Frame &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "value" | "onChange" | "className"> & {
    value: string;
    onChange: (value: string) => void;
  }) {
  return (
    <FormField label={label} error={error} className={className}>
      <textarea
        className="input"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        data-testid={testId}
        {...textarea}
      />
    </FormField>
  );
}

/** One of `options`: plain values are their own labels, or [value, label] pairs. */
export function SelectField<Value extends string>({
  label,
  error,
  className,
  testId,
  value,
  options,
  onChange,
}: Frame & {
  value: Value;
  options: readonly (Value | readonly [Value, string])[];
  onChange: (value: Value) => void;
}) {
  return (
    <FormField label={label} error={error} className={className}>
      <select
        className="input"
        value={value}
        onChange={(event) => onChange(event.target.value as Value)}
        data-testid={testId}
      >
        {options.map((option) => {
          const [optionValue, optionLabel] = typeof option === "string" ? [option, option] : option;
          return (
            <option key={optionValue} value={optionValue}>
              {optionLabel}
            </option>
          );
        })}
      </select>
    </FormField>
  );
}

/** A button that says what it is doing while its request runs, and cannot be pressed twice meanwhile. */
export function PendingButton({
  pending,
  pendingLabel,
  testId,
  children,
  className = "button-primary",
  type = "button",
  disabled,
  ...button
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, "children"> & {
  pending: boolean;
  pendingLabel: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <button type={type} className={className} disabled={pending || disabled} data-testid={testId} {...button}>
      {pending ? pendingLabel : children}
    </button>
  );
}
