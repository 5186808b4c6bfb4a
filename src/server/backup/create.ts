/**
 * `npm run backup`: one file holding everything the product keeps (docs/backups.md) — the whole
 * database (records, device tokens and key events, certificates and their PDFs, reports, the audit
 * trail, alerts, the mail outbox…) as one consistent copy, and the other files of DATA_DIR (the demo
 * devices' keys) — with a SHA-256 beside it. Taken while the server runs and devices post:
 *
 * - PostgreSQL (DATABASE_URL): `pg_dump --format=custom`, one snapshot of the database.
 * - Embedded PGlite: the database belongs to the server's process, so a running server is asked
 *   through its control socket (control/socket.ts) for PGlite's own dump, taken between two statements;
 *   a stopped server's DATA_DIR is opened here, without migrating it.
 *
 * The embedded devnet is not in a backup: it lives in the server's memory and is not persisted
 * (docs/adr/0012-anchoring-on-chain.md); a restored server anchors its blocks again.
 */
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import pg from 'pg';
import { askServer, CONTROL_SOCKET_NAME } from '../control/socket.ts';
import { dumpEmbeddedDatabase, embeddedDataDir, openDatabase } from '../db/client.ts';
import { type ArchiveEntry, fileSha256, writeArchive } from './archive.ts';
import { BACKUP_FORMAT, type BackupManifest, type ManifestFile } from './manifest.ts';
import { runPgTool } from './pg-tools.ts';
import { databaseSchemaVersion, type SchemaVersion, schemaLabel, versionOf } from './schema-version.ts';

export interface BackupOptions {
  /** A PostgreSQL database; absent: the embedded database under dataDir. */
  databaseUrl?: string;
  dataDir: string;
  /** Where the backup file and its checksum file are written (created if missing). */
  outputDir: string;
  /** Progress lines for a person. */
  log?: (line: string) => void;
}

export interface BackupResult {
  file: string;
  checksumFile: string;
  sha256: string;
  bytes: number;
  schema: SchemaVersion;
  /** How the database was copied. */
  source: 'pg_dump' | 'running server' | 'data directory';
}

/** `20261124T210503Z`: sortable, and a valid file name everywhere. */
function stamp(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

async function dumpPostgres(databaseUrl: string, target: string): Promise<SchemaVersion> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  let version: SchemaVersion | null;
  try {
    version = await databaseSchemaVersion(pool);
  } finally {
    await pool.end();
  }
  if (!version)
    throw new Error('the database has no uvtrace schema (no migration applied): nothing to back up');
  await runPgTool('pg_dump', ['--format=custom', '--compress=6', `--file=${target}`], databaseUrl);
  return version;
}

/** The embedded database through the running server, or from DATA_DIR when no server runs on it. */
async function dumpEmbedded(
  dataDir: string,
  target: string,
): Promise<{ version: SchemaVersion; source: BackupResult['source'] }> {
  const answer = await askServer(dataDir, '/database-dump');
  if (answer) {
    await pipeline(answer, createWriteStream(target, { mode: 0o600 }));
    const when = Number(answer.headers['x-uvtrace-schema-when']);
    if (!Number.isFinite(when) || when <= 0)
      throw new Error('the server gave no schema version with its dump');
    return { version: versionOf(when), source: 'running server' };
  }
  const directory = embeddedDataDir(dataDir);
  if (!existsSync(path.join(directory, 'PG_VERSION'))) {
    throw new Error(`no embedded database in ${directory}, and no server answers on ${dataDir}`);
  }
  // No server has it open (it would answer on its socket): opened here as it is, not migrated.
  const database = await openDatabase({ dataDir: directory, skipMigrations: true });
  try {
    const version = await databaseSchemaVersion(database.pool);
    if (!version)
      throw new Error('the database has no uvtrace schema (no migration applied): nothing to back up');
    await dumpEmbeddedDatabase(database, target);
    return { version, source: 'data directory' };
  } finally {
    await database.close();
  }
}

