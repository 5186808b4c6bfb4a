/**
 * The compliance report's PDF (the unsigned draft): a customer's period as an inspector reads it, drawn
 * with pdf-lib's standard fonts from the same ComplianceSummary the API answers. The signature band of
 * every page is left empty; signature-stamp.ts fills it when someone signs.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { ComplianceSummary, CycleCounts } from '#server/modules/reports/summary.ts';
import {
  ACCENT,
  BAND_TITLE_Y,
  CONTENT_WIDTH,
  encodable,
  FOOTER_Y,
  fitText,
  INK,
  MARGIN,
  MUTED,
  RULE,
} from './layout.ts';
import {
  formatCount,
  formatUtcSeconds,
  REPORT_TEXTS,
  type ReportLanguage,
  type ReportTexts,
} from './texts.ts';
import { cols, type Fonts, Writer } from './writer.ts';

export interface ReportDocumentInput {
  reportId: number;
  language: ReportLanguage;
  generatedAt: Date;
  summary: ComplianceSummary;
}

function countCells(language: ReportLanguage, counts: CycleCounts): string[] {
  const n = (value: number) => formatCount(language, value);
  return [
    n(counts.total),
    n(counts.ok),
    n(counts.nulled),
    n(counts.lamp_malfunction),
    n(counts.probe_malfunction),
    n(counts.other),
  ];
}

function countColumns(t: ReportTexts, share: number): Array<[string, number, 'right']> {
  return [
    [t.total, share, 'right'],
    [t.ok, share, 'right'],
    [t.nulled, share, 'right'],
    [t.lampMalfunction, share * 1.3, 'right'],
    [t.probeMalfunction, share * 1.3, 'right'],
    [t.other, share, 'right'],
  ];
}

const utc = (iso: string) => formatUtcSeconds(new Date(iso));
/** Minutes are enough where a column is narrow; the column's title says UTC. */
const utcMinutes = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;

function drawTitle(w: Writer, t: ReportTexts, input: ReportDocumentInput) {
  const { summary } = input;
  const page = w.page;
  page.drawRectangle({ x: MARGIN, y: w.y - 4, width: CONTENT_WIDTH, height: 4, color: ACCENT });
  w.y -= 30;
  page.drawText(encodable(w.fonts.bold, t.title), {
    x: MARGIN,
    y: w.y,
    size: 20,
    font: w.fonts.bold,
    color: INK,
  });
  w.y -= 4;
  w.text(t.subtitle, { size: 10, color: MUTED });
  w.y -= 8;
  const customer = summary.customer;
  const address = [
    customer.address,
    [customer.postcode, customer.city].filter(Boolean).join(' '),
    customer.country,
  ]
    .filter((part) => part?.trim())
    .join(', ');
  w.pairs([
    [t.report, `#${input.reportId}`],
    [t.customer, `${customer.name} (#${customer.id})`],
    ['', address],
    [t.period, t.periodValue(summary.period.from, summary.period.to)],
    [t.generated, formatUtcSeconds(input.generatedAt)],
  ]);
}

