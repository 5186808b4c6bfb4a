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

import type { ApiModule, OperationRequest } from '#server/contract/handler-types.ts';
import type { Db } from '#server/db/client.ts';
import { findCustomer } from '#server/db/lookups.ts';
import { type NewUser, users } from '#server/db/schema.ts';
import { searchText } from '#server/db/text-search.ts';
import { isUniqueViolation } from '#server/db/unique-violation.ts';
import { updateRowById } from '#server/db/update-row.ts';
import { written } from '#server/db/written.ts';
import { forbidden, notFound, ok, validationFailed } from '#server/http/envelope.ts';
import { filledFields } from '#server/http/form-fields.ts';
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
import { userSchema, validateForm } from '#shared/validation/index.ts';
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

const TEXT_FIELDS = ['name', 'email', 'role'] as const;

/** The most users one bulk action takes (as for alerts). */
const BULK_MAX = 500;
type BulkUserSkip = Schemas['UserBulkResult']['skipped'][number]['reason'];

/** The contract's user form fields as sent, text not validated yet (a role is any text until then). */
type UserForm = Partial<Record<keyof Schemas['UserForm'], string>>;

/** Trimmed text fields without the empty ones; passwords are taken as typed (never trimmed), when not empty. */
function userForm(body: unknown): UserForm {
  const form: UserForm = filledFields(body, TEXT_FIELDS);
  const source = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  for (const name of ['new_password', 'repeat_new_password'] as const) {
    const value = source[name];
    if (typeof value === 'string' && value !== '') form[name] = value;
  }
  return form;
}

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

  async function validate(form: UserForm, isNew: boolean, exceptUserId?: number) {
    const result = await validateForm(userSchema(isNew), form);
    const errors = result.ok ? {} : result.errors;
    if (form.email && !errors.email && (await emailTaken(db, form.email, exceptUserId))) {
      errors.email = ['validation.user.email.taken'];
    }
    if (Object.keys(errors).length > 0) throw validationFailed(errors);
  }

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
    formSchemas: { createCustomerUser: userSchema(true) },
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

      async resetUserSecondFactor(request) {
        const auth = requireAbility(request, 'canUpdateUsers');
        // A SUPER_ADMIN's act alone, and never on their own account: nobody lifts their own second
        // factor without it (docs/accounts.md §5).
        if (auth.user.role !== 'SUPER_ADMIN') throw forbidden();
        const target = await userOrNotFound(auth, request.params.id, request.params.userId);
        if (target.id === auth.user.id) throw forbidden();
        const body = (request.body ?? {}) as Record<string, unknown>;
        const reason = typeof body.reason === 'string' ? body.reason.trim() : '';
        if (reason === '' || /[\p{Cc}]/u.test(reason))
          throw validationFailed({ reason: ['validation.second_factor.reason.required'] });
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

      async createCustomerUser(request, reply) {
        const auth = requireAbility(request, 'canCreateUsers');
        const customer = await customerOrNotFound(auth, request.params.id);
        const form = userForm(request.body);
        const role = form.role ?? defaultRoleFor(customer.id);
        if (isRole(role)) assertMayManage(auth, undefined, role);
        if (!isRole(role) || !rolesAllowedFor(customer.id).includes(role)) {
          throw validationFailed({ role: ['validation.user.role.invalid'] });
        }
        await validate(form, true);
        const values: NewUser = {
          customerId: customer.id,
          name: form.name ?? '',
          email: (form.email ?? '').toLowerCase(),
          role,
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

      async updateCustomerUser(request) {
        const auth = requireAbility(request, 'canUpdateUsers');
        const target = await userOrNotFound(auth, request.params.id, request.params.userId);
        const form = userForm(request.body);
        const role = form.role ?? target.role;
        const roleChanges = role !== target.role;
        if (isRole(role)) assertMayManage(auth, target, role);
        if (roleChanges && target.id === auth.user.id) throw forbidden();
        if (roleChanges && (!isRole(role) || !rolesAllowedFor(target.customer_id).includes(role))) {
          throw validationFailed({ role: ['validation.user.role.invalid'] });
        }
        await validate({ name: target.name, email: target.email, ...form }, false, target.id);

        const values: Partial<NewUser> = {};
        if (form.name !== undefined) values.name = form.name;
        if (form.email !== undefined) values.email = form.email.toLowerCase();
        if (roleChanges && isRole(role)) values.role = role;
        if (form.new_password !== undefined) {
          values.passwordHash = await hashPassword(form.new_password);
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
              return { result: undefined, changes, action: changes.password ? 'password_change' : 'update' };
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
