/**
 * The cycle report PDF of one sterilization record: customer, device, the record's 14 fields
 * in readable form, its status, its anchoring, and, for an anchored record, a QR code holding the public
 * /verify link with the record's proof receipt. Drawn with the compliance report's writer and fonts.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import QRCode from 'qrcode';
import { INTEGRITY_FIELDS, type IntegrityField } from '#shared/integrity/index.ts';
import {
  type AnchoringState,
  CYCLE_TEXTS,
  type CycleTexts,
  formatDecimalText,
  formatUtcMillis,
} from './cycle-texts.ts';
import { ACCENT, CONTENT_WIDTH, encodable, FOOTER_Y, fitText, INK, MARGIN, MUTED, wrap } from './layout.ts';
import { formatUtcSeconds, type ReportLanguage } from './texts.ts';
import { BODY, type Fonts, Writer } from './writer.ts';

export interface CycleReportInput {
  language: ReportLanguage;
  generatedAt: Date;
  customer: {
    id: number;
    name: string;
    address: string | null;
    postcode: string | null;
    city: string | null;
    country: string | null;
  };
  device: { serial: string; label: string; product: string };
  /** The 14 fields as the database holds them (numbers as exact decimal text). */
  record: Record<IntegrityField, string | null>;
  /** The device's own cycle time (UTC instant), when it sent one, and whether its clock ran ahead. */
  cycle: { at: Date | null; clockAhead: boolean };
  anchoring: {
    state: AnchoringState;
    blockId: number | null;
    network: string | null;
    transactionHash: string | null;
    /** The chain's block number holding the transaction (read from the node); null when unknown. */
    chainBlock: string | null;
    leaf: string;
    root: string | null;
  };
  /** The /verify link with the receipt in its fragment: present only for an anchored (MINED) record. */
  verificationLink: string | null;
}

/** Side of the printed QR code in points (about 7 cm). */
const QR_SIZE = 190;
/** Hashes are printed whole at this size (66 characters fit the content width). */
const HASH_SIZE = 8;

/**
 * A QR code of the link as PNG bytes: error correction M where the link fits, else L; null when it
 * fits neither (a QR code holds at most 2,953 bytes: a proof of about 17 nodes, a block of over 100,000
 * records).
 */
export async function qrPng(link: string): Promise<Uint8Array | null> {
  for (const errorCorrectionLevel of ['M', 'L'] as const) {
    try {
      return await QRCode.toBuffer(link, { type: 'png', errorCorrectionLevel, margin: 4, scale: 4 });
    } catch {
      // too long for this level
    }
  }
  return null;
}

function readable(t: CycleTexts, language: ReportLanguage, field: IntegrityField, value: string | null) {
  if (value === null || value === '') return t.none;
  const number = () => formatDecimalText(language, value);
  switch (field) {
    case 'received_ts': {
      const date = new Date(value);
      return Number.isNaN(date.getTime()) ? value : formatUtcMillis(date);
    }
    case 'nominal_time':
    case 'effective_time':
      return t.minutes(number());
    case 'residual_lamp_life':
      return t.hours(number());
    case 'status_code':
      return `${value} - ${t.statusName(Number(value))}`;
    case 'id':
    case 'progressive_id':
    case 'lot_progressive_id':
      return value;
    case 'supplied_energy':
    case 'latitude':
    case 'longitude':
      return number();
    default:
      return value;
  }
}

function drawFooters(doc: PDFDocument, fonts: Fonts, t: CycleTexts, input: CycleReportInput) {
  const pages = doc.getPages();
  const reference = `${t.title} - ${t.record} #${input.record.id} - ${input.customer.name}`;
  pages.forEach((page, i) => {
    const number = t.page(i + 1, pages.length);
    page.drawText(fitText(fonts.regular, reference, 7, CONTENT_WIDTH - 80), {
      x: MARGIN,
      y: FOOTER_Y,
      size: 7,
      font: fonts.regular,
      color: MUTED,
    });
    page.drawText(number, {
      x: MARGIN + CONTENT_WIDTH - fonts.regular.widthOfTextAtSize(number, 7),
      y: FOOTER_Y,
      size: 7,
      font: fonts.regular,
      color: MUTED,
    });
  });
}

