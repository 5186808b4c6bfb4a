/**
 * Form values → multipart bodies (docs/product.md §5): text is trimmed, empty values are dropped, booleans
 * become "1"/"0" and files are sent as they are.
 */

/** Password fields are sent exactly as typed: a leading or trailing space can be part of a password. */
const isSecret = (key: string) => key.includes('password');

/** Trims every string value except passwords. */
export function trimValues<T extends Record<string, unknown>>(values: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    out[key] = typeof value === 'string' && !isSecret(key) ? value.trim() : value;
  }
  return out as T;
}

function appendValue(form: FormData, key: string, value: unknown): void {
  if (value === undefined || value === null) return;
  if (typeof value === 'string') {
    const text = isSecret(key) ? value : value.trim();
    if (text !== '') form.append(key, text);
    return;
  }
  if (typeof value === 'boolean') {
    form.append(key, value ? '1' : '0');
    return;
  }
  if (typeof value === 'number' || typeof value === 'bigint') {
    if (typeof value === 'number' && !Number.isFinite(value)) return;
    form.append(key, String(value));
    return;
  }
  if (value instanceof Blob) {
    form.append(key, value);
    return;
  }
  if (value instanceof Date) {
    if (!Number.isNaN(value.getTime())) form.append(key, value.toISOString());
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) appendValue(form, key, item);
  }
}

/** Builds the multipart body of a form: trimmed text, no empty values. */
export function toFormData(values: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(values)) appendValue(form, key, value);
  return form;
}

/** openapi-fetch `bodySerializer` for multipart/form-data operations. */
export function formDataSerializer(body: unknown): FormData {
  if (body instanceof FormData) return body;
  if (typeof body !== 'object' || body === null) return new FormData();
  return toFormData(body as Record<string, unknown>);
}
