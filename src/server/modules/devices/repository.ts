/**
 * Devices as the devices list and a customer's devices tab show them (docs/product.md §2 Customer devices,
 * Devices list).
 */
import { and, asc, count, desc, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client.ts';
import { pageTotal, totalColumn } from '#server/db/page-total.ts';
import { toNumber } from '#server/db/pg-number.ts';
import {
  customers,
  type Device,
  devices,
  type NewDevice,
  PRODUCT_TYPES,
  products,
} from '#server/db/schema.ts';
import { anyColumnContains } from '#server/db/text-search.ts';
import { isoInstant, isoInstantOrNull } from '#server/http/instants.ts';
import type { Device as DeviceAnswer, ProductTypeName } from '#shared/api/index.ts';
import type { AuditFields } from '../audit/index.ts';

export const productTypeName = (type: number): ProductTypeName =>
  type === PRODUCT_TYPES.bath ? 'bath' : 'plug';

const deviceColumns = {
  id: devices.id,
  customerId: devices.customerId,
  deviceSerial: devices.deviceSerial,
  label: devices.label,
  productId: devices.productId,
  productName: products.name,
  productType: products.type,
  publicKey: devices.publicKey,
  publicKey2: devices.publicKey2,
  createdAt: devices.createdAt,
  updatedAt: devices.updatedAt,
  deletedAt: devices.deletedAt,
  customerName: customers.name,
};

interface DeviceRow {
  id: number;
  customerId: number;
  deviceSerial: string;
  label: string;
  productId: number;
  productName: string;
  productType: number;
  publicKey: string | null;
  publicKey2: string | null;
  createdAt: Date;
  updatedAt: Date | null;
  deletedAt: Date | null;
  customerName: string;
}

/** The one place a device row becomes the contract's Device. */
function toDevice(row: DeviceRow): DeviceAnswer {
  return {
    id: row.id,
    customer_id: row.customerId,
    device_serial: row.deviceSerial,
    label: row.label,
    product_id: row.productId,
    product: { name: row.productName, type: row.productType === PRODUCT_TYPES.bath ? 2 : 1 },
    product_type: productTypeName(row.productType),
    public_key: row.publicKey,
    public_key_2: row.publicKey2,
    created_at: isoInstant(row.createdAt),
    updated_at: isoInstantOrNull(row.updatedAt),
    deleted_at: isoInstantOrNull(row.deletedAt),
    customer: { name: row.customerName },
  };
}

const selectDevices = <Extra extends Record<string, SQL.Aliased | SQL>>(db: Db, extra?: Extra) =>
  db
    .select({ ...deviceColumns, ...(extra as Extra) })
    .from(devices)
    .innerJoin(products, eq(products.id, devices.productId))
    .innerJoin(customers, eq(customers.id, devices.customerId));

export type DeviceSort = 'label' | 'device_serial' | 'active';

/** Case-insensitive labels; "active" by deleted_at as in the other lists; the id breaks ties for stable paging. */
function deviceOrder(sortBy: DeviceSort, dir: 'asc' | 'desc'): SQL[] {
  const by = dir === 'asc' ? asc : desc;
  const label = sql`lower(${devices.label})`;
  if (sortBy === 'device_serial') return [by(devices.deviceSerial), by(devices.id)];
  if (sortBy === 'active') {
    const deleted = sql`${devices.deletedAt} ${sql.raw(dir === 'asc' ? 'asc nulls last' : 'desc nulls first')}`;
    return [deleted, by(label), by(devices.id)];
  }
  return [by(label), by(devices.id)];
}

export async function listDevicePage(
  db: Db,
  options: { sortBy: DeviceSort; dir: 'asc' | 'desc'; limit: number; offset: number; search?: string },
): Promise<{ rows: DeviceAnswer[]; total: number }> {
  const matching = anyColumnContains([devices.deviceSerial, devices.label], options.search);
  const rows = await selectDevices(db, { total: totalColumn() })
    .where(matching)
    .orderBy(...deviceOrder(options.sortBy, options.dir))
    .limit(options.limit)
    .offset(options.offset);
  const total = await pageTotal(rows, options.offset, async () => {
    const [counted] = await db.select({ n: count() }).from(devices).where(matching);
    return toNumber(counted?.n);
  });
  return { rows: rows.map(toDevice), total };
}

/** Every device of one customer, by label; with `search`, those whose serial or label contains it. */
export async function listDevicesOfCustomer(
  db: Db,
  customerId: number,
  search?: string,
): Promise<DeviceAnswer[]> {
  const rows = await selectDevices(db)
    .where(
      and(
        eq(devices.customerId, customerId),
        anyColumnContains([devices.deviceSerial, devices.label], search),
      ),
    )
    .orderBy(...deviceOrder('label', 'asc'));
  return rows.map(toDevice);
}

export async function findDevice(db: Db, deviceId: number): Promise<DeviceAnswer | undefined> {
  const [row] = await selectDevices(db).where(eq(devices.id, deviceId)).limit(1);
  return row ? toDevice(row) : undefined;
}

/** The device only when it belongs to that customer: a device id under another customer's id is not found. */
export async function findDeviceOfCustomer(
  db: Db,
  customerId: number,
  deviceId: number,
): Promise<DeviceAnswer | undefined> {
  const [row] = await selectDevices(db)
    .where(and(eq(devices.id, deviceId), eq(devices.customerId, customerId)))
    .limit(1);
  return row ? toDevice(row) : undefined;
}

export async function serialTaken(db: Db, serial: string, exceptDeviceId?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: devices.id })
    .from(devices)
    .where(
      and(
        eq(devices.deviceSerial, serial),
        exceptDeviceId === undefined ? undefined : ne(devices.id, exceptDeviceId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function activeProductExists(db: Db, productId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.id, productId), sql`${products.deletedAt} is null`))
    .limit(1);
  return row !== undefined;
}

export async function insertDevice(tx: Tx, values: NewDevice): Promise<Device> {
  const [row] = await tx.insert(devices).values(values).returning();
  if (!row) throw new Error('device insert returned no row');
  return row;
}

/** What the audit trail records of a device (docs/audit.md): public keys are public, so they are kept. */
export function deviceAuditFields(row: Device): AuditFields {
  return {
    customer_id: row.customerId,
    product_id: row.productId,
    device_serial: row.deviceSerial,
    label: row.label,
    public_key: row.publicKey,
    public_key_2: row.publicKey2,
  };
}
