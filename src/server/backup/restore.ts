/**
 * `npm run restore -- FILE`: a backup (create.ts) into an empty DATA_DIR, or an empty PostgreSQL
 * database (DATABASE_URL), then the migrations its schema lacks (docs/backups.md).
 *
 * Everything that can refuse is checked before anything is written, and a refusal says why: the file's
 * SHA-256 against its checksum file (one changed byte is a damaged backup), its manifest, a schema newer
 * than this code's migrations (or one this code does not know), a backup of the other engine, and a
 * target that is not empty.
 */

import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import pg from 'pg';
import { embeddedDataDir, openDatabase } from '../db/client.ts';
import { type ArchiveMember, fileSha256, listArchive, memberStream, readMember } from './archive.ts';
import { type BackupManifest, type ManifestFile, parseManifest } from './manifest.ts';
import { libpqEnvironment, runPgTool } from './pg-tools.ts';
import { type Migration, schemaLabel, upgradePath } from './schema-version.ts';

/** A restore refused before anything was written; its message says why. */
export class RestoreRefused extends Error {}

export interface RestoreOptions {
  file: string;
  /** The PostgreSQL database to restore into; absent: the embedded database under dataDir. */
  databaseUrl?: string;
  dataDir: string;
  /**
   * PostgreSQL only: make the restoring role own everything, without the backup's grants (restoring
   * on another server, where the backup's roles do not exist).
   */
  noOwner?: boolean;
  log?: (line: string) => void;
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** The migrations run after restoring (the backup's schema was older than this code's). */
  migrated: Migration[];
  /** Files of DATA_DIR written (other than the embedded database). */
  files: number;
}

const refuse = (reason: string): never => {
  throw new RestoreRefused(`${reason}. Nothing was written.`);
};

/** The checksum file's SHA-256 (`sha256sum` format: the hex digest, then the file name). */
async function expectedSha256(file: string): Promise<string> {
  const checksumFile = `${file}.sha256`;
  if (!existsSync(checksumFile)) {
    return refuse(`${checksumFile} is missing: without it a damaged backup cannot be told from a sound one`);
  }
  const digest = /^([0-9a-f]{64})\b/i.exec((await readFile(checksumFile, 'utf8')).trim())?.[1];
  return digest ? digest.toLowerCase() : refuse(`${checksumFile} holds no SHA-256`);
}

/** Whether a PostgreSQL database holds any table, view, sequence or index of its own. */
async function postgresIsEmpty(databaseUrl: string): Promise<{ empty: boolean; example?: string }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const found = await client.query<{ name: string }>(`
      select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_toast%'
        and n.nspname not like 'pg\\_temp%'
      limit 1`);
    return { empty: found.rows.length === 0, example: found.rows[0]?.name };
  } finally {
    await client.end();
  }
}

/** Copies a member to `target`, refusing when its bytes are not those the manifest lists. */
async function extractMember(archive: string, member: ArchiveMember, listed: ManifestFile, target: string) {
  const hash = createHash('sha256');
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(memberStream(archive, member), hashing, createWriteStream(target, { mode: 0o600 }));
  if (member.size !== listed.bytes || hash.digest('hex') !== listed.sha256) {
    throw new RestoreRefused(`${listed.name} in the backup differs from its manifest. Nothing was written.`);
  }
}

async function existingFileDiffers(target: string, listed: ManifestFile): Promise<boolean> {
  return existsSync(target) && (await fileSha256(target)) !== listed.sha256;
}

