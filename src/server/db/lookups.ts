/**
 * Rows that several API modules look up by id to check a path before they act (does the customer
 * exist, is it disabled). A module's own listings and views stay in its repository.
 */
import { eq } from 'drizzle-orm';
import type { Db } from './client.ts';
import { type Customer, customers } from './schema.ts';

export async function findCustomer(db: Db, id: number): Promise<Customer | undefined> {
  const [row] = await db.select().from(customers).where(eq(customers.id, id)).limit(1);
  return row;
}