/** The files of DATA_DIR other than the embedded database and the socket, relative, sorted. */
async function dataDirFiles(dataDir: string, skip: ReadonlySet<string>): Promise<string[]> {
  if (!existsSync(dataDir)) return [];
  const found: string[] = [];
  async function walk(relative: string): Promise<void> {
    for (const entry of await readdir(path.join(dataDir, relative), { withFileTypes: true })) {
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      if (skip.has(path.join(dataDir, name))) continue;
      if (entry.isDirectory()) await walk(name);
      else if (entry.isFile()) found.push(name);
    }
  }
  await walk('');
  return found.sort();
}

export async function createBackup(options: BackupOptions): Promise<BackupResult> {
  const log = options.log ?? (() => {});
  const dataDir = path.resolve(options.dataDir);
  const outputDir = path.resolve(options.outputDir);
  const startedAt = new Date();
  const staging = await mkdtemp(path.join(tmpdir(), 'uvtrace-backup-'));
  try {
    let databaseFile: string;
    let databaseMember: string;
    let schema: SchemaVersion;
    let source: BackupResult['source'];
    if (options.databaseUrl) {
      log('copying the PostgreSQL database (pg_dump, one consistent snapshot)…');
      databaseFile = path.join(staging, 'postgres.dump');
      databaseMember = 'database/postgres.dump';
      schema = await dumpPostgres(options.databaseUrl, databaseFile);
      source = 'pg_dump';
    } else {
      log(`copying the embedded database of ${dataDir}…`);
      const tarball = path.join(staging, 'pglite.tar');
      const dumped = await dumpEmbedded(dataDir, tarball);
      schema = dumped.version;
      source = dumped.source;
      databaseFile = `${tarball}.gz`;
      databaseMember = 'database/pglite.tar.gz';
      await pipeline(createReadStream(tarball), createGzip({ level: 6 }), createWriteStream(databaseFile));
      await rm(tarball);
    }
    const skip = new Set([
      embeddedDataDir(dataDir),
      path.join(dataDir, CONTROL_SOCKET_NAME),
      // A backup directory inside DATA_DIR is not backed up into the next backup.
      outputDir,
    ]);
    const files: ManifestFile[] = [];
    for (const relative of await dataDirFiles(dataDir, skip)) {
      const full = path.join(dataDir, relative);
      files.push({
        name: `data-dir/${relative}`,
        bytes: (await stat(full)).size,
        sha256: await fileSha256(full),
      });
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      created_at: startedAt.toISOString(),
      engine: options.databaseUrl ? 'postgres' : 'pglite',
      schema: { tag: schema.tag, when: schema.when },
      database: {
        name: databaseMember,
        bytes: (await stat(databaseFile)).size,
        sha256: await fileSha256(databaseFile),
      },
      files,
    };
    const entries: ArchiveEntry[] = [
      { name: 'manifest.json', bytes: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) },
      { name: databaseMember, path: databaseFile, size: manifest.database.bytes },
      ...files.map((file) => ({
        name: file.name,
        path: path.join(dataDir, file.name.slice('data-dir/'.length)),
        size: file.bytes,
      })),
    ];
    await mkdir(outputDir, { recursive: true });
    const name = `uvtrace-backup-${stamp(startedAt)}-${schemaLabel(schema)}.tar`;
    const file = path.join(outputDir, name);
    if (existsSync(file)) throw new Error(`${file} exists already`);
    const partial = `${file}.partial`;
    let sha256: string;
    try {
      sha256 = await writeArchive(partial, entries);
      await rename(partial, file);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    // Written last, so a checksum file always stands beside a complete backup (`sha256sum -c` reads it).
    const checksumFile = `${file}.sha256`;
    await writeFile(`${checksumFile}.partial`, `${sha256}  ${name}\n`, { mode: 0o600 });
    await rename(`${checksumFile}.partial`, checksumFile);
    const bytes = (await stat(file)).size;
    log(`backup written: ${file} (${bytes.toLocaleString('en-US')} bytes, schema ${schemaLabel(schema)})`);
    log(`SHA-256 ${sha256} in ${checksumFile}`);
    return { file, checksumFile, sha256, bytes, schema, source };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
