import { type AnySchema, ValidationError } from 'yup';

export type FieldErrors = Record<string, string[]>;

/**
 * Yup looks a value's keys up in a plain object of fields, so a key named like an Object.prototype
 * member (`constructor`, `toString`) finds a function there and throws instead of failing validation.
 * No form has such a field, so those keys are dropped before yup sees them.
 */
function withoutPrototypeNames(values: unknown): unknown {
  if (typeof values !== 'object' || values === null || Array.isArray(values)) return values;
  return Object.fromEntries(Object.entries(values).filter(([name]) => !(name in Object.prototype)));
}

/**
 * Validates form values; returns the cast (trimmed) values, or every field's message ids. `context`:
 * what a rule needs beyond the form (the account a reset link names, for the password rules).
 */
export async function validateForm<T>(
  schema: AnySchema<T>,
  values: unknown,
  context?: Record<string, unknown>,
): Promise<{ ok: true; value: T } | { ok: false; errors: FieldErrors }> {
  try {
    const safe = withoutPrototypeNames(values);
    return {
      ok: true,
      value: await schema.validate(safe, { abortEarly: false, stripUnknown: false, context }),
    };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const errors: FieldErrors = {};
    for (const inner of error.inner.length > 0 ? error.inner : [error]) {
      const field = inner.path || '_';
      const list = errors[field] ?? [];
      for (const message of inner.errors) if (!list.includes(message)) list.push(message);
      errors[field] = list;
    }
    return { ok: false, errors };
  }
}
