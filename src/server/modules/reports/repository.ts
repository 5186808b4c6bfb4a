/** Compliance reports and their signed versions: the SQL (docs/reports.md). */
import { type SQL, sql } from 'drizzle-orm';
import { idArray } from '#server/db/array-parameter.ts';
import type { Db, Tx } from '#server/db/client.ts';
import type { ReportLanguage, SignatureMeaning } from '#server/db/schema.ts';
import { isoTimestamp as iso } from '#server/db/timestamps.ts';
import type { Schemas } from '#shared/api/index.ts';

export type ReportAnswer = Schemas['Report'];
export type ReportStatus = Schemas['ReportStatus'];
export type ReportSort = 'created_at' | 'period_from';

/** A report's state: draft until signed, then its latest signature's meaning. */
const STATUS_SQL = sql`coalesce((select v.meaning from report_versions v where v.report_id = r.id
  order by v.version desc limit 1), 'draft')`;

type ReportRow = {
  id: number;
  customer_id: number;
  period_from: string;
  period_to: string;
  language: ReportLanguage;
  status: ReportStatus;
  created_at: Date;
  created_by: number | null;
  created_by_name: string | null;
  draft_sha256: string;
};

type VersionRow = {
  report_id: number;
  version: number;
  sha256: string;
  size_bytes: number;
  signer_user_id: number;
  signer_name: string;
  meaning: SignatureMeaning;
  comment: string | null;
  signed_at: Date;
  block_id: number | null;
  block_status: Schemas['BlockStatus'] | null;
  network: string | null;
  transaction_hash: string | null;
};

const REPORT_COLUMNS = sql`r.id, r.customer_id, to_char(r.period_from, 'YYYY-MM-DD') as period_from,
  to_char(r.period_to, 'YYYY-MM-DD') as period_to, r.language, ${STATUS_SQL} as status, r.created_at,
  r.created_by, u.name as created_by_name, r.draft_sha256`;

async function versionsOf(db: Db | Tx, reportIds: number[]): Promise<Map<number, ReportAnswer['versions']>> {
  const byReport = new Map<number, ReportAnswer['versions']>();
  if (reportIds.length === 0) return byReport;
  const rows = await db.execute<VersionRow>(sql`
    select v.report_id, v.version, v.sha256, v.size_bytes, v.signer_user_id, v.signer_name, v.meaning, v.comment,
      v.signed_at, v.blockchain_data_block_id as block_id, b.status as block_status, b.network, b.transaction_hash
    from report_versions v left join blockchain_data_blocks b on b.id = v.blockchain_data_block_id
    where v.report_id = any(${idArray(reportIds)}::int[])
    order by v.report_id, v.version`);
  for (const row of rows.rows) {
    const reportId = Number(row.report_id);
    const versions = byReport.get(reportId) ?? [];
    versions.push({
      version: Number(row.version),
      sha256: row.sha256,
      size_bytes: Number(row.size_bytes),
      signer_user_id: Number(row.signer_user_id),
      signer_name: row.signer_name,
      meaning: row.meaning,
      comment: row.comment,
      signed_at: iso(row.signed_at),
      anchoring: {
        status: row.block_status ?? 'WAITING',
        block_id: row.block_id === null ? null : Number(row.block_id),
        network: row.network,
        transaction_hash: row.transaction_hash,
      },
    });
    byReport.set(reportId, versions);
  }
  return byReport;
}

function toReport(row: ReportRow, versions: ReportAnswer['versions']): ReportAnswer {
  return {
    id: Number(row.id),
    customer_id: Number(row.customer_id),
    period_from: row.period_from,
    period_to: row.period_to,
    language: row.language,
    status: row.status,
    created_at: iso(row.created_at),
    created_by:
      row.created_by === null ? null : { id: Number(row.created_by), name: row.created_by_name ?? '' },
    draft_sha256: row.draft_sha256,
    versions,
  };
}

