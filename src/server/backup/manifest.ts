/**
 * The first member of every backup file, `manifest.json` (docs/backups.md): what the backup holds and
 * which schema its database has, read by a restore before it writes anything.
 */
export const BACKUP_FORMAT = 'uvtrace-backup/1';

export interface ManifestFile {
  /** The member's name in the archive. */
  name: string;
  bytes: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  /** When the backup began (its database is the state of a moment after this). */
  created_at: string;
  /** pglite: the embedded database's files (PGlite's dump, gzipped); postgres: a pg_dump custom archive. */
  engine: 'pglite' | 'postgres';
  /** The last migration applied to the database: its tag (null if the writing code did not know it) and when. */
  schema: { tag: string | null; when: number };
  database: ManifestFile;
  /** The other files of DATA_DIR, as `data-dir/<path relative to DATA_DIR>`. */
  files: ManifestFile[];
}

const isFile = (value: unknown): value is ManifestFile =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as ManifestFile).name === 'string' &&
  Number.isInteger((value as ManifestFile).bytes) &&
  /^[0-9a-f]{64}$/.test(String((value as ManifestFile).sha256));

/** The manifest, or a sentence saying why the text is not one this code reads. */
export function parseManifest(text: string): BackupManifest | string {
  let value: Partial<BackupManifest>;
  try {
    value = JSON.parse(text) as Partial<BackupManifest>;
  } catch {
    return 'its manifest.json is not JSON';
  }
  if (value.format !== BACKUP_FORMAT)
    return `its format is ${JSON.stringify(value.format)}, not ${BACKUP_FORMAT}`;
  if (value.engine !== 'pglite' && value.engine !== 'postgres')
    return 'its manifest names no database engine';
  if (!value.schema || !Number.isFinite(value.schema.when)) return 'its manifest has no schema version';
  if (!isFile(value.database) || !Array.isArray(value.files) || !value.files.every(isFile)) {
    return 'its manifest does not list its members';
  }
  const unsafe = value.files.find(
    (file) =>
      !file.name.startsWith('data-dir/') || file.name.split('/').some((part) => part === '..' || part === ''),
  );
  if (unsafe) return `its manifest names a file outside DATA_DIR: ${unsafe.name}`;
  return value as BackupManifest;
}
