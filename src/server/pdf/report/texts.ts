/** The compliance report's words in the two languages a reader can choose (server-side: no react-intl). */
export type ReportLanguage = 'en' | 'it';
export type SignatureMeaning = 'reviewed' | 'approved';
export type CertificateState = 'in_force' | 'expired' | 'missing';

const en = {
  title: 'Compliance report',
  subtitle: 'UV-C sterilization cycles, consumables and their on-chain integrity',
  report: 'Report',
  customer: 'Customer',
  period: 'Period',
  periodValue: (from: string, to: string) => `${from} to ${to} (UTC days, both included)`,
  generated: 'Generated',
  summary: 'Cycles by status',
  total: 'Total',
  ok: 'OK',
  nulled: 'Nulled',
  lampMalfunction: 'Lamp malfunction',
  probeMalfunction: 'Probe malfunction',
  other: 'Other status',
  devices: 'Devices and products',
  noDevices: 'No cycles in this period.',
  serial: 'Serial',
  label: 'Label',
  product: 'Product',
  failed: 'Cycles not OK',
  noFailed: 'Every cycle of the period ended OK.',
  failedListed: (listed: number, total: string) => `The first ${listed} of ${total} are listed.`,
  record: 'Record',
  device: 'Device',
  received: 'Received (UTC)',
  progressive: 'Progressive',
  status: 'Status',
  statusName: (code: number) =>
    ({ 0: 'OK', 1: 'Nulled', 2: 'Lamp malfunction', 3: 'Probe malfunction' })[code] ?? `Status ${code}`,
  lots: 'Lots used and their certificates',
  noLots: 'No consumable lot was recorded in this period.',
  lot: 'Lot',
  cycles: 'Cycles',
  firstUsed: 'First use (UTC)',
  lastUsed: 'Last use (UTC)',
  certificate: 'Certificate',
  certificateState: (state: CertificateState) =>
    ({ in_force: 'In force', expired: 'Expired', missing: 'Missing' })[state],
  certificates: 'Treatment no. (expires)',
  batches: 'Consumable batch usage',
  noBatches: 'No consumable batch was used in this period.',
  batch: 'Batch',
  inPeriod: 'Cycles in period',
  used: 'Used / quantity',
  unknown: 'unknown',
  anchoring: 'On-chain anchoring',
  anchored: 'Records anchored (mined)',
  waiting: 'Records not anchored yet',
  notEnabled: 'Records not anchored (blockchain not enabled)',
  blocks: 'Blocks',
  block: 'Block',
  network: 'Network',
  records: 'Records',
  transaction: 'Transaction hash',
  noTransaction: 'not sent yet',
  verification: 'Verification',
  verificationText:
    'Anyone can check a record, or this signed report, against the chain with its proof receipt on the public page:',
  signatures: 'Electronic signatures (21 CFR Part 11)',
  page: (n: number, of: number) => `Page ${n} of ${of}`,
  meaning: (meaning: SignatureMeaning) => ({ reviewed: 'Reviewed', approved: 'Approved' })[meaning],
  signedBy: (meaning: string, name: string, at: string) => `${meaning} by ${name} on ${at}`,
  comment: 'Comment',
};

const it: typeof en = {
  title: 'Rapporto di conformità',
  subtitle: 'Cicli di sterilizzazione UV-C, materiali di consumo e loro integrità su blockchain',
  report: 'Rapporto',
  customer: 'Cliente',
  period: 'Periodo',
  periodValue: (from, to) => `dal ${from} al ${to} (giorni UTC, estremi inclusi)`,
  generated: 'Generato',
  summary: 'Cicli per stato',
  total: 'Totale',
  ok: 'OK',
  nulled: 'Annullati',
  lampMalfunction: 'Guasto lampada',
  probeMalfunction: 'Guasto sonda',
  other: 'Altro stato',
  devices: 'Dispositivi e prodotti',
  noDevices: 'Nessun ciclo in questo periodo.',
  serial: 'Seriale',
  label: 'Etichetta',
  product: 'Prodotto',
  failed: 'Cicli non OK',
  noFailed: 'Tutti i cicli del periodo sono terminati OK.',
  failedListed: (listed, total) => `Sono elencati i primi ${listed} di ${total}.`,
  record: 'Record',
  device: 'Dispositivo',
  received: 'Ricevuto (UTC)',
  progressive: 'Progressivo',
  status: 'Stato',
  statusName: (code) =>
    ({ 0: 'OK', 1: 'Annullato', 2: 'Guasto lampada', 3: 'Guasto sonda' })[code] ?? `Stato ${code}`,
  lots: 'Lotti utilizzati e relativi certificati',
  noLots: 'Nessun lotto di consumabili registrato in questo periodo.',
  lot: 'Lotto',
  cycles: 'Cicli',
  firstUsed: 'Primo uso (UTC)',
  lastUsed: 'Ultimo uso (UTC)',
  certificate: 'Certificato',
  certificateState: (state) => ({ in_force: 'Valido', expired: 'Scaduto', missing: 'Mancante' })[state],
  certificates: 'N. trattamento (scadenza)',
  batches: 'Utilizzo dei lotti di consumabili',
  noBatches: 'Nessun lotto di consumabili utilizzato in questo periodo.',
  batch: 'Lotto',
  inPeriod: 'Cicli nel periodo',
  used: 'Usati / quantità',
  unknown: 'sconosciuto',
  anchoring: 'Ancoraggio su blockchain',
  anchored: 'Record ancorati (minati)',
  waiting: 'Record non ancora ancorati',
  notEnabled: 'Record non ancorati (blockchain non abilitata)',
  blocks: 'Blocchi',
  block: 'Blocco',
  network: 'Rete',
  records: 'Record',
  transaction: 'Hash della transazione',
  noTransaction: 'non ancora inviata',
  verification: 'Verifica',
  verificationText:
    'Chiunque può verificare un record, o questo rapporto firmato, sulla blockchain con la sua ricevuta di prova nella pagina pubblica:',
  signatures: 'Firme elettroniche (21 CFR Part 11)',
  page: (n, of) => `Pagina ${n} di ${of}`,
  meaning: (meaning) => ({ reviewed: 'Rivisto', approved: 'Approvato' })[meaning],
  signedBy: (meaning, name, at) => `${meaning} da ${name} il ${at}`,
  comment: 'Commento',
};

export type ReportTexts = typeof en;
export const REPORT_TEXTS: Record<ReportLanguage, ReportTexts> = { en, it };

/** Whole numbers as each language writes them (10,000 / 10.000). */
export function formatCount(language: ReportLanguage, value: number): string {
  return new Intl.NumberFormat(language === 'it' ? 'it-IT' : 'en-GB', { useGrouping: true }).format(value);
}

const pad = (value: number) => String(value).padStart(2, '0');

/** YYYY-MM-DD HH:mm:ss UTC: unambiguous in either language. */
export function formatUtcSeconds(date: Date): string {
  return `${date.toISOString().slice(0, 10)} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(
    date.getUTCSeconds(),
  )} UTC`;
}
