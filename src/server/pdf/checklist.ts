/**
 * The quality control checklist generated for every uploaded certificate (docs/product.md §2 Certificate
 * list: the `en` file, quality_control_checklist_{lot}_{treatment}.pdf). One A4 page a quality reviewer
 * prints, ticks and signs to release a lot of sterilization consumables: the lot's identity, the
 * checks that release needs, a decision and signature boxes. Drawn with pdf-lib's standard fonts,
 * so nothing is embedded and the file stays a few kilobytes, on the page, colours and text fitting of
 * the reports (report/layout.ts).
 */
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import {
  ACCENT,
  CONTENT_WIDTH,
  encodable,
  fitText,
  INK,
  MARGIN,
  MUTED,
  PAGE,
  RULE,
  SHADE,
  wrap,
} from './report/layout.ts';

export interface ChecklistInput {
  lotNumber: string;
  validatedTreatmentNumber: string;
  /** YYYY-MM-DD. */
  expirationDate: string;
  uploadedAt: Date;
  uploadedBy: string;
  /** The Italian certificate this checklist accompanies. */
  italianFileName: string;
}

/** What a quality reviewer checks before releasing a lot of sterilization consumables. */
export const CHECKLIST_ITEMS: ReadonlyArray<{ title: string; detail: string }> = [
  {
    title: 'Sterilization certificate matches the lot',
    detail: 'The Italian certificate is legible and states the lot number and treatment number above.',
  },
  {
    title: 'Validated treatment confirmed',
    detail: 'The treatment number refers to a validated sterilization cycle; parameters were within limits.',
  },
  {
    title: 'Bioburden and sterility test results reviewed',
    detail: 'Test reports for this lot are on file and every result is within specification.',
  },
  {
    title: 'Sterilization indicators reviewed',
    detail: 'Dosimeter or chemical indicator readings for the load are present and in range.',
  },
  {
    title: 'Expiry date verified',
    detail: 'The expiry date on the certificate equals the labelled one and leaves the required shelf life.',
  },
  {
    title: 'Packaging integrity',
    detail: 'Sampled sterile barriers are intact: no tears, punctures, moisture, stains or seal defects.',
  },
  {
    title: 'Labelling',
    detail: 'Product code, lot, expiry date, sterile symbol and CE marking are correct and legible.',
  },
  {
    title: 'Lot traceability',
    detail: 'The lot is recorded in the goods-in register with supplier, delivery note and date.',
  },
  {
    title: 'Quantity check',
    detail: 'Cartons and units received match the delivery note and the purchase order.',
  },
  {
    title: 'Storage conditions',
    detail: 'Stored since receipt as the manufacturer requires (temperature, humidity, no direct light).',
  },
  {
    title: 'Non-conformities',
    detail: 'None found, or each one is recorded with its reference in the notes below.',
  },
];

