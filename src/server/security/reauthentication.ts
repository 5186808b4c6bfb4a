/**
 * Asking a signed-in user for their password again before a sensitive change (docs/accounts.md): a
 * session alone, left open on a shared screen or stolen, must not be enough to change the e-mail or the
 * password. A wrong password counts in the login throttle of the account and client address, like a
 * failed login (docs/adr/0005-sessions-and-login-throttle.md), so re-authentication is no way around
 * it; a throttled caller is refused (429) before any check, and every checked failure is an audit entry
 * of its own (docs/adr/0017-audit-trail.md).
 */
import { eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ValidationMessageId } from '#shared/validation/index.ts';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { ApiError, validationFailed } from '../http/envelope.ts';
import { type AuditIntent, auditSource, writeAudited } from '../modules/audit/write-audited.ts';
import type { LoginThrottle } from './login-throttle.ts';
import { verifyPassword } from './passwords.ts';
import type { AuthContext } from './session-store.ts';

export interface PasswordConfirmation {
  db: Db;
  throttle: LoginThrottle;
  request: FastifyRequest;
  reply: FastifyReply;
  auth: AuthContext;
  password: string;
  /** The audit entry a wrong password writes. */
  failure: AuditIntent;
  /** The form field and message a wrong password is reported on (422). */
  field: string;
  wrongMessage: ValidationMessageId;
}

export async function throttledWait(
  throttle: LoginThrottle,
  email: string,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const retryAfter = await throttle.retryAfter(email.toLowerCase(), request.ip);
  if (retryAfter > 0) {
    reply.header('retry-after', String(retryAfter));
    throw new ApiError(429, 'too_many_login_attempts', { retry_after_seconds: retryAfter });
  }
}

/** Resolves when the password is the signed-in user's; otherwise records the failure and throws. */
export async function confirmPassword(check: PasswordConfirmation): Promise<void> {
  const { db, throttle, request, auth } = check;
  const email = auth.user.email.toLowerCase();
  await throttledWait(throttle, email, request, check.reply);
  const [row] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, auth.user.id))
    .limit(1);
  if (!(await verifyPassword(row?.passwordHash, check.password))) {
    await throttle.recordFailure(email, request.ip);
    await writeAudited(db, auditSource(request, auth), check.failure);
    throw validationFailed({ [check.field]: [check.wrongMessage] });
  }
  await throttle.recordSuccess(email, request.ip);
}
