// Drizzle schema: the single definition of every table. Table and column names are fixed by the
// shared data model (docs/conventions-for-helpers.md); migrations are generated from this file
// with `npx drizzle-kit generate` and must run on PostgreSQL 15 and PGlite (Postgres 18).
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  char,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';

/** Allowed values, shared with the code that writes them. */
export const USER_ROLES = ['CUSTOMER', 'CUSTOMER_CARE', 'ADMIN', 'SUPER_ADMIN'] as const;
export type UserRole = (typeof USER_ROLES)[number];
export const PRODUCT_TYPES = { plug: 1, bath: 2 } as const;
/**
 * PENDING → SENT → MINED (CHAIN_CONFIRMATIONS) → FINAL (past the chain's finality, never touched again);
 * a MINED block whose transaction a reorganisation dropped goes back to SENT. FAILED: given up.
 */
export const BLOCK_STATUSES = ['PENDING', 'SENT', 'MINED', 'FINAL', 'FAILED'] as const;
/** The states in which a block's root is on chain (what a record's verification and receipts need). */
export const ANCHORED_BLOCK_STATUSES = ['MINED', 'FINAL'] as const;
export type BlockStatus = (typeof BLOCK_STATUSES)[number];
export const CERTIFICATE_LANGUAGES = ['it', 'en'] as const;
export type CertificateLanguage = (typeof CERTIFICATE_LANGUAGES)[number];
/** Sterilization status codes (docs/product.md §4); other values are stored and shown raw. */
export const STERILIZATION_STATUS = { ok: 0, nulled: 1, lampMalfunction: 2, probeMalfunction: 3 } as const;

/** PDFs live in the database so that a certificate and its files commit or roll back together. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => 'bytea',
});

const tz = { withTimezone: true, mode: 'date' } as const;
const createdAt = () => timestamp('created_at', tz).notNull().defaultNow();
const updatedAt = () =>
  timestamp('updated_at', tz)
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

export const customers = pgTable(
  'customers',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    address: text('address'),
    postcode: text('postcode'),
    city: text('city'),
    country: char('country', { length: 2 }).notNull(),
    email: text('email'),
    phone: text('phone'),
    referrer: text('referrer'),
    enableBlockchain: boolean('enable_blockchain').notNull().default(false),
    /** The clinic's own alert thresholds; null = the server's default (ALERT_DEVICE_SILENT_HOURS, ALERT_LAMP_LIFE_THRESHOLD). */
    alertDeviceSilentHours: integer('alert_device_silent_hours'),
    alertLampLifeThreshold: integer('alert_lamp_life_threshold'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', tz),
  },
  (t) => [
    index('customers_name_idx').on(t.name, t.id),
    index('customers_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('customers_city_trgm_idx').using('gin', t.city.op('gin_trgm_ops')),
    check('customers_country_chk', sql`${t.country} ~ '^[A-Za-z]{2}$'`),
    check(
      'customers_alert_thresholds_chk',
      sql`${t.alertDeviceSilentHours} > 0 and ${t.alertLampLifeThreshold} >= 0`,
    ),
  ],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    name: text('name').notNull(),
    /** Stored lower-case; the unique index on lower(email) makes uniqueness case-insensitive anyway. */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role').$type<UserRole>().notNull(),
    passwordChangedAt: timestamp('password_changed_at', tz),
    /** The language of the e-mails the user receives (the app's own language is chosen per browser). */
    language: text('language').notNull().default('en'),
    /** Alert kinds the user receives by e-mail; null = the default of the user's role (src/shared/notifications). */
    emailAlertKinds: text('email_alert_kinds').array(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', tz),
  },
  (t) => [
    uniqueIndex('users_email_lower_uq').on(sql`lower(${t.email})`),
    index('users_name_idx').on(t.name, t.id),
    index('users_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('users_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    index('users_customer_id_idx').on(t.customerId),
    check('users_role_chk', sql`${t.role} in ('CUSTOMER', 'CUSTOMER_CARE', 'ADMIN', 'SUPER_ADMIN')`),
    check('users_language_chk', sql`${t.language} in ('en', 'it')`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** sha256 hex of the bearer token: the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique('sessions_token_hash_uq'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', tz).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', tz).notNull(),
    revokedAt: timestamp('revoked_at', tz),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** 1 = Sterilizing Neck Plug, 2 = Sterilizing Bath */
    type: smallint('type').notNull(),
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', tz),
  },
  (t) => [
    index('products_name_idx').on(t.name, t.id),
    index('products_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    check('products_type_chk', sql`${t.type} in (1, 2)`),
  ],
);

export const devices = pgTable(
  'devices',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    deviceSerial: varchar('device_serial', { length: 8 }).notNull().unique('devices_device_serial_uq'),
    label: text('label').notNull(),
    /** SPKI PEM public keys; the device signs its JWTs with either. */
    publicKey: text('public_key'),
    publicKey2: text('public_key_2'),
    /**
     * The key events (device_key_events) that put today's keys in their slots: a token verified with a
     * slot's key names this event, and the database refuses a token whose event is no longer current.
     */
    keyEvent1: integer('key_event_1'),
    keyEvent2: integer('key_event_2'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', tz),
  },
  (t) => [
    index('devices_label_idx').on(t.label, t.id),
    index('devices_label_trgm_idx').using('gin', t.label.op('gin_trgm_ops')),
    index('devices_device_serial_trgm_idx').using('gin', t.deviceSerial.op('gin_trgm_ops')),
    index('devices_customer_id_idx').on(t.customerId),
    index('devices_product_id_idx').on(t.productId),
    check('devices_device_serial_chk', sql`char_length(${t.deviceSerial}) = 8`),
  ],
);

export const consumableBatches = pgTable(
  'consumable_batches',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id),
    /**
     * The customer that owned the device when the batch's records were received (as on the records):
     * a device reassigned mid-batch starts a new count for its new owner, so neither sees the other's use.
     */
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    lotCode: text('lot_code').notNull(),
    lotProgressive: integer('lot_progressive').notNull(),
    batchQuantity: integer('batch_quantity').notNull(),
    sterilizationCount: integer('sterilization_count').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('consumable_batches_device_owner_lot_uq').on(
      t.deviceId,
      t.customerId,
      t.lotCode,
      t.lotProgressive,
    ),
    check('consumable_batches_quantity_chk', sql`${t.batchQuantity} > 0`),
    check('consumable_batches_count_chk', sql`${t.sterilizationCount} >= 0`),
  ],
);

export const KEY_EVENT_ACTIONS = ['registered', 'replaced', 'removed', 'revoked'] as const;
export type KeyEventAction = (typeof KEY_EVENT_ACTIONS)[number];

/**
 * Every change of a device's keys, append-only (docs/integrity.md, "Key history"): the slot, the key
 * concerned (for `registered` and `replaced` the key that enters the slot, for `removed` and `revoked`
 * the key that leaves it) and its RFC 7638 thumbprint, and when the change took effect: the moment it
 * was written while the device's row was locked, never a time a client names. A key is in force from
 * its event until the next event of the same device and slot.
 */
export const deviceKeyEvents = pgTable(
  'device_key_events',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id),
    slot: smallint('slot').notNull(),
    action: text('action').$type<KeyEventAction>().notNull(),
    publicKey: text('public_key').notNull(),
    thumbprint: text('thumbprint').notNull(),
    effectiveAt: timestamp('effective_at', tz).notNull(),
    actorUserId: integer('actor_user_id').references(() => users.id),
    reason: text('reason'),
    /** The device's serial when the change was made: the `iss` its tokens carry (a leaf field). */
    deviceSerial: varchar('device_serial', { length: 8 }).notNull(),
    /** Anchored like records: its block and Merkle proof, written once by the anchor worker. */
    blockchainDataBlockId: integer('blockchain_data_block_id').references(() => blockchainDataBlocks.id),
    merkleProof: text('merkle_proof').array(),
  },
  (t) => [
    index('device_key_events_device_slot_idx').on(t.deviceId, t.slot, t.id),
    index('device_key_events_waiting_idx').on(t.id).where(sql`${t.blockchainDataBlockId} is null`),
    index('device_key_events_thumbprint_idx').on(t.thumbprint),
    check('device_key_events_slot_chk', sql`${t.slot} in (1, 2)`),
    check(
      'device_key_events_action_chk',
      sql`${t.action} in ('registered', 'replaced', 'removed', 'revoked')`,
    ),
    check('device_key_events_thumbprint_chk', sql`${t.thumbprint} ~ '^[A-Za-z0-9_-]{43}$'`),
  ],
);

