/**
 * Multipart forms (SPEC §7: most writes are multipart posts). Text fields become strings on the body;
 * a file becomes an UploadedFile held in memory (uploads are small PDFs stored in the database anyway),
 * refused with 413 beyond the configured size.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http/envelope.ts';

export interface UploadedFile {
  filename: string;
  mimetype: string;
  data: Buffer;
}

export function isUploadedFile(value: unknown): value is UploadedFile {
  return typeof value === 'object' && value !== null && Buffer.isBuffer((value as UploadedFile).data);
}

export async function registerMultipart(app: FastifyInstance, maxBytes: number): Promise<void> {
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: maxBytes, files: 5, fields: 60, fieldSize: 1024 * 1024, parts: 70 },
    throwFileSizeLimit: true,
    async onFile(part) {
      let data: Buffer;
      try {
        data = await part.toBuffer();
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
          throw new ApiError(413, 'file_too_large');
        throw error;
      }
      const file: UploadedFile = { filename: part.filename, mimetype: part.mimetype, data };
      (part as unknown as { value: UploadedFile }).value = file;
    },
  });
}