function drawSections(w: Writer, t: ReportTexts, input: ReportDocumentInput) {
  const { summary, language } = input;
  const n = (value: number) => formatCount(language, value);

  w.heading(t.summary);
  w.table(cols(countColumns(t, 0.14)), [countCells(language, summary.totals)]);

  w.heading(t.devices);
  if (summary.devices.length === 0) w.text(t.noDevices);
  else
    w.table(
      cols([[t.serial, 0.11], [t.label, 0.16], [t.product, 0.2], ...countColumns(t, 0.08)]),
      summary.devices.map((device) => [
        device.device_serial,
        device.label,
        device.product_name,
        ...countCells(language, device.cycles),
      ]),
    );

  w.heading(t.failed);
  const failedTotal = summary.totals.total - summary.totals.ok;
  if (failedTotal === 0) w.text(t.noFailed);
  else {
    if (summary.failed_cycles_listed < failedTotal)
      w.text(t.failedListed(summary.failed_cycles_listed, n(failedTotal)));
    w.table(
      cols([
        [t.record, 0.1],
        [t.device, 0.13],
        [t.received, 0.22],
        [t.cycleTime, 0.22],
        [t.progressive, 0.1, 'right'],
        [t.status, 0.23],
      ]),
      summary.failed_cycles.map((cycle) => [
        String(cycle.id),
        cycle.device_serial,
        utc(cycle.received_ts),
        cycle.cycle_ts ? utc(cycle.cycle_ts) : '-',
        String(cycle.progressive_id),
        t.statusName(cycle.status_code),
      ]),
    );
  }

  const { sequence } = summary;
  w.heading(t.sequence);
  w.pairs([
    [t.missingRecords, n(sequence.missing_records)],
    [t.gapRanges, n(sequence.gaps_total)],
    [t.outOfOrderRecords, n(sequence.out_of_order_total)],
  ]);
  if (sequence.gaps.length > 0) {
    w.y -= 6;
    if (sequence.gaps_listed < sequence.gaps_total)
      w.text(t.firstListed(sequence.gaps_listed, n(sequence.gaps_total)));
    w.table(
      cols([
        [t.device, 0.2],
        [t.firstMissing, 0.2, 'right'],
        [t.lastMissing, 0.2, 'right'],
        [t.missing, 0.14, 'right'],
        [t.gapEndedBy, 0.26],
      ]),
      sequence.gaps.map((gap) => [
        gap.device_serial,
        String(gap.first_missing),
        String(gap.last_missing),
        n(gap.count),
        utc(gap.ended_by_received_ts),
      ]),
    );
  }
  if (sequence.out_of_order.length > 0) {
    w.y -= 6;
    w.text(t.outOfOrderList, { bold: true });
    if (sequence.out_of_order_listed < sequence.out_of_order_total)
      w.text(t.firstListed(sequence.out_of_order_listed, n(sequence.out_of_order_total)));
    w.table(
      cols([
        [t.record, 0.2],
        [t.device, 0.2],
        [t.progressive, 0.2, 'right'],
        [t.received, 0.4],
      ]),
      sequence.out_of_order.map((record) => [
        String(record.id),
        record.device_serial,
        String(record.progressive_id),
        utc(record.received_ts),
      ]),
    );
  }

  w.heading(t.lots);
  w.pairs([
    [t.lotStatus('certified'), n(summary.lot_compliance.certified)],
    [t.lotStatus('expired'), n(summary.lot_compliance.expired)],
    [t.lotStatus('uncertified'), n(summary.lot_compliance.uncertified)],
    [t.lotStatus('no_lot'), n(summary.lot_compliance.no_lot)],
  ]);
  w.y -= 6;
  if (summary.lots.length === 0) w.text(t.noLots);
  else
    w.table(
      cols([
        [t.lot, 0.14],
        [t.cycles, 0.07, 'right'],
        [t.coveredCycles, 0.1, 'right'],
        [t.firstUsed, 0.15],
        [t.lastUsed, 0.15],
        [t.certificate, 0.11],
        [t.certificates, 0.28],
      ]),
      summary.lots.map((lot) => [
        lot.lot,
        n(lot.cycles),
        n(lot.lot_status.certified),
        utcMinutes(lot.first_used),
        utcMinutes(lot.last_used),
        t.certificateState(lot.certificate_status),
        lot.certificates.map((c) => `${c.validated_treatment_number} (${c.expiration_date})`).join(', '),
      ]),
    );

  w.heading(t.batches);
  if (summary.batches.length === 0) w.text(t.noBatches);
  else
    w.table(
      cols([
        [t.device, 0.18],
        [t.lot, 0.22],
        [t.batch, 0.15, 'right'],
        [t.inPeriod, 0.2, 'right'],
        [t.used, 0.25, 'right'],
      ]),
      summary.batches.map((batch) => [
        batch.device_serial,
        batch.lot_code,
        String(batch.lot_progressive),
        n(batch.cycles_in_period),
        batch.batch_quantity === null || batch.sterilization_count === null
          ? t.unknown
          : `${n(batch.sterilization_count)} / ${n(batch.batch_quantity)}`,
      ]),
    );

  w.heading(t.anchoring);
  w.pairs([
    [t.anchored, n(summary.anchoring.anchored)],
    [t.waiting, n(summary.anchoring.waiting)],
    [t.notEnabled, n(summary.anchoring.not_enabled)],
  ]);
  if (summary.anchoring.blocks.length > 0) {
    w.y -= 6;
    w.table(
      cols([
        [t.block, 0.08, 'right'],
        [t.status, 0.1],
        [t.network, 0.1],
        [t.records, 0.09, 'right'],
        [t.transaction, 0.63],
      ]),
      summary.anchoring.blocks.map((block) => [
        String(block.id),
        block.status,
        block.network ?? '',
        n(block.records),
        block.transaction_hash ?? t.noTransaction,
      ]),
    );
  }

  w.heading(t.verification);
  w.text(t.verificationText);
  w.text(summary.verification_url, { bold: true });
}

/** The band's title and the footer of every page; the band itself stays empty for the signatures. */
function drawFrames(doc: PDFDocument, fonts: Fonts, t: ReportTexts, input: ReportDocumentInput) {
  const pages = doc.getPages();
  const reference = `${t.report} #${input.reportId} - ${input.summary.customer.name} - ${input.summary.period.from} / ${input.summary.period.to}`;
  pages.forEach((page, i) => {
    page.drawLine({
      start: { x: MARGIN, y: BAND_TITLE_Y + 11 },
      end: { x: MARGIN + CONTENT_WIDTH, y: BAND_TITLE_Y + 11 },
      thickness: 0.6,
      color: RULE,
    });
    page.drawText(encodable(fonts.bold, t.signatures), {
      x: MARGIN,
      y: BAND_TITLE_Y,
      size: 8,
      font: fonts.bold,
      color: MUTED,
    });
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

export async function renderComplianceReport(input: ReportDocumentInput): Promise<Uint8Array> {
  const t = REPORT_TEXTS[input.language];
  const doc = await PDFDocument.create();
  doc.setTitle(`${t.title} #${input.reportId}`);
  doc.setLanguage(input.language);
  doc.setCreationDate(input.generatedAt);
  doc.setModificationDate(input.generatedAt);
  const fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
  };
  const writer = new Writer(doc, fonts);
  drawTitle(writer, t, input);
  drawSections(writer, t, input);
  drawFrames(doc, fonts, t, input);
  return doc.save();
}
