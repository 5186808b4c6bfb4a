/**
 * Backups restored (docs/backups.md), on the embedded database (through the running server's control
 * socket, as `npm run backup` does) and, with TEST_DATABASE_URL, on PostgreSQL (pg_dump into a fresh
 * throwaway database): a backup taken while a device posts signed records and a certificate uploads,
 * restored into a fresh target, holds every record acknowledged before it began once, an intact audit
 * trail, evidence the integrity sweep passes, and an app starts on it in which an earlier record's proof
 * still leads to the root on chain. A damaged file, a non-empty target and a newer schema are refused
 * with a clear message and nothing written; an older schema is migrated after restoring.
 */
import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate as drizzleMigrate } from 'drizzle-orm/node-postgres/migrator';
import type { FastifyInstance } from 'fastify';
import { PDFDocument } from 'pdf-lib';
import pg from 'pg';
import { bytesToHex, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HashingVersion, leafBytes, processProof } from '#shared/integrity/index.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openServerControlSocket } from '../control/server-control.ts';
import type { ControlSocket } from '../control/socket.ts';
import { type Database, embeddedDataDir, MIGRATIONS_FOLDER, openDatabase } from '../db/client.ts';
import { seedDemoData } from '../db/seed.ts';
import { verifyAuditChain } from '../modules/audit/verify.ts';
import { integrityRecord, RECORD_FIELDS_SQL } from '../modules/integrity/anchor-worker.ts';
import { type Chain, connectChain } from '../modules/integrity/chain.ts';
import { runIntegritySweep } from '../modules/integrity/sweep/run.ts';
import { postSigned, type SigningDevice, signingDevice, waitUntilMined } from '../test/signed-records.ts';
import { createBackup } from './create.ts';
import { RestoreRefused, restoreBackup } from './restore.ts';
import { codeMigrations, codeSchemaVersion, databaseSchemaVersion } from './schema-version.ts';

const serverUrl = process.env.TEST_DATABASE_URL;
const engine = serverUrl ? 'PostgreSQL' : 'PGlite';
const work = mkdtempSync(path.join(tmpdir(), 'uvtrace-backup-test-'));
const throwaways: string[] = [];

/** A fresh, empty target: a DATA_DIR that does not exist yet and, on PostgreSQL, a new database. */
async function emptyTarget(): Promise<{ dataDir: string; databaseUrl?: string }> {
  const dataDir = path.join(mkdtempSync(path.join(work, 'target-')), 'data');
  if (!serverUrl) return { dataDir };
  const name = `uvtrace_t_${randomBytes(6).toString('hex')}`;
  await admin(`create database ${name}`);
  throwaways.push(name);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { dataDir, databaseUrl: url.toString() };
}

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const openTarget = (target: { dataDir: string; databaseUrl?: string }) =>
  openDatabase(
    target.databaseUrl ? { databaseUrl: target.databaseUrl } : { dataDir: embeddedDataDir(target.dataDir) },
  );

/** What a target holds, to show a refused restore wrote nothing: its files and its tables. */
async function contentsOf(target: { dataDir: string; databaseUrl?: string }): Promise<unknown> {
  const files = existsSync(target.dataDir) ? readdirSync(target.dataDir, { recursive: true }).sort() : null;
  if (!target.databaseUrl) return { files };
  const client = new pg.Client({ connectionString: target.databaseUrl });
  await client.connect();
  try {
    const tables = await client.query(`
      select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_toast%'
      order by 1`);
    return { files, tables: tables.rows.map((row) => row.name) };
  } finally {
    await client.end();
  }
}

function appConfig(dataDir: string, env: Record<string, string> = {}) {
  return loadConfig({
    LOG_LEVEL: 'silent',
    CLIENT_DIST: '/nonexistent-client-build',
    DATA_DIR: dataDir,
    ANCHOR_ENABLED: 'false',
    ALERT_SWEEP_INTERVAL_SECONDS: '0',
    INTEGRITY_SWEEP_INTERVAL_HOURS: '0',
    INGEST_RATE_LIMIT_PER_MINUTE: '0',
    ...env,
  });
}

async function adminToken(app: FastifyInstance): Promise<string> {
  const form = new FormData();
  form.append('email', 'admin@example.com');
  form.append('password', 'demo-password');
  const response = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: form });
  if (response.statusCode !== 200) throw new Error(`login: ${response.statusCode} ${response.body}`);
  return response.json().data.token as string;
}

let chain: Chain;
let sourceDataDir: string;
let sourceUrl: string | undefined;
let source: Database;
let app: FastifyInstance;
let control: ControlSocket | null = null;
let device: SigningDevice;