export async function listReportPage(
  db: Db,
  options: {
    customerId: number;
    sortBy: ReportSort;
    dir: 'asc' | 'desc';
    status?: ReportStatus | undefined;
    language?: ReportLanguage | undefined;
    limit: number;
    offset: number;
  },
): Promise<{ rows: ReportAnswer[]; total: number }> {
  const filters: SQL[] = [sql`r.customer_id = ${options.customerId}`];
  if (options.status) filters.push(sql`${STATUS_SQL} = ${options.status}`);
  if (options.language) filters.push(sql`r.language = ${options.language}`);
  const where = sql.join(filters, sql` and `);
  const dir = sql.raw(options.dir);
  const order =
    options.sortBy === 'period_from'
      ? sql`r.period_from ${dir}, r.period_to ${dir}, r.id ${dir}`
      : sql`r.created_at ${dir}, r.id ${dir}`;
  const [page, total] = await Promise.all([
    db.execute<ReportRow>(sql`
      select ${REPORT_COLUMNS} from reports r left join users u on u.id = r.created_by
      where ${where} order by ${order} limit ${options.limit} offset ${options.offset}`),
    db.execute<{ n: string }>(sql`select count(*) as n from reports r where ${where}`),
  ]);
  const versions = await versionsOf(
    db,
    page.rows.map((row) => Number(row.id)),
  );
  return {
    rows: page.rows.map((row) => toReport(row, versions.get(Number(row.id)) ?? [])),
    total: Number(total.rows[0]?.n ?? 0),
  };
}

/** A report of this customer (undefined for another customer's id: the path must name its owner). */
export async function findReport(
  db: Db | Tx,
  customerId: number,
  reportId: number,
): Promise<ReportAnswer | undefined> {
  const result = await db.execute<ReportRow>(sql`
    select ${REPORT_COLUMNS} from reports r left join users u on u.id = r.created_by
    where r.id = ${reportId} and r.customer_id = ${customerId}`);
  const row = result.rows[0];
  if (!row) return undefined;
  return toReport(row, (await versionsOf(db, [reportId])).get(reportId) ?? []);
}

/** The id the next report will have, so that its PDF can print it before the row exists. */
export async function nextReportId(db: Db): Promise<number> {
  const result = await db.execute<{ id: string }>(
    sql`select nextval(pg_get_serial_sequence('reports', 'id')) as id`,
  );
  return Number(result.rows[0]!.id);
}

export async function insertReport(
  tx: Tx,
  report: {
    id: number;
    customerId: number;
    periodFrom: string;
    periodTo: string;
    language: ReportLanguage;
    createdBy: number;
    createdAt: Date;
    draftPdf: Uint8Array;
    draftSha256: string;
  },
): Promise<void> {
  await tx.execute(sql`
    insert into reports (id, customer_id, period_from, period_to, language, created_by, created_at, draft_pdf,
      draft_sha256)
    values (${report.id}, ${report.customerId}, ${report.periodFrom}, ${report.periodTo}, ${report.language},
      ${report.createdBy}, ${report.createdAt.toISOString()}, ${Buffer.from(report.draftPdf)}, ${report.draftSha256})`);
}

/** The draft's bytes, or a signed version's (version ≥ 1). */
export async function readReportPdf(
  db: Db | Tx,
  customerId: number,
  reportId: number,
  version: number,
): Promise<Buffer | undefined> {
  const result =
    version === 0
      ? await db.execute<{ pdf: Buffer }>(sql`select draft_pdf as pdf from reports
          where id = ${reportId} and customer_id = ${customerId}`)
      : await db.execute<{
          pdf: Buffer;
        }>(sql`select v.pdf from report_versions v join reports r on r.id = v.report_id
          where v.report_id = ${reportId} and r.customer_id = ${customerId} and v.version = ${version}`);
  return result.rows[0]?.pdf;
}

/**
 * Locks a report for a signature (two signers at once take turns) and gives what the next version is
 * made from: the latest signed bytes (or the draft), how many signatures it has and the last meaning.
 */
