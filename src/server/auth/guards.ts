/** What handlers call to enforce the access table of src/shared/access: session, ability, tenant. */
import type { FastifyRequest } from 'fastify';
import { type AbilityName, can, isTenantScoped } from '../../shared/access/index.ts';
import { forbidden, sessionExpired } from '../http/envelope.ts';
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

/** The only customer whose rows this caller may see, or null when the caller sees every customer. */
export function tenantScope(auth: AuthContext): number | null {
  return isTenantScoped(auth.user.role) ? auth.user.customerId : null;
}
