/**
 * File names of certificate downloads: the uploaded Italian file keeps its own name, made safe to
 * store and to put in a header; the generated checklist is named as docs/product.md §2 says,
 * quality_control_checklist_{lot}_{treatment}.pdf.
 */

const MAX_NAME_LENGTH = 150;
// Control characters, characters Windows or a shell would choke on, and bidi overrides that can
// disguise an extension (e.g. "fdp.exe" shown as "exe.pdf").
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f"*:<>?|\\/\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g;

/** The uploaded name without any directory part, unsafe characters or leading dots; `fallback` when nothing is left. */
export function sanitizeUploadedName(name: string, fallback: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '').normalize('NFC').replace(UNSAFE, '_').replace(/\s+/g, ' ');
  const hasExtension = /\.pdf$/i.test(base);
  const extension = hasExtension ? base.slice(-4) : '.pdf';
  let stem = (hasExtension ? base.slice(0, -4) : base).trim().replace(/^[.\s]+/, '');
  if (!/[\p{L}\p{N}]/u.test(stem)) return fallback;
  if (stem.length > MAX_NAME_LENGTH - extension.length) {
    stem = stem.slice(0, MAX_NAME_LENGTH - extension.length).trim();
  }
  return `${stem}${extension}`;
}

/** A lot or treatment number as a file-name part: letters, digits, dot, dash and underscore only. */
function namePart(value: string): string {
  return value.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60) || '_';
}

export function checklistFileName(lotNumber: string, validatedTreatmentNumber: string): string {
  return `quality_control_checklist_${namePart(lotNumber)}_${namePart(validatedTreatmentNumber)}.pdf`;
}

/** The name used when an uploaded name has nothing usable left. */
export function fallbackItalianName(lotNumber: string, validatedTreatmentNumber: string): string {
  return `certificato_${namePart(lotNumber)}_${namePart(validatedTreatmentNumber)}.pdf`;
}

/**
 * `attachment` with an ASCII `filename` for old clients and the exact UTF-8 name in `filename*`
 * (RFC 6266 / RFC 8187).
 */
export function contentDisposition(fileName: string): string {
  const ascii = fileName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
