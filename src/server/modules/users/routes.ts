/**
 * Users: the users list (docs/product.md §2 Users list) and a customer's users (Customer users; §7
 * /customers/{id}/users). Who may give which role:
 * - the manufacturer (customer 1) holds the staff: its users are CUSTOMER_CARE, ADMIN or SUPER_ADMIN
 *   (a new one defaults to CUSTOMER_CARE); every other customer's users are CUSTOMER (the default).
 *   Any other role for the customer is a 422 on `role`, because a CUSTOMER is confined to its own
 *   customer's data and staff see every customer's.
 * - only a SUPER_ADMIN may create an ADMIN or SUPER_ADMIN, promote someone to those roles, or edit,
 *   disable or enable a user who has one (an ADMIN may still edit itself): otherwise an ADMIN could
 *   take over a SUPER_ADMIN account by setting its password. Refused with 403.
 * - nobody changes their own role or disables themselves (403): the last SUPER_ADMIN cannot lock
 *   everyone out, and a click on the wrong row does not end the caller's own access.
 * A new password, and disabling, end every session of that user (the caller's own current session
 * survives a change of its own password, as with the profile form).
 */

import { type FormValues, withForm } from '#server/contract/form-operation.ts';
import type { ApiModule, OperationRequest } from '#server/contract/handler-types.ts';
import type { Db } from '#server/db/client.ts';
import { findCustomer } from '#server/db/lookups.ts';
import { type NewUser, users } from '#server/db/schema.ts';
import { searchText } from '#server/db/text-search.ts';
import { isUniqueViolation } from '#server/db/unique-violation.ts';
import { updateRowById } from '#server/db/update-row.ts';
import { written } from '#server/db/written.ts';
import { forbidden, notFound, ok, validationFailed } from '#server/http/envelope.ts';
import { pageOf, pageRequest } from '#server/http/paging.ts';
import {
  assertTenant,
  currentAuth,
  requireAbility,
  requireModule,
  tenantScope,
} from '#server/security/guards.ts';
import { removePasskeys } from '#server/security/passkeys.ts';
import { hashPassword } from '#server/security/passwords.ts';
import { removeSecondFactors } from '#server/security/second-factor.ts';
import { endedChanges } from '#server/security/session-audit.ts';
import type { AuthContext, SessionStore } from '#server/security/session-store.ts';
import {
  defaultRoleFor,
  isRole,
  mayGrantRole,
  PRIVILEGED_ROLES,
  type Role,
  rolesAllowedFor,
} from '#shared/access/index.ts';
import type { Schemas, User as UserAnswer } from '#shared/api/index.ts';
import { type FieldErrors, secondFactorResetSchema, userSchema } from '#shared/validation/index.ts';
import { auditSource, userChanges, writeAudited } from '../audit/index.ts';
import {
  emailTaken,
  findUser,
  findUserOfCustomer,
  insertUser,
  listUserPage,
  listUsersOfCustomer,
  matchingUserIds,
  setUserDisabled,
} from './repository.ts';

/** Passwords are taken as typed, never trimmed. */
const PASSWORD_FIELDS = ['new_password', 'repeat_new_password'] as const;

/** The most users one bulk action takes (as for alerts). */
const BULK_MAX = 500;
type BulkUserSkip = Schemas['UserBulkResult']['skipped'][number]['reason'];

function assertMayManage(auth: AuthContext, target: UserAnswer | undefined, newRole: Role): void {
  if (auth.user.role === 'SUPER_ADMIN') return;
  const self = target?.id === auth.user.id;
  if (target && PRIVILEGED_ROLES.includes(target.role) && !self) throw forbidden();
  if (!mayGrantRole(auth.user.role, newRole) && newRole !== target?.role) throw forbidden();
}

