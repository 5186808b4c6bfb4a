/**
 * Devices: the devices list, a customer's devices (docs/product.md §2 Customer devices, Devices list; §7) and
 * reassignment to another customer. Setting or changing a public key is a separate permission
 * (canGenerateDeviceKeys): a request without it that would change either key is refused as a whole
 * (403, nothing written), while sending the stored key back unchanged is fine, so the same edit form
 * works for every role.
 */

import type { InferType } from 'yup';
import { type FormValues, withForm } from '#server/contract/form-operation.ts';
import type { ApiModule } from '#server/contract/handler-types.ts';
import type { Db, Tx } from '#server/db/client.ts';
import { findCustomer } from '#server/db/lookups.ts';
import { type Device, devices, type NewDevice } from '#server/db/schema.ts';
import { searchText } from '#server/db/text-search.ts';
import { isUniqueViolation } from '#server/db/unique-violation.ts';
import { updateRowById } from '#server/db/update-row.ts';
import { written } from '#server/db/written.ts';
import { ApiError, forbidden, notFound, ok, validationFailed } from '#server/http/envelope.ts';
import { pageOf, pageRequest } from '#server/http/paging.ts';
import {
  assertTenant,
  currentAuth,
  requireAbility,
  requireModule,
  tenantScope,
} from '#server/security/guards.ts';
import type { AuthContext } from '#server/security/session-store.ts';
import { can } from '#shared/access/index.ts';
import type { Device as DeviceAnswer } from '#shared/api/index.ts';
import { deviceSchema, type FieldErrors, keyRevocationSchema } from '#shared/validation/index.ts';
import type { AuditChanges } from '../audit/index.ts';
import { auditSource, changedFields, writeAudited } from '../audit/index.ts';
import { deviceGaps, visibleOwners } from './gaps.ts';
import {
  type KeySlot,
  type KeySlotChange,
  listKeyEvents,
  recordKeyChanges,
  revokeKey,
} from './key-history.ts';
import { isRsaSpkiPem, normalizePem, samePublicKey } from './public-key.ts';
import {
  activeProductExists,
  deviceAuditFields,
  findDevice,
  findDeviceOfCustomer,
  insertDevice,
  listDevicePage,
  listDevicesOfCustomer,
  serialTaken,
} from './repository.ts';

const KEY_FIELDS = ['public_key', 'public_key_2'] as const;
type DeviceForm = Partial<InferType<typeof deviceSchema>>;

const MAX_INT4 = 2_147_483_647;
function productIdOf(text: string | undefined): number | null {
  if (!text || !/^\d{1,10}$/.test(text)) return null;
  const id = Number(text);
  return id >= 1 && id <= MAX_INT4 ? id : null;
}

/**
 * An update of a device's columns, with what the audit trail records of it; a changed key also becomes
 * a key event (key-history.ts), in the same transaction and after the update locked the row.
 */
async function updateDevice(tx: Tx, id: number, columns: Partial<NewDevice>, actorUserId: number) {
  const { before, after } = await updateRowById(tx, devices, id, columns);
  await recordKeyChanges(tx, id, keyChangesOf(before, after), actorUserId);
  return { result: undefined, changes: changedFields(deviceAuditFields(before), deviceAuditFields(after)) };
}

/** The slots whose key text an update changed ('' and null both mean no key). */
function keyChangesOf(
  before: Pick<Device, 'publicKey' | 'publicKey2'> | null,
  after: Pick<Device, 'publicKey' | 'publicKey2'>,
): KeySlotChange[] {
  const pairs: KeySlotChange[] = [
    { slot: 1, before: before?.publicKey || null, after: after.publicKey || null },
    { slot: 2, before: before?.publicKey2 || null, after: after.publicKey2 || null },
  ];
  return pairs.filter((pair) => pair.before !== pair.after);
}

/**
 * A key is in force from the moment its change is written, never from a time a client names: a form
 * that tries to date a key change is refused as a whole (docs/integrity.md, "Key history").
 */
const KEY_TIME_FIELDS = ['effective_at', 'in_force_from', 'valid_from', 'from'] as const;
function refuseKeyTimes(values: FormValues, errors: FieldErrors): void {
  for (const field of KEY_TIME_FIELDS)
    if (values[field] !== undefined) errors[field] = ['validation.device.key_time'];
}

const serialTakenError = () => validationFailed({ device_serial: ['validation.device.serial.taken'] });

