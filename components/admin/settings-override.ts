// The smallest override that turns one settings document into another: only the keys whose values differ. The
// preview sends this, so keys the admin did not touch keep their normal precedence (persona, conversation).

type Document = Record<string, unknown>;

export function overrideFromDiff(saved: Document, edited: Document): Document {
  const override: Document = {};
  for (const [section, editedValue] of Object.entries(edited)) {
    const savedValue = saved[section];
    const isSection = typeof editedValue === "object" && editedValue !== null && !Array.isArray(editedValue);
    if (!isSection) {
      if (JSON.stringify(editedValue) !== JSON.stringify(savedValue)) override[section] = editedValue;
      continue;
    }
    const changed: Document = {};
    for (const [key, value] of Object.entries(editedValue as Document)) {
      if (JSON.stringify(value) !== JSON.stringify((savedValue as Document | undefined)?.[key]))
        changed[key] = value;
    }
    if (Object.keys(changed).length > 0) override[section] = changed;
  }
  return override;
}

/** Read and write one dotted key ("history.maxItems", or a top-level "keyContextReminder"). */
export function readKey(document: Document, key: string): unknown {
  const [section, name] = key.split(".");
  return name === undefined ? document[section] : (document[section] as Document | undefined)?.[name];
}

export function writeKey(document: Document, key: string, value: unknown): Document {
  const [section, name] = key.split(".");
  if (name === undefined) return { ...document, [section]: value };
  const sectionValue = { ...((document[section] as Document | undefined) ?? {}) };
  if (value === undefined) delete sectionValue[name];
  else sectionValue[name] = value;
  const next = { ...document, [section]: sectionValue };
  if (Object.keys(sectionValue).length === 0) delete next[section];
  return next;
}
