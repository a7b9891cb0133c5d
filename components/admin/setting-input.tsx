"use client";
// One §4 key as a form field: its input by kind, with the default, the range and the one-line help beside it, and
// the API's message under it when the server refused the value. `inheritable` fields (persona overrides) can be
// left empty, meaning "not overridden here".
import { useState } from "react";
import type { SettingField } from "@/lib/settings-fields";

function describeRange(field: SettingField): string {
  switch (field.kind) {
    case "integer":
      return `${field.min}–${field.max}${field.nullable ? ", or empty" : ""}`;
    case "enum":
      return (field.values ?? []).join(" | ");
    case "text":
      return `≤ ${field.maxLength} chars`;
    case "strings":
      return `≤ ${field.maxItems} lines of ≤ ${field.maxLength} chars`;
    case "boolean":
      return "on / off";
  }
}

function showDefault(value: unknown): string {
  if (value === null || value === "") return "empty";
  if (Array.isArray(value)) return value.length === 0 ? "none" : value.join(", ");
  return String(value);
}

/** Text typed into a number box: empty is "unset"; anything not a number is sent as typed so the API names it. */
function parseInteger(raw: string, field: SettingField, inheritable: boolean): unknown {
  if (raw.trim() === "") return inheritable ? undefined : field.nullable ? null : raw;
  const number = Number(raw);
  return Number.isFinite(number) ? number : raw;
}

interface SettingInputProps {
  field: SettingField;
  value: unknown;
  onChange: (value: unknown) => void;
  error?: string;
  inheritable?: boolean;
  /** What an empty inheritable field resolves to (the policy in force), shown as its placeholder. */
  inheritedValue?: unknown;
}

export function SettingInput(props: SettingInputProps) {
  const { field, error } = props;
  const id = `setting-${field.key}`;
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const common: ControlProps = {
    id,
    "data-testid": id,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? `${errorId} ${helpId}` : helpId,
    className: "input",
  };
  return (
    <div className="text-sm" data-testid={`field-${field.key}`}>
      <label htmlFor={id} className="font-medium">
        {field.label}{" "}
        <span className="font-mono text-xs font-normal text-zinc-600 dark:text-zinc-400">· {field.key}</span>
      </label>
      <SettingControl {...props} common={common} />
      <p id={helpId} className="mt-0.5 text-xs text-zinc-600 dark:text-zinc-400">
        {field.help} <span className="whitespace-nowrap">Default: {showDefault(field.default)}</span> ·{" "}
        <span className="whitespace-nowrap">{describeRange(field)}</span>
      </p>
      {error && (
        <p
          id={errorId}
          className="text-xs text-red-700 dark:text-red-300"
          data-testid={`setting-error-${field.key}`}
        >
          {error}
        </p>
      )}
    </div>
  );
}

type ControlProps = {
  id: string;
  "data-testid": string;
  "aria-invalid": true | undefined;
  "aria-describedby": string;
  className: string;
};

/** The input for the field's kind, wired to its label, help and error by `common`. */
function SettingControl({
  field,
  value,
  onChange,
  inheritable = false,
  inheritedValue,
  common,
}: SettingInputProps & { common: ControlProps }) {
  const inheritLabel = inheritedValue === undefined ? "inherit" : `inherit: ${showDefault(inheritedValue)}`;
  const { id } = common;
  const helpId = `${id}-help`;
  switch (field.kind) {
    case "integer":
      return (
        <input
          {...common}
          type="number"
          step={1}
          min={field.min}
          max={field.max}
          value={value === null || value === undefined ? "" : String(value)}
          placeholder={inheritable ? inheritLabel : field.nullable ? "unset" : undefined}
          onChange={(event) => onChange(parseInteger(event.target.value, field, inheritable))}
        />
      );
    case "enum":
      return (
        <select
          {...common}
          value={value === undefined ? "" : String(value)}
          onChange={(event) => onChange(event.target.value === "" ? undefined : event.target.value)}
        >
          {inheritable && <option value="">({inheritLabel})</option>}
          {(field.values ?? []).map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      );
    case "text": {
      const toValue = (raw: string) =>
        raw === "" ? (inheritable ? undefined : field.nullable ? null : "") : raw;
      return (field.maxLength ?? 0) > 200 ? (
        <textarea
          {...common}
          rows={3}
          value={typeof value === "string" ? value : ""}
          onChange={(event) => onChange(toValue(event.target.value))}
        />
      ) : (
        <input
          {...common}
          value={typeof value === "string" ? value : ""}
          placeholder={inheritable ? inheritLabel : field.nullable ? "unset" : undefined}
          onChange={(event) => onChange(toValue(event.target.value))}
        />
      );
    }
    case "boolean":
      return inheritable ? (
        <select
          {...common}
          value={value === undefined ? "" : String(value)}
          onChange={(event) =>
            onChange(event.target.value === "" ? undefined : event.target.value === "true")
          }
        >
          <option value="">({inheritLabel})</option>
          <option value="true">on</option>
          <option value="false">off</option>
        </select>
      ) : (
        <input
          id={id}
          data-testid={id}
          aria-describedby={helpId}
          type="checkbox"
          className="mt-2 h-4 w-4"
          checked={value === true}
          onChange={(event) => onChange(event.target.checked)}
        />
      );
    case "strings":
      return <LinesInput common={common} value={value} onChange={onChange} inheritable={inheritable} />;
  }
}

/** A list as one line per entry (a line break inside an entry is typed as backslash-n); blank lines are ignored, so a new
 *  line can be started while typing. */
function LinesInput({
  common,
  value,
  onChange,
  inheritable,
}: {
  common: { id: string; "data-testid": string; className: string; "aria-describedby": string };
  value: unknown;
  onChange: (value: unknown) => void;
  inheritable: boolean;
}) {
  const [raw, setRaw] = useState(
    Array.isArray(value) ? value.map((entry) => String(entry).replaceAll("\n", "\\n")).join("\n") : "",
  );
  return (
    <textarea
      {...common}
      rows={2}
      placeholder={
        inheritable ? "inherit (one per line, \\n for a line break)" : "one per line, \\n for a line break"
      }
      value={raw}
      onChange={(event) => {
        setRaw(event.target.value);
        const lines = event.target.value
          .split("\n")
          .filter((line) => line !== "")
          .map((line) => line.replaceAll("\\n", "\n"));
        onChange(inheritable && lines.length === 0 ? undefined : lines);
      }}
    />
  );
}
