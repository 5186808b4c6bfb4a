/**
 * The draft of a compliance report as it is downloaded: every page carries a "Draft — not signed" band
 * across its top, so a printed or forwarded draft can never pass for a signed report. The band is drawn
 * on the copy that is sent, never on the stored draft: signed versions are made from the stored draft
 * (signature-stamp.ts), and so never carry it.
 */
import { degrees, PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { PAGE } from './layout.ts';
import type { ReportLanguage } from './texts.ts';

const DRAFT_TEXT: Record<ReportLanguage, string> = {
  en: 'DRAFT - NOT SIGNED',
  it: 'BOZZA - NON FIRMATA',
};
const BAND = rgb(0.75, 0.1, 0.1);

export async function markDraft(pdf: Uint8Array, language: ReportLanguage): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.HelveticaBold);
  const text = DRAFT_TEXT[language];
  for (const page of doc.getPages()) {
    const { width, height } = page.getSize();
    page.drawRectangle({ x: 0, y: height - 18, width, height: 18, color: BAND });
    const size = 10;
    page.drawText(text, {
      x: (width - font.widthOfTextAtSize(text, size)) / 2,
      y: height - 13,
      size,
      font,
      color: rgb(1, 1, 1),
    });
    // A faint diagonal mark over the content, as paper drafts are stamped.
    page.drawText(text, {
      x: width * 0.14,
      y: PAGE.height * 0.3,
      size: 46,
      font,
      color: BAND,
      opacity: 0.08,
      rotate: degrees(35),
    });
  }
  return doc.save({ updateFieldAppearances: false });
}