beforeAll(async () => {
  chain = await connectChain(loadConfig({}).chain);
  const target = await emptyTarget();
  sourceDataDir = target.dataDir;
  sourceUrl = target.databaseUrl;
  mkdirSync(sourceDataDir, { recursive: true });
  source = await openTarget(target);
  // Per-device keys written under DATA_DIR/device-keys: files a backup carries beside the database.
  await seedDemoData(source, { sterilizations: 40, keysDir: sourceDataDir });
  app = await buildApp(
    appConfig(sourceDataDir, {
      ANCHOR_ENABLED: 'true',
      ANCHOR_INTERVAL_SECONDS: '0',
      ANCHOR_BATCH_SIZE: '8',
    }),
    { database: source, chain, leadershipRetryMs: 100 },
  );
  await app.ready();
  // `npm run backup` reaches a running embedded server through its socket; PostgreSQL needs none.
  if (!sourceUrl) control = await openServerControlSocket(app, source, { dataDir: sourceDataDir });
  device = await signingDevice(source.pool);
  await postSigned(app, device, 5);
  await waitUntilMined(source.pool);
}, 180_000);

afterAll(async () => {
  await control?.close();
  await app?.close();
  await source?.close();
  for (const name of throwaways) await admin(`drop database if exists ${name} with (force)`).catch(() => {});
  rmSync(work, { recursive: true, force: true });
});

async function makePdf(bytes: number): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.addPage().drawText('Certificate of sterilization, lot under test');
  // Random bytes do not compress: the file is as large as asked.
  await document.attach(randomBytes(bytes), 'scan.bin', { mimeType: 'application/octet-stream' });
  return document.save();
}

let backupFile = '';

