// The labelled controls of the forms: an input, a text area, a number, a choice in a FormField or a checkbox, each
// handing back its value (not the change event) and carrying the test id the tests read.
import type {
  ButtonHTMLAttributes,
  ChangeEvent,
  InputHTMLAttributes,
  ReactNode,
  TextareaHTMLAttributes,
} from "react";
import { FormField } from "./form-field";

interface Frame {
  label: string;
  error?: string;
  /** The field's layout, e.g. the grid columns to span. */
  className?: string;
  testId: string;
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange" | "className">;

interface TextValue {
  value: string;
  onChange: (value: string) => void;
  testId: string;
}

/** The props a text control takes for a value handed back as text, the test id among them. */
function textControl<Rest extends object>({ value, onChange, testId, ...rest }: TextValue & Rest) {
  return {
    ...rest,
    value,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange(event.target.value),
    "data-testid": testId,
  };
}

export function TextField({
  label,
  error,
  className,
  inputClassName = "input",
  ...input
}: Frame & InputProps & TextValue & { inputClassName?: string }) {
  return (
    <FormField label={label} error={error} className={className}>
      <input className={inputClassName} {...textControl(input)} />
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
  ...textarea
}: Frame &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "value" | "onChange" | "className"> &
  TextValue) {
  return (
    <FormField label={label} error={error} className={className}>
      <textarea className="input" {...textControl(textarea)} />
    </FormField>
  );
}

/** A checkbox with its label beside it, handing back whether it is checked. */
export function CheckboxField({
  label,
  checked,
  onChange,
  testId,
  className = "flex items-center gap-2",
}: {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  testId: string;
  className?: string;
}) {
  return (
    <label className={className}>
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        data-testid={testId}
      />
      {label}
    </label>
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

/** A button that cannot be pressed twice while its request runs, saying what it is doing if given `pendingLabel`. */
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
  pendingLabel?: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <button type={type} className={className} disabled={pending || disabled} data-testid={testId} {...button}>
      {pending && pendingLabel ? pendingLabel : children}
    </button>
  );
}
