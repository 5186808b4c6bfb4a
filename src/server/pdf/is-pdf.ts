/**
 * Whether uploaded bytes really are a PDF: judged by the content, never by the file name or the
 * MIME type the browser claims. The file must start with the `%PDF-` header (PDF 2.0 §7.5.2 allows
 * up to 1024 leading bytes of junk, which some producers write) and pdf-lib must be able to parse its
 * document structure down to at least one page.
 */
import { PDFDocument } from 'pdf-lib';

const MAGIC = Buffer.from('%PDF-', 'latin1');
const HEADER_WINDOW = 1024;

export function hasPdfHeader(data: Uint8Array): boolean {
  const window = Buffer.from(
    data.buffer,
    data.byteOffset,
    Math.min(data.byteLength, HEADER_WINDOW + MAGIC.length),
  );
  return window.indexOf(MAGIC) !== -1;
}

export async function isPdf(data: Uint8Array): Promise<boolean> {
  if (!hasPdfHeader(data)) return false;
  try {
    // An encrypted certificate is still a PDF: its structure parses without the password.
    const document = await PDFDocument.load(data, { ignoreEncryption: true, updateMetadata: false });
    return document.getPageCount() > 0;
  } catch {
    return false;
  }
}
