/**
 * What handlers call to enforce the access table of src/shared/access: session, ability or menu
 * module (function level), tenant (object level).
 */
import type { FastifyRequest } from 'fastify';
import { type AbilityName, can, hasModule, isTenantScoped, type Module } from '#shared/access/index.ts';
import { forbidden, notFound, sessionExpired } from '../http/envelope.ts';
import type { AuthContext } from './session-store.ts';

export function currentAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw sessionExpired();
  return request.auth;
}

export function requireAbility(request: FastifyRequest, ability: AbilityName): AuthContext {
  const auth = currentAuth(request);
  if (!can(auth.user.role, ability)) throw forbidden();
  return auth;
}

/** A list screen is open to the roles that have its menu module (src/shared/access); others get 403. */
export function requireModule(request: FastifyRequest, module: Module): AuthContext {
  const auth = currentAuth(request);
  if (!hasModule(auth.user.role, module)) throw forbidden();
  return auth;
}

/** The only customer whose rows this caller may see, or null when the caller sees every customer. */
export function tenantScope(auth: AuthContext): number | null {
  return isTenantScoped(auth.user.role) ? auth.user.customerId : null;
}

/**
 * A customer id in the path that a tenant-scoped caller may not see is answered exactly like a
 * missing one (404), so ids of other tenants cannot be probed.
 */
export function assertTenant(auth: AuthContext, customerId: number): void {
  const scope = tenantScope(auth);
  if (scope !== null && scope !== customerId) throw notFound();
}
