/**
 * Reads the QR codes printed in a PDF, as a phone would scan them: every image of every page is
 * extracted (unpdf, pdf.js) and decoded with jsQR. Used by the API tests and Playwright.
 */
import jsQR from 'jsqr';
import { extractImages, getDocumentProxy } from 'unpdf';

/** The text of each QR code found in the PDF's images, page by page. */
export async function pdfQrCodes(bytes: Uint8Array): Promise<string[]> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const found: string[] = [];
  for (let page = 1; page <= pdf.numPages; page += 1) {
    for (const image of await extractImages(pdf, page)) {
      const rgba = new Uint8ClampedArray(image.width * image.height * 4);
      for (let i = 0; i < image.width * image.height; i += 1) {
        for (let c = 0; c < 3; c += 1) {
          rgba[i * 4 + c] = image.data[i * image.channels + (image.channels === 1 ? 0 : c)] ?? 0;
        }
        rgba[i * 4 + 3] = 255;
      }
      const code = jsQR(rgba, image.width, image.height);
      if (code) found.push(code.data);
    }
  }
  return found;
}
