/** Products (docs/product.md §2 Products list): the plug and bath models devices are registered as. */
import { asc, count, desc, type SQL, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { toNumber } from '#server/db/pg-number.ts';
import { PRODUCT_TYPES, type Product, products } from '#server/db/schema.ts';
import { anyColumnContains } from '#server/db/text-search.ts';
import { isoInstant, isoInstantOrNull } from '#server/http/instants.ts';
import type { Product as ProductAnswer } from '#shared/api/index.ts';

/** The one place a product row becomes the contract's Product. */
function toProduct(row: Product): ProductAnswer {
  return {
    id: row.id,
    name: row.name,
    type: row.type === PRODUCT_TYPES.bath ? 2 : 1,
    created_at: isoInstant(row.createdAt),
    deleted_at: isoInstantOrNull(row.deletedAt),
  };
}

export type ProductSort = 'name' | 'type' | 'active';

/** Case-insensitive names; type then name; "active" by deleted_at like the other lists; id breaks ties. */
function productOrder(sortBy: ProductSort, dir: 'asc' | 'desc'): SQL[] {
  const by = dir === 'asc' ? asc : desc;
  const name = sql`lower(${products.name})`;
  if (sortBy === 'type') return [by(products.type), by(name), by(products.id)];
  if (sortBy === 'active') {
    const deleted = sql`${products.deletedAt} ${sql.raw(dir === 'asc' ? 'asc nulls last' : 'desc nulls first')}`;
    return [deleted, by(name), by(products.id)];
  }
  return [by(name), by(products.id)];
}

export async function listProductPage(
  db: Db,
  options: { sortBy: ProductSort; dir: 'asc' | 'desc'; limit: number; offset: number; search?: string },
): Promise<{ rows: ProductAnswer[]; total: number }> {
  const matching = anyColumnContains([products.name], options.search);
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(products)
      .where(matching)
      .orderBy(...productOrder(options.sortBy, options.dir))
      .limit(options.limit)
      .offset(options.offset),
    db.select({ n: count() }).from(products).where(matching),
  ]);
  return {
    rows: rows.map(toProduct),
    total: toNumber(total[0]?.n),
  };
}
