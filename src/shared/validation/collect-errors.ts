import { type AnySchema, ValidationError } from 'yup';

export type FieldErrors = Record<string, string[]>;

/** Validates form values; returns the cast (trimmed) values, or every field's message ids. */
export async function validateForm<T>(
  schema: AnySchema<T>,
  values: unknown,
): Promise<{ ok: true; value: T } | { ok: false; errors: FieldErrors }> {
  try {
    return { ok: true, value: await schema.validate(values, { abortEarly: false, stripUnknown: false }) };
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