export async function lockForSigning(
  tx: Tx,
  customerId: number,
  reportId: number,
): Promise<
  | { language: ReportLanguage; signatures: number; lastMeaning: SignatureMeaning | null; latestPdf: Buffer }
  | undefined
> {
  const locked = await tx.execute<{ language: ReportLanguage; draft_pdf: Buffer }>(sql`
    select language, draft_pdf from reports where id = ${reportId} and customer_id = ${customerId} for update`);
  const report = locked.rows[0];
  if (!report) return undefined;
  const latest = await tx.execute<{ version: number; meaning: SignatureMeaning; pdf: Buffer }>(sql`
    select version, meaning, pdf from report_versions where report_id = ${reportId} order by version desc limit 1`);
  const last = latest.rows[0];
  return {
    language: report.language,
    signatures: last ? Number(last.version) : 0,
    lastMeaning: last?.meaning ?? null,
    latestPdf: last?.pdf ?? report.draft_pdf,
  };
}

export async function insertReportVersion(
  tx: Tx,
  version: {
    reportId: number;
    version: number;
    pdf: Uint8Array;
    sha256: string;
    signerUserId: number;
    signerName: string;
    signerEmail: string;
    meaning: SignatureMeaning;
    comment: string | null;
    signedAt: Date;
  },
): Promise<void> {
  await tx.execute(sql`
    insert into report_versions (report_id, version, pdf, sha256, size_bytes, signer_user_id, signer_name,
      signer_email, meaning, comment, signed_at)
    values (${version.reportId}, ${version.version}, ${Buffer.from(version.pdf)}, ${version.sha256},
      ${version.pdf.length}, ${version.signerUserId}, ${version.signerName}, ${version.signerEmail},
      ${version.meaning}, ${version.comment}, ${version.signedAt.toISOString()})`);
}

/** Whether this signer has signed the report with this meaning at or after `since`. */
export async function signedSince(
  tx: Tx,
  reportId: number,
  signerUserId: number,
  meaning: SignatureMeaning,
  since: Date,
): Promise<boolean> {
  const found = await tx.execute(sql`
    select 1 from report_versions
    where report_id = ${reportId} and signer_user_id = ${signerUserId} and meaning = ${meaning}
      and signed_at >= ${since.toISOString()}
    limit 1`);
  return found.rows.length > 0;
}

/** What a version's proof receipt needs, once the version is in a block with a transaction. */
export async function versionAnchor(
  db: Db,
  customerId: number,
  reportId: number,
  version: number,
): Promise<
  | {
      sha256: string;
      proof: string[] | null;
      blockId: number | null;
      root: string | null;
      network: string | null;
      transactionHash: string | null;
    }
  | undefined
> {
  const result = await db.execute<{
    sha256: string;
    merkle_proof: string[] | null;
    block_id: number | null;
    merkle_root: string | null;
    network: string | null;
    transaction_hash: string | null;
  }>(sql`
    select v.sha256, v.merkle_proof, v.blockchain_data_block_id as block_id, b.merkle_root, b.network, b.transaction_hash
    from report_versions v join reports r on r.id = v.report_id
      left join blockchain_data_blocks b on b.id = v.blockchain_data_block_id
    where v.report_id = ${reportId} and r.customer_id = ${customerId} and v.version = ${version}`);
  const row = result.rows[0];
  if (!row) return undefined;
  return {
    sha256: row.sha256,
    proof: row.merkle_proof,
    blockId: row.block_id === null ? null : Number(row.block_id),
    root: row.merkle_root,
    network: row.network,
    transactionHash: row.transaction_hash,
  };
}

/** The signer as the manifestation prints them, with the hash their password is checked against. */
export async function signerOf(
  tx: Db | Tx,
  userId: number,
): Promise<{ name: string; email: string; passwordHash: string } | undefined> {
  const result = await tx.execute<{ name: string; email: string; password_hash: string }>(sql`
    select name, email, password_hash from users where id = ${userId} and deleted_at is null`);
  const row = result.rows[0];
  return row ? { name: row.name, email: row.email, passwordHash: row.password_hash } : undefined;
}
