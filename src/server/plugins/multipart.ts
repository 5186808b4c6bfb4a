/**
 * Multipart forms (docs/product.md §7: most writes are multipart posts). Text fields become strings on the
 * body (a repeated field becomes an array, which the contract then refuses); a file becomes an
 * UploadedFile held in memory (uploads are small PDFs stored in the database anyway).
 *
 * Limits, each answered in the envelope: a file over UPLOAD_MAX_BYTES is 413 `file_too_large`; more
 * than one file, too many fields, a field over FIELD_MAX_BYTES (never silently cut), or a declared
 * Content-Length over the upload limit plus FIELDS_ALLOWANCE_BYTES is 413 `payload_too_large`; a body
 * that is not well-formed multipart is 400 `bad_request`. A sender without Content-Length is still
 * held to the per-part limits, so no form costs more than about UPLOAD_MAX_BYTES + 16 MiB of memory.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../http/envelope.ts';

export interface UploadedFile {
  filename: string;
  mimetype: string;
  data: Buffer;
}

export function isUploadedFile(value: unknown): value is UploadedFile {
  return typeof value === 'object' && value !== null && Buffer.isBuffer((value as UploadedFile).data);
}

/**
 * Large enough for the longest text the contract takes (65,535 characters of notes, at up to four
 * UTF-8 bytes each), so a field at this limit is always refused, never accepted truncated.
 */
export const FIELD_MAX_BYTES = 256 * 1024;
const MAX_FIELDS = 60;
/** Room for the text fields and the multipart framing beside the one file. */
export const FIELDS_ALLOWANCE_BYTES = 1024 * 1024;

const payloadTooLarge = () => new ApiError(413, 'payload_too_large');

function refusal(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new ApiError(413, 'file_too_large');
  if (statusCode === 413) return payloadTooLarge();
  // Malformed multipart (busboy), a field named after an Object.prototype member, a broken JSON part.
  return new ApiError(400, 'bad_request');
}

async function readForm(request: FastifyRequest): Promise<Record<string, unknown>> {
  const values = new Map<string, unknown[]>();
  try {
    for await (const part of request.parts()) {
      if (part.fieldname in Object.prototype) throw new ApiError(400, 'bad_request');
      let value: unknown;
      if (part.type === 'file') {
        const file: UploadedFile = {
          filename: part.filename,
          mimetype: part.mimetype,
          data: await part.toBuffer(),
        };
        value = file;
      } else {
        if (part.valueTruncated || part.fieldnameTruncated) throw payloadTooLarge();
        value = part.value;
      }
      values.set(part.fieldname, [...(values.get(part.fieldname) ?? []), value]);
    }
  } catch (error) {
    throw refusal(error);
  }
  const body: Record<string, unknown> = {};
  for (const [name, list] of values) body[name] = list.length === 1 ? list[0] : list;
  return body;
}

export async function registerMultipart(app: FastifyInstance, uploadMaxBytes: number): Promise<void> {
  await app.register(multipart, {
    limits: {
      fileSize: uploadMaxBytes,
      files: 1,
      fields: MAX_FIELDS,
      fieldSize: FIELD_MAX_BYTES,
      parts: MAX_FIELDS + 1,
      headerPairs: 20,
    },
    throwFileSizeLimit: true,
  });
  const maxRequestBytes = uploadMaxBytes + FIELDS_ALLOWANCE_BYTES;
  app.addHook('preValidation', async (request) => {
    if (!request.isMultipart()) return;
    if (Number(request.headers['content-length']) > maxRequestBytes) throw payloadTooLarge();
    request.body = await readForm(request);
  });
}