export function devicesModule(deps: { db: Db }): ApiModule {
  const { db } = deps;

  async function deviceOrNotFound(auth: AuthContext, customerId: number, deviceId: number) {
    assertTenant(auth, customerId);
    const device = await findDeviceOfCustomer(db, customerId, deviceId);
    if (!device) throw notFound();
    return device;
  }

  /** The keys this form would change (compared as keys, so a re-wrapped PEM of the stored key is no change). */
  function changedKeys(values: FormValues, existing: DeviceAnswer | undefined) {
    return KEY_FIELDS.filter((field) => {
      const value = values[field];
      return typeof value === 'string' && !samePublicKey(value, existing?.[field]);
    });
  }

  /** Who may send the form: changing a key takes its own ability, and nothing is written without it. */
  function refuseKeysWithoutAbility(auth: AuthContext, keys: readonly string[]): void {
    if (keys.length > 0 && !can(auth.user.role, 'canGenerateDeviceKeys')) throw forbidden();
  }

  /**
   * The rules of the form the shared schema cannot know: product, serial and keys against the
   * database, only for the fields this request changes.
   */
  async function deviceRules(
    values: FormValues,
    { existing, keys }: { existing?: DeviceAnswer | undefined; keys: readonly string[] },
    errors: FieldErrors,
  ) {
    refuseKeyTimes(values, errors);
    const { product_id: productText, device_serial: serial } = values;
    if (typeof productText === 'string' && !errors.product_id) {
      const productId = productIdOf(productText);
      const changed = productId !== existing?.product_id;
      if (productId === null || (changed && !(await activeProductExists(db, productId)))) {
        errors.product_id = ['validation.device.product.required'];
      }
    }
    if (typeof serial === 'string' && !errors.device_serial && serial !== existing?.device_serial) {
      if (await serialTaken(db, serial, existing?.id))
        errors.device_serial = ['validation.device.serial.taken'];
    }
    for (const field of KEY_FIELDS) {
      const value = values[field];
      if (typeof value === 'string' && keys.includes(field) && !isRsaSpkiPem(value)) {
        errors[field] = ['validation.device.public_key.invalid'];
      }
    }
  }

  function columnsOf(
    form: DeviceForm,
    existing: DeviceAnswer | undefined,
    keys: readonly string[],
  ): Partial<NewDevice> {
    const columns: Partial<NewDevice> = {};
    if (form.device_serial !== undefined && form.device_serial !== existing?.device_serial) {
      columns.deviceSerial = form.device_serial;
    }
    if (form.label !== undefined && form.label !== existing?.label) columns.label = form.label;
    const productId = productIdOf(form.product_id);
    if (productId !== null && productId !== existing?.product_id) columns.productId = productId;
    if (form.public_key !== undefined && keys.includes('public_key'))
      columns.publicKey = normalizePem(form.public_key);
    if (form.public_key_2 !== undefined && keys.includes('public_key_2')) {
      columns.publicKey2 = normalizePem(form.public_key_2);
    }
    return columns;
  }

  return {
    handlers: {
      async listDevices(request) {
        requireModule(request, 'devices');
        const { page, q, sortBy, sortDir } = request.query;
        const paging = pageRequest(page, request.query.perPage);
        const { rows, total } = await listDevicePage(db, {
          sortBy: sortBy === 'device_serial' || sortBy === 'active' ? sortBy : 'label',
          dir: sortDir === 'desc' ? 'desc' : 'asc',
          limit: paging.limit,
          offset: paging.offset,
          search: searchText(q),
        });
        return ok(pageOf(rows, total, paging));
      },

      async listCustomerDevices(request) {
        const auth = currentAuth(request);
        assertTenant(auth, request.params.id);
        if (!(await findCustomer(db, request.params.id))) throw notFound();
        return ok(await listDevicesOfCustomer(db, request.params.id, searchText(request.query.q)));
      },

      async getCustomerDevice(request) {
        const auth = currentAuth(request);
        return ok(await deviceOrNotFound(auth, request.params.id, request.params.deviceId));
      },

      /** Open to every role, like the device page; a clinic sees only its own records' sequence. */
      async getDeviceGaps(request) {
        const auth = currentAuth(request);
        const { deviceId } = request.params;
        const owners = await visibleOwners(db, deviceId, tenantScope(auth));
        if (owners === null) throw notFound();
        return ok(await deviceGaps(db, deviceId, owners, request.query.limit ?? 100));
      },

      /** Open to every role that may see the device, like its gaps: a clinic, for a device it has or had. */
      async listDeviceKeyEvents(request) {
        const auth = currentAuth(request);
        const { deviceId } = request.params;
        if ((await visibleOwners(db, deviceId, tenantScope(auth))) === null) throw notFound();
        return ok(await listKeyEvents(db, deviceId));
      },

      revokeDeviceKey: withForm(
        {
          async authorize(request) {
            const auth = requireAbility(request, 'canGenerateDeviceKeys');
            if (!(await findDevice(db, request.params.deviceId))) throw notFound();
            return auth;
          },
          schema: keyRevocationSchema,
        },
        async (request, { form: { reason }, subject: auth }) => {
          const { deviceId, slot } = request.params;
          // An empty slot revokes nothing: no entry either (the 409 below changes nothing).
          const revoked = {
            action: 'key_change',
            entityType: 'device',
            entityId: deviceId,
            skipUnchanged: true,
          } as const;
          const done = await writeAudited(db, auditSource(request, auth), revoked, async (tx) => {
            const result = await revokeKey(tx, deviceId, slot as KeySlot, auth.user.id, reason);
            const field = slot === 1 ? 'public_key' : 'public_key_2';
            const changes: AuditChanges = {};
            if (result) {
              changes[field] = { old: result.revoked, new: null };
              changes.revocation_reason = { old: null, new: reason };
            }
            return { result, changes };
          });
          if (!done) throw new ApiError(409, 'devices.keys.slot_empty');
          return ok(await listKeyEvents(db, deviceId), 'devices.keys.revoked');
        },
      ),

      createCustomerDevice: withForm(
        {
          async authorize(request, values) {
            const auth = requireAbility(request, 'canCreateDevices');
            assertTenant(auth, request.params.id);
            const customer = await findCustomer(db, request.params.id);
            if (!customer) throw notFound();
            const keys = changedKeys(values, undefined);
            refuseKeysWithoutAbility(auth, keys);
            return { auth, customer, keys };
          },
          schema: deviceSchema,
          rules: deviceRules,
        },
        async (request, { form, subject: { auth, customer, keys } }, reply) => {
          const columns = columnsOf(form, undefined, keys);
          let id: number;
          try {
            const created = { action: 'create', entityType: 'device' } as const;
            id = await writeAudited(db, auditSource(request, auth), created, async (tx) => {
              const row = await insertDevice(tx, {
                ...columns,
                customerId: customer.id,
                deviceSerial: columns.deviceSerial ?? '',
                label: columns.label ?? '',
                productId: columns.productId ?? 0,
              });
              await recordKeyChanges(tx, row.id, keyChangesOf(null, row), auth.user.id);
              return {
                result: row.id,
                entityId: row.id,
                changes: changedFields(null, deviceAuditFields(row)),
              };
            });
          } catch (error) {
            if (isUniqueViolation(error)) throw serialTakenError();
            throw error;
          }
          reply.code(201);
          return ok(written(await findDevice(db, id), 'device'), 'devices.created');
        },
      ),

      updateCustomerDevice: withForm(
        {
          async authorize(request, values) {
            const auth = requireAbility(request, 'canUpdateDevices');
            const existing = await deviceOrNotFound(auth, request.params.id, request.params.deviceId);
            const keys = changedKeys(values, existing);
            refuseKeysWithoutAbility(auth, keys);
            return { auth, existing, keys };
          },
          schema: deviceSchema,
          // Absent fields keep their stored value, so the required ones are checked on the merged form.
          judged: (values, { existing }) => ({
            device_serial: existing.device_serial,
            label: existing.label,
            product_id: String(existing.product_id),
            ...values,
          }),
          rules: deviceRules,
        },
        async (request, { sent, subject: { auth, existing, keys } }) => {
          const columns = columnsOf(sent, existing, keys);
          if (Object.keys(columns).length > 0) {
            try {
              const updated = {
                // A new or changed public key is what a security review looks for: named as such.
                action: keys.length > 0 ? 'key_change' : 'update',
                entityType: 'device',
                entityId: existing.id,
                skipUnchanged: true,
              } as const;
              await writeAudited(db, auditSource(request, auth), updated, (tx) =>
                updateDevice(tx, existing.id, columns, auth.user.id),
              );
            } catch (error) {
              if (isUniqueViolation(error)) throw serialTakenError();
              throw error;
            }
          }
          return ok(written(await findDevice(db, existing.id), 'device'), 'devices.updated');
        },
      ),

      /**
       * The target must exist (404) and be active; a disabled target or the device's own customer is
       * a 422 on `customerId`. The device's records and batches move with it.
       */
      async assignDeviceToCustomer(request) {
        const auth = requireAbility(request, 'canAssignDeviceToDifferentCustomer');
        const device = await findDevice(db, request.params.deviceId);
        if (!device) throw notFound();
        const target = await findCustomer(db, request.params.customerId);
        if (!target) throw notFound();
        if (target.id === device.customer_id) {
          throw validationFailed({ customerId: ['devices.assign.same_customer'] });
        }
        if (target.deletedAt !== null)
          throw validationFailed({ customerId: ['devices.assign.customer_disabled'] });
        const reassigned = {
          action: 'reassign',
          entityType: 'device',
          entityId: device.id,
          skipUnchanged: true,
        } as const;
        await writeAudited(db, auditSource(request, auth), reassigned, (tx) =>
          updateDevice(tx, device.id, { customerId: target.id }, auth.user.id),
        );
        return ok(written(await findDevice(db, device.id), 'device'), 'devices.assigned');
      },
    },
  };
}
