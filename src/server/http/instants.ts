/** Instants as the contract's date-time strings: exactly what JSON.stringify makes of a Date. */
export const isoInstant = (value: Date): string => value.toISOString();
export const isoInstantOrNull = (value: Date | null): string | null => value?.toISOString() ?? null;
