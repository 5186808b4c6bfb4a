/** How an audit entry reads, in the audit view and the history panels alike. */
import { Box, Typography } from '@mui/material';
import type { LinkProps } from '@tanstack/react-router';
import { useMemo } from 'react';
import { type IntlShape, useIntl } from 'react-intl';
import type { DataColumn } from '#client/components/data-table/index.ts';
import { TextLink } from '#client/components/router-link.tsx';
import { formatDateTime } from '#client/lib/dates.ts';
import { translateKnown } from '#client/lib/intl.tsx';
import { useCustomerOptions, useProductOptions } from '#client/lib/reference-lists.ts';
import type { AuditChange, AuditEntry } from '#shared/api/index.ts';

type Value = Extract<AuditChange, { old: unknown }>['old'];

/** Long values (public keys, file digests) are cut; the whole value is in the tooltip. */
const SHORT = 40;

/** Names by id of the records an entry refers to (field → id → name). */
type ReferenceNames = Partial<Record<string, ReadonlyMap<number, string>>>;

/**
 * The names of what entries refer to by id, in the words the rest of the app uses: a product by its
 * type (as the device type select), a customer by name, so a change reads "Product type: Sterilizing
 * Neck Plug → Sterilizing Bath", not "1 → 2".
 */
function useReferenceNames(): ReferenceNames {
  const intl = useIntl();
  const products = useProductOptions(true);
  const customers = useCustomerOptions(true);
  return useMemo(
    () => ({
      product_id: new Map(
        (products.data?.data ?? []).map((product) => [
          product.id,
          intl.formatMessage({ id: `products.type.${product.type}` }),
        ]),
      ),
      customer_id: new Map((customers.data ?? []).map((customer) => [customer.id, customer.name])),
    }),
    [intl, products.data, customers.data],
  );
}

function valueText(intl: IntlShape, field: string, value: Value, names: ReferenceNames): string {
  if (value === null) return intl.formatMessage({ id: 'audit.value.empty' });
  const named = typeof value === 'number' ? names[field]?.get(value) : undefined;
  if (named !== undefined) return named;
  if (typeof value === 'boolean') return intl.formatMessage({ id: value ? 'common.yes' : 'common.no' });
  if (typeof value === 'string' && field.endsWith('_at')) return formatDateTime(value);
  if (field === 'role' && typeof value === 'string')
    return translateKnown(intl, `users.role.${value}`) ?? value;
  if (field === 'meaning' && typeof value === 'string')
    return translateKnown(intl, `reports.meaning.${value}`) ?? value;
  if (field === 'language' && typeof value === 'string')
    return translateKnown(intl, `reports.language.${value}`) ?? value;
  return String(value);
}

function ValueView({ field, value, names }: { field: string; value: Value; names: ReferenceNames }) {
  const intl = useIntl();
  const text = valueText(intl, field, value, names);
  const short = text.length > SHORT ? `${text.slice(0, SHORT)}…` : text;
  return (
    <Box
      component="span"
      title={short === text ? undefined : text}
      sx={{
        fontFamily: value === null ? undefined : 'monospace',
        color: value === null ? 'text.secondary' : undefined,
      }}
    >
      {short}
    </Box>
  );
}

/** Each changed field as "field: old → new"; a secret only as changed. */
export function AuditChanges({ changes }: { changes: AuditEntry['changes'] }) {
  const intl = useIntl();
  const names = useReferenceNames();
  const fields = Object.entries(changes);
  if (fields.length === 0) return null;
  return (
    <Box component="ul" sx={{ m: 0, pl: 2 }}>
      {fields.map(([field, change]) => (
        <Box component="li" key={field} sx={{ wordBreak: 'break-word' }}>
          <Box component="span" sx={{ fontWeight: 600 }}>
            {translateKnown(intl, `audit.field.${field}`) ?? translateKnown(intl, `fields.${field}`) ?? field}
          </Box>
          {': '}
          {'redacted' in change ? (
            <Box component="span" sx={{ fontStyle: 'italic' }}>
              {intl.formatMessage({ id: 'audit.value.redacted' })}
            </Box>
          ) : (
            <>
              <ValueView field={field} value={change.old} names={names} /> →{' '}
              <ValueView field={field} value={change.new} names={names} />
            </>
          )}
        </Box>
      ))}
    </Box>
  );
}

