/** The cycle report's words in English and Italian (server-side: no react-intl), and its value formats. */
import type { IntegrityField } from '#shared/integrity/index.ts';
import { canonicalDecimal } from '#shared/integrity/index.ts';
import { REPORT_TEXTS, type ReportLanguage } from './texts.ts';

/** Where a record is on its way to the chain, as the report states it. */
export type AnchoringState = 'not_enabled' | 'waiting' | 'pending' | 'sent' | 'mined' | 'final' | 'failed';

const en = {
  title: 'Sterilization cycle report',
  subtitle: 'One UV-C sterilization cycle as the device recorded it, and its on-chain integrity',
  record: 'Record',
  customer: 'Customer',
  device: 'Device',
  generated: 'Generated',
  cycleTs: 'Cycle time by the device (UTC)',
  cycleTsNone: 'not sent by the device',
  clockAhead: ' - the device\u2019s clock runs ahead',
  cycle: 'Cycle',
  status: 'Status',
  statusName: REPORT_TEXTS.en.statusName,
  fieldsTitle: 'The record\u2019s 14 fields',
  field: {
    id: 'Record ID',
    received_ts: 'Received at (UTC)',
    device_serial: 'Device serial number',
    progressive_id: 'Cycle number',
    supplied_energy: 'UV dose (supplied energy)',
    nominal_time: 'Nominal time',
    effective_time: 'Effective time',
    residual_lamp_life: 'Residual lamp life',
    status_code: 'Status code',
    latitude: 'Latitude',
    longitude: 'Longitude',
    consumables_lot: 'Consumables lot',
    lot_progressive_id: 'Progressive number in the lot',
    notes: 'Notes',
  } satisfies Record<IntegrityField, string>,
  minutes: (value: string) => `${value} minutes`,
  hours: (value: string) => `${value} hours`,
  none: '(none)',
  anchoring: 'On-chain anchoring',
  anchoringStatus: 'Anchoring status',
  anchoringState: (state: AnchoringState) =>
    ({
      not_enabled: 'Not anchored: blockchain is not enabled for this customer',
      waiting: 'Not anchored yet: the record waits for its block',
      pending: 'Not anchored yet: its block waits to be sent',
      sent: 'Sent: the transaction waits to be mined',
      mined: 'Anchored: the transaction is mined',
      final: 'Anchored for good: the transaction is mined and past the chain\u2019s finality',
      failed: 'Not anchored: sending the block failed, it will be sent again',
    })[state],
  block: 'uvtrace block',
  network: 'Network',
  transaction: 'Transaction hash',
  chainBlock: 'Chain block number',
  unknown: 'unknown',
  leaf: 'Control string (leaf)',
  root: 'Block control string (root)',
  verification: 'Verification',
  verificationQr:
    'Scan the QR code to check this record against the chain on the public page, without an account. The link carries the record\u2019s proof receipt after "#", which browsers never send to a server.',
  verificationTooLong:
    'This record\u2019s proof is too long for a QR code. Download its proof receipt from the verification window and drop it on the public page:',
  verificationNone:
    'This record is not anchored on the chain yet, so this report has no QR code: download the report again once the record is anchored.',
  verificationNotEnabled:
    'Records of this customer are not sent to the blockchain, so this report has no QR code to verify.',
  page: REPORT_TEXTS.en.page,
};

const it: typeof en = {
  title: 'Rapporto del ciclo di sterilizzazione',
  subtitle:
    'Un ciclo di sterilizzazione UV-C come registrato dal dispositivo, e la sua integrità su blockchain',
  record: 'Record',
  customer: 'Cliente',
  device: 'Dispositivo',
  generated: 'Generato',
  cycleTs: 'Ora del ciclo secondo il dispositivo (UTC)',
  cycleTsNone: 'non inviata dal dispositivo',
  clockAhead: ' - l\u2019orologio del dispositivo è avanti',
  cycle: 'Ciclo',
  status: 'Stato',
  statusName: REPORT_TEXTS.it.statusName,
  fieldsTitle: 'I 14 campi del record',
  field: {
    id: 'ID record',
    received_ts: 'Ricevuto il (UTC)',
    device_serial: 'Numero di serie del dispositivo',
    progressive_id: 'Numero ciclo',
    supplied_energy: 'Dose UV (energia erogata)',
    nominal_time: 'Tempo nominale',
    effective_time: 'Tempo effettivo',
    residual_lamp_life: 'Vita residua lampada',
    status_code: 'Codice di stato',
    latitude: 'Latitudine',
    longitude: 'Longitudine',
    consumables_lot: 'Lotto consumabili',
    lot_progressive_id: 'Progressivo nel lotto',
    notes: 'Note',
  },
  minutes: (value) => `${value} minuti`,
  hours: (value) => `${value} ore`,
  none: '(nessuno)',
  anchoring: 'Ancoraggio su blockchain',
  anchoringStatus: 'Stato dell\u2019ancoraggio',
  anchoringState: (state) =>
    ({
      not_enabled: 'Non ancorato: la blockchain non è abilitata per questo cliente',
      waiting: 'Non ancora ancorato: il record attende il suo blocco',
      pending: 'Non ancora ancorato: il suo blocco attende di essere inviato',
      sent: 'Inviato: la transazione attende di essere minata',
      mined: 'Ancorato: la transazione è minata',
      final: 'Ancorato definitivamente: la transazione è minata e oltre la finalità della blockchain',
      failed: 'Non ancorato: l\u2019invio del blocco non è riuscito, sarà inviato di nuovo',
    })[state],
  block: 'Blocco uvtrace',
  network: 'Rete',
  transaction: 'Hash della transazione',
  chainBlock: 'Numero del blocco sulla catena',
  unknown: 'sconosciuto',
  leaf: 'Stringa di controllo (foglia)',
  root: 'Stringa di controllo del blocco (radice)',
  verification: 'Verifica',
  verificationQr:
    'Inquadra il codice QR per verificare questo record sulla blockchain nella pagina pubblica, senza account. Il link porta la ricevuta di prova del record dopo "#", che i browser non inviano mai a un server.',
  verificationTooLong:
    'La prova di questo record è troppo lunga per un codice QR. Scarica la sua ricevuta di prova dalla finestra di verifica e trascinala nella pagina pubblica:',
  verificationNone:
    'Questo record non è ancora ancorato sulla blockchain, quindi questo rapporto non ha codice QR: scarica di nuovo il rapporto quando il record sarà ancorato.',
  verificationNotEnabled:
    'I record di questo cliente non vengono inviati alla blockchain, quindi questo rapporto non ha un codice QR da verificare.',
  page: REPORT_TEXTS.it.page,
};

export type CycleTexts = typeof en;
export const CYCLE_TEXTS: Record<ReportLanguage, CycleTexts> = { en, it };

/**
 * A number as its language writes it (12,345.5 / 12.345,5), from the exact text the database holds:
 * digit for digit, never through a binary float, so the report shows what the leaf hashes.
 */
export function formatDecimalText(language: ReportLanguage, text: string): string {
  const canonical = canonicalDecimal(text);
  if (canonical === undefined) return text;
  const negative = canonical.startsWith('-');
  const [integer = '0', fraction] = (negative ? canonical.slice(1) : canonical).split('.');
  const [group, point] = language === 'it' ? ['.', ','] : [',', '.'];
  const grouped = integer.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${negative ? '-' : ''}${grouped}${fraction === undefined ? '' : `${point}${fraction}`}`;
}

/** An instant to the millisecond in UTC, as the client's date policy writes an exactly stored value. */
export function formatUtcMillis(date: Date): string {
  const iso = date.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)} UTC`;
}