/**
 * What devices signed, append-only: each accepted token's compact JWS exactly as it was posted (never
 * re-serialised), the key event whose key verified it, and its SHA-256 (hex, of the JWS's ASCII bytes).
 * A record points to its token and its position among the token's records.
 */
export const deviceTokens = pgTable(
  'device_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id),
    keyEventId: integer('key_event_id')
      .notNull()
      .references(() => deviceKeyEvents.id),
    jws: text('jws').notNull(),
    sha256: text('sha256').notNull(),
    issuedAt: timestamp('issued_at', tz).notNull(),
    receivedAt: timestamp('received_at', tz).notNull().defaultNow(),
  },
  (t) => [
    index('device_tokens_device_id_idx').on(t.deviceId, t.id),
    check('device_tokens_sha256_chk', sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
  ],
);

export const blockchainDataBlocks = pgTable(
  'blockchain_data_blocks',
  {
    id: serial('id').primaryKey(),
    status: text('status').$type<BlockStatus>().notNull().default('PENDING'),
    /** e.g. devnet, sepolia, mainnet */
    network: text('network').notNull(),
    transactionHash: text('transaction_hash'),
    merkleRoot: text('merkle_root'),
    hashingVersion: integer('hashing_version').notNull().default(1),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', tz),
    minedAt: timestamp('mined_at', tz),
    /** The chain block its anchoring transaction is in, as last seen (a reorganisation may move it). */
    minedBlockNumber: bigint('mined_block_number', { mode: 'number' }),
    minedBlockHash: text('mined_block_hash'),
    /** When the chain's finality passed that block (status FINAL). */
    finalAt: timestamp('final_at', tz),
    /** Gas used by the transaction that anchored the block (once MINED). */
    gasUsed: bigint('gas_used', { mode: 'number' }),
    /** What anchoring the block cost in wei: every one of its transactions that was mined, reverted ones included. */
    feePaidWei: numeric('fee_paid_wei', { precision: 78, scale: 0 }),
  },
  (t) => [
    index('blockchain_data_blocks_status_idx').on(t.status, t.id),
    check(
      'blockchain_data_blocks_status_chk',
      sql`${t.status} in ('PENDING', 'SENT', 'MINED', 'FINAL', 'FAILED')`,
    ),
  ],
);

