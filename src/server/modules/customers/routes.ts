/** Customers (docs/product.md §2 Customer list, Customer page; §7 /customers). */

import type { InferType } from 'yup';
import { withForm } from '#server/contract/form-operation.ts';
import type { ApiModule } from '#server/contract/handler-types.ts';
import type { Db } from '#server/db/client.ts';
import { findCustomer } from '#server/db/lookups.ts';
import { customers, type NewCustomer } from '#server/db/schema.ts';
import { searchText } from '#server/db/text-search.ts';
import { updateRowById } from '#server/db/update-row.ts';
import { written } from '#server/db/written.ts';
import { notFound, ok } from '#server/http/envelope.ts';
import { pageOf, pageRequest } from '#server/http/paging.ts';
import { receivedWindow } from '#server/http/received-window.ts';
import { assertTenant, currentAuth, requireAbility, requireModule } from '#server/security/guards.ts';
import type { SessionStore } from '#server/security/session-store.ts';
import { customerSchema } from '#shared/validation/index.ts';
import { auditSource, changedFields, writeAudited } from '../audit/index.ts';
import {
  activeCustomerOptions,
  customerAuditFields,
  findCustomerView,
  insertCustomer,
  listCustomerPage,
} from './repository.ts';

const _CUSTOMER_FIELDS = [
  'name',
  'address',
  'postcode',
  'city',
  'country',
  'email',
  'phone',
  'referrer',
  'enable_blockchain',
  'alert_device_silent_hours',
  'alert_lamp_life_threshold',
] as const;

/** The clinic's own alert thresholds: an empty value sent for one of them means the server's default. */
const THRESHOLD_FIELDS = ['alert_device_silent_hours', 'alert_lamp_life_threshold'] as const;

type CustomerForm = Partial<InferType<typeof customerSchema>>;

/** Validated form values → columns; only the fields present in the form (updates leave the rest). */
function columnsOf(form: CustomerForm): Partial<NewCustomer> {
  const columns: Partial<NewCustomer> = {};
  if (form.name !== undefined) columns.name = form.name;
  if (form.address !== undefined) columns.address = form.address;
  if (form.postcode !== undefined) columns.postcode = form.postcode;
  if (form.city !== undefined) columns.city = form.city;
  // ISO 3166 codes are stored upper-case whatever the form sent.
  if (form.country !== undefined) columns.country = form.country.toUpperCase();
  if (form.email !== undefined) columns.email = form.email;
  if (form.phone !== undefined) columns.phone = form.phone;
  if (form.referrer !== undefined) columns.referrer = form.referrer;
  if (form.enable_blockchain !== undefined) columns.enableBlockchain = form.enable_blockchain === '1';
  if (form.alert_device_silent_hours !== undefined)
    columns.alertDeviceSilentHours = Number(form.alert_device_silent_hours);
  if (form.alert_lamp_life_threshold !== undefined)
    columns.alertLampLifeThreshold = Number(form.alert_lamp_life_threshold);
  return columns;
}

/**
 * Threshold fields sent empty (dropped from the form as docs/product.md §5 says) go back to the server's
 * default.
 */
function clearedThresholds(body: unknown): Partial<NewCustomer> {
  const sent = (body ?? {}) as Record<string, unknown>;
  const columns: Partial<NewCustomer> = {};
  for (const field of THRESHOLD_FIELDS) {
    const value = sent[field];
    if (typeof value !== 'string' || value.trim() !== '') continue;
    if (field === 'alert_device_silent_hours') columns.alertDeviceSilentHours = null;
    else columns.alertLampLifeThreshold = null;
  }
  return columns;
}

export function customersModule(deps: { db: Db; sessions: SessionStore }): ApiModule {
  const { db, sessions } = deps;
  return {
    handlers: {
      async listCustomers(request) {
        requireModule(request, 'customers');
        const { page, q, sortBy, sortDir, filterFrom, filterTo } = request.query;
        const paging = pageRequest(page, request.query.perPage);
        const { rows, total } = await listCustomerPage(db, {
          sortBy: sortBy === 'active' ? 'active' : 'name',
          dir: sortDir === 'desc' ? 'desc' : 'asc',
          limit: paging.limit,
          offset: paging.offset,
          search: searchText(q),
          window: receivedWindow(filterFrom, filterTo),
        });
        return ok(pageOf(rows, total, paging));
      },

      async getCustomerFullList(request) {
        requireModule(request, 'customers');
        return ok(await activeCustomerOptions(db));
      },

      async getCustomer(request) {
        const auth = currentAuth(request);
        assertTenant(auth, request.params.id);
        const customer = await findCustomerView(db, request.params.id);
        if (!customer) throw notFound();
        return ok(customer);
      },

      createCustomer: withForm(
        {
          authorize: (request) => requireAbility(request, 'canCreateCustomers'),
          schema: customerSchema,
        },
        async (request, { form, subject: auth }, reply) => {
          const columns = columnsOf(form);
          const created = { action: 'create', entityType: 'customer' } as const;
          const id = await writeAudited(db, auditSource(request, auth), created, async (tx) => {
            const row = await insertCustomer(tx, {
              ...columns,
              name: columns.name ?? '',
              country: columns.country ?? '',
            });
            return {
              result: row.id,
              entityId: row.id,
              changes: changedFields(null, customerAuditFields(row)),
            };
          });
          reply.code(201);
          return ok(written(await findCustomerView(db, id), 'customer'), 'customers.created');
        },
      ),

      updateCustomer: withForm(
        {
          async authorize(request) {
            const auth = requireAbility(request, 'canCreateCustomers');
            assertTenant(auth, request.params.id);
            const existing = await findCustomer(db, request.params.id);
            if (!existing) throw notFound();
            return { auth, existing };
          },
          schema: customerSchema,
          // Absent fields keep their stored value, so the required ones are checked on the merged form.
          judged: (values, { existing }) => ({
            name: existing.name,
            country: existing.country.trim(),
            ...values,
          }),
        },
        async (request, { sent, subject: { auth, existing } }) => {
          const columns = { ...clearedThresholds(request.body), ...columnsOf(sent) };
          if (Object.keys(columns).length > 0) {
            const updated = {
              action: 'update',
              entityType: 'customer',
              entityId: existing.id,
              skipUnchanged: true,
            } as const;
            await writeAudited(db, auditSource(request, auth), updated, async (tx) => {
              const { before, after } = await updateRowById(tx, customers, existing.id, columns);
              // Its users' sessions carry its name.
              sessions.changed({ customerId: existing.id });
              return {
                result: undefined,
                changes: changedFields(customerAuditFields(before), customerAuditFields(after)),
              };
            });
          }
          return ok(written(await findCustomerView(db, existing.id), 'customer'), 'customers.updated');
        },
      ),
    },
  };
}
