/**
 * The sterilizations module's public surface: what other modules use of it
 * (docs/adr/0003-server-layout-and-boundaries.md).
 */
export { type SterilizationRow, TOKEN_SHA256_SQL } from './view.ts';