/**
 * Every transaction sent to anchor a block (docs/integrity.md §8): the first, its fee replacements (same
 * nonce), a re-send after its nonce was taken, one found on chain and adopted. The block's
 * transaction_hash names the one in force; whichever of them is mined is adopted. The signed bytes are
 * kept so that a transaction the node lost is broadcast again as it was (same hash), never signed anew.
 */
export const anchorTransactions = pgTable(
  'anchor_transactions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    blockId: integer('block_id')
      .notNull()
      .references(() => blockchainDataBlocks.id),
    hash: text('hash').notNull(),
    /** Null for one found on chain (adopted) or sent before this table existed. */
    nonce: integer('nonce'),
    gasLimit: bigint('gas_limit', { mode: 'number' }),
    maxFeePerGas: numeric('max_fee_per_gas', { precision: 78, scale: 0 }),
    maxPriorityFeePerGas: numeric('max_priority_fee_per_gas', { precision: 78, scale: 0 }),
    /** The signed transaction (0x-hex). */
    raw: text('raw'),
    sentAt: timestamp('sent_at', tz).notNull().defaultNow(),
    /** The chain's head when it was signed: its wait is counted in blocks from here (ANCHOR_REPLACE_AFTER_BLOCKS). */
    sentHeight: bigint('sent_height', { mode: 'number' }),
    /** Set from its receipt once mined (successful or reverted). */
    minedHeight: bigint('mined_height', { mode: 'number' }),
    gasUsed: bigint('gas_used', { mode: 'number' }),
    feePaidWei: numeric('fee_paid_wei', { precision: 78, scale: 0 }),
  },
  (t) => [
    uniqueIndex('anchor_transactions_hash_uq').on(t.hash),
    index('anchor_transactions_block_idx').on(t.blockId, t.id),
    check('anchor_transactions_hash_chk', sql`${t.hash} ~ '^0x[0-9a-f]{64}$'`),
  ],
);

