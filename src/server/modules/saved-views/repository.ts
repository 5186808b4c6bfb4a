/**
 * Saved views and kept columns of the lists (docs/lists.md, ADR 0032). Who sees a view is decided here
 * in SQL, once: the owner; a view shared with a customer, by that customer's users (CUSTOMER role
 * only); a view shared with staff, by staff only.
 */
import { and, asc, eq, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { listColumns, type SavedViewRow, savedViews, users } from '#server/db/schema.ts';
import { isoInstant } from '#server/http/instants.ts';
import type { AuthUser } from '#server/security/session-store.ts';
import { isTenantScoped } from '#shared/access/index.ts';
import type { ListColumns, ListName, SavedView, SavedViewVisibility } from '#shared/api/index.ts';

/** The views `viewer` may see: their own and those shared with them. */
function visibleTo(viewer: Pick<AuthUser, 'id' | 'role' | 'customerId'>): SQL {
  const shared = isTenantScoped(viewer.role)
    ? and(eq(savedViews.visibility, 'customer'), eq(savedViews.customerId, viewer.customerId))
    : eq(savedViews.visibility, 'staff');
  return or(eq(savedViews.ownerId, viewer.id), shared) as SQL;
}

type Joined = { view: SavedViewRow; ownerName: string };

/** The one place a row becomes the contract's SavedView. */
function toSavedView({ view, ownerName }: Joined, viewerId: number): SavedView {
  return {
    id: view.id,
    list: view.list as ListName,
    name: view.name,
    search: view.search,
    visibility: view.visibility,
    mine: view.ownerId === viewerId,
    owner_name: ownerName,
    updated_at: isoInstant(view.updatedAt),
  };
}

const joined = { view: savedViews, ownerName: users.name };

export async function listVisibleViews(
  db: Db,
  viewer: Pick<AuthUser, 'id' | 'role' | 'customerId'>,
  list: ListName,
): Promise<SavedView[]> {
  const rows = await db
    .select(joined)
    .from(savedViews)
    .innerJoin(users, eq(users.id, savedViews.ownerId))
    .where(and(eq(savedViews.list, list), visibleTo(viewer)))
    .orderBy(asc(sql`lower(${savedViews.name})`), asc(savedViews.id));
  return rows.map((row) => toSavedView(row, viewer.id));
}

/** A view by id, whether the viewer may see it (`visible`) or not. */
export async function findView(
  db: Db,
  viewer: Pick<AuthUser, 'id' | 'role' | 'customerId'>,
  id: number,
): Promise<{ row: SavedViewRow; visible: boolean } | undefined> {
  const [found] = await db
    .select({ row: savedViews, visible: sql<boolean>`${visibleTo(viewer)}` })
    .from(savedViews)
    .where(eq(savedViews.id, id));
  return found;
}

export type ViewValues = { name: string; search: string; visibility: SavedViewVisibility };

/** The customer a visibility shares with: the owner's for `customer`, none otherwise. */
function sharedCustomer(owner: Pick<AuthUser, 'customerId'>, visibility: SavedViewVisibility): number | null {
  return visibility === 'customer' ? owner.customerId : null;
}

export async function insertView(
  db: Db,
  owner: Pick<AuthUser, 'id' | 'customerId' | 'name'>,
  list: ListName,
  values: ViewValues,
): Promise<SavedView> {
  const [view] = await db
    .insert(savedViews)
    .values({
      ownerId: owner.id,
      list,
      ...values,
      customerId: sharedCustomer(owner, values.visibility),
    })
    .returning();
  if (!view) throw new Error('saved view not inserted');
  return toSavedView({ view, ownerName: owner.name }, owner.id);
}

export async function updateView(
  db: Db,
  owner: Pick<AuthUser, 'id' | 'customerId' | 'name'>,
  id: number,
  values: ViewValues,
): Promise<SavedView | undefined> {
  const [view] = await db
    .update(savedViews)
    .set({ ...values, customerId: sharedCustomer(owner, values.visibility), updatedAt: new Date() })
    .where(and(eq(savedViews.id, id), eq(savedViews.ownerId, owner.id)))
    .returning();
  return view && toSavedView({ view, ownerName: owner.name }, owner.id);
}

export async function deleteView(db: Db, id: number): Promise<void> {
  await db.delete(savedViews).where(eq(savedViews.id, id));
}

export async function keptColumns(db: Db, userId: number): Promise<ListColumns[]> {
  const rows = await db
    .select({ list: listColumns.list, columns: listColumns.columns })
    .from(listColumns)
    .where(eq(listColumns.userId, userId))
    .orderBy(asc(listColumns.list));
  return rows.map((row) => ({ list: row.list as ListName, columns: row.columns }));
}

/** Keeps a user's columns of one list; none returns the list to its default columns. */
export async function keepColumns(db: Db, userId: number, list: ListName, columns: string[]): Promise<void> {
  if (columns.length === 0) {
    await db.delete(listColumns).where(and(eq(listColumns.userId, userId), eq(listColumns.list, list)));
    return;
  }
  await db
    .insert(listColumns)
    .values({ userId, list, columns })
    .onConflictDoUpdate({
      target: [listColumns.userId, listColumns.list],
      set: { columns, updatedAt: new Date() },
    });
}
