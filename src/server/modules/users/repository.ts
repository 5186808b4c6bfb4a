/**
 * Users as the users list and a customer's users tab show them (docs/product.md §2 Customer users, Users
 * list).
 */
import { and, asc, count, desc, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client.ts';
import { pageTotal, totalColumn } from '#server/db/page-total.ts';
import { toNumber } from '#server/db/pg-number.ts';
import { customers, type NewUser, type User, users } from '#server/db/schema.ts';
import { anyColumnContains } from '#server/db/text-search.ts';
import { updateRowById } from '#server/db/update-row.ts';
import { isoInstant, isoInstantOrNull } from '#server/http/instants.ts';
import type { Role } from '#shared/access/index.ts';
import type { User as UserAnswer } from '#shared/api/index.ts';

const userColumns = {
  id: users.id,
  customerId: users.customerId,
  name: users.name,
  email: users.email,
  role: users.role,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
  deletedAt: users.deletedAt,
  customerName: customers.name,
};

type UserRow = {
  id: number;
  customerId: number;
  name: string;
  email: string;
  role: Role;
  createdAt: Date;
  updatedAt: Date | null;
  deletedAt: Date | null;
  customerName: string;
};

/** The one place a user row becomes the contract's User. */
function toUser(row: UserRow): UserAnswer {
  return {
    id: row.id,
    customer_id: row.customerId,
    name: row.name,
    email: row.email,
    role: row.role,
    created_at: isoInstant(row.createdAt),
    updated_at: isoInstantOrNull(row.updatedAt),
    deleted_at: isoInstantOrNull(row.deletedAt),
    customer: { name: row.customerName },
  };
}

const selectUsers = <Extra extends Record<string, SQL.Aliased | SQL>>(db: Db | Tx, extra?: Extra) =>
  db
    .select({ ...userColumns, ...(extra as Extra) })
    .from(users)
    .innerJoin(customers, eq(customers.id, users.customerId));

export type UserSort = 'name' | 'email' | 'active';

/**
 * Case-insensitive names, emails as stored (always lower-case); "active" orders by deleted_at like the
 * customer list (ascending: disabled first). The id breaks ties so that paging is stable.
 */
function userOrder(sortBy: UserSort, dir: 'asc' | 'desc'): SQL[] {
  const by = dir === 'asc' ? asc : desc;
  const name = sql`lower(${users.name})`;
  if (sortBy === 'email') return [by(users.email), by(users.id)];
  if (sortBy === 'active') {
    const deleted = sql`${users.deletedAt} ${sql.raw(dir === 'asc' ? 'asc nulls last' : 'desc nulls first')}`;
    return [deleted, by(name), by(users.id)];
  }
  return [by(name), by(users.id)];
}

export async function listUserPage(
  db: Db,
  options: { sortBy: UserSort; dir: 'asc' | 'desc'; limit: number; offset: number; search?: string },
): Promise<{ rows: UserAnswer[]; total: number }> {
  const matching = anyColumnContains([users.name, users.email], options.search);
  const rows = await selectUsers(db, { total: totalColumn() })
    .where(matching)
    .orderBy(...userOrder(options.sortBy, options.dir))
    .limit(options.limit)
    .offset(options.offset);
  const total = await pageTotal(rows, options.offset, async () => {
    const [counted] = await db.select({ n: count() }).from(users).where(matching);
    return toNumber(counted?.n);
  });
  return { rows: rows.map(toUser), total };
}

/** Every user of one customer, active and disabled, by name; with `search`, those whose name or email contains it. */
export async function listUsersOfCustomer(
  db: Db,
  customerId: number,
  search?: string,
): Promise<UserAnswer[]> {
  const rows = await selectUsers(db)
    .where(and(eq(users.customerId, customerId), anyColumnContains([users.name, users.email], search)))
    .orderBy(...userOrder('name', 'asc'));
  return rows.map(toUser);
}

/** The user only when it belongs to that customer: a user id under another customer's id is not found. */
export async function findUserOfCustomer(
  db: Db | Tx,
  customerId: number,
  userId: number,
): Promise<UserAnswer | undefined> {
  const [row] = await selectUsers(db)
    .where(and(eq(users.id, userId), eq(users.customerId, customerId)))
    .limit(1);
  return row ? toUser(row) : undefined;
}

/** The user when the caller's scope (its customer, or null for every customer) includes it. */
export async function findUser(
  db: Db | Tx,
  userId: number,
  scope: number | null,
): Promise<UserAnswer | undefined> {
  const [row] = await selectUsers(db)
    .where(and(eq(users.id, userId), scope === null ? undefined : eq(users.customerId, scope)))
    .limit(1);
  return row ? toUser(row) : undefined;
}

/** The ids of the users a search matches within a scope, in the users list's default order. */
export async function matchingUserIds(
  db: Db,
  options: { scope: number | null; search?: string },
  limit: number,
): Promise<number[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        options.scope === null ? undefined : eq(users.customerId, options.scope),
        anyColumnContains([users.name, users.email], options.search),
      ),
    )
    .orderBy(...userOrder('name', 'asc'))
    .limit(limit);
  return rows.map((row) => row.id);
}

export async function emailTaken(db: Db | Tx, email: string, exceptUserId?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        sql`lower(${users.email}) = ${email.toLowerCase()}`,
        exceptUserId === undefined ? undefined : ne(users.id, exceptUserId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function insertUser(tx: Tx, values: NewUser): Promise<User> {
  const [row] = await tx.insert(users).values(values).returning();
  if (!row) throw new Error('user insert returned no row');
  return row;
}

/** Disabling keeps the first deactivation time when the user is already disabled. */
export function setUserDisabled(tx: Tx, userId: number, disabled: boolean) {
  return updateRowById(tx, users, userId, {
    deletedAt: disabled ? sql`coalesce(${users.deletedAt}, now())` : null,
  });
}
