import { errorCauses } from './error-causes.ts';

/** PostgreSQL unique_violation, e.g. two requests racing for one email or serial. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (const level of errorCauses(error)) {
    if (level.code === '23505') return constraint === undefined || level.constraint === constraint;
  }
  return false;
}
