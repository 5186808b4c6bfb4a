/**
 * The integrity module's public surface: what other modules use of it
 * (docs/adr/0003-server-layout-and-boundaries.md).
 */
export { createAnchorWorker, integrityRecord, RECORD_FIELDS_SQL } from './anchor-worker.ts';
export type { Chain } from './chain.ts';
export { connectChain } from './chain.ts';
export type { ChainService } from './service.ts';