describe(`a backup taken while devices post and a certificate uploads (${engine})`, () => {
  it('restores into a fresh target with every acknowledged record once, a sound trail and evidence, and an app that starts', async () => {
    const earlier = (
      await source.pool.query<{ id: string }>(
        'select id from sterilizations where device_id = $1 and blockchain_data_block_id is not null order by id limit 1',
        [device.deviceId],
      )
    ).rows[0]!.id;

    // The device keeps posting, one to three records a token, until the backup is written.
    const acknowledged: number[] = [];
    let posting = true;
    const device2 = await signingDevice(source.pool);
    const poster = (async () => {
      for (let i = 0; posting; i += 1) {
        acknowledged.push(...(await postSigned(app, i % 2 ? device : device2, 1 + (i % 3))));
      }
    })();
    while (acknowledged.length < 10) await new Promise((resolve) => setTimeout(resolve, 5));

    // A certificate with its PDF (a few MB) uploads at the same time.
    const token = await adminToken(app);
    const lot = `LOT-BACKUP-${randomBytes(3).toString('hex')}`;
    const form = new FormData();
    form.append('lot_number', lot);
    form.append('validated_treatment_number', 'VT-BACKUP');
    form.append('expiration_date', '2030-12-31');
    form.append(
      'italian_file',
      new Blob([(await makePdf(2_000_000)) as BlobPart], { type: 'application/pdf' }),
      'it.pdf',
    );
    let uploaded = false;
    const upload = app
      .inject({
        method: 'POST',
        url: '/api/v1/certificates',
        payload: form,
        headers: { authorization: `Bearer ${token}` },
      })
      .then((response) => {
        expect(response.statusCode, response.body).toBe(201);
        uploaded = true;
      });

    const beforeBackup = [...acknowledged];
    const uploadedBeforeBackup = uploaded;
    const result = await createBackup({
      databaseUrl: sourceUrl,
      dataDir: sourceDataDir,
      outputDir: path.join(work, 'backups'),
    });
    posting = false;
    await poster;
    await upload;
    backupFile = result.file;
    expect(result.source).toBe(sourceUrl ? 'pg_dump' : 'running server');
    expect(path.basename(result.file)).toMatch(
      new RegExp(`^uvtrace-backup-\\d{8}T\\d{6}Z-${codeSchemaVersion().tag}\\.tar$`),
    );
    expect(readFileSync(result.checksumFile, 'utf8')).toBe(
      `${result.sha256}  ${path.basename(result.file)}\n`,
    );
    expect(acknowledged.length).toBeGreaterThan(beforeBackup.length);

    const target = await emptyTarget();
    const restored = await restoreBackup({
      file: result.file,
      databaseUrl: target.databaseUrl,
      dataDir: target.dataDir,
    });
    expect(restored.migrated).toEqual([]);
    expect(restored.files).toBeGreaterThan(0);
    // The devices' key files came back beside the database.
    expect(readdirSync(path.join(target.dataDir, 'device-keys')).length).toBe(
      readdirSync(path.join(sourceDataDir, 'device-keys')).length,
    );

    const database = await openTarget(target);
    try {
      const found = await database.pool.query<{ id: string; copies: string }>(
        `select s.id, (select count(*) from sterilizations o where o.device_id = s.device_id
           and o.progressive_id = s.progressive_id) as copies
         from sterilizations s where s.id = any($1::bigint[])`,
        [beforeBackup],
      );
      expect(found.rows.map((row) => Number(row.id)).sort((a, b) => a - b)).toEqual(
        [...beforeBackup].sort((a, b) => a - b),
      );
      expect(found.rows.every((row) => Number(row.copies) === 1)).toBe(true);

      // A certificate and its files commit together: the restored copy has all of them, or none.
      const certificateFiles = async (of: Database) =>
        (
          await of.pool.query<{ language: string; bytes: number; sha256: string }>(
            `select f.language, length(f.content) as bytes, encode(sha256(f.content), 'hex') as sha256
             from certificates c join certificate_files f on f.certificate_id = c.id
             where c.lot_number = $1 order by f.language`,
            [lot],
          )
        ).rows;
      const original = await certificateFiles(source);
      const copy = await certificateFiles(database);
      expect(original.length).toBeGreaterThan(0);
      expect(original.reduce((sum, file) => sum + Number(file.bytes), 0)).toBeGreaterThan(2_000_000);
      expect(copy.length === 0 || JSON.stringify(copy) === JSON.stringify(original)).toBe(true);
      if (uploadedBeforeBackup) expect(copy).toEqual(original);

      expect(await verifyAuditChain(database.db)).toMatchObject({ ok: true });
      const mismatches: unknown[] = [];
      const sweep = await runIntegritySweep({ db: database.db, chain }, (mismatch) =>
        mismatches.push(mismatch),
      );
      expect(mismatches).toEqual([]);
      expect(sweep.counts.blocksOnChain).toBeGreaterThan(0);
      expect(sweep.counts.signedRecords).toBeGreaterThanOrEqual(beforeBackup.length);

      // An earlier record's proof still leads from its leaf to its block's root, which is on chain.
      type Anchored = Parameters<typeof integrityRecord>[0] & {
        merkle_proof: Hex[];
        block_id: number;
        merkle_root: Hex;
        hashing_version: HashingVersion;
      };
      const row = (
        await database.db.execute<Anchored>(sql`
          select ${RECORD_FIELDS_SQL}, s.merkle_proof, b.id as block_id, b.merkle_root, b.hashing_version
          from sterilizations s join devices d on d.id = s.device_id
          join blockchain_data_blocks b on b.id = s.blockchain_data_block_id where s.id = ${earlier}`)
      ).rows[0]!;
      const leaf = leafBytes(integrityRecord(row), row.hashing_version);
      expect(processProof(bytesToHex(leaf), row.merkle_proof)).toBe(row.merkle_root);
      expect(await chain.anchoredRoot(Number(row.block_id))).toBe(row.merkle_root);

      // The app starts on the restored target and answers.
      const restoredApp = await buildApp(appConfig(target.dataDir), { database, chain });
      try {
        await restoredApp.ready();
        expect((await restoredApp.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
        const restoredToken = await adminToken(restoredApp);
        const listed = await restoredApp.inject({
          method: 'GET',
          url: `/api/v1/sterilizations/evidence/${earlier}`,
          headers: { authorization: `Bearer ${restoredToken}` },
        });
        expect(listed.statusCode, listed.body).toBe(200);
      } finally {
        await restoredApp.close();
      }
    } finally {
      await database.close();
    }
  }, 240_000);
});

describe(`a restore refuses, writing nothing (${engine})`, () => {
  it('a backup with one byte changed', async () => {
    const damaged = path.join(mkdtempSync(path.join(work, 'damaged-')), path.basename(backupFile));
    copyFileSync(backupFile, damaged);
    copyFileSync(`${backupFile}.sha256`, `${damaged}.sha256`);
    const bytes = readFileSync(damaged);
    const at = Math.floor(bytes.length / 2);
    bytes[at] = bytes[at]! ^ 0x01;
    writeFileSync(damaged, bytes);
    const target = await emptyTarget();
    const before = await contentsOf(target);
    const attempt = restoreBackup({
      file: damaged,
      databaseUrl: target.databaseUrl,
      dataDir: target.dataDir,
    });
    await expect(attempt).rejects.toThrow(RestoreRefused);
    await expect(attempt).rejects.toThrow(
      /is damaged: its SHA-256 is [0-9a-f]{64}, its checksum file says [0-9a-f]{64}\. Nothing was written\./,
    );
    expect(await contentsOf(target)).toEqual(before);
    // Without its checksum file a backup is not restored either.
    rmSync(`${damaged}.sha256`);
    await expect(
      restoreBackup({ file: damaged, databaseUrl: target.databaseUrl, dataDir: target.dataDir }),
    ).rejects.toThrow(/\.sha256 is missing/);
  });

  it('a target that is not empty', async () => {
    const target = await emptyTarget();
    mkdirSync(target.dataDir, { recursive: true });
    if (target.databaseUrl) {
      const client = new pg.Client({ connectionString: target.databaseUrl });
      await client.connect();
      await client.query('create table kept (note text)');
      await client.end();
    } else {
      writeFileSync(path.join(target.dataDir, 'notes.txt'), 'kept');
    }
    const before = await contentsOf(target);
    await expect(
      restoreBackup({ file: backupFile, databaseUrl: target.databaseUrl, dataDir: target.dataDir }),
    ).rejects.toThrow(
      target.databaseUrl
        ? /database of DATABASE_URL is not empty \(it holds public\.kept\)/
        : /is not empty \(it holds notes\.txt\)/,
    );
    expect(await contentsOf(target)).toEqual(before);
  });

  it('a backup whose schema is newer than this code', async () => {
    const future = codeSchemaVersion().when + 1000;
    await source.pool.query(
      `insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-later-version', $1)`,
      [future],
    );
    let newer: string;
    try {
      newer = (
        await createBackup({
          databaseUrl: sourceUrl,
          dataDir: sourceDataDir,
          outputDir: path.join(work, 'newer'),
        })
      ).file;
    } finally {
      await source.pool.query(`delete from drizzle.__drizzle_migrations where hash = 'from-a-later-version'`);
    }
    expect(path.basename(newer)).toContain(`unknown-migration-${future}`);
    const target = await emptyTarget();
    const before = await contentsOf(target);
    await expect(
      restoreBackup({ file: newer, databaseUrl: target.databaseUrl, dataDir: target.dataDir }),
    ).rejects.toThrow(
      /is newer than this code's \(.+\): restore it with the version of uvtrace that made it.*Nothing was written\./,
    );
    expect(await contentsOf(target)).toEqual(before);
  });
});

describe(`a backup of an older schema (${engine})`, () => {
  it('is restored, then migrated to this code', async () => {
    const migrations = codeMigrations();
    const older = migrations.at(-2)!;
    // The migrations as the code before the last one had them.
    const folder = path.join(work, 'older-migrations');
    await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
    const journalPath = path.join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8'));
    journal.entries = journal.entries.filter((entry: { when: number }) => entry.when <= older.when);
    writeFileSync(journalPath, JSON.stringify(journal));

    const origin = await emptyTarget();
    mkdirSync(origin.dataDir, { recursive: true });
    const database = await openDatabase(
      origin.databaseUrl
        ? { databaseUrl: origin.databaseUrl, skipMigrations: true }
        : { dataDir: embeddedDataDir(origin.dataDir), skipMigrations: true },
    );
    try {
      const client = await database.pool.connect();
      try {
        await drizzleMigrate(drizzle({ client }), { migrationsFolder: folder });
      } finally {
        client.release();
      }
      expect(await databaseSchemaVersion(database.pool)).toEqual({ tag: older.tag, when: older.when });
    } finally {
      await database.close();
    }
    // No server runs on it: the backup opens the data directory itself, without migrating it.
    const backup = await createBackup({
      databaseUrl: origin.databaseUrl,
      dataDir: origin.dataDir,
      outputDir: path.join(work, 'older'),
    });
    expect(path.basename(backup.file)).toContain(older.tag);
    expect(backup.source).toBe(origin.databaseUrl ? 'pg_dump' : 'data directory');

    const target = await emptyTarget();
    const restored = await restoreBackup({
      file: backup.file,
      databaseUrl: target.databaseUrl,
      dataDir: target.dataDir,
    });
    expect(restored.migrated.map((migration) => migration.tag)).toEqual([migrations.at(-1)!.tag]);
    const reopened = await openTarget(target);
    try {
      expect(await databaseSchemaVersion(reopened.pool)).toEqual(codeSchemaVersion());
    } finally {
      await reopened.close();
    }
  }, 120_000);
});
