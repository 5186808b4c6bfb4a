import type { AlertConfig } from '#server/config.ts';

/** The server-wide defaults; a clinic's own values (customers.alert_*) take precedence in the queries. */
export type AlertThresholds = Pick<
  AlertConfig,
  'lampLifeThreshold' | 'deviceSilentHours' | 'certificateExpiryDays' | 'blockStuckMinutes'
>;
