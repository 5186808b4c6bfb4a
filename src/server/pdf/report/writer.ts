/**
 * Top-to-bottom drawing on A4 pages with pdf-lib's standard fonts, shared by the compliance report and
 * the cycle report: text that wraps, headings, label / value pairs and tables whose header repeats on
 * each page. A new page starts whenever the next piece would reach the writer's bottom: by default
 * CONTENT_BOTTOM, above the band the compliance report keeps for signatures.
 */
import type { PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import {
  ACCENT,
  CONTENT_BOTTOM,
  CONTENT_WIDTH,
  fitText,
  INK,
  MARGIN,
  PAGE,
  RULE,
  SHADE,
  wrap,
} from './layout.ts';

export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

export type Column = { title: string; width: number; align?: 'right' };

export const BODY = 8.5;
export const ROW = 13;

/** Draws top to bottom, starting a new page whenever the next piece would reach `bottom`. */
export class Writer {
  page!: PDFPage;
  y = 0;
  private readonly doc: PDFDocument;
  readonly fonts: Fonts;
  readonly bottom: number;
  constructor(doc: PDFDocument, fonts: Fonts, bottom: number = CONTENT_BOTTOM) {
    this.doc = doc;
    this.fonts = fonts;
    this.bottom = bottom;
    this.newPage();
  }

  newPage() {
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - MARGIN;
  }

  ensure(height: number) {
    if (this.y - height < this.bottom) this.newPage();
  }

  text(
    text: string,
    options: { size?: number; bold?: boolean; color?: typeof INK; x?: number; width?: number } = {},
  ) {
    const size = options.size ?? BODY;
    const font = options.bold ? this.fonts.bold : this.fonts.regular;
    for (const line of wrap(font, text, size, options.width ?? CONTENT_WIDTH)) {
      this.ensure(size + 4);
      this.y -= size + 4;
      this.page.drawText(line, {
        x: options.x ?? MARGIN,
        y: this.y,
        size,
        font,
        color: options.color ?? INK,
      });
    }
  }

  heading(text: string) {
    this.ensure(40);
    this.y -= 14;
    this.page.drawRectangle({ x: MARGIN, y: this.y - 3, width: CONTENT_WIDTH, height: 1, color: ACCENT });
    this.text(text, { size: 12, bold: true, color: ACCENT });
    this.y -= 4;
  }

  /** Label / value pairs, one per line. */
  pairs(rows: Array<[string, string]>) {
    for (const [label, value] of rows) {
      this.ensure(ROW);
      this.y -= ROW;
      this.page.drawText(fitText(this.fonts.bold, label, BODY, 225), {
        x: MARGIN,
        y: this.y,
        size: BODY,
        font: this.fonts.bold,
        color: INK,
      });
      this.page.drawText(fitText(this.fonts.regular, value, BODY, CONTENT_WIDTH - 235), {
        x: MARGIN + 235,
        y: this.y,
        size: BODY,
        font: this.fonts.regular,
        color: INK,
      });
    }
  }

  private row(columns: Column[], cells: string[], bold: boolean, shaded: boolean) {
    this.y -= ROW;
    if (shaded) {
      this.page.drawRectangle({
        x: MARGIN,
        y: this.y - 3.5,
        width: CONTENT_WIDTH,
        height: ROW,
        color: SHADE,
      });
    }
    const font = bold ? this.fonts.bold : this.fonts.regular;
    let x = MARGIN + 3;
    columns.forEach((column, i) => {
      const text = fitText(font, cells[i] ?? '', BODY, column.width - 6);
      const offset = column.align === 'right' ? column.width - 6 - font.widthOfTextAtSize(text, BODY) : 0;
      this.page.drawText(text, { x: x + offset, y: this.y, size: BODY, font, color: INK });
      x += column.width;
    });
  }

  /** A table whose header repeats on each page it continues on. */
  table(columns: Column[], rows: string[][]) {
    const header = () => {
      this.row(
        columns,
        columns.map((column) => column.title),
        true,
        false,
      );
      this.page.drawLine({
        start: { x: MARGIN, y: this.y - 4 },
        end: { x: MARGIN + CONTENT_WIDTH, y: this.y - 4 },
        thickness: 0.6,
        color: RULE,
      });
    };
    this.ensure(3 * ROW);
    header();
    rows.forEach((cells, i) => {
      if (this.y - ROW < this.bottom) {
        this.newPage();
        header();
      }
      this.row(columns, cells, false, i % 2 === 1);
    });
    this.y -= 4;
  }
}

/** Column widths as fractions of the content width. */
export const cols = (specs: Array<[string, number, ('right' | undefined)?]>): Column[] =>
  specs.map(([title, share, align]) => ({ title, width: share * CONTENT_WIDTH, align }));
