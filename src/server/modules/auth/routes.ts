/** Sign-in, sign-out and the signed-in user's own profile (docs/product.md §2 Login, Profile; §7 /auth). */
import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { withForm } from '#server/contract/form-operation.ts';
import type { ApiModule } from '#server/contract/handler-types.ts';
import type { Db } from '#server/db/client.ts';
import { customers, users } from '#server/db/schema.ts';
import { updateRowById } from '#server/db/update-row.ts';
import { ApiError, notFound, ok, validationFailed } from '#server/http/envelope.ts';
import { isoInstant } from '#server/http/instants.ts';
import { currentAuth } from '#server/security/guards.ts';
import type { LoginThrottle } from '#server/security/login-throttle.ts';
import {
  authenticationOptions,
  checkAssertion,
  type PasskeyRow,
  passkeyName,
  passkeysOf,
  registrationOptions,
  removePasskey,
  renamePasskey,
  storePasskey,
  verifyEnrolment,
  type WebauthnConfig,
} from '#server/security/passkeys.ts';
import { hashPassword, verifyPassword } from '#server/security/passwords.ts';
import { confirmPassword, throttledWait } from '#server/security/reauthentication.ts';
import {
  checkSecondFactorCode,
  confirmTotpEnrolment,
  createStepToken,
  type FactorUsed,
  hasSecondFactor,
  removeSecondFactors,
  STEP_TOKEN_MINUTES,
  type StepPurpose,
  secondFactorState,
  spendStepToken,
  startTotpEnrolment,
  stepTokenFailed,
  stepTokenUser,
} from '#server/security/second-factor.ts';
import { endedChanges } from '#server/security/session-audit.ts';
import type { AuthContext, AuthUser, SessionStore } from '#server/security/session-store.ts';
import { newToken } from '#server/security/tokens.ts';
import { summariseUserAgent } from '#server/security/user-agent.ts';
import { abilitiesFor, isRole, modulesFor, type Role } from '#shared/access/index.ts';
import {
  forgotPasswordSchema,
  loginSchema,
  profileSchema,
  resetPasswordSchema,
} from '#shared/validation/index.ts';
import type { AuditChanges } from '../audit/index.ts';
import {
  type AuditedWrite,
  type AuditIntent,
  type AuditSource,
  auditSource,
  userChanges,
  writeAudited,
} from '../audit/index.ts';
import { emailChangedMail, queueMail } from '../mail/index.ts';
import { queueReset, RESET_ANSWER_MS, resettableUser, usableReset, useReset } from './password-reset.ts';

/** The login throttle's key for passkeys that do not sign in: counted per client address, whose passkey ever. */
const PASSKEY_THROTTLE_KEY = 'passkey';

const passkeyView = (row: PasskeyRow) => ({
  id: row.id,
  name: row.name,
  transports: row.transports,
  created_at: isoInstant(row.createdAt),
  last_used_at: row.lastUsedAt ? isoInstant(row.lastUsedAt) : null,
});

/** The reset throttle's key for wrong links: counted per client address whatever the account. */
const RESET_LINK_THROTTLE_KEY = 'reset-link';

const waitUntil = (at: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

export function sessionUserView(user: AuthUser) {
  return {
    id: user.id,
    customer_id: user.customerId,
    customer_name: user.customerName,
    name: user.name,
    email: user.email,
    role: user.role,
    modules: modulesFor(user.role),
    abilities: abilitiesFor(user.role),
  };
}

/** Disabled users too: their failed attempts are recorded under their name. */
async function findUserByEmail(db: Db, email: string) {
  const [row] = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      role: users.role,
      passwordHash: users.passwordHash,
      deletedAt: users.deletedAt,
      customerId: users.customerId,
      customerName: customers.name,
    })
    .from(users)
    .innerJoin(customers, eq(customers.id, users.customerId))
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return row;
}

export interface AuthModuleDeps {
  db: Db;
  sessions: SessionStore;
  throttle: LoginThrottle;
  /** The app's address, for links in account e-mails (APP_URL). */
  appUrl: string;
  /** A mail was queued: the sender may send it now rather than at its next pass. */
  mailQueued: () => void;
  /** The login throttle's twin for password reset requests and links (docs/accounts.md §4). */
  resetThrottle: LoginThrottle;
  /** Roles that must have a second factor (MFA_REQUIRED_ROLES, docs/accounts.md §5). */
  mfaRequiredRoles: readonly Role[];
  /** Passkeys' relying party (WEBAUTHN_ORIGIN, WEBAUTHN_RP_ID; docs/accounts.md §6). */
  webauthn: WebauthnConfig;
}