export function usersModule(deps: { db: Db; sessions: SessionStore }): ApiModule {
  const { db, sessions } = deps;

  async function customerOrNotFound(auth: AuthContext, customerId: number) {
    assertTenant(auth, customerId);
    const customer = await findCustomer(db, customerId);
    if (!customer) throw notFound();
    return customer;
  }

  async function userOrNotFound(auth: AuthContext, customerId: number, userId: number) {
    assertTenant(auth, customerId);
    const user = await findUserOfCustomer(db, customerId, userId);
    if (!user) throw notFound();
    return user;
  }

  /**
   * The user form's rules the shared schema cannot know: a role this customer's users may have (only
   * when the form changes it), and an e-mail no other user has.
   */
  async function userRules(
    values: FormValues,
    subject: { role: string; roleChanges: boolean; target?: UserAnswer; customerId: number },
    errors: FieldErrors,
  ) {
    const { role, roleChanges, target, customerId } = subject;
    if (roleChanges && (!isRole(role) || !rolesAllowedFor(customerId).includes(role))) {
      errors.role = ['validation.user.role.invalid'];
    }
    const email = values.email;
    if (typeof email === 'string' && !errors.email && (await emailTaken(db, email, target?.id))) {
      errors.email = ['validation.user.email.taken'];
    }
  }

  /** The role a form gives: the one it names, else the user's own (a new user's: the customer's default). */
  const roleOf = (values: FormValues, current: Role): string =>
    typeof values.role === 'string' ? values.role : current;

  const emailTakenError = () => validationFailed({ email: ['validation.user.email.taken'] });

  /** Disable or enable a user (audited); disabling ends their sessions, and no one disables themself. */
  async function setDisabled(
    request: OperationRequest<'disableCustomerUser' | 'enableCustomerUser'>,
    disabled: boolean,
  ) {
    const auth = requireAbility(request, 'canUpdateUsers');
    const target = await userOrNotFound(auth, request.params.id, request.params.userId);
    if (disabled && target.id === auth.user.id) throw forbidden();
    assertMayManage(auth, target, target.role);
    await writeDisabled(request, auth, target, disabled);
    return ok(
      written(await findUserOfCustomer(db, target.customer_id, target.id), 'user'),
      disabled ? 'users.disabled' : 'users.enabled',
    );
  }

  /** The audited change itself; an unchanged user records nothing. */
  async function writeDisabled(
    request: Parameters<typeof auditSource>[0],
    auth: AuthContext,
    target: UserAnswer,
    disabled: boolean,
  ) {
    const intent = {
      action: disabled ? 'disable' : 'enable',
      entityType: 'user',
      entityId: target.id,
      skipUnchanged: true,
    } as const;
    await writeAudited(db, auditSource(request, auth), intent, async (tx) => {
      const { before, after } = await setUserDisabled(tx, target.id, disabled);
      if (disabled) await sessions.revokeAllForUser(tx, target.id);
      return { result: undefined, changes: userChanges(before, after) };
    });
  }

  /**
   * One user of a bulk action, as the single action would treat it; what stands in the way is
   * answered as a skip reason, not thrown, so that the others go on.
   */
  async function bulkStep(
    request: Parameters<typeof auditSource>[0],
    auth: AuthContext,
    userId: number,
    disabled: boolean,
  ): Promise<BulkUserSkip | 'done'> {
    const target = await findUser(db, userId, tenantScope(auth));
    if (!target) return 'not_found';
    if (disabled && target.id === auth.user.id) return 'users.self';
    try {
      assertMayManage(auth, target, target.role);
    } catch {
      return 'forbidden';
    }
    if ((target.deleted_at !== null) === disabled)
      return disabled ? 'users.already_disabled' : 'users.already_enabled';
    await writeDisabled(request, auth, target, disabled);
    return 'done';
  }

  return {
    handlers: {
      async listUsers(request) {
        requireModule(request, 'users');
        const { page, q, sortBy, sortDir } = request.query;
        const paging = pageRequest(page, request.query.perPage);
        const { rows, total } = await listUserPage(db, {
          sortBy: sortBy === 'email' || sortBy === 'active' ? sortBy : 'name',
          dir: sortDir === 'desc' ? 'desc' : 'asc',
          limit: paging.limit,
          offset: paging.offset,
          search: searchText(q),
        });
        return ok(pageOf(rows, total, paging));
      },

      async listCustomerUsers(request) {
        const auth = currentAuth(request);
        await customerOrNotFound(auth, request.params.id);
        return ok(await listUsersOfCustomer(db, request.params.id, searchText(request.query.q)));
      },

      async getCustomerUser(request) {
        const auth = currentAuth(request);
        return ok(await userOrNotFound(auth, request.params.id, request.params.userId));
      },

      async endUserSessions(request) {
        const auth = requireAbility(request, 'canUpdateUsers');
        const target = await userOrNotFound(auth, request.params.id, request.params.userId);
        // Whom an ADMIN may not edit, it may not sign out either (docs/accounts.md §3).
        assertMayManage(auth, target, target.role);
        const intent = {
          action: 'sessions_end',
          entityType: 'user',
          entityId: target.id,
          skipUnchanged: true,
        } as const;
        const ended = await writeAudited(db, auditSource(request, auth), intent, async (tx) => {
          // One's own page keeps the session using it, as a password change does.
          const keep = target.id === auth.user.id ? auth.sessionId : undefined;
          const count = await sessions.revokeAllForUser(tx, target.id, keep);
          return { result: count, changes: count > 0 ? endedChanges(count) : {} };
        });
        return ok({ ended }, 'sessions.ended');
      },

      resetUserSecondFactor: withForm(
        {
          async authorize(request) {
            const auth = requireAbility(request, 'canUpdateUsers');
            // A SUPER_ADMIN's act alone, and never on their own account: nobody lifts their own second
            // factor without it (docs/accounts.md §5).
            if (auth.user.role !== 'SUPER_ADMIN') throw forbidden();
            const target = await userOrNotFound(auth, request.params.id, request.params.userId);
            if (target.id === auth.user.id) throw forbidden();
            return { auth, target };
          },
          schema: secondFactorResetSchema,
        },
        async (request, { form: { reason }, subject: { auth, target } }) => {
          const intent = { action: 'mfa_reset', entityType: 'user', entityId: target.id, reason } as const;
          await writeAudited(db, auditSource(request, auth), intent, async (tx) => {
            const removed = await removeSecondFactors(tx, target.id);
            // Passkeys go too: a lost key may be what made the reset necessary.
            const removedPasskeys = await removePasskeys(tx, target.id);
            // Whoever holds the lost phone, key or codes must sign in again, and will set up a new factor.
            const ended = await sessions.revokeAllForUser(tx, target.id);
            const factors = [...(removed ? ['totp'] : []), ...(removedPasskeys > 0 ? ['passkey'] : [])];
            return {
              result: undefined,
              changes: {
                second_factor: { old: factors.length > 0 ? factors.join('+') : null, new: null },
                ...(removedPasskeys > 0 ? { passkeys: { old: removedPasskeys, new: 0 } } : {}),
                ...(ended > 0 ? endedChanges(ended) : {}),
              },
            };
          });
          return ok(null, 'second_factor.reset');
        },
      ),

      createCustomerUser: withForm(
        {
          async authorize(request, values) {
            const auth = requireAbility(request, 'canCreateUsers');
            const customer = await customerOrNotFound(auth, request.params.id);
            const role = roleOf(values, defaultRoleFor(customer.id));
            if (isRole(role)) assertMayManage(auth, undefined, role);
            return { auth, customer, role, roleChanges: true, customerId: customer.id };
          },
          schema: userSchema(true),
          verbatim: PASSWORD_FIELDS,
          rules: userRules,
        },
        async (request, { form, subject: { auth, customer, role } }, reply) => {
          const values: NewUser = {
            customerId: customer.id,
            name: form.name,
            email: form.email.toLowerCase(),
            role: role as Role,
            passwordHash: await hashPassword(form.new_password ?? ''),
            passwordChangedAt: new Date(),
          };
          let id: number;
          try {
            const created = { action: 'create', entityType: 'user' } as const;
            id = await writeAudited(db, auditSource(request, auth), created, async (tx) => {
              const row = await insertUser(tx, values);
              return { result: row.id, entityId: row.id, changes: userChanges(null, row) };
            });
          } catch (error) {
            if (isUniqueViolation(error)) throw emailTakenError();
            throw error;
          }
          reply.code(201);
          return ok(written(await findUserOfCustomer(db, customer.id, id), 'user'), 'users.created');
        },
      ),

      updateCustomerUser: withForm(
        {
          async authorize(request, values) {
            const auth = requireAbility(request, 'canUpdateUsers');
            const target = await userOrNotFound(auth, request.params.id, request.params.userId);
            const role = roleOf(values, target.role);
            const roleChanges = role !== target.role;
            if (isRole(role)) assertMayManage(auth, target, role);
            if (roleChanges && target.id === auth.user.id) throw forbidden();
            return { auth, target, role, roleChanges, customerId: target.customer_id };
          },
          schema: userSchema(false),
          judged: (values, { target }) => ({ name: target.name, email: target.email, ...values }),
          verbatim: PASSWORD_FIELDS,
          rules: userRules,
        },
        async (request, { sent, subject: { auth, target, role, roleChanges } }) => {
          const values: Partial<NewUser> = {};
          if (sent.name !== undefined) values.name = sent.name;
          if (sent.email !== undefined) values.email = sent.email.toLowerCase();
          if (roleChanges && isRole(role)) values.role = role;
          if (sent.new_password !== undefined) {
            values.passwordHash = await hashPassword(sent.new_password);
            values.passwordChangedAt = new Date();
          }
          if (Object.keys(values).length > 0) {
            try {
              const updated = {
                action: 'update',
                entityType: 'user',
                entityId: target.id,
                skipUnchanged: true,
              } as const;
              await writeAudited(db, auditSource(request, auth), updated, async (tx) => {
                const { before, after } = await updateRowById(tx, users, target.id, values);
                // A role, name or email change reaches the user's next request (no logout needed); a new
                // password ends their sessions at once.
                sessions.changed({ userId: target.id });
                if (values.passwordHash !== undefined) {
                  const keep = target.id === auth.user.id ? auth.sessionId : undefined;
                  await sessions.revokeAllForUser(tx, target.id, keep);
                }
                const changes = userChanges(before, after);
                return {
                  result: undefined,
                  changes,
                  action: changes.password ? 'password_change' : 'update',
                };
              });
            } catch (error) {
              if (isUniqueViolation(error)) throw emailTakenError();
              throw error;
            }
          }
          return ok(
            written(await findUserOfCustomer(db, target.customer_id, target.id), 'user'),
            'users.updated',
          );
        },
      ),

      async disableCustomerUser(request) {
        return setDisabled(request, true);
      },

      async enableCustomerUser(request) {
        return setDisabled(request, false);
      },

      async bulkUserAction(request) {
        const auth = requireAbility(request, 'canUpdateUsers');
        const { action, ids, filter } = request.body;
        if ((ids === undefined) === (filter === undefined))
          throw validationFailed({ ids: ['validation.user.bulk.ids_or_filter'] });
        const chosen =
          ids ??
          (await matchingUserIds(
            db,
            { scope: tenantScope(auth), search: searchText(filter?.q) },
            BULK_MAX + 1,
          ));
        const done: number[] = [];
        const skipped: { id: number; reason: BulkUserSkip }[] = [];
        // One at a time, each in its own audited transaction, as if acted on one by one.
        for (const id of chosen.slice(0, BULK_MAX)) {
          const outcome = await bulkStep(request, auth, id, action === 'disable');
          if (outcome === 'done') done.push(id);
          else skipped.push({ id, reason: outcome });
        }
        return ok({ done, skipped, more: chosen.length > BULK_MAX });
      },
    },
  };
}
