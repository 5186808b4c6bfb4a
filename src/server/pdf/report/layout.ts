/**
 * What the report's pages and the signature stamp share: the page size, margins, fonts' encoding limits
 * and where on every page the signature manifestations go (a band above the footer that the report
 * leaves empty, so a signature added later never covers content).
 */
import { type PDFFont, rgb } from 'pdf-lib';

export const PAGE = { width: 595.28, height: 841.89 };
export const MARGIN = 40;
export const CONTENT_WIDTH = PAGE.width - 2 * MARGIN;

export const INK = rgb(0.13, 0.15, 0.18);
export const MUTED = rgb(0.42, 0.45, 0.5);
export const RULE = rgb(0.78, 0.8, 0.84);
export const ACCENT = rgb(0.05, 0.33, 0.55);
export const SHADE = rgb(0.95, 0.96, 0.97);

/** Signatures a report can carry: each one's manifestation takes two lines of the band. */
export const MAX_SIGNATURES = 4;
const SIGNATURE_LINE = 10;
const SIGNATURE_HEIGHT = 2 * SIGNATURE_LINE + 2;
/** The footer line (page number) sits at MARGIN; the band's title just above the signatures. */
export const FOOTER_Y = MARGIN - 16;
export const BAND_BOTTOM = MARGIN;
export const BAND_TITLE_Y = BAND_BOTTOM + MAX_SIGNATURES * SIGNATURE_HEIGHT + 4;
/** Content never goes below this. */
export const CONTENT_BOTTOM = BAND_TITLE_Y + 18;

/** Baseline of signature `index`'s first line (0 = the first signature, top of the band). */
export function signatureBaseline(index: number): number {
  return BAND_TITLE_Y - 12 - index * SIGNATURE_HEIGHT;
}
export const SIGNATURE_LINE_GAP = SIGNATURE_LINE;

const characterSets = new WeakMap<PDFFont, Set<number>>();

/**
 * The standard fonts encode WinAnsi only: an Italian accent is fine, a character outside it (another
 * script, an emoji, a control character) becomes "?" instead of failing the document.
 */
export function encodable(font: PDFFont, text: string): string {
  let supported = characterSets.get(font);
  if (!supported) {
    supported = new Set(font.getCharacterSet());
    characterSets.set(font, supported);
  }
  let out = '';
  for (const char of text.replace(/[\r\n\t]+/g, ' '))
    out += supported.has(char.codePointAt(0) ?? 0) ? char : '?';
  return out;
}

/** Cuts text with an ellipsis so it fits `width` at `size`. */
export function fitText(font: PDFFont, text: string, size: number, width: number): string {
  const safe = encodable(font, text);
  if (font.widthOfTextAtSize(safe, size) <= width) return safe;
  // The longest prefix that fits with its ellipsis, by bisection (a long text would cost a width per character).
  let fits = 0;
  let tooLong = safe.length;
  while (tooLong - fits > 1) {
    const middle = (fits + tooLong) >> 1;
    if (font.widthOfTextAtSize(`${safe.slice(0, middle)}...`, size) <= width) fits = middle;
    else tooLong = middle;
  }
  return `${safe.slice(0, fits)}...`;
}

/** Greedy word wrap within `width`. */
export function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of encodable(font, text).split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width || !line) line = candidate;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines.map((text) => fitText(font, text, size, width));
}
