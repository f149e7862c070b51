// A form's values and per-field errors: editing a field clears that field's error only.

import { useState, type Dispatch, type SetStateAction } from 'react';

export interface FieldForm<F> {
  form: F;
  setForm: Dispatch<SetStateAction<F>>;
  errors: Record<string, string>;
  setErrors: Dispatch<SetStateAction<Record<string, string>>>;
  /** A change handler for one field. */
  set(key: keyof F & string): (value: string) => void;
}

export function useFieldForm<F>(initial: F | (() => F)): FieldForm<F> {
  const [form, setForm] = useState<F>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (key: keyof F & string) => (value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => {
      if (!(key in e)) return e;
      const next = { ...e };
      delete next[key];
      return next;
    });
  };
  return { form, setForm, errors, setErrors, set };
}