/** The QR code on the left, what it is for and the page's address beside it. */
async function drawQr(doc: PDFDocument, w: Writer, t: CycleTexts, png: Uint8Array, page: string) {
  const image = await doc.embedPng(png);
  w.ensure(QR_SIZE + 6);
  const top = w.y;
  w.page.drawImage(image, { x: MARGIN, y: top - QR_SIZE - 4, width: QR_SIZE, height: QR_SIZE });
  const beside = { x: MARGIN + QR_SIZE + 12, width: CONTENT_WIDTH - QR_SIZE - 12 };
  w.y -= 4;
  w.text(t.verificationQr, beside);
  w.y -= 4;
  w.text(page, { ...beside, bold: true });
  w.y = Math.min(w.y, top - QR_SIZE - 8);
}

export async function renderCycleReport(input: CycleReportInput): Promise<Uint8Array> {
  const t = CYCLE_TEXTS[input.language];
  const { language, record, customer, anchoring } = input;
  const doc = await PDFDocument.create();
  doc.setTitle(`${t.title} #${record.id}`);
  doc.setLanguage(language);
  doc.setCreationDate(input.generatedAt);
  doc.setModificationDate(input.generatedAt);
  const fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
  };
  // No signature band: content may go down to just above the footer.
  const w = new Writer(doc, fonts, FOOTER_Y + 16);

  w.page.drawRectangle({ x: MARGIN, y: w.y - 4, width: CONTENT_WIDTH, height: 4, color: ACCENT });
  w.y -= 30;
  w.page.drawText(encodable(fonts.bold, t.title), {
    x: MARGIN,
    y: w.y,
    size: 18,
    font: fonts.bold,
    color: INK,
  });
  w.y -= 4;
  w.text(t.subtitle, { size: 10, color: MUTED });
  w.y -= 8;
  const address = [
    customer.address,
    [customer.postcode, customer.city].filter(Boolean).join(' '),
    customer.country,
  ]
    .filter((part) => part?.trim())
    .join(', ');
  const statusCode = Number(record.status_code);
  w.pairs([
    [t.record, `#${record.id}`],
    [t.customer, `${customer.name} (#${customer.id})`],
    ...(address ? [['', address] as [string, string]] : []),
    [t.device, `${input.device.serial} - ${input.device.label} (${input.device.product})`],
    [t.status, t.statusName(statusCode)],
    [
      t.cycleTs,
      input.cycle.at
        ? `${formatUtcSeconds(input.cycle.at)}${input.cycle.clockAhead ? t.clockAhead : ''}`
        : t.cycleTsNone,
    ],
    [t.generated, formatUtcSeconds(input.generatedAt)],
  ]);

  w.heading(t.fieldsTitle);
  w.pairs(
    INTEGRITY_FIELDS.filter((field) => field !== 'notes').map((field) => [
      t.field[field],
      readable(t, language, field, record[field]),
    ]),
  );
  // Notes can be long: beyond one line, wrapped under their label instead of cut.
  const notes = readable(t, language, 'notes', record.notes);
  const notesLines = wrap(fonts.regular, notes, BODY, CONTENT_WIDTH - 235).length;
  w.pairs([[t.field.notes, notesLines > 1 ? '' : notes]]);
  if (notesLines > 1) w.text(notes, { x: MARGIN + 235, width: CONTENT_WIDTH - 235 });

  w.heading(t.anchoring);
  w.pairs([
    [t.anchoringStatus, t.anchoringState(anchoring.state)],
    ...(anchoring.blockId === null
      ? []
      : ([
          [t.block, `#${anchoring.blockId}`],
          [t.network, anchoring.network ?? t.unknown],
          [t.chainBlock, anchoring.chainBlock ?? t.unknown],
        ] as Array<[string, string]>)),
  ]);
  // Hashes in full, each under its label: a verifier may compare them character by character.
  const hashes: Array<[string, string | null]> = [
    [t.transaction, anchoring.blockId === null ? null : (anchoring.transactionHash ?? t.unknown)],
    [t.leaf, anchoring.leaf],
    [t.root, anchoring.root],
  ];
  for (const [label, value] of hashes) {
    if (value === null) continue;
    w.pairs([[label, '']]);
    w.text(value, { size: HASH_SIZE });
  }

  w.heading(t.verification);
  if (input.verificationLink === null) {
    w.text(anchoring.state === 'not_enabled' ? t.verificationNotEnabled : t.verificationNone);
  } else {
    const png = await qrPng(input.verificationLink);
    const page = input.verificationLink.slice(0, input.verificationLink.indexOf('#'));
    if (png === null) {
      w.text(t.verificationTooLong);
      w.text(page, { bold: true });
    } else await drawQr(doc, w, t, png, page);
  }
  drawFooters(doc, fonts, t, input);
  return doc.save();
}