const WHITE = rgb(1, 1, 1);

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** YYYY-MM-DD HH:mm UTC: unambiguous whoever prints it. */
export function formatUtc(date: Date): string {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(
    date.getUTCHours(),
  )}:${pad(date.getUTCMinutes())} UTC`;
}

function checkbox(page: PDFPage, x: number, y: number, size = 10): void {
  page.drawRectangle({ x, y, width: size, height: size, borderColor: INK, borderWidth: 0.8, color: WHITE });
}

function drawHeader(page: PDFPage, fonts: Fonts, input: ChecklistInput): number {
  const top = PAGE.height - MARGIN;
  page.drawRectangle({ x: MARGIN, y: top - 4, width: CONTENT_WIDTH, height: 4, color: ACCENT });
  page.drawText('UV Tech S.r.l.  -  Quality Assurance', {
    x: MARGIN,
    y: top - 22,
    size: 9,
    font: fonts.bold,
    color: ACCENT,
  });
  const reference = fitText(
    fonts.regular,
    `Ref. QCC-${input.lotNumber}-${input.validatedTreatmentNumber}`,
    9,
    CONTENT_WIDTH / 2,
  );
  page.drawText(reference, {
    x: PAGE.width - MARGIN - fonts.regular.widthOfTextAtSize(reference, 9),
    y: top - 22,
    size: 9,
    font: fonts.regular,
    color: MUTED,
  });
  page.drawText('Quality Control Checklist', {
    x: MARGIN,
    y: top - 50,
    size: 22,
    font: fonts.bold,
    color: INK,
  });
  page.drawText('Release review of a lot of sterilization consumables', {
    x: MARGIN,
    y: top - 67,
    size: 10.5,
    font: fonts.regular,
    color: MUTED,
  });
  return top - 82;
}

/** The lot's identity: a shaded two-column grid of label / value pairs. */
function drawDetails(page: PDFPage, fonts: Fonts, input: ChecklistInput, top: number): number {
  const rows: Array<[string, string, string, string]> = [
    ['Lot number', input.lotNumber, 'Expiration date', input.expirationDate],
    [
      'Validated treatment number',
      input.validatedTreatmentNumber,
      'Upload date',
      formatUtc(input.uploadedAt),
    ],
    ['Italian certificate', input.italianFileName, 'Uploaded by', input.uploadedBy],
  ];
  const rowHeight = 27;
  const height = rows.length * rowHeight + 8;
  const y0 = top - height;
  page.drawRectangle({
    x: MARGIN,
    y: y0,
    width: CONTENT_WIDTH,
    height,
    color: SHADE,
    borderColor: RULE,
    borderWidth: 0.8,
  });
  const columnWidth = CONTENT_WIDTH / 2;
  rows.forEach((row, index) => {
    const y = top - 8 - index * rowHeight;
    for (let column = 0; column < 2; column++) {
      const label = row[column * 2] ?? '';
      const value = row[column * 2 + 1] ?? '';
      const x = MARGIN + 12 + column * columnWidth;
      page.drawText(label.toUpperCase(), { x, y: y - 7, size: 7, font: fonts.bold, color: MUTED });
      page.drawText(fitText(fonts.bold, value || '-', 11, columnWidth - 24), {
        x,
        y: y - 20,
        size: 11,
        font: fonts.bold,
        color: INK,
      });
    }
  });
  return y0 - 20;
}

function drawChecklist(page: PDFPage, fonts: Fonts, top: number): number {
  const columns = { number: MARGIN + 8, item: MARGIN + 30, pass: PAGE.width - MARGIN - 110 };
  const boxColumns = [
    { label: 'Pass', x: columns.pass },
    { label: 'Fail', x: columns.pass + 38 },
    { label: 'N/A', x: columns.pass + 76 },
  ];
  const itemWidth = columns.pass - columns.item - 12;

  page.drawText('Checks', { x: MARGIN, y: top, size: 12, font: fonts.bold, color: INK });
  let y = top - 10;
  const headerHeight = 18;
  page.drawRectangle({
    x: MARGIN,
    y: y - headerHeight,
    width: CONTENT_WIDTH,
    height: headerHeight,
    color: ACCENT,
  });
  page.drawText('#', { x: columns.number, y: y - 12.5, size: 8.5, font: fonts.bold, color: WHITE });
  page.drawText('Check item', { x: columns.item, y: y - 12.5, size: 8.5, font: fonts.bold, color: WHITE });
  for (const box of boxColumns) {
    const width = fonts.bold.widthOfTextAtSize(box.label, 8.5);
    page.drawText(box.label, {
      x: box.x + 5 - width / 2,
      y: y - 12.5,
      size: 8.5,
      font: fonts.bold,
      color: WHITE,
    });
  }
  y -= headerHeight;

  CHECKLIST_ITEMS.forEach((item, index) => {
    const detail = wrap(fonts.regular, item.detail, 8, itemWidth);
    const height = 20 + detail.length * 9.5;
    if (index % 2 === 1) {
      page.drawRectangle({ x: MARGIN, y: y - height, width: CONTENT_WIDTH, height, color: SHADE });
    }
    page.drawText(`${index + 1}.`, { x: columns.number, y: y - 13, size: 9.5, font: fonts.bold, color: INK });
    page.drawText(fitText(fonts.bold, item.title, 9.5, itemWidth), {
      x: columns.item,
      y: y - 13,
      size: 9.5,
      font: fonts.bold,
      color: INK,
    });
    detail.forEach((line, lineIndex) => {
      page.drawText(line, {
        x: columns.item,
        y: y - 23.5 - lineIndex * 9.5,
        size: 8,
        font: fonts.regular,
        color: MUTED,
      });
    });
    const boxY = y - height / 2 - 5;
    for (const box of boxColumns) checkbox(page, box.x, boxY);
    y -= height;
    page.drawLine({
      start: { x: MARGIN, y },
      end: { x: PAGE.width - MARGIN, y },
      thickness: 0.5,
      color: RULE,
    });
  });
  return y - 18;
}

function drawNotes(page: PDFPage, fonts: Fonts, top: number): number {
  page.drawText('Notes and deviations', { x: MARGIN, y: top, size: 12, font: fonts.bold, color: INK });
  const height = 48;
  const y0 = top - 8 - height;
  page.drawRectangle({ x: MARGIN, y: y0, width: CONTENT_WIDTH, height, borderColor: RULE, borderWidth: 0.8 });
  for (let line = 1; line <= 3; line++) {
    const y = y0 + height - line * 13;
    page.drawLine({
      start: { x: MARGIN + 10, y },
      end: { x: PAGE.width - MARGIN - 10, y },
      thickness: 0.4,
      color: RULE,
      dashArray: [2, 2],
    });
  }
  return y0 - 18;
}

function drawSignOff(page: PDFPage, fonts: Fonts, top: number): number {
  page.drawText('Decision and sign-off', { x: MARGIN, y: top, size: 12, font: fonts.bold, color: INK });
  let y = top - 22;
  const decisions = ['Lot released for use', 'Lot quarantined', 'Lot rejected'];
  let x = MARGIN;
  for (const decision of decisions) {
    checkbox(page, x, y - 2);
    page.drawText(decision, { x: x + 16, y, size: 9.5, font: fonts.regular, color: INK });
    x += 28 + fonts.regular.widthOfTextAtSize(decision, 9.5) + 24;
  }
  y -= 18;

  const gap = 16;
  const boxWidth = (CONTENT_WIDTH - gap) / 2;
  const boxHeight = 82;
  const roles = ['Reviewed by (quality control)', 'Approved by (quality assurance)'];
  roles.forEach((role, index) => {
    const bx = MARGIN + index * (boxWidth + gap);
    const by = y - boxHeight;
    page.drawRectangle({
      x: bx,
      y: by,
      width: boxWidth,
      height: boxHeight,
      borderColor: INK,
      borderWidth: 0.8,
    });
    page.drawRectangle({ x: bx, y: by + boxHeight - 18, width: boxWidth, height: 18, color: SHADE });
    page.drawText(role, { x: bx + 8, y: by + boxHeight - 12.5, size: 8.5, font: fonts.bold, color: INK });
    const fields = ['Name', 'Signature', 'Date'];
    fields.forEach((field, fieldIndex) => {
      const fy = by + boxHeight - 38 - fieldIndex * 19;
      page.drawText(field, { x: bx + 8, y: fy, size: 8, font: fonts.regular, color: MUTED });
      page.drawLine({
        start: { x: bx + 58, y: fy - 2 },
        end: { x: bx + boxWidth - 10, y: fy - 2 },
        thickness: 0.5,
        color: INK,
      });
    });
  });
  return y - boxHeight;
}

function drawFooter(page: PDFPage, fonts: Fonts, input: ChecklistInput): void {
  const y = MARGIN - 14;
  page.drawLine({
    start: { x: MARGIN, y: y + 12 },
    end: { x: PAGE.width - MARGIN, y: y + 12 },
    thickness: 0.5,
    color: RULE,
  });
  const left = `Generated automatically by uvtrace on ${formatUtc(input.uploadedAt)} when the certificate was uploaded.`;
  page.drawText(fitText(fonts.regular, left, 7.5, CONTENT_WIDTH - 60), {
    x: MARGIN,
    y,
    size: 7.5,
    font: fonts.regular,
    color: MUTED,
  });
  const right = 'Page 1 of 1';
  page.drawText(right, {
    x: PAGE.width - MARGIN - fonts.regular.widthOfTextAtSize(right, 7.5),
    y,
    size: 7.5,
    font: fonts.regular,
    color: MUTED,
  });
}

/** The checklist PDF's bytes. */
export async function generateChecklistPdf(input: ChecklistInput): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const fonts: Fonts = {
    regular: await document.embedFont(StandardFonts.Helvetica),
    bold: await document.embedFont(StandardFonts.HelveticaBold),
  };
  const title = `Quality control checklist - lot ${input.lotNumber}, treatment ${input.validatedTreatmentNumber}`;
  document.setTitle(encodable(fonts.regular, title));
  document.setSubject('Release review of a lot of sterilization consumables');
  document.setAuthor('UV Tech S.r.l.');
  document.setCreator('uvtrace');
  document.setProducer('uvtrace (pdf-lib)');
  document.setLanguage('en');
  document.setCreationDate(input.uploadedAt);
  document.setModificationDate(input.uploadedAt);

  const page = document.addPage([PAGE.width, PAGE.height]);
  let y = drawHeader(page, fonts, input);
  y = drawDetails(page, fonts, input, y);
  y = drawChecklist(page, fonts, y);
  y = drawNotes(page, fonts, y);
  drawSignOff(page, fonts, y);
  drawFooter(page, fonts, input);
  return document.save();
}
