/**
 * Prints a signature's manifestation (21 CFR 11.50: printed name, date and time, meaning) on every page
 * of a report, in the next free line of the band the report keeps for it. The input is the signed
 * document before (the draft or the previous version), so each version is the previous one plus one
 * signature, and what a signer approves is exactly what the reviewer saw.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import {
  CONTENT_WIDTH,
  fitText,
  INK,
  MARGIN,
  MAX_SIGNATURES,
  MUTED,
  SIGNATURE_LINE_GAP,
  signatureBaseline,
} from './layout.ts';
import { formatUtcSeconds, REPORT_TEXTS, type ReportLanguage, type SignatureMeaning } from './texts.ts';

export interface SignatureManifestation {
  /** 0 for the first signature of the report. */
  index: number;
  language: ReportLanguage;
  signerName: string;
  signerEmail: string;
  meaning: SignatureMeaning;
  comment: string | null;
  signedAt: Date;
}

export async function stampSignature(
  previous: Uint8Array,
  signature: SignatureManifestation,
): Promise<Uint8Array> {
  if (signature.index < 0 || signature.index >= MAX_SIGNATURES)
    throw new Error('no room for another signature');
  const t = REPORT_TEXTS[signature.language];
  const doc = await PDFDocument.load(previous, { updateMetadata: false });
  doc.setModificationDate(signature.signedAt);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const line = fitText(
    bold,
    `${signature.index + 1}. ${t.signedBy(t.meaning(signature.meaning), `${signature.signerName} <${signature.signerEmail}>`, formatUtcSeconds(signature.signedAt))}`,
    8,
    CONTENT_WIDTH,
  );
  const comment = signature.comment
    ? fitText(regular, `${t.comment}: ${signature.comment}`, 7.5, CONTENT_WIDTH - 10)
    : null;
  const y = signatureBaseline(signature.index);
  for (const page of doc.getPages()) {
    page.drawText(line, { x: MARGIN, y, size: 8, font: bold, color: INK });
    if (comment)
      page.drawText(comment, {
        x: MARGIN + 10,
        y: y - SIGNATURE_LINE_GAP,
        size: 7.5,
        font: regular,
        color: MUTED,
      });
  }
  return doc.save();
}
