// The admin form's field descriptions come from a client-safe module: every key has a label in words and help.
import { expect, test } from "vitest";
import { describeSettingFields } from "@/lib/settings-fields";

test("every context policy key has a label in words (not the key) and a help text", () => {
  const fields = describeSettingFields();
  expect(fields.length).toBeGreaterThan(20);
  for (const field of fields) {
    expect(field.label, field.key).not.toBe(field.key);
    expect(field.label, field.key).toMatch(/^[A-Z]/);
    expect(field.help, field.key).not.toBe("");
  }
  expect(fields.find((field) => field.key === "history.messageFetchLimit")?.label).toBe(
    "Messages loaded per turn",
  );
});
