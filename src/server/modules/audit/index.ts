/**
 * The audit module's public surface: what other modules use of it
 * (docs/adr/0003-server-layout-and-boundaries.md).
 */
export type { AuditFields } from './changes.ts';
export { changedFields } from './changes.ts';
export type { AuditChanges } from './hash-chain.ts';
export { GENESIS_HASH } from './hash-chain.ts';
export { userChanges } from './user-changes.ts';
export { verifyAuditChain } from './verify.ts';
export type { AuditedWrite, AuditIntent, AuditSource } from './write-audited.ts';
export { auditSource, writeAudited } from './write-audited.ts';
