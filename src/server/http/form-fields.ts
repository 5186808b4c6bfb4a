/** Reading a submitted form the way docs/product.md §5 wants it read. */

/**
 * The form's string fields among `names`, trimmed, with empty ones left out (docs/product.md §5: empty values
 * are dropped, so on update an empty or absent field keeps its stored value).
 */
export function filledFields<K extends string>(
  body: unknown,
  names: readonly K[],
): Partial<Record<K, string>> {
  const source = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const fields: Partial<Record<K, string>> = {};
  for (const name of names) {
    const value = source[name];
    if (typeof value !== 'string') continue;
    const trimmed = value.trim();
    if (trimmed !== '') fields[name] = trimmed;
  }
  return fields;
}
