/** Certificates and their two PDF files (docs/product.md §2 Certificate list / upload). */
import { and, asc, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client.ts';
import { pageTotal, totalColumn } from '#server/db/page-total.ts';
import { type CertificateLanguage, certificateFiles, certificates } from '#server/db/schema.ts';
import { anyColumnContains } from '#server/db/text-search.ts';
import { isoInstant } from '#server/http/instants.ts';
import type { Certificate as CertificateAnswer } from '#shared/api/index.ts';
import type { AuditFields } from '../audit/index.ts';
import { checklistFileName } from './file-names.ts';

const columns = {
  id: certificates.id,
  lotNumber: certificates.lotNumber,
  validatedTreatmentNumber: certificates.validatedTreatmentNumber,
  expirationDate: certificates.expirationDate,
  itFileName: certificates.itFileName,
  enFileName: certificates.enFileName,
  createdAt: certificates.createdAt,
};

type Row = {
  id: number;
  lotNumber: string;
  validatedTreatmentNumber: string;
  expirationDate: string;
  itFileName: string;
  enFileName: string | null;
  createdAt: Date;
};

/** The one place a certificate row becomes the contract's Certificate. */
function toCertificate(row: Row): CertificateAnswer {
  return {
    id: row.id,
    lot_number: row.lotNumber,
    validated_treatment_number: row.validatedTreatmentNumber,
    expiration_date: row.expirationDate,
    it_file_name: row.itFileName,
    en_file_name: row.enFileName ?? checklistFileName(row.lotNumber, row.validatedTreatmentNumber),
    created_at: isoInstant(row.createdAt),
  };
}

export type CertificateSort = 'lot_number' | 'validated_treatment_number' | 'expiration_date';

/** The chosen column first, then the natural identity of a certificate; the id keeps paging stable. */
function order(sortBy: CertificateSort, dir: 'asc' | 'desc'): SQL[] {
  const by = dir === 'asc' ? asc : desc;
  const lot = sql`lower(${certificates.lotNumber})`;
  const treatment = sql`lower(${certificates.validatedTreatmentNumber})`;
  if (sortBy === 'validated_treatment_number') return [by(treatment), by(lot), by(certificates.id)];
  if (sortBy === 'expiration_date') return [by(certificates.expirationDate), by(lot), by(certificates.id)];
  return [by(lot), by(treatment), by(certificates.id)];
}

export async function listCertificatePage(
  db: Db,
  options: { sortBy: CertificateSort; dir: 'asc' | 'desc'; limit: number; offset: number; search?: string },
): Promise<{ rows: CertificateAnswer[]; total: number }> {
  const matching = anyColumnContains(
    [certificates.lotNumber, certificates.validatedTreatmentNumber],
    options.search,
  );
  const rows = await db
    .select({ ...columns, total: totalColumn() })
    .from(certificates)
    .where(matching)
    .orderBy(...order(options.sortBy, options.dir))
    .limit(options.limit)
    .offset(options.offset);
  const total = await pageTotal(rows, options.offset, async () => {
    const [counted] = await db.select({ total: count() }).from(certificates).where(matching);
    return Number(counted?.total ?? 0);
  });
  return { rows: rows.map(toCertificate), total };
}

export async function findCertificate(db: Db, id: number): Promise<CertificateAnswer | undefined> {
  const [row] = await db.select(columns).from(certificates).where(eq(certificates.id, id));
  return row ? toCertificate(row) : undefined;
}

export async function pairTaken(
  db: Db,
  lotNumber: string,
  validatedTreatmentNumber: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: certificates.id })
    .from(certificates)
    .where(
      and(
        eq(certificates.lotNumber, lotNumber),
        eq(certificates.validatedTreatmentNumber, validatedTreatmentNumber),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export interface StoredFile {
  content: Uint8Array;
  contentType: string;
}

/**
 * The row and both files in ONE transaction (a savepoint inside the caller's): a failure anywhere
 * leaves nothing behind.
 */
export async function insertCertificateWithFiles(
  db: Db | Tx,
  values: {
    lotNumber: string;
    validatedTreatmentNumber: string;
    expirationDate: string;
    itFileName: string;
    enFileName: string;
    uploadedBy: number;
    createdAt: Date;
  },
  files: Record<CertificateLanguage, StoredFile>,
): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(certificates).values(values).returning({ id: certificates.id });
    if (!row) throw new Error('certificate insert returned no row');
    await tx.insert(certificateFiles).values(
      (Object.entries(files) as Array<[CertificateLanguage, StoredFile]>).map(([language, file]) => ({
        certificateId: row.id,
        language,
        content: Buffer.from(file.content.buffer, file.content.byteOffset, file.content.byteLength),
        contentType: file.contentType,
        sizeBytes: file.content.byteLength,
      })),
    );
    return row.id;
  });
}

