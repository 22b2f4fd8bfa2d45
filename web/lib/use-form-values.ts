import { type ChangeEvent, useState } from 'react';

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/**
 * A form's text values, one per field: `field(k)` gives an input its value, its server message and its
 * change handler, so every input of a form is bound the same way.
 */
export function useFormValues<K extends string>(initial: Record<K, string>, errors: Record<string, string>) {
  const [values, setValues] = useState(initial);
  const set = (k: K) => (value: string) => setValues((x) => ({ ...x, [k]: value }));
  const field = (k: K) => ({
    value: values[k],
    error: errors[k],
    onChange: (e: ChangeEvent<Control>) => set(k)(e.currentTarget.value),
  });
  return { values, set, field, reset: () => setValues(initial) };
}
