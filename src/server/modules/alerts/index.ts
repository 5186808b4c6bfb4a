/**
 * The alerts module's public surface: what other modules use of it
 * (docs/adr/0003-server-layout-and-boundaries.md).
 */
export { conditionKeys } from './conditions.ts';
export type { AlertToRaise } from './raise.ts';
export { raiseAlert, raiseAlerts, resolveAlertsFor } from './raise.ts';
