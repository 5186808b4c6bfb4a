/**
 * Quality certificates (docs/product.md §2 Certificate list / upload, §7, §8). Certificates are global: lots
 * are the manufacturer's, so every user with the certificates module lists and downloads all of
 * them, and only canUploadCertificates uploads or deletes (docs/adr/0013-certificates.md).
 * An upload stores the row, the Italian PDF and the generated quality control checklist in one
 * transaction.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { mixed } from 'yup';
import { type FormValues, withForm } from '#server/contract/form-operation.ts';
import type { ApiModule } from '#server/contract/handler-types.ts';
import type { Db } from '#server/db/client.ts';
import type { CertificateLanguage } from '#server/db/schema.ts';
import { searchText } from '#server/db/text-search.ts';
import { isUniqueViolation } from '#server/db/unique-violation.ts';
import { written } from '#server/db/written.ts';
import { ApiError, ok, validationFailed } from '#server/http/envelope.ts';
import { pageOf, pageRequest } from '#server/http/paging.ts';
import { generateChecklistPdf } from '#server/pdf/checklist.ts';
import { isPdf } from '#server/pdf/is-pdf.ts';
import { isUploadedFile, type UploadedFile } from '#server/plugins/multipart.ts';
import { currentAuth, requireAbility, requireModule } from '#server/security/guards.ts';
import { certificateUploadSchema, type FieldErrors } from '#shared/validation/index.ts';
import { auditSource, changedFields, writeAudited } from '../audit/index.ts';
import {
  checklistFileName,
  contentDisposition,
  fallbackItalianName,
  sanitizeUploadedName,
} from './file-names.ts';
import {
  type CertificateSort,
  certificateAuditFields,
  deleteCertificate,
  findCertificate,
  findFileInfo,
  insertCertificateWithFiles,
  listCertificatePage,
  pairTaken,
  readFileChunk,
  recordsLosingCertification,
} from './repository.ts';

const PDF_NAME = /\.pdf$/i;
/** Downloads are read from the database in slices, so a large file never holds the connection long. */
export const DOWNLOAD_CHUNK_BYTES = 256 * 1024;

export const certificateNotFound = () => new ApiError(404, 'certificates.not_found');
const duplicatePair = (): FieldErrors => ({ lot_number: ['validation.certificate.duplicate'] });

/**
 * The shared form schema, with the file as the server sees it (plugins/multipart.ts: `filename`),
 * so its messages also replace the contract's generic ones (register-operations.ts).
 */
const uploadFormSchema = certificateUploadSchema.shape({
  italian_file: mixed<UploadedFile>()
    .required('validation.certificate.file.required')
    .test('pdf', 'validation.certificate.file.pdf', (file) => {
      if (file === undefined || file === null) return true;
      return isUploadedFile(file) && PDF_NAME.test(file.filename);
    }),
});

/** The upload's rules the schema cannot know: a real day, a PDF by its content, a pair not taken yet. */
async function uploadRules(db: Db, values: FormValues, errors: FieldErrors): Promise<void> {
  const { expiration_date: expiration, italian_file: file } = values;
  if (typeof expiration === 'string' && !errors.expiration_date && !isCalendarDate(expiration)) {
    errors.expiration_date = ['validation.certificate.expiration_date.required'];
  }
  // The content decides, not the name or the MIME type the browser sent.
  if (isUploadedFile(file) && !errors.italian_file && !(await isPdf(file.data))) {
    errors.italian_file = ['validation.certificate.file.pdf'];
  }
  const { lot_number: lotNumber, validated_treatment_number: treatment } = values;
  if (typeof lotNumber === 'string' && typeof treatment === 'string' && !errors.lot_number) {
    if (await pairTaken(db, lotNumber, treatment)) Object.assign(errors, duplicatePair());
  }
}

/** A real calendar day (2027-02-31 is not one). */
function isCalendarDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