async function findUserById(db: Db, id: number) {
  const [row] = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      role: users.role,
      passwordHash: users.passwordHash,
      deletedAt: users.deletedAt,
      customerId: users.customerId,
      customerName: customers.name,
    })
    .from(users)
    .innerJoin(customers, eq(customers.id, users.customerId))
    .where(eq(users.id, id))
    .limit(1);
  return row;
}

export function authModule(deps: AuthModuleDeps): ApiModule {
  const { db, sessions, throttle, appUrl, mailQueued, resetThrottle, mfaRequiredRoles, webauthn } = deps;

  /**
   * The session a completed sign-in makes, and its audit entry: the second factor used, if any, and the
   * passkey's name when one signed in (passwordless: the passkey alone).
   */
  async function signIn(
    request: FastifyRequest,
    userId: number,
    factor?: FactorUsed,
    passkey?: { name: string; passwordless: boolean },
  ) {
    const user = await findUserById(db, userId);
    if (!user || user.deletedAt !== null) throw new ApiError(401, 'login_failed');
    const { passwordHash: _hash, deletedAt: _deleted, ...authUser } = user;
    const token = await writeAudited(
      db,
      { actor: { id: user.id, email: user.email, role: user.role }, clientAddress: request.ip },
      { action: 'login', entityType: 'user', entityId: user.id },
      async (tx): Promise<AuditedWrite<string>> => ({
        result: await sessions.create(tx, user.id, request),
        changes: {
          ...(factor && !passkey?.passwordless ? { second_factor: { old: null, new: factor } } : {}),
          ...(passkey ? { passkey: { old: null, new: passkey.name } } : {}),
          ...(passkey?.passwordless ? { passwordless: { old: null, new: true } } : {}),
        },
      }),
    );
    const view = sessionUserView(authUser as AuthUser);
    return { user: view, token, modules: view.modules };
  }

  /** An entry of an act that writes nothing else, with what it concerned. */
  function auditWithChanges(source: AuditSource, intent: AuditIntent, changes: AuditChanges) {
    return writeAudited(db, source, intent, async () => ({ result: undefined, changes }));
  }

  /**
   * The live step token of the body and its user; anything else is 401 second_factor_failed, one
   * answer for a wrong, spent, expired or mistyped token. Throttled like the login of that account.
   */
  async function stepOf(request: FastifyRequest, reply: FastifyReply, purpose: StepPurpose) {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const token = typeof body.step_token === 'string' ? body.step_token.trim() : '';
    const step = token === '' ? undefined : await stepTokenUser(db, token, purpose);
    const user = step ? await findUserById(db, step.userId) : undefined;
    if (!step || !user || user.deletedAt !== null) throw new ApiError(401, 'second_factor_failed');
    await throttledWait(throttle, user.email, request, reply);
    return { step, user };
  }

  /**
   * The signed-in user's password once more, for a change the session alone must not make: a wrong one is
   * a 422 on `current_password`, audited and throttled like a login.
   */
  function confirmCurrentPassword(
    request: FastifyRequest,
    reply: FastifyReply,
    auth: AuthContext,
    password: string,
  ): Promise<void> {
    return confirmPassword({
      db,
      throttle,
      request,
      reply,
      auth,
      password,
      failure: { action: 'reauth_failed', entityType: 'user', entityId: auth.user.id },
      field: 'current_password',
      wrongMessage: 'validation.profile.current_password.wrong',
    });
  }

  /**
   * Setting up or removing a second factor (docs/accounts.md §5): the password again, and a code of the
   * factor in force when there is one, so a stolen session cannot swap the factor for its own.
   */
  async function confirmChangeOfFactors(request: FastifyRequest, reply: FastifyReply, auth: AuthContext) {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const password = typeof body.current_password === 'string' ? body.current_password : '';
    const code = typeof body.code === 'string' ? body.code.trim() : '';
    await confirmCurrentPassword(request, reply, auth, password);
    const state = await secondFactorState(db, auth.user.id);
    if (!hasSecondFactor(state)) return;
    const assertion = typeof body.passkey === 'string' && body.passkey !== '' ? body.passkey : undefined;
    if (assertion !== undefined || !state.totp) {
      // One of the user's passkeys, answering a challenge of startPasskeyCheck.
      if (assertion === undefined) throw validationFailed({ passkey: ['validation.passkey.required'] });
      const check = await checkAssertion(db, webauthn, 'reauth', assertion, auth.user.id);
      if (!check.ok) {
        await throttle.recordFailure(auth.user.email.toLowerCase(), request.ip);
        throw validationFailed({ passkey: ['validation.passkey.failed'] });
      }
      await auditWithChanges(
        auditSource(request, auth),
        { action: 'passkey_use', entityType: 'user', entityId: auth.user.id },
        { passkey: { old: null, new: check.passkey.name } },
      );
      return;
    }
    if (code === '') throw validationFailed({ code: ['validation.second_factor.code.required'] });
    const check = await checkSecondFactorCode(db, auth.user.id, code);
    if ('retryAfterSeconds' in check) {
      reply.header('retry-after', String(check.retryAfterSeconds));
      throw new ApiError(429, 'too_many_login_attempts', { retry_after_seconds: check.retryAfterSeconds });
    }
    if (!check.ok) throw validationFailed({ code: ['validation.second_factor.code.wrong'] });
    if (check.factor === 'recovery_code')
      await writeAudited(db, auditSource(request, auth), {
        action: 'recovery_code_use',
        entityType: 'user',
        entityId: auth.user.id,
      });
  }

  return {
    handlers: {
      login: withForm(
        { authorize: () => undefined, schema: loginSchema, verbatim: ['password'] },
        async (request, { form }, reply) => {
          const email = form.email.toLowerCase();
          const retryAfter = await throttle.retryAfter(email, request.ip);
          if (retryAfter > 0) {
            reply.header('retry-after', String(retryAfter));
            throw new ApiError(429, 'too_many_login_attempts', { retry_after_seconds: retryAfter });
          }
          const user = await findUserByEmail(db, email);
          const valid = await verifyPassword(user?.passwordHash, form.password);
          if (!user || user.deletedAt !== null || !valid) {
            await throttle.recordFailure(email, request.ip);
            // An unknown email has no actor: the entry keeps the email that was tried.
            await writeAudited(
              db,
              {
                actor: { id: user?.id ?? null, email: user?.email ?? email, role: user?.role ?? null },
                clientAddress: request.ip,
              },
              { action: 'login_failed', entityType: 'user', entityId: user?.id ?? null },
            );
            throw new ApiError(401, 'login_failed');
          }
          // A right password with a second factor owed yields a step token, never a session; the throttle's
          // count for this pair is forgotten only once the whole sign-in succeeds.
          const factors = await secondFactorState(db, user.id);
          const owed = hasSecondFactor(factors);
          if (owed || (isRole(user.role) && mfaRequiredRoles.includes(user.role))) {
            const step = owed ? 'second_factor' : 'enrol';
            const stepToken = await createStepToken(db, user.id, step);
            // The factors the second step may take, for the sign-in page to offer.
            const usable: FactorUsed[] = [
              ...(factors.totp ? (['totp'] as const) : []),
              ...(factors.recoveryCodesLeft > 0 ? (['recovery_code'] as const) : []),
              ...(factors.passkeys > 0 ? (['passkey'] as const) : []),
            ];
            return ok(
              {
                step,
                step_token: stepToken,
                expires_in_seconds: STEP_TOKEN_MINUTES * 60,
                ...(owed ? { factors: usable } : {}),
              },
              owed ? 'second_factor_required' : 'enrolment_required',
            );
          }
          await throttle.recordSuccess(email, request.ip);
          return ok(await signIn(request, user.id), 'logged_in');
        },
      ),
      async loginSecondFactor(request, reply) {
        const { step, user } = await stepOf(request, reply, 'second_factor');
        const code = typeof request.body?.code === 'string' ? request.body.code : '';
        const check = await checkSecondFactorCode(db, user.id, code);
        const source = {
          actor: { id: user.id, email: user.email, role: user.role },
          clientAddress: request.ip,
        };
        if ('retryAfterSeconds' in check) {
          reply.header('retry-after', String(check.retryAfterSeconds));
          throw new ApiError(429, 'too_many_login_attempts', {
            retry_after_seconds: check.retryAfterSeconds,
          });
        }
        if (!check.ok) {
          await stepTokenFailed(db, step.id);
          await throttle.recordFailure(user.email, request.ip);
          await writeAudited(db, source, {
            action: 'second_factor_failed',
            entityType: 'user',
            entityId: user.id,
          });
          throw new ApiError(401, 'second_factor_failed');
        }
        if (check.factor === 'recovery_code')
          await writeAudited(db, source, {
            action: 'recovery_code_use',
            entityType: 'user',
            entityId: user.id,
          });
        if (!(await spendStepToken(db, step.id))) throw new ApiError(401, 'second_factor_failed');
        await throttle.recordSuccess(user.email, request.ip);
        return ok(await signIn(request, user.id, check.factor), 'logged_in');
      },
      async loginEnrolStart(request, reply) {
        const { user } = await stepOf(request, reply, 'enrol');
        return ok(await startTotpEnrolment(db, user));
      },
      async loginEnrolConfirm(request, reply) {
        const { step, user } = await stepOf(request, reply, 'enrol');
        const code = typeof request.body?.code === 'string' ? request.body.code.trim() : '';
        const source = {
          actor: { id: user.id, email: user.email, role: user.role },
          clientAddress: request.ip,
        };
        const enrolled = { action: 'mfa_enrol', entityType: 'user', entityId: user.id } as const;
        const codes = await writeAudited(db, source, enrolled, async (tx) => {
          const recovery = await confirmTotpEnrolment(tx, user.id, code);
          if (!recovery) throw validationFailed({ code: ['validation.second_factor.code.wrong'] });
          if (!(await spendStepToken(tx, step.id))) throw new ApiError(401, 'second_factor_failed');
          return { result: recovery, changes: { second_factor: { old: null, new: 'totp' } } };
        });
        await throttle.recordSuccess(user.email, request.ip);
        return ok({ ...(await signIn(request, user.id, 'totp')), recovery_codes: codes }, 'logged_in');
      },
      async getSecondFactor(request) {
        const auth = currentAuth(request);
        const state = await secondFactorState(db, auth.user.id);
        return ok({
          totp: state.totp,
          recovery_codes_left: state.recoveryCodesLeft,
          passkeys: state.passkeys,
          required: mfaRequiredRoles.includes(auth.user.role),
        });
      },
      async startTotpEnrolment(request, reply) {
        const auth = currentAuth(request);
        await confirmChangeOfFactors(request, reply, auth);
        return ok(await startTotpEnrolment(db, auth.user));
      },
      async confirmTotpEnrolment(request) {
        const auth = currentAuth(request);
        const code = typeof request.body?.code === 'string' ? request.body.code.trim() : '';
        const enrolled = { action: 'mfa_enrol', entityType: 'user', entityId: auth.user.id } as const;
        const codes = await writeAudited(db, auditSource(request, auth), enrolled, async (tx) => {
          const recovery = await confirmTotpEnrolment(tx, auth.user.id, code);
          if (!recovery) throw validationFailed({ code: ['validation.second_factor.code.wrong'] });
          return { result: recovery, changes: { second_factor: { old: null, new: 'totp' } } };
        });
        return ok({ recovery_codes: codes });
      },
      async removeSecondFactor(request, reply) {
        const auth = currentAuth(request);
        const state = await secondFactorState(db, auth.user.id);
        // A role that must have a second factor keeps the app unless a passkey remains.
        if (mfaRequiredRoles.includes(auth.user.role) && state.passkeys === 0)
          throw new ApiError(409, 'second_factor.required');
        if (!state.totp && state.recoveryCodesLeft === 0) throw new ApiError(409, 'second_factor.none');
        await confirmChangeOfFactors(request, reply, auth);
        const removed = { action: 'mfa_remove', entityType: 'user', entityId: auth.user.id } as const;
        await writeAudited(db, auditSource(request, auth), removed, async (tx) => {
          await removeSecondFactors(tx, auth.user.id);
          return { result: undefined, changes: { second_factor: { old: 'totp', new: null } } };
        });
        return ok(null, 'second_factor.removed');
      },

      async loginPasskeyOptions(request, reply) {
        const { user } = await stepOf(request, reply, 'second_factor');
        return ok(await authenticationOptions(db, webauthn, 'second_factor', user.id));
      },
      async loginPasskey(request, reply) {
        const { step, user } = await stepOf(request, reply, 'second_factor');
        const check = await checkAssertion(db, webauthn, 'second_factor', request.body?.credential, user.id);
        const source = {
          actor: { id: user.id, email: user.email, role: user.role },
          clientAddress: request.ip,
        };
        if (!check.ok) {
          await stepTokenFailed(db, step.id);
          await throttle.recordFailure(user.email, request.ip);
          await auditWithChanges(
            source,
            { action: 'second_factor_failed', entityType: 'user', entityId: user.id },
            { second_factor: { old: null, new: 'passkey' } },
          );
          throw new ApiError(401, 'second_factor_failed');
        }
        if (!(await spendStepToken(db, step.id))) throw new ApiError(401, 'second_factor_failed');
        await throttle.recordSuccess(user.email, request.ip);
        return ok(
          await signIn(request, user.id, 'passkey', { name: check.passkey.name, passwordless: false }),
          'logged_in',
        );
      },
      async passkeySignInOptions(request, reply) {
        await throttledWait(throttle, PASSKEY_THROTTLE_KEY, request, reply);
        return ok(await authenticationOptions(db, webauthn, 'passwordless', null));
      },
      async passkeySignIn(request, reply) {
        await throttledWait(throttle, PASSKEY_THROTTLE_KEY, request, reply);
        const check = await checkAssertion(db, webauthn, 'passwordless', request.body?.credential, null);
        if (!check.ok) {
          await throttle.recordFailure(PASSKEY_THROTTLE_KEY, request.ip);
          // A passkey of ours that did not sign in is a failed login of its owner.
          const owner = check.userId === null ? undefined : await findUserById(db, check.userId);
          if (owner)
            await auditWithChanges(
              { actor: { id: owner.id, email: owner.email, role: owner.role }, clientAddress: request.ip },
              { action: 'login_failed', entityType: 'user', entityId: owner.id },
              { passwordless: { old: null, new: true } },
            );
          throw new ApiError(401, 'login_failed');
        }
        return ok(
          await signIn(request, check.userId, 'passkey', { name: check.passkey.name, passwordless: true }),
          'logged_in',
        );
      },
      async listPasskeys(request) {
        const auth = currentAuth(request);
        return ok((await passkeysOf(db, auth.user.id)).map(passkeyView));
      },
      async startPasskeyEnrolment(request, reply) {
        const auth = currentAuth(request);
        await confirmChangeOfFactors(request, reply, auth);
        return ok(await registrationOptions(db, webauthn, auth.user));
      },
      async enrolPasskey(request) {
        const auth = currentAuth(request);
        const name = passkeyName(request.body?.name);
        if (name === null) throw validationFailed({ name: ['validation.passkey.name.required'] });
        // Verified (and its challenge taken) before the write, so a refused answer cannot be tried again.
        const credential = await verifyEnrolment(db, webauthn, auth.user.id, request.body?.credential);
        if (!credential) throw validationFailed({ credential: ['validation.passkey.invalid'] });
        const enrolled = { action: 'mfa_enrol', entityType: 'user', entityId: auth.user.id } as const;
        const passkey = await writeAudited(db, auditSource(request, auth), enrolled, async (tx) => {
          const row = await storePasskey(tx, auth.user.id, credential, name);
          if (!row) throw validationFailed({ credential: ['validation.passkey.duplicate'] });
          return {
            result: row,
            changes: { second_factor: { old: null, new: 'passkey' }, passkey: { old: null, new: name } },
          };
        });
        return ok(passkeyView(passkey), 'passkey.added');
      },
      async renamePasskey(request) {
        const auth = currentAuth(request);
        const name = passkeyName(request.body?.name);
        if (name === null) throw validationFailed({ name: ['validation.passkey.name.required'] });
        const renamed = { action: 'passkey_rename', entityType: 'user', entityId: auth.user.id } as const;
        await writeAudited(db, auditSource(request, auth), renamed, async (tx) => {
          const before = await renamePasskey(tx, auth.user.id, request.params.passkeyId, name);
          // Another user's passkey, or one removed already: not found, nothing to record.
          if (before === null) throw notFound();
          return { result: undefined, changes: { passkey: { old: before, new: name } } };
        });
        return ok(null, 'passkey.renamed');
      },
      async startPasskeyCheck(request) {
        const auth = currentAuth(request);
        const state = await secondFactorState(db, auth.user.id);
        if (state.passkeys === 0) throw new ApiError(409, 'second_factor.none');
        return ok(await authenticationOptions(db, webauthn, 'reauth', auth.user.id));
      },
      async removePasskey(request, reply) {
        const auth = currentAuth(request);
        const { passkeyId } = request.params;
        const mine = (await passkeysOf(db, auth.user.id)).find((row) => row.id === passkeyId);
        if (!mine) throw notFound();
        const state = await secondFactorState(db, auth.user.id);
        // A role that must have a second factor never removes its last one.
        if (mfaRequiredRoles.includes(auth.user.role) && !state.totp && state.passkeys <= 1)
          throw new ApiError(409, 'second_factor.required');
        await confirmChangeOfFactors(request, reply, auth);
        const removed = { action: 'mfa_remove', entityType: 'user', entityId: auth.user.id } as const;
        await writeAudited(db, auditSource(request, auth), removed, async (tx) => {
          const name = await removePasskey(tx, auth.user.id, passkeyId);
          if (name === null) throw notFound();
          return {
            result: undefined,
            changes: { second_factor: { old: 'passkey', new: null }, passkey: { old: name, new: null } },
          };
        });
        return ok(null, 'passkey.removed');
      },

      async logout(request) {
        const auth = currentAuth(request);
        const loggedOut = { action: 'logout', entityType: 'user', entityId: auth.user.id } as const;
        await writeAudited(db, auditSource(request, auth), loggedOut, async (tx) => ({
          result: await sessions.revoke(tx, auth.sessionId),
        }));
        return ok(null, 'logged_out');
      },

      requestPasswordReset: withForm(
        { authorize: () => undefined, schema: forgotPasswordSchema },
        async (request, { form }, reply) => {
          const started = Date.now();
          const email = form.email.toLowerCase();
          // Every request counts, like a failed login of (account, address) and of the address.
          await throttledWait(resetThrottle, email, request, reply);
          await resetThrottle.recordFailure(email, request.ip);
          const user = await resettableUser(db, email);
          let queued = false;
          if (user) {
            const source = {
              actor: { id: user.id, email: user.email, role: user.role },
              clientAddress: request.ip,
            };
            const requested = {
              action: 'password_reset_request',
              entityType: 'user',
              entityId: user.id,
            } as const;
            queued = await writeAudited(db, source, requested, async (tx) => ({
              result: await queueReset(tx, user, request.ip),
            }));
          }
          // The same answer, no sooner than RESET_ANSWER_MS, whether the address is known or not.
          await waitUntil(started + RESET_ANSWER_MS);
          if (queued) mailQueued();
          return ok(null, 'password_reset.requested');
        },
      ),
      completePasswordReset: withForm(
        {
          /**
           * The link is what the form changes: links are guessed per address, whatever account they
           * would open, and one not usable (unknown, used, expired) is refused before the passwords.
           */
          async authorize(request, values, reply) {
            const token = typeof values.token === 'string' ? values.token : '';
            await throttledWait(resetThrottle, RESET_LINK_THROTTLE_KEY, request, reply);
            const reset = token === '' ? undefined : await usableReset(db, token);
            if (!reset) {
              await resetThrottle.recordFailure(RESET_LINK_THROTTLE_KEY, request.ip);
              throw validationFailed({ token: ['validation.password_reset.link_invalid'] });
            }
            return reset;
          },
          schema: resetPasswordSchema,
          // The account's e-mail and name, which a new password must not resemble.
          context: (reset) => ({ email: reset.email, name: reset.name }),
          verbatim: ['new_password', 'repeat_new_password'],
        },
        async (request, { form, subject: reset }) => {
          const passwordHash = await hashPassword(form.new_password);
          const source = {
            actor: { id: reset.userId, email: reset.email, role: reset.role },
            clientAddress: request.ip,
          };
          const completed = { action: 'password_reset', entityType: 'user', entityId: reset.userId } as const;
          await writeAudited(db, source, completed, async (tx) => {
            if (!(await useReset(tx, reset.id, reset.userId)))
              throw validationFailed({ token: ['validation.password_reset.link_invalid'] });
            const { before, after } = await updateRowById(tx, users, reset.userId, {
              passwordHash,
              passwordChangedAt: new Date(),
            });
            // Whoever held a session (perhaps whoever made the reset necessary) is out.
            await sessions.revokeAllForUser(tx, reset.userId);
            return { result: undefined, changes: userChanges(before, after) };
          });
          return ok(null, 'password_reset.completed');
        },
      ),
      async listOwnSessions(request) {
        const auth = currentAuth(request);
        const live = await sessions.liveOfUser(auth.user.id);
        return ok(
          live.map((session) => ({
            id: session.id,
            ...summariseUserAgent(session.userAgent),
            ip: session.ip,
            created_at: isoInstant(session.createdAt),
            last_seen_at: isoInstant(session.lastSeenAt),
            current: session.id === auth.sessionId,
          })),
        );
      },
      async endOwnSession(request) {
        const auth = currentAuth(request);
        const { sessionId } = request.params;
        // The calling session ends by logging out: ending it here would leave the app signed in to nothing.
        if (sessionId === auth.sessionId) throw new ApiError(409, 'sessions.current');
        const ended = { action: 'sessions_end', entityType: 'user', entityId: auth.user.id } as const;
        const found = await writeAudited(db, auditSource(request, auth), ended, async (tx) => {
          const revoked = await sessions.revokeOfUser(tx, auth.user.id, sessionId);
          // Another user's session, or one already ended, is not found: nothing to record either.
          if (!revoked) throw notFound();
          return { result: true, changes: endedChanges(1) };
        });
        return ok({ ended: found ? 1 : 0 }, 'sessions.ended');
      },
      async endOtherOwnSessions(request) {
        const auth = currentAuth(request);
        const ended = {
          action: 'sessions_end',
          entityType: 'user',
          entityId: auth.user.id,
          skipUnchanged: true,
        } as const;
        const count = await writeAudited(db, auditSource(request, auth), ended, async (tx) => {
          const revoked = await sessions.revokeAllForUser(tx, auth.user.id, auth.sessionId);
          return { result: revoked, changes: revoked > 0 ? endedChanges(revoked) : {} };
        });
        return ok({ ended: count }, 'sessions.ended');
      },
      async getMe(request) {
        return ok(sessionUserView(currentAuth(request).user));
      },

      updateProfile: withForm(
        {
          authorize: (request) => currentAuth(request),
          schema: (auth) => profileSchema(auth.user.email),
          // Passwords are taken as typed (docs/accounts.md §1): only the text fields are trimmed.
          verbatim: ['current_password', 'new_password', 'repeat_new_password'],
        },
        async (request, { form, subject: auth }, reply) => {
          const name = form.name;
          const email = form.email.toLowerCase();
          const newPassword = form.new_password ?? '';
          const emailChanges = email !== auth.user.email.toLowerCase();
          if (newPassword !== '' || emailChanges)
            await confirmCurrentPassword(request, reply, auth, form.current_password ?? '');
          const passwordHash = newPassword === '' ? undefined : await hashPassword(newPassword);
          const profileUpdated = {
            action: 'profile_update',
            entityType: 'user',
            entityId: auth.user.id,
          } as const;
          await writeAudited(db, auditSource(request, auth), profileUpdated, async (tx) => {
            const [taken] = await tx
              .select({ id: users.id })
              .from(users)
              .where(and(sql`lower(${users.email}) = ${email}`, ne(users.id, auth.user.id)))
              .limit(1);
            if (taken) throw validationFailed({ email: ['validation.profile.email.taken'] });
            const { before, after } = await updateRowById(tx, users, auth.user.id, {
              name,
              email,
              ...(passwordHash ? { passwordHash, passwordChangedAt: new Date() } : {}),
            });
            // A new password ends every other session of this user; the one making the change stays.
            if (passwordHash) await sessions.revokeAllForUser(tx, auth.user.id, auth.sessionId);
            else sessions.changed({ userId: auth.user.id });
            if (before.email !== after.email) {
              const language = after.language === 'it' ? 'it' : 'en';
              const notice = emailChangedMail(language, {
                oldEmail: before.email,
                newEmail: after.email,
                at: new Date(),
                appUrl,
              });
              await queueMail(tx, {
                dedupeKey: `email-changed:user:${after.id}:${newToken()}`,
                userId: after.id,
                to: before.email,
                language,
                ...notice,
              });
            }
            return { result: undefined, changes: userChanges(before, after) };
          });
          mailQueued();
          return ok(sessionUserView({ ...auth.user, name, email }), 'profile_updated');
        },
      ),
    },
  };
}
