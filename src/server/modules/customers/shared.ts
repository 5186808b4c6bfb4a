/**
 * Helpers the customers, users, devices and products modules share: module (menu) checks, the tenant
 * check on a customer id in the path, and the SPEC §5 rule that empty form values are dropped.
 */

import type { FastifyRequest } from 'fastify';
import { hasModule, type Module } from '../../../shared/access/index.ts';
import { currentAuth, tenantScope } from '../../auth/guards.ts';
import type { AuthContext } from '../../auth/session-store.ts';
import { errorCauses } from '../../db/error-causes.ts';
import { forbidden, notFound } from '../../http/envelope.ts';

/** A list screen is open to the roles that have its menu module (src/shared/access); others get 403. */
export function requireModule(request: FastifyRequest, module: Module): AuthContext {
  const auth = currentAuth(request);
  if (!hasModule(auth.user.role, module)) throw forbidden();
  return auth;
}

/**
 * A customer id in the path that a tenant-scoped caller may not see is answered exactly like a
 * missing one (404), so ids of other tenants cannot be probed.
 */
export function assertTenant(auth: AuthContext, customerId: number): void {
  const scope = tenantScope(auth);
  if (scope !== null && scope !== customerId) throw notFound();
}

/**
 * The form's string fields among `names`, trimmed, with empty ones left out (SPEC §5: empty values
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

/** PostgreSQL unique_violation, e.g. two requests racing for one email or serial. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (const level of errorCauses(error)) {
    if (level.code === '23505') return constraint === undefined || level.constraint === constraint;
  }
  return false;
}

/** pg answers count(*) and bigint as strings; the contract wants JSON numbers. */
export const toNumber = (value: unknown): number =>
  value === null || value === undefined ? 0 : Number(value);
