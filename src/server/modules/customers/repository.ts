/** Customers with their counts (docs/product.md §2 Customer list / Customer page), and their writes. */
import { type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client.ts';
import { pageTotal } from '#server/db/page-total.ts';
import { toNumber } from '#server/db/pg-number.ts';
import { type Customer, customers, type NewCustomer } from '#server/db/schema.ts';
import { anyColumnContains } from '#server/db/text-search.ts';
import type { ReceivedWindow } from '#server/http/received-window.ts';
import type { Customer as CustomerAnswer } from '#shared/api/index.ts';
import type { AuditFields } from '../audit/index.ts';

export type CustomerSort = 'name' | 'active';
type Direction = 'asc' | 'desc';

/**
 * Name order is case-insensitive (the same on PGlite's C collation and a server's locale for plain
 * names); "active" orders by deleted_at, so ascending lists disabled customers first (oldest
 * deactivation first) and active ones last, descending the reverse. The id always breaks ties, so
 * paging is stable.
 */
function customerOrder(sortBy: CustomerSort, dir: Direction): SQL {
  const d = sql.raw(dir);
  if (sortBy === 'active') {
    const nulls = sql.raw(dir === 'asc' ? 'nulls last' : 'nulls first');
    return sql`c.deleted_at ${d} ${nulls}, lower(c.name) ${d}, c.id ${d}`;
  }
  return sql`lower(c.name) ${d}, c.id ${d}`;
}

/** A window of whole UTC days as the dates the daily counts are kept by ('YYYY-MM-DD'). */
const utcDay = (instant: Date) => instant.toISOString().slice(0, 10);

/**
 * devices_count and users_count count every device and user of the customer (disabled users too),
 * matching the lists of the customer page's tabs; sterilizations_ok_count counts the status 0 records
 * the customer owns (received while it had their device, whichever device it has now), from the daily
 * counts the database keeps per owner (sterilization_daily_ok_counts; the window is whole UTC days, as
 * receivedWindow makes it).
 */
function withCounts(source: SQL, order: SQL, window: ReceivedWindow, withTotal = false): SQL {
  const from = window.from ? sql`and k.day >= ${utcDay(window.from)}::date` : sql``;
  const to = window.toExclusive ? sql`and k.day < ${utcDay(window.toExclusive)}::date` : sql``;
  return sql`
    with picked as (${source})
    select c.id, c.name, c.address, c.postcode, c.city, c.country, c.email, c.phone, c.referrer,
      c.enable_blockchain, c.alert_device_silent_hours, c.alert_lamp_life_threshold,
      c.created_at, c.updated_at, c.deleted_at, ${withTotal ? sql`c.total,` : sql``}
      (select count(*) from devices d where d.customer_id = c.id) as devices_count,
      (select count(*) from users u where u.customer_id = c.id) as users_count,
      (select coalesce(sum(k.ok_count), 0) from sterilization_daily_ok_counts k
        where k.customer_id = c.id ${from} ${to}) as sterilizations_ok_count
    from picked c
    order by ${order}`;
}

/**
 * A customer as withCounts selects it. drizzle's raw execute() hands timestamps back as PostgreSQL's
 * text, which the answer passes on as it is (a date-time the contract accepts), and counts as text.
 */
type CustomerRow = Omit<
  CustomerAnswer,
  'devices_count' | 'users_count' | 'sterilizations_ok_count' | 'id'
> & {
  id: number | string;
  devices_count: string | number;
  users_count: string | number;
  sterilizations_ok_count: string | number;
};

/** The one place a customer row becomes the contract's Customer. */
function toCustomer(row: CustomerRow): CustomerAnswer {
  return {
    ...row,
    id: Number(row.id),
    country: row.country.trim(),
    devices_count: toNumber(row.devices_count),
    users_count: toNumber(row.users_count),
    sterilizations_ok_count: toNumber(row.sterilizations_ok_count),
  };
}

export async function listCustomerPage(
  db: Db,
  options: {
    sortBy: CustomerSort;
    dir: Direction;
    limit: number;
    offset: number;
    window: ReceivedWindow;
    search?: string;
  },
): Promise<{ rows: CustomerAnswer[]; total: number }> {
  const order = customerOrder(options.sortBy, options.dir);
  const matching = anyColumnContains([sql`c.name`, sql`c.city`], options.search);
  const where = matching ? sql`where ${matching}` : sql``;
  const page = sql`select *, count(*) over () as total from customers c ${where} order by ${order} limit ${options.limit} offset ${options.offset}`;
  const { rows } = await db.execute<CustomerRow & { total: string }>(
    withCounts(page, order, options.window, true),
  );
  const total = await pageTotal(rows, options.offset, async () => {
    const counted = await db.execute<{ n: string }>(sql`select count(*) as n from customers c ${where}`);
    return toNumber(counted.rows[0]?.n);
  });
  return { rows: rows.map(({ total: _total, ...row }) => toCustomer(row)), total };
}

export async function findCustomerView(db: Db, id: number): Promise<CustomerAnswer | undefined> {
  const result = await db.execute<CustomerRow>(
    withCounts(sql`select * from customers where id = ${id}`, sql`c.id`, { from: null, toExclusive: null }),
  );
  const row = result.rows[0];
  return row ? toCustomer(row) : undefined;
}

/** Active customers as options (the assign-to-customer dialog), by name. */
export async function activeCustomerOptions(db: Db): Promise<{ id: number; name: string }[]> {
  const result = await db.execute<{ id: number; name: string }>(
    sql`select id, name from customers where deleted_at is null order by lower(name), id`,
  );
  return result.rows.map((row) => ({ id: Number(row.id), name: row.name }));
}

export async function insertCustomer(tx: Tx, values: NewCustomer): Promise<Customer> {
  const [row] = await tx.insert(customers).values(values).returning();
  if (!row) throw new Error('customer insert returned no row');
  return row;
}

/** What the audit trail records of a customer (docs/audit.md). */
export function customerAuditFields(row: Customer): AuditFields {
  return {
    name: row.name,
    address: row.address,
    postcode: row.postcode,
    city: row.city,
    country: row.country.trim(),
    email: row.email,
    phone: row.phone,
    referrer: row.referrer,
    enable_blockchain: row.enableBlockchain,
    alert_device_silent_hours: row.alertDeviceSilentHours,
    alert_lamp_life_threshold: row.alertLampLifeThreshold,
  };
}
