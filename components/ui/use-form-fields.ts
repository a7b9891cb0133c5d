// A form's values in one state object, and `bind(key)`: the value and onChange a field control takes for that key.
import { useState } from "react";

export function useFormFields<Form extends object>(initial: Form) {
  const [form, setForm] = useState(initial);
  const bind = <Key extends keyof Form>(key: Key) => ({
    value: form[key],
    onChange: (value: Form[Key]) => setForm((current) => ({ ...current, [key]: value })),
  });
  return [form, setForm, bind] as const;
}