/**
 * Deletes the certificate; its files go with it (on delete cascade). Answers what the audit trail
 * records of it, or undefined when there was none.
 */
/**
 * Records of the certificate's lot certified now that would not be without it (no other certificate of
 * the lot reaching their day); undefined when there is no such certificate.
 */
export async function recordsLosingCertification(db: Db, id: number): Promise<number | undefined> {
  const { rows } = await db.execute<{ n: string | null }>(sql`
    select (select count(*) from sterilizations s
      where s.consumables_lot = c.lot_number and s.lot_status = 'certified'
        and lot_status_on((select max(o.expiration_date) from certificates o
          where o.lot_number = c.lot_number and o.id <> c.id), s.received_ts) <> 'certified') as n
    from certificates c where c.id = ${id}`);
  const row = rows[0];
  return row ? Number(row.n ?? 0) : undefined;
}

export async function deleteCertificate(tx: Tx, id: number): Promise<AuditFields | undefined> {
  // Read before the delete: the Italian file's digest names exactly which document was removed.
  const [row] = await tx
    .select({
      ...columns,
      itFileSha256: sql<string | null>`(select encode(sha256(f.content), 'hex') from certificate_files f
        where f.certificate_id = ${certificates.id} and f.language = 'it')`,
    })
    .from(certificates)
    .where(eq(certificates.id, id))
    .for('update');
  if (!row) return undefined;
  await tx.delete(certificates).where(eq(certificates.id, id));
  return certificateAuditFields(row, row.itFileSha256);
}

/** What the audit trail records of a certificate (docs/audit.md), with its Italian file's sha256. */
export function certificateAuditFields(
  row: Pick<Row, 'lotNumber' | 'validatedTreatmentNumber' | 'expirationDate' | 'itFileName' | 'enFileName'>,
  itFileSha256: string | null,
): AuditFields {
  return {
    lot_number: row.lotNumber,
    validated_treatment_number: row.validatedTreatmentNumber,
    expiration_date: row.expirationDate,
    it_file_name: row.itFileName,
    it_file_sha256: itFileSha256,
    en_file_name: row.enFileName ?? checklistFileName(row.lotNumber, row.validatedTreatmentNumber),
  };
}

export interface FileInfo {
  fileName: string;
  contentType: string;
  sizeBytes: number;
}

/** What a download needs to send its headers; undefined when the certificate or the file is missing. */
export async function findFileInfo(
  db: Db,
  id: number,
  language: CertificateLanguage,
): Promise<FileInfo | undefined> {
  const [row] = await db
    .select({
      lotNumber: certificates.lotNumber,
      validatedTreatmentNumber: certificates.validatedTreatmentNumber,
      itFileName: certificates.itFileName,
      enFileName: certificates.enFileName,
      contentType: certificateFiles.contentType,
      sizeBytes: certificateFiles.sizeBytes,
    })
    .from(certificates)
    .innerJoin(
      certificateFiles,
      and(eq(certificateFiles.certificateId, certificates.id), eq(certificateFiles.language, language)),
    )
    .where(eq(certificates.id, id));
  if (!row) return undefined;
  const fileName =
    language === 'it'
      ? row.itFileName
      : (row.enFileName ?? checklistFileName(row.lotNumber, row.validatedTreatmentNumber));
  return { fileName, contentType: row.contentType, sizeBytes: row.sizeBytes };
}

/** One slice of a stored file (bytes offset … offset+length-1), or undefined when the file is gone. */
export async function readFileChunk(
  db: Db,
  id: number,
  language: CertificateLanguage,
  offset: number,
  length: number,
): Promise<Buffer | undefined> {
  const [row] = await db
    .select({
      part: sql<Buffer>`substring(${certificateFiles.content} from ${offset + 1}::int for ${length}::int)`,
    })
    .from(certificateFiles)
    .where(and(eq(certificateFiles.certificateId, id), eq(certificateFiles.language, language)));
  return row?.part;
}
