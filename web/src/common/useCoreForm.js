// Form state whose every rule is the core's validateField: the browser shows exactly the message
// the server would return. Fields are checked on submit; a field marked wrong is re-checked as
// the person types, so its message goes as soon as it is fixed. (No checks on blur: a message
// appearing then moves the button being clicked and swallows the click.)
import { useState } from 'react';
import { validateField } from '../core/index.js';

/** `fields`: {name: {rule, confirms?}} — `confirms` names the field a confirmation must equal. */
export default function useCoreForm(fields, initial = {}) {
  const [values, setValues] = useState(() => Object.fromEntries(Object.keys(fields).map((n) => [n, initial[n] ?? ''])));
  const [errors, setErrors] = useState({});

  const check = (name, all = values) => {
    const { rule, confirms } = fields[name];
    return validateField(rule ?? name, all[name] ?? '', confirms ? all[confirms] : undefined);
  };

  const set = (name, value) => {
    const next = { ...values, [name]: value };
    setValues(next);
    if (errors[name]) setErrors((e) => ({ ...e, [name]: check(name, next) }));
  };

  /** Checks every field; true when all pass. */
  const validateAll = (names = Object.keys(fields), extra = {}) => {
    // `extra` overrides a field's check (null = passes), e.g. a library's extra rule.
    const found = Object.fromEntries(names.map((n) => [n, n in extra ? extra[n] : check(n)]));
    setErrors((e) => ({ ...e, ...found }));
    return names.every((n) => !found[n]);
  };

  /** Shows a failure the server found (a translation key) beside `name`. */
  const fail = (name, key) => setErrors((e) => ({ ...e, [name]: key }));

  return { values, errors, set, validateAll, fail };
}