function fileStream(db: Db, id: number, language: CertificateLanguage, size: number): Readable {
  async function* chunks() {
    for (let offset = 0; offset < size; offset += DOWNLOAD_CHUNK_BYTES) {
      const part = await readFileChunk(
        db,
        id,
        language,
        offset,
        Math.min(DOWNLOAD_CHUNK_BYTES, size - offset),
      );
      // Deleted while being sent: end with an error rather than a silently truncated PDF.
      if (!part || part.length === 0)
        throw new Error(`certificate ${id} (${language}) vanished during download`);
      yield part;
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

export function certificatesModule(deps: { db: Db }): ApiModule {
  const { db } = deps;

  return {
    handlers: {
      async listCertificates(request) {
        requireModule(request, 'certificates');
        const { page, q, sortBy, sortDir } = request.query;
        const paging = pageRequest(page, request.query.perPage);
        const { rows, total } = await listCertificatePage(db, {
          sortBy: (sortBy ?? 'lot_number') as CertificateSort,
          dir: sortDir === 'desc' ? 'desc' : 'asc',
          limit: paging.limit,
          offset: paging.offset,
          search: searchText(q),
        });
        return ok(pageOf(rows, total, paging));
      },

      uploadCertificate: withForm(
        {
          authorize: (request) => requireAbility(request, 'canUploadCertificates'),
          schema: uploadFormSchema,
          rules: (values, _auth, errors) => uploadRules(db, values, errors),
        },
        async (request, { form, subject: auth }, reply) => {
          const {
            lot_number: lotNumber,
            validated_treatment_number: treatment,
            expiration_date: expirationDate,
            italian_file: file,
          } = form;
          const uploadedAt = new Date();
          const itFileName = sanitizeUploadedName(file.filename, fallbackItalianName(lotNumber, treatment));
          const enFileName = checklistFileName(lotNumber, treatment);
          const checklist = await generateChecklistPdf({
            lotNumber,
            validatedTreatmentNumber: treatment,
            expirationDate,
            uploadedAt,
            uploadedBy: auth.user.name || auth.user.email,
            italianFileName: itFileName,
          });

          let id: number;
          try {
            const uploaded = { action: 'upload', entityType: 'certificate' } as const;
            id = await writeAudited(db, auditSource(request, auth), uploaded, async (tx) => {
              const values = {
                lotNumber,
                validatedTreatmentNumber: treatment,
                expirationDate,
                itFileName,
                enFileName,
                uploadedBy: auth.user.id,
                createdAt: uploadedAt,
              };
              const certificateId = await insertCertificateWithFiles(tx, values, {
                it: { content: file.data, contentType: 'application/pdf' },
                en: { content: checklist, contentType: 'application/pdf' },
              });
              const digest = createHash('sha256').update(file.data).digest('hex');
              return {
                result: certificateId,
                entityId: certificateId,
                changes: changedFields(null, certificateAuditFields(values, digest)),
              };
            });
          } catch (error) {
            // Two uploads of the same pair racing: the unique index decides, nothing half-saved.
            if (isUniqueViolation(error, 'certificates_lot_treatment_uq'))
              throw validationFailed(duplicatePair());
            throw error;
          }
          reply.code(201);
          return ok(written(await findCertificate(db, id), 'certificate'), 'certificates.uploaded');
        },
      ),

      async getCertificateDeletionImpact(request) {
        requireAbility(request, 'canUploadCertificates');
        const records = await recordsLosingCertification(db, request.params.id);
        if (records === undefined) throw certificateNotFound();
        return ok({ records_losing_certification: records });
      },

      async deleteCertificate(request) {
        const auth = requireAbility(request, 'canUploadCertificates');
        const deleted = { action: 'delete', entityType: 'certificate', entityId: request.params.id } as const;
        await writeAudited(db, auditSource(request, auth), deleted, async (tx) => {
          const removed = await deleteCertificate(tx, request.params.id);
          if (!removed) throw certificateNotFound();
          return { result: undefined, changes: changedFields(removed, null) };
        });
        return ok(null, 'certificates.deleted');
      },

      async downloadCertificate(request, reply) {
        currentAuth(request);
        requireModule(request, 'certificates');
        const { id, lang } = request.params;
        const info = await findFileInfo(db, id, lang);
        if (!info) throw certificateNotFound();
        reply
          .header('Content-Type', info.contentType)
          .header('Content-Length', String(info.sizeBytes))
          .header('Content-Disposition', contentDisposition(info.fileName))
          .header('Cache-Control', 'private, no-store')
          .header('X-Content-Type-Options', 'nosniff');
        return reply.send(fileStream(db, id, lang, info.sizeBytes));
      },
    },
  };
}
