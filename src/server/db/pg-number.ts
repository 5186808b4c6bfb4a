/** pg answers count(*) and bigint as strings; the contract wants JSON numbers. */
export const toNumber = (value: unknown): number =>
  value === null || value === undefined ? 0 : Number(value);