// Numeric columns have a fixed scale so that the text a record is read back as (and so its
// integrity leaf) does not depend on how the device formatted the number.
export const sterilizations = pgTable(
  'sterilizations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id),
    /**
     * The record's owner: the customer its device belonged to when it was received (set at ingestion,
     * never changed by a reassignment). Every tenant-scoped read goes by this, not by the device.
     */
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    receivedTs: timestamp('received_ts', tz).notNull().defaultNow(),
    /** Per-device counter sent by the device. */
    progressiveId: integer('progressive_id').notNull(),
    /** UV dose, mJ/cm² */
    suppliedEnergy: numeric('supplied_energy', { precision: 12, scale: 2 }).notNull(),
    /** minutes */
    nominalTime: numeric('nominal_time', { precision: 10, scale: 2 }).notNull(),
    /** minutes */
    effectiveTime: numeric('effective_time', { precision: 10, scale: 2 }).notNull(),
    /** hours */
    residualLampLife: numeric('residual_lamp_life', { precision: 12, scale: 2 }).notNull(),
    statusCode: integer('status_code').notNull(),
    latitude: numeric('latitude', { precision: 9, scale: 6 }),
    longitude: numeric('longitude', { precision: 9, scale: 6 }),
    consumablesLot: text('consumables_lot'),
    lotProgressiveId: integer('lot_progressive_id'),
    notes: text('notes'),
    /** When the device says the cycle ran (its own clock, optional); `received_ts` is the server's. */
    cycleTs: timestamp('cycle_ts', tz),
    /** The cycle's time is later than its arrival or its token's iat, beyond the allowed skew. */
    clockSuspect: boolean('clock_suspect').notNull().default(false),
    /** The token that carried the record (null for records stored before tokens were kept) and its index there. */
    tokenId: bigint('token_id', { mode: 'number' }).references(() => deviceTokens.id),
    tokenPosition: smallint('token_position'),
    hashingVersion: integer('hashing_version'),
    blockchainDataBlockId: integer('blockchain_data_block_id').references(() => blockchainDataBlocks.id),
    /** The record's Merkle proof in its block (siblings from the leaf up, 0x-hex), set with the block id. */
    merkleProof: text('merkle_proof').array(),
    /**
     * Stored after a record of the same device and owner with a higher progressive_id (it came late, or
     * filled a gap). Set by the trigger that keeps device_progress (migration device_progress_gaps), never by a client.
     */
    arrivedOutOfOrder: boolean('arrived_out_of_order').notNull().default(false),
    /**
     * Whether a certificate covers the record's consumables lot on the day it was received (UTC):
     * certified, uncertified (no certificate of that lot), expired (every certificate of the lot had
     * expired), no_lot. Kept by triggers on both tables (migration lot_compliance), never written by the app.
     */
    lotStatus: text('lot_status').notNull().default('no_lot'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('sterilizations_device_progressive_uq').on(t.deviceId, t.progressiveId),
    // Out-of-order records are few: partial indexes keep the anomaly filter and the device's gap read
    // one short range, everywhere, per owner and per (device, owner).
    index('sterilizations_out_of_order_received_ts_id_idx')
      .on(t.receivedTs.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.arrivedOutOfOrder}`),
    index('sterilizations_out_of_order_customer_received_ts_id_idx')
      .on(t.customerId, t.receivedTs.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.arrivedOutOfOrder}`),
    index('sterilizations_out_of_order_device_customer_received_ts_id_idx')
      .on(t.deviceId, t.customerId, t.receivedTs.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.arrivedOutOfOrder}`),
    // NULLS FIRST matches a plain `ORDER BY received_ts DESC, id DESC`, so the planner can use it.
    index('sterilizations_received_ts_idx').on(t.receivedTs.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // Per owner, newest first / by lot: a customer's list (and a customer user's whole scope) is an
    // index-only scan of its own range, however many devices it has or had.
    index('sterilizations_customer_received_ts_id_idx').on(
      t.customerId,
      t.receivedTs.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('sterilizations_customer_lot_id_idx').on(t.customerId, t.consumablesLot, t.id),
    // Per device and owner: one device's records of one owner (the device filter, the device_serial
    // sort, the exports) are one ordered range; a device's whole history is a merge over its owners.
    index('sterilizations_device_customer_received_ts_id_idx').on(
      t.deviceId,
      t.customerId,
      t.receivedTs.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // The consumables_lot sort, over everything and per device and owner.
    index('sterilizations_consumables_lot_id_idx').on(t.consumablesLot, t.id),
    index('sterilizations_device_customer_lot_id_idx').on(t.deviceId, t.customerId, t.consumablesLot, t.id),
    index('sterilizations_block_id_idx').on(t.blockchainDataBlockId),
    index('sterilizations_status_code_idx').on(t.statusCode),
    // Records whose lot is not certified, newest first, over everything and per owner: the lot filter
    // and the dashboard's figures read only these (few, once certificates are uploaded).
    index('sterilizations_lot_open_received_ts_idx')
      .on(t.receivedTs.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.lotStatus} <> 'certified'`),
    index('sterilizations_customer_lot_open_received_ts_idx')
      .on(t.customerId, t.receivedTs.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.lotStatus} <> 'certified'`),
    check(
      'sterilizations_lot_status_chk',
      sql`${t.lotStatus} in ('certified', 'uncertified', 'expired', 'no_lot')`,
    ),
  ],
);

/**
 * How many status-0 ("OK") records each customer owns from each UTC day. Kept by triggers on
 * sterilizations (migrations 0004 and 0005: every insert, update of owner, status or time, and delete),
 * so the customer list's sterilizations_ok_count sums a few hundred rows per customer instead of counting
 * millions of records. Keyed by the records' owner, not by device: a reassigned device's history stays
 * with the customer that owned it. The customer list's date filter is whole UTC days, hence the buckets.
 */
export const sterilizationDailyOkCounts = pgTable(
  'sterilization_daily_ok_counts',
  {
    customerId: integer('customer_id').notNull(),
    day: date('day').notNull(),
    okCount: integer('ok_count').notNull(),
    /** Every record of the owner's UTC day, whatever its status (the list's totals, migration 0013). */
    recordCount: integer('record_count').notNull().default(0),
    /**
     * Which of a few rows of the owner's day this is (migration 0015): concurrent writers count in
     * different rows instead of queueing for one, so readers sum a day's rows.
     */
    slot: smallint('slot').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.day, t.slot], name: 'sterilization_daily_ok_counts_pk' })],
);

/**
 * How many flagged records (lot uncertified or expired when received) each owner has of each lot. Kept
 * by triggers on sterilizations (migration 0007), so the dashboard's figures sum a few hundred rows
 * instead of counting every flagged record.
 */
export const lotFlagCounts = pgTable(
  'lot_flag_counts',
  {
    customerId: integer('customer_id').notNull(),
    consumablesLot: text('consumables_lot').notNull(),
    flagged: integer('flagged').notNull(),
    /** As sterilization_daily_ok_counts.slot (migration 0016): a lot's figure is the sum of its rows. */
    slot: smallint('slot').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.consumablesLot, t.slot], name: 'lot_flag_counts_pk' })],
);

/**
 * Every customer each device has belonged to (its current one included), kept by a trigger on devices
 * (migration 0005): the (device, owner) pairs records can have. A customer's device choices, a device's
 * history over its owners and the per-device exports are joins on this small table.
 */
export const deviceOwners = pgTable(
  'device_owners',
  {
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
  },
  (t) => [
    primaryKey({ columns: [t.deviceId, t.customerId], name: 'device_owners_pk' }),
    index('device_owners_customer_idx').on(t.customerId, t.deviceId),
  ],
);

/**
 * Where each device's sequence of progressive ids stands, per owner (a clinic's records of a device are
 * their own sequence: docs/adr/0023-gaps-and-arrival-order.md). Kept by a row trigger on sterilizations
 * (migration 0007), which locks this row, so concurrent records of one device and owner are counted one
 * after the other. missing_count is the sum of the pair's gap ranges, so "devices with missing records"
 * is a count over this small table.
 */
export const deviceProgress = pgTable(
  'device_progress',
  {
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    minProgressiveId: integer('min_progressive_id').notNull(),
    maxProgressiveId: integer('max_progressive_id').notNull(),
    missingCount: bigint('missing_count', { mode: 'number' }).notNull().default(0),
    outOfOrderCount: integer('out_of_order_count').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.deviceId, t.customerId], name: 'device_progress_pk' }),
    index('device_progress_missing_idx').on(t.customerId, t.deviceId).where(sql`${t.missingCount} > 0`),
  ],
);

/**
 * The progressive ids a device skipped, per owner, as ranges between the owner's lowest and highest
 * stored id: first_missing..last_missing, both missing. Kept with device_progress by the same trigger.
 */
export const deviceProgressGaps = pgTable(
  'device_progress_gaps',
  {
    deviceId: integer('device_id').notNull(),
    customerId: integer('customer_id').notNull(),
    firstMissing: integer('first_missing').notNull(),
    lastMissing: integer('last_missing').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.deviceId, t.customerId, t.firstMissing], name: 'device_progress_gaps_pk' }),
    check('device_progress_gaps_range_chk', sql`${t.firstMissing} <= ${t.lastMissing}`),
  ],
);

/**
 * One-time tickets for CSV export links (the session token never goes into a URL). Only the sha256 of
 * the ticket is stored; a ticket names the export it opens and lives 60 seconds.
 */
export const exportTickets = pgTable(
  'export_tickets',
  {
    id: serial('id').primaryKey(),
    ticketHash: text('ticket_hash').notNull().unique('export_tickets_ticket_hash_uq'),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The session that asked for it: a ticket is only good while that session lives (logout ends it). */
    sessionId: integer('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    export: text('export').notNull(),
    expiresAt: timestamp('expires_at', tz).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('export_tickets_expires_at_idx').on(t.expiresAt),
    index('export_tickets_session_id_idx').on(t.sessionId),
  ],
);

export const certificates = pgTable(
  'certificates',
  {
    id: serial('id').primaryKey(),
    lotNumber: text('lot_number').notNull(),
    validatedTreatmentNumber: text('validated_treatment_number').notNull(),
    expirationDate: date('expiration_date', { mode: 'string' }).notNull(),
    itFileName: text('it_file_name').notNull(),
    enFileName: text('en_file_name'),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('certificates_lot_treatment_uq').on(t.lotNumber, t.validatedTreatmentNumber),
    index('certificates_treatment_idx').on(t.validatedTreatmentNumber),
    index('certificates_expiration_date_idx').on(t.expirationDate),
    index('certificates_lot_number_trgm_idx').using('gin', t.lotNumber.op('gin_trgm_ops')),
    index('certificates_treatment_trgm_idx').using('gin', t.validatedTreatmentNumber.op('gin_trgm_ops')),
  ],
);

export const certificateFiles = pgTable(
  'certificate_files',
  {
    id: serial('id').primaryKey(),
    certificateId: integer('certificate_id')
      .notNull()
      .references(() => certificates.id, { onDelete: 'cascade' }),
    language: text('language').$type<CertificateLanguage>().notNull(),
    content: bytea('content').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
  },
  (t) => [
    uniqueIndex('certificate_files_certificate_language_uq').on(t.certificateId, t.language),
    check('certificate_files_language_chk', sql`${t.language} in ('it', 'en')`),
  ],
);

/**
 * The audit trail (docs/audit.md): one row per recorded action, written only by recordAudit
 * (src/server/modules/audit) in the transaction of the change. Append-only: triggers of migration 0003 refuse
 * UPDATE, DELETE and TRUNCATE. No foreign keys: an entry outlives whatever it names.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The database server's clock, UTC, cut to milliseconds (so it reads back exactly as hashed). */
    occurredAt: timestamp('occurred_at', tz).notNull(),
    /** Null for a failed login with an unknown email. */
    actorUserId: integer('actor_user_id'),
    /** The actor's email then, or the email a failed login tried. */
    actorEmail: text('actor_email'),
    actorRole: text('actor_role'),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: integer('entity_id'),
    /** field → {old, new} of the changed fields only; secrets appear as {redacted: true}. */
    changes: jsonb('changes').notNull(),
    reason: text('reason'),
    clientAddress: text('client_address'),
    /** hash of the entry before (64 zeros for the first), and sha256(prev_hash ‖ canonical entry). */
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    index('audit_log_entity_idx').on(t.entityType, t.entityId, t.id),
    index('audit_log_actor_idx').on(t.actorUserId, t.id),
    index('audit_log_occurred_at_idx').on(t.occurredAt),
    check('audit_log_hash_chk', sql`${t.hash} ~ '^[0-9a-f]{64}$' and ${t.prevHash} ~ '^[0-9a-f]{64}$'`),
  ],
);

export const REPORT_LANGUAGES = ['en', 'it'] as const;
export type ReportLanguage = (typeof REPORT_LANGUAGES)[number];
export const SIGNATURE_MEANINGS = ['reviewed', 'approved'] as const;
export type SignatureMeaning = (typeof SIGNATURE_MEANINGS)[number];

/**
 * Compliance reports (docs/reports.md): one customer's period in one language, generated once into an
 * unsigned draft PDF that never changes (migration 0007's trigger), so what a signer reads is what
 * they sign.
 */
export const reports = pgTable(
  'reports',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    periodFrom: date('period_from', { mode: 'string' }).notNull(),
    periodTo: date('period_to', { mode: 'string' }).notNull(),
    language: text('language').$type<ReportLanguage>().notNull(),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    draftPdf: bytea('draft_pdf').notNull(),
    draftSha256: text('draft_sha256').notNull(),
  },
  (t) => [
    index('reports_customer_created_idx').on(t.customerId, t.createdAt.desc(), t.id.desc()),
    check('reports_language_chk', sql`${t.language} in ('en', 'it')`),
    check('reports_period_chk', sql`${t.periodTo} >= ${t.periodFrom}`),
    check('reports_draft_sha256_chk', sql`${t.draftSha256} ~ '^[0-9a-f]{64}$'`),
  ],
);

/**
 * A report's signed versions: version n is version n-1 (or the draft) with the n-th signature's
 * manifestation printed on every page. Its bytes, hash and signature never change (migration 0007's
 * trigger refuses it); only the anchor worker writes its block and proof, as for a record.
 */
export const reportVersions = pgTable(
  'report_versions',
  {
    id: serial('id').primaryKey(),
    reportId: integer('report_id')
      .notNull()
      .references(() => reports.id),
    version: integer('version').notNull(),
    pdf: bytea('pdf').notNull(),
    sha256: text('sha256').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    signerUserId: integer('signer_user_id')
      .notNull()
      .references(() => users.id),
    /** The signer's printed name and email at signing, as the manifestation shows them. */
    signerName: text('signer_name').notNull(),
    signerEmail: text('signer_email').notNull(),
    meaning: text('meaning').$type<SignatureMeaning>().notNull(),
    comment: text('comment'),
    signedAt: timestamp('signed_at', tz).notNull(),
    blockchainDataBlockId: integer('blockchain_data_block_id').references(() => blockchainDataBlocks.id),
    /** The version's Merkle proof in its block (siblings from the leaf up), set with the block id. */
    merkleProof: text('merkle_proof').array(),
  },
  (t) => [
    uniqueIndex('report_versions_report_version_uq').on(t.reportId, t.version),
    index('report_versions_block_id_idx').on(t.blockchainDataBlockId),
    index('report_versions_waiting_idx').on(t.id).where(sql`${t.blockchainDataBlockId} is null`),
    check('report_versions_meaning_chk', sql`${t.meaning} in ('reviewed', 'approved')`),
    check('report_versions_sha256_chk', sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
    check('report_versions_version_chk', sql`${t.version} >= 1`),
  ],
);

// ---- State several server processes share (docs/adr/0018-postgresql-is-the-only-shared-engine.md) ----

/**
 * Failed logins, one row per key: `pair:<email> <address>` (one account from one client address) or
 * `address:<address>` (any account from one address). Each failure past the key's threshold makes the
 * next attempt wait twice as long (security/login-throttle.ts); a success deletes the pair's row.
 */
export const loginThrottle = pgTable(
  'login_throttle',
  {
    key: text('key').primaryKey(),
    failures: integer('failures').notNull(),
    /** No attempt for this key before then (the database server's clock). */
    blockedUntil: timestamp('blocked_until', tz).notNull(),
  },
  (t) => [index('login_throttle_blocked_until_idx').on(t.blockedUntil)],
);

/** Request counters of the per-address rate limits (plugins/rate-limits.ts), one fixed window per key. */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    windowEndsAt: timestamp('window_ends_at', tz).notNull(),
  },
  (t) => [index('rate_limit_hits_window_ends_at_idx').on(t.windowEndsAt)],
);

/**
 * E-mails waiting to be sent, and the record of those sent (docs/adr/0021-e-mail-outbox.md). A mail
 * is written once per dedupe key (one alert and recipient), so a second evaluation, a restart or another
 * process never queues it twice; a sender claims due rows with a lease (next_attempt_at moved ahead), so
 * two processes never send the same row at once. Without SMTP_URL nothing is sent and the rows stay as a
 * browsable outbox.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    dedupeKey: text('dedupe_key').notNull().unique('mail_outbox_dedupe_key_uq'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    toAddress: text('to_address').notNull(),
    language: text('language').notNull(),
    subject: text('subject').notNull(),
    bodyText: text('body_text').notNull(),
    createdAt: createdAt(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', tz).notNull().defaultNow(),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', tz),
    messageId: text('message_id'),
    /**
     * A password reset mail: its link is made when the mail is sent and never stored, so the body here
     * holds a placeholder (docs/accounts.md §4).
     */
    passwordResetId: integer('password_reset_id').references(() => passwordResets.id, {
      onDelete: 'set null',
    }),
  },
  (t) => [
    index('mail_outbox_due_idx').on(t.nextAttemptAt).where(sql`${t.sentAt} is null`),
    index('mail_outbox_created_at_idx').on(t.createdAt, t.id),
  ],
);

/**
 * Password reset links (docs/accounts.md §4). A request makes a row valid 30 minutes; its token is made
 * only when its mail is sent (mail_outbox.password_reset_id), and only the token's sha256 is kept, so
 * neither the database nor the outbox view ever holds a usable link. Used once: `used_at`.
 */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** sha256 hex of the link's token; null until the mail is sent. */
    tokenHash: text('token_hash').unique('password_resets_token_hash_uq'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', tz).notNull(),
    usedAt: timestamp('used_at', tz),
    requestedFrom: text('requested_from'),
  },
  (t) => [index('password_resets_user_created_idx').on(t.userId, t.createdAt)],
);

/**
 * A user's authenticator app (TOTP, RFC 6238: 30 s, 6 digits; docs/accounts.md §5). Pending until a
 * first code confirms it; a code is accepted once (`last_time_step`); wrong codes slow the account down
 * (`failures`, `blocked_until`, the login throttle's doubling waits) whatever the address.
 */
export const totpFactors = pgTable('totp_factors', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The app in force: its secret in Base32, as the app holds it; null until one is confirmed. */
  secret: text('secret'),
  /** A new app being set up, until a first code of it confirms it (then it replaces `secret`). */
  pendingSecret: text('pending_secret'),
  createdAt: createdAt(),
  confirmedAt: timestamp('confirmed_at', tz),
  lastTimeStep: bigint('last_time_step', { mode: 'number' }),
  failures: integer('failures').notNull().default(0),
  blockedUntil: timestamp('blocked_until', tz),
});

/** One-time recovery codes (docs/accounts.md §5): shown once, stored as sha256, each used once. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: createdAt(),
    usedAt: timestamp('used_at', tz),
  },
  (t) => [uniqueIndex('recovery_codes_user_code_uq').on(t.userId, t.codeHash)],
);

/**
 * What a right password yields when more is needed before a session (docs/accounts.md §5): a
 * short-lived token for one purpose only — the second factor, or enrolling one — never a session. Only
 * its sha256 is stored.
 */
export const loginSteps = pgTable(
  'login_steps',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique('login_steps_token_hash_uq'),
    purpose: text('purpose').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', tz).notNull(),
    usedAt: timestamp('used_at', tz),
    failures: integer('failures').notNull().default(0),
  },
  (t) => [check('login_steps_purpose_chk', sql`${t.purpose} in ('second_factor', 'enrol')`)],
);

/**
 * Passkeys and security keys (WebAuthn, docs/accounts.md §6): several per user, each named by its owner.
 * The public key is the COSE key the authenticator registered; the counter is the signature count it
 * reported last (0 when it keeps none), so a count that goes backwards is refused.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential id, base64url, as the browser names it. */
    credentialId: text('credential_id').notNull().unique('passkeys_credential_id_uq'),
    publicKey: bytea('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    /** How the browser can reach the authenticator (usb, nfc, ble, internal, hybrid), as it said. */
    transports: text('transports').array().notNull().default(sql`'{}'::text[]`),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', tz),
  },
  (t) => [index('passkeys_user_idx').on(t.userId)],
);

/**
 * WebAuthn challenges handed out and not yet answered: each is taken (deleted) by the one answer that
 * names it, whether that answer verifies or not, and lives two minutes. Rows, not memory, so the answer
 * may reach another server process than the one that made the challenge.
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    id: serial('id').primaryKey(),
    challenge: text('challenge').notNull().unique('webauthn_challenges_challenge_uq'),
    /** registration: enrolling a passkey; second_factor / passwordless: signing in; reauth: confirming a change. */
    purpose: text('purpose').notNull(),
    /** Whose passkey must answer; null for a passwordless sign-in (the passkey tells whose). */
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', tz).notNull(),
  },
  (t) => [
    check(
      'webauthn_challenges_purpose_chk',
      sql`${t.purpose} in ('registration', 'second_factor', 'passwordless', 'reauth')`,
    ),
  ],
);

// ---- Alerts (docs/adr/0020-alerts-are-rows.md: the bell, e-mail and live updates are views of them) ----

export const ALERT_STATES = ['open', 'acknowledged', 'resolved'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

/**
 * One row per raised condition (src/server/modules/alerts). `condition_key` names the condition (kind and
 * subject); the partial unique index lets one condition have one unresolved alert at most, so raising
 * is an INSERT … ON CONFLICT DO NOTHING from any process. A condition that clears resolves its alert
 * (resolution 'cleared'); a person may resolve it by hand ('manual'), after which the same condition is
 * not raised again until it has cleared (`condition_cleared_at` stays null until then).
 */
export const alerts = pgTable(
  'alerts',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    /** The clinic it belongs to; null = staff only (e.g. a blockchain block not mined). */
    customerId: integer('customer_id').references(() => customers.id),
    /** The device concerned, when there is one (for the device page and the device filter). */
    deviceId: integer('device_id').references(() => devices.id),
    /** What the kind is about: a record, batch, certificate, block or device id. */
    subjectId: bigint('subject_id', { mode: 'number' }),
    conditionKey: text('condition_key').notNull(),
    /** What a reader needs without another query: status text, residual life, percent, dates… */
    details: jsonb('details').notNull().default({}),
    state: text('state').$type<AlertState>().notNull().default('open'),
    raisedAt: timestamp('raised_at', tz).notNull().defaultNow(),
    acknowledgedAt: timestamp('acknowledged_at', tz),
    acknowledgedBy: integer('acknowledged_by').references(() => users.id, { onDelete: 'set null' }),
    acknowledgeComment: text('acknowledge_comment'),
    resolvedAt: timestamp('resolved_at', tz),
    /** Null when the condition cleared by itself. */
    resolvedBy: integer('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    resolution: text('resolution'),
    resolveComment: text('resolve_comment'),
    conditionClearedAt: timestamp('condition_cleared_at', tz),
  },
  (t) => [
    uniqueIndex('alerts_condition_unresolved_uq').on(t.conditionKey).where(sql`${t.state} <> 'resolved'`),
    index('alerts_condition_key_idx').on(t.conditionKey),
    index('alerts_raised_at_idx').on(t.raisedAt.desc(), t.id.desc()),
    index('alerts_customer_raised_at_idx').on(t.customerId, t.raisedAt.desc(), t.id.desc()),
    index('alerts_device_state_idx').on(t.deviceId, t.state),
    index('alerts_state_kind_idx').on(t.state, t.kind),
    check('alerts_state_chk', sql`${t.state} in ('open', 'acknowledged', 'resolved')`),
    check('alerts_resolution_chk', sql`${t.resolution} in ('cleared', 'manual')`),
  ],
);

/**
 * Where the background integrity sweep has got to (src/server/modules/integrity/sweep, docs/backups.md): one
 * row, so a restarted server goes on from the phase and id it reached instead of starting over, and
 * when the last full pass ended (the next is due INTEGRITY_SWEEP_INTERVAL_HOURS later).
 */
export const integritySweepState = pgTable(
  'integrity_sweep_state',
  {
    id: smallint('id').primaryKey().default(1),
    /** When the pass under way began; null between passes. */
    cycleStartedAt: timestamp('cycle_started_at', tz),
    phase: text('phase').notNull().default('blocks'),
    /** The last id the phase has checked (a block, record, token, report version or audit entry id). */
    cursor: bigint('cursor', { mode: 'number' }).notNull().default(0),
    /** The audit phase's hash of the entry at the cursor, to go on checking the chain from it. */
    auditHash: text('audit_hash'),
    /** What the pass under way has checked so far, by kind. */
    counts: jsonb('counts').notNull().default({}),
    /** The condition keys of the mismatches the pass under way found (its alerts that still hold). */
    mismatchKeys: jsonb('mismatch_keys').notNull().default([]),
    /** When the last pass ended (before the first: when the sweep first looked at the database). */
    lastCompletedAt: timestamp('last_completed_at', tz),
    /** The last full pass's counts and mismatch count. */
    lastSummary: jsonb('last_summary'),
  },
  (t) => [check('integrity_sweep_state_one_row_chk', sql`${t.id} = 1`)],
);

/**
 * Saved views of the lists (docs/lists.md, ADR 0032): a name for a list's URL search, its owner's, and
 * shared with the users of the owner's customer (`customer_id` set: customer users only) or with every
 * staff user. Names are unique per owner and list, ignoring case.
 */
export const savedViews = pgTable(
  'saved_views',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    list: text('list').notNull(),
    name: text('name').notNull(),
    /** The list's URL search without `?` and without `page`. */
    search: text('search').notNull(),
    visibility: text('visibility').$type<'private' | 'customer' | 'staff'>().notNull(),
    /** The customer whose users see a view shared with a customer; null otherwise. */
    customerId: integer('customer_id').references(() => customers.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', tz).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('saved_views_owner_list_name_uq').on(t.ownerId, t.list, sql`lower(${t.name})`),
    index('saved_views_list_customer_idx').on(t.list, t.customerId),
    index('saved_views_list_visibility_idx').on(t.list, t.visibility),
    check('saved_views_visibility_chk', sql`${t.visibility} in ('private', 'customer', 'staff')`),
    check('saved_views_customer_chk', sql`(${t.visibility} = 'customer') = (${t.customerId} is not null)`),
  ],
);

/** Each user's last choice of columns per list: the list shows them when its URL names none. */
export const listColumns = pgTable(
  'list_columns',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    list: text('list').notNull(),
    columns: text('columns').array().notNull(),
    updatedAt: timestamp('updated_at', tz).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.list] })],
);

export type Customer = typeof customers.$inferSelect;
export type NewCustomer = typeof customers.$inferInsert;
export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type Session = typeof sessions.$inferSelect;
export type NewSession = typeof sessions.$inferInsert;
export type Product = typeof products.$inferSelect;
export type NewProduct = typeof products.$inferInsert;
export type Device = typeof devices.$inferSelect;
export type NewDevice = typeof devices.$inferInsert;
export type ConsumableBatch = typeof consumableBatches.$inferSelect;
export type NewConsumableBatch = typeof consumableBatches.$inferInsert;
export type DeviceKeyEvent = typeof deviceKeyEvents.$inferSelect;
export type DeviceToken = typeof deviceTokens.$inferSelect;
export type Sterilization = typeof sterilizations.$inferSelect;
export type NewSterilization = typeof sterilizations.$inferInsert;
export type BlockchainDataBlock = typeof blockchainDataBlocks.$inferSelect;
export type NewBlockchainDataBlock = typeof blockchainDataBlocks.$inferInsert;
export type Certificate = typeof certificates.$inferSelect;
export type NewCertificate = typeof certificates.$inferInsert;
export type ExportTicket = typeof exportTickets.$inferSelect;
export type CertificateFile = typeof certificateFiles.$inferSelect;
export type NewCertificateFile = typeof certificateFiles.$inferInsert;
export type AuditLogRow = typeof auditLog.$inferSelect;
export type AlertRow = typeof alerts.$inferSelect;
export type SavedViewRow = typeof savedViews.$inferSelect;
