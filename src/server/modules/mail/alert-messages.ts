/**
 * What an alert e-mail says, in English and Italian: a subject and a few plain-text lines per kind,
 * from the alert's stored details (the same details the app shows). Plain text on purpose: it reads
 * the same in every mail client and cannot carry anything active.
 */
import type { AlertKind } from '#shared/alerts/index.ts';
import type { MailLanguage } from '#shared/notifications/index.ts';

export interface AlertForMail {
  id: number;
  kind: AlertKind;
  customerName: string | null;
  deviceSerial: string | null;
  raisedAt: Date;
  details: Record<string, unknown>;
}

type Text = (alert: AlertForMail, d: Record<string, string>) => string;
interface KindText {
  subject: Text;
  body: Text;
}

const value = (raw: unknown): string => (raw === null || raw === undefined ? '—' : String(raw));

const TEXTS: Record<MailLanguage, Record<AlertKind, KindText>> = {
  en: {
    failed_cycle: {
      subject: (_a, d) => `Failed sterilization cycle on device ${d.device_serial}`,
      body: (_a, d) =>
        `Record ${d.progressive_id} of device ${d.device_serial} ended with status ${d.status_code} (${d.status_text}).`,
    },
    lamp_life_low: {
      subject: (_a, d) => `UV-C lamp of device ${d.device_serial} is running out`,
      body: (_a, d) =>
        `Residual lamp life is ${d.residual_lamp_life}, under the threshold of ${d.threshold}. Plan the lamp replacement.`,
    },
    batch_80: {
      subject: (_a, d) => `Consumable batch ${d.lot_code} is at ${d.percent} %`,
      body: (_a, d) =>
        `Device ${d.device_serial} has used ${d.sterilization_count} of ${d.batch_quantity} sleeves of lot ${d.lot_code} (batch ${d.lot_progressive}).`,
    },
    batch_100: {
      subject: (_a, d) => `Consumable batch ${d.lot_code} is used up`,
      body: (_a, d) =>
        `Device ${d.device_serial} has used ${d.sterilization_count} of ${d.batch_quantity} sleeves of lot ${d.lot_code} (batch ${d.lot_progressive}). Load a new batch.`,
    },
    device_silent: {
      subject: (_a, d) => `Device ${d.device_serial} has sent no record for ${d.threshold_hours} hours`,
      body: (_a, d) =>
        `The last record was received at ${d.last_received_ts}. Check that the device is on and connected.`,
    },
    certificate_expiring: {
      subject: (_a, d) => `Certificate of lot ${d.lot_number} expires on ${d.expiration_date}`,
      body: (_a, d) =>
        `The certificate of lot ${d.lot_number} (treatment ${d.validated_treatment_number}) expires in ${d.days_left} days.`,
    },
    certificate_expired: {
      subject: (_a, d) => `Certificate of lot ${d.lot_number} has expired`,
      body: (_a, d) =>
        `The certificate of lot ${d.lot_number} (treatment ${d.validated_treatment_number}) expired on ${d.expiration_date}. Records using this lot after that day are not covered.`,
    },
    block_not_mined: {
      subject: (_a, d) => `Blockchain data block ${d.block_id} is not mined`,
      body: (_a, d) =>
        `Block ${d.block_id} on ${d.network} is ${d.status} more than ${d.threshold_minutes} minutes after it was formed (${d.created_at}).`,
    },
    record_gap: {
      subject: (a) => `Missing or out-of-order records on device ${value(a.deviceSerial)}`,
      body: (a) =>
        `Device ${value(a.deviceSerial)} has records missing from its sequence or received out of order.`,
    },
    lot_uncertified: {
      subject: (_a, d) => `Lot ${d.lot_number ?? d.consumables_lot} has no valid certificate`,
      body: (_a, d) =>
        `Records used lot ${d.lot_number ?? d.consumables_lot}, which has no certificate in force on the day they were received.`,
    },
    device_clock_ahead: {
      subject: (a) => `The clock of device ${value(a.deviceSerial)} runs ahead`,
      body: (a, d) =>
        `Device ${value(a.deviceSerial)} dated cycle ${d.progressive_id} at ${d.cycle_ts}, later than it reached the server (${d.received_ts}). Check the device's clock: its cycle times cannot be trusted until it is set right.`,
    },
    anchor_fee_ceiling: {
      subject: (_a, d) => `Blockchain data block ${d.block_id} waits: fees above the ceiling`,
      body: (_a, d) =>
        `Anchoring block ${d.block_id} on ${d.network} would cost more than the ceiling of ${d.max_fee_gwei} gwei per gas (ANCHOR_MAX_FEE_GWEI): the chain asks ${d.base_fee_gwei} gwei. The block waits and is sent or mined as soon as fees fall under the ceiling; raise the ceiling to anchor it sooner.`,
    },
    integrity_mismatch: {
      subject: (_a, d) => `Integrity check failed: ${d.subject} ${d.subject_id}`,
      body: (_a, d) =>
        `The integrity sweep found that ${d.subject} ${d.subject_id} no longer matches its evidence (${d.check}${d.field === '—' ? '' : `, ${d.field}`}): ${d.message}. Compare it with the latest backup and the chain before anything else (docs/backups.md).`,
    },
  },
  it: {
    failed_cycle: {
      subject: (_a, d) => `Ciclo di sterilizzazione fallito sul dispositivo ${d.device_serial}`,
      body: (_a, d) =>
        `Il record ${d.progressive_id} del dispositivo ${d.device_serial} è terminato con stato ${d.status_code} (${d.status_text}).`,
    },
    lamp_life_low: {
      subject: (_a, d) => `La lampada UV-C del dispositivo ${d.device_serial} è a fine vita`,
      body: (_a, d) =>
        `La vita residua della lampada è ${d.residual_lamp_life}, sotto la soglia di ${d.threshold}. Programmare la sostituzione.`,
    },
    batch_80: {
      subject: (_a, d) => `Il lotto di consumabili ${d.lot_code} è all'${d.percent} %`,
      body: (_a, d) =>
        `Il dispositivo ${d.device_serial} ha usato ${d.sterilization_count} guaine su ${d.batch_quantity} del lotto ${d.lot_code} (confezione ${d.lot_progressive}).`,
    },
    batch_100: {
      subject: (_a, d) => `Il lotto di consumabili ${d.lot_code} è esaurito`,
      body: (_a, d) =>
        `Il dispositivo ${d.device_serial} ha usato ${d.sterilization_count} guaine su ${d.batch_quantity} del lotto ${d.lot_code} (confezione ${d.lot_progressive}). Caricare una nuova confezione.`,
    },
    device_silent: {
      subject: (_a, d) => `Il dispositivo ${d.device_serial} non invia record da ${d.threshold_hours} ore`,
      body: (_a, d) =>
        `L'ultimo record è stato ricevuto il ${d.last_received_ts}. Verificare che il dispositivo sia acceso e connesso.`,
    },
    certificate_expiring: {
      subject: (_a, d) => `Il certificato del lotto ${d.lot_number} scade il ${d.expiration_date}`,
      body: (_a, d) =>
        `Il certificato del lotto ${d.lot_number} (trattamento ${d.validated_treatment_number}) scade tra ${d.days_left} giorni.`,
    },
    certificate_expired: {
      subject: (_a, d) => `Il certificato del lotto ${d.lot_number} è scaduto`,
      body: (_a, d) =>
        `Il certificato del lotto ${d.lot_number} (trattamento ${d.validated_treatment_number}) è scaduto il ${d.expiration_date}. I record che usano questo lotto dopo tale data non sono coperti.`,
    },
    block_not_mined: {
      subject: (_a, d) => `Il blocco di dati blockchain ${d.block_id} non è minato`,
      body: (_a, d) =>
        `Il blocco ${d.block_id} su ${d.network} è ${d.status} oltre ${d.threshold_minutes} minuti dopo la sua creazione (${d.created_at}).`,
    },
    record_gap: {
      subject: (a) => `Record mancanti o fuori ordine sul dispositivo ${value(a.deviceSerial)}`,
      body: (a) =>
        `Al dispositivo ${value(a.deviceSerial)} mancano record nella sequenza, o ne sono arrivati fuori ordine.`,
    },
    lot_uncertified: {
      subject: (_a, d) => `Il lotto ${d.lot_number ?? d.consumables_lot} non ha un certificato valido`,
      body: (_a, d) =>
        `Alcuni record hanno usato il lotto ${d.lot_number ?? d.consumables_lot}, senza un certificato in vigore il giorno in cui sono stati ricevuti.`,
    },
    device_clock_ahead: {
      subject: (a) => `L'orologio del dispositivo ${value(a.deviceSerial)} è avanti`,
      body: (a, d) =>
        `Il dispositivo ${value(a.deviceSerial)} ha datato il ciclo ${d.progressive_id} alle ${d.cycle_ts}, dopo il suo arrivo al server (${d.received_ts}). Controllare l'orologio del dispositivo: fino ad allora i suoi orari dei cicli non sono affidabili.`,
    },
    anchor_fee_ceiling: {
      subject: (_a, d) => `Il blocco di dati blockchain ${d.block_id} attende: commissioni oltre il tetto`,
      body: (_a, d) =>
        `Ancorare il blocco ${d.block_id} su ${d.network} costerebbe più del tetto di ${d.max_fee_gwei} gwei per unità di gas (ANCHOR_MAX_FEE_GWEI): la blockchain chiede ${d.base_fee_gwei} gwei. Il blocco attende e sarà inviato o minato appena le commissioni scendono sotto il tetto; alzare il tetto per ancorarlo prima.`,
    },
    integrity_mismatch: {
      subject: (_a, d) => `Controllo di integrità fallito: ${d.subject} ${d.subject_id}`,
      body: (_a, d) =>
        `Il controllo periodico di integrità ha trovato che ${d.subject} ${d.subject_id} non corrisponde più alle sue prove (${d.check}${d.field === '—' ? '' : `, ${d.field}`}): ${d.message}. Confrontarlo con l'ultimo backup e con la blockchain prima di ogni altra cosa (docs/backups.md).`,
    },
  },
};