export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const log = options.log ?? (() => {});
  const file = path.resolve(options.file);
  const dataDir = path.resolve(options.dataDir);
  if (!existsSync(file)) refuse(`${file} does not exist`);

  // 1. The file is the one that was written.
  const expected = await expectedSha256(file);
  const actual = await fileSha256(file);
  if (actual !== expected) {
    refuse(`${file} is damaged: its SHA-256 is ${actual}, its checksum file says ${expected}`);
  }

  // 2. It is a backup this code reads, of a schema it can bring up to date.
  let members: ArchiveMember[] = [];
  try {
    members = await listArchive(file);
  } catch (error) {
    refuse(`${file} is not a uvtrace backup: ${(error as Error).message}`);
  }
  const manifestMember = members[0]?.name === 'manifest.json' ? members[0] : undefined;
  if (!manifestMember) return refuse(`${file} is not a uvtrace backup: it does not start with manifest.json`);
  const parsed = parseManifest((await readMember(file, manifestMember)).toString('utf8'));
  if (typeof parsed === 'string') return refuse(`${file} is not a backup this code reads: ${parsed}`);
  const manifest = parsed;
  const upgrade = upgradePath(manifest.schema);
  if (!upgrade.ok) return refuse(`${file} cannot be restored by this code: ${upgrade.reason}`);
  const byName = new Map(members.map((member) => [member.name, member]));
  for (const listed of [manifest.database, ...manifest.files]) {
    if (!byName.has(listed.name)) refuse(`${file} is incomplete: ${listed.name} is missing`);
  }

  // 3. The target is of the backup's engine, and empty.
  if (manifest.engine === 'pglite' && options.databaseUrl) {
    refuse('this is a backup of the embedded database: restore it into a DATA_DIR, without DATABASE_URL');
  }
  if (manifest.engine === 'postgres' && !options.databaseUrl) {
    refuse(
      'this is a backup of a PostgreSQL database: set DATABASE_URL to an empty database to restore it into',
    );
  }
  if (manifest.engine === 'pglite') {
    const entries = existsSync(dataDir) ? await readdir(dataDir) : [];
    if (entries.length > 0) {
      refuse(
        `DATA_DIR ${dataDir} is not empty (it holds ${entries.slice(0, 3).join(', ')}): restore into an empty or new directory`,
      );
    }
  } else {
    const target = await postgresIsEmpty(options.databaseUrl!);
    if (!target.empty) {
      refuse(
        `the database of DATABASE_URL is not empty (it holds ${target.example}): restore into a new, empty database`,
      );
    }
    for (const listed of manifest.files) {
      const target = path.join(dataDir, listed.name.slice('data-dir/'.length));
      if (await existingFileDiffers(target, listed)) refuse(`${target} exists with other content`);
    }
  }
  log(
    `restoring the backup of ${manifest.created_at} (${manifest.engine}, schema ${schemaLabel(manifest.schema)})…`,
  );

  // 4. Unpacked outside the target, each member checked against the manifest on the way.
  const staging = await mkdtemp(path.join(tmpdir(), 'uvtrace-restore-'));
  try {
    const databaseFile = path.join(staging, path.basename(manifest.database.name));
    await extractMember(file, byName.get(manifest.database.name)!, manifest.database, databaseFile);
    const stagedFiles: { listed: ManifestFile; staged: string }[] = [];
    for (const [i, listed] of manifest.files.entries()) {
      const staged = path.join(staging, `file-${i}`);
      await extractMember(file, byName.get(listed.name)!, listed, staged);
      stagedFiles.push({ listed, staged });
    }

    // 5. Written, then migrated.
    if (manifest.engine === 'pglite') {
      const tarball = path.join(staging, 'pglite.tar');
      await pipeline(createReadStream(databaseFile), createGunzip(), createWriteStream(tarball));
      await mkdir(dataDir, { recursive: true });
      try {
        // The dump is loaded as a template (skipping initdb), recovered to its last commit, then migrated.
        const database = await openDatabase({ dataDir: embeddedDataDir(dataDir), pgliteTemplate: tarball });
        await database.close();
      } catch (error) {
        // The directory was empty: what is in it now is this restore's.
        for (const entry of await readdir(dataDir))
          await rm(path.join(dataDir, entry), { recursive: true, force: true });
        throw error;
      }
    } else {
      const databaseUrl = options.databaseUrl!;
      // Every object in one transaction: a failure leaves the database as empty as it was. A comment on
      // an extension is left out: only the extension's owner may write it, and it says nothing.
      const list = await runPgTool('pg_restore', ['--list', databaseFile]);
      const listFile = path.join(staging, 'restore.list');
      await writeFile(
        listFile,
        list
          .split('\n')
          .filter((line) => !/ COMMENT - EXTENSION /.test(line))
          .join('\n'),
      );
      await runPgTool(
        'pg_restore',
        [
          '--exit-on-error',
          '--single-transaction',
          `--use-list=${listFile}`,
          ...(options.noOwner ? ['--no-owner', '--no-privileges'] : []),
          // The database by name; the server, user and password reach libpq through its environment.
          `--dbname=${libpqEnvironment(databaseUrl).PGDATABASE ?? 'postgres'}`,
          databaseFile,
        ],
        databaseUrl,
      );
      const database = await openDatabase({ databaseUrl });
      await database.close();
    }
    for (const { listed, staged } of stagedFiles) {
      const target = path.join(dataDir, listed.name.slice('data-dir/'.length));
      await mkdir(path.dirname(target), { recursive: true });
      await pipeline(createReadStream(staged), createWriteStream(target, { mode: 0o600 }));
      await chmod(target, 0o600);
    }
    if (upgrade.pending.length > 0) {
      log(
        `migrated from ${schemaLabel(manifest.schema)}: ${upgrade.pending.map((migration) => migration.tag).join(', ')}`,
      );
    }
    log(
      `restored: ${manifest.engine === 'pglite' ? embeddedDataDir(dataDir) : 'the database of DATABASE_URL'}` +
        (stagedFiles.length ? `, and ${stagedFiles.length} file(s) into ${dataDir}` : ''),
    );
    return { manifest, migrated: upgrade.pending, files: stagedFiles.length };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