function Actor({ entry }: { entry: AuditEntry }) {
  const intl = useIntl();
  const role = entry.actor_role
    ? (translateKnown(intl, `users.role.${entry.actor_role}`) ?? entry.actor_role)
    : null;
  return (
    <>
      <Box component="span" sx={{ display: 'block' }}>
        {entry.actor_email ?? intl.formatMessage({ id: 'audit.actor.unknown' })}
      </Box>
      {role && (
        <Typography component="span" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
          {role}
        </Typography>
      )}
    </>
  );
}

/** Where an entry's entity is shown, as a link target; null when it has no page of its own. */
function entityLink(entry: AuditEntry): LinkProps | null {
  const id = entry.entity_id;
  const customerId = entry.entity_customer_id;
  if (id === null || entry.entity_name === null) return null;
  switch (entry.entity_type) {
    case 'customer':
      return { to: '/customers/$id', params: { id } };
    case 'user':
      return customerId === null
        ? null
        : { to: '/customers/$id/users/$userId', params: { id: customerId, userId: id } };
    case 'device':
      return customerId === null
        ? null
        : { to: '/customers/$id/devices/$deviceId', params: { id: customerId, deviceId: id } };
    case 'report':
      return customerId === null ? null : { to: '/customers/$id/reports', params: { id: customerId } };
    case 'certificate':
      return { to: '/certificates', search: { q: entry.entity_name } };
    case 'alert':
      return { to: '/alerts', search: customerId === null ? {} : { customerId } };
  }
}

/**
 * The entity as its name ("Device NP000201", "Report 2026-10-01 – 2026-10-31"), linked to its page;
 * by number only when it no longer exists.
 */
function AuditEntity({ entry }: { entry: AuditEntry }) {
  const intl = useIntl();
  const type = intl.formatMessage({ id: `audit.entity.${entry.entity_type}` });
  if (entry.entity_id === null) return <>{intl.formatMessage({ id: 'audit.entity.none' }, { type })}</>;
  if (entry.entity_name === null)
    return <>{intl.formatMessage({ id: 'audit.entity.with_id' }, { type, id: String(entry.entity_id) })}</>;
  const name =
    entry.entity_type === 'alert'
      ? (translateKnown(intl, `alerts.kind.${entry.entity_name}`) ?? entry.entity_name)
      : entry.entity_name;
  const text = intl.formatMessage({ id: 'audit.entity.named' }, { type, name });
  const link = entityLink(entry);
  return link ? (
    <TextLink
      {...link}
      title={intl.formatMessage({ id: 'audit.entity.with_id' }, { type, id: String(entry.entity_id) })}
    >
      {text}
    </TextLink>
  ) : (
    text
  );
}

/** The columns of an entry; `withEntity` adds the entity column (a history panel shows one entity). */
export function auditColumns(intl: IntlShape, withEntity: boolean): DataColumn<AuditEntry>[] {
  const columns: (DataColumn<AuditEntry> | false)[] = [
    {
      id: 'occurred_at',
      headerId: 'audit.list.time',
      cell: (row) => (
        <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(row.occurred_at)}
        </Box>
      ),
    },
    { id: 'actor', headerId: 'audit.list.actor', cell: (row) => <Actor entry={row} /> },
    {
      id: 'action',
      headerId: 'audit.list.action',
      cell: (row) => intl.formatMessage({ id: `audit.action.${row.action}` }),
    },
    withEntity && { id: 'entity', headerId: 'audit.list.entity', cell: (row) => <AuditEntity entry={row} /> },
    { id: 'changes', headerId: 'audit.list.changes', cell: (row) => <AuditChanges changes={row.changes} /> },
    { id: 'client_address', headerId: 'audit.list.client_address', cell: (row) => row.client_address ?? '' },
  ];
  return columns.filter((column): column is DataColumn<AuditEntry> => column !== false);
}