const FOOTER: Record<MailLanguage, { customer: string; raised: string; open: string; why: string }> = {
  en: {
    customer: 'Customer',
    raised: 'Raised at (UTC)',
    open: 'Open the alert',
    why: 'You receive this e-mail because of your notification settings in your uvtrace profile.',
  },
  it: {
    customer: 'Cliente',
    raised: 'Segnalato il (UTC)',
    open: "Apri l'avviso",
    why: 'Ricevi questa e-mail in base alle impostazioni di notifica del tuo profilo uvtrace.',
  },
};

export function alertMail(
  alert: AlertForMail,
  language: MailLanguage,
  appUrl: string,
): { subject: string; text: string } {
  const details = Object.fromEntries(
    Object.entries({ device_serial: alert.deviceSerial, ...alert.details }).map(([key, raw]) => [
      key,
      value(raw),
    ]),
  );
  // A detail the kind's sentence names but the alert lacks reads as a dash, never as "undefined".
  const d = new Proxy(details, { get: (target, key: string) => target[key] ?? '—' });
  const text = TEXTS[language][alert.kind];
  const footer = FOOTER[language];
  const lines = [
    text.body(alert, d),
    '',
    ...(alert.customerName ? [`${footer.customer}: ${alert.customerName}`] : []),
    `${footer.raised}: ${alert.raisedAt.toISOString().replace('T', ' ').slice(0, 19)}`,
    `${footer.open}: ${appUrl}/alerts?kind=${alert.kind}`,
    '',
    footer.why,
  ];
  return { subject: `[uvtrace] ${text.subject(alert, d)}`, text: lines.join('\n') };
}
