/**
 * Sterilization records: device ingestion, the list and its filter options (docs/product.md §2 Sterilization
 * list), and the CSV exports with their one-time tickets (§7 /export/...).
 */

import type { FastifyRequest } from 'fastify';
import type { ApiModule } from '#server/contract/handler-types.ts';
import type { Db } from '#server/db/client.ts';
import { forbidden, notFound, ok } from '#server/http/envelope.ts';
import { type ForegroundRequests, type GiveWay, nextTurnOnly } from '#server/http/give-way.ts';
import { pageOf, pageRequest } from '#server/http/paging.ts';
import { sendPdf } from '#server/http/pdf-reply.ts';
import { receivedWindow } from '#server/http/received-window.ts';
import { requireAbility, requireModule, tenantScope } from '#server/security/guards.ts';
import { can, isTenantScoped } from '#shared/access/index.ts';
import type { ChainService } from '../integrity/index.ts';
import { cycleReportPdf, findCycleRecord } from './cycle-report.ts';
import { recordEvidence } from './evidence.ts';
import { attachmentName, EXPORT_BATCH_ROWS, filteredExport, okExport } from './exports.ts';
import { HiddenRefusal, ingest } from './ingestion.ts';
import type { Direction, SterilizationFilter, SterilizationSort } from './list.ts';
import { type BundleChain, proofBundleExport } from './proof-bundle.ts';
import { recallExport, recallSummary } from './recall.ts';
import { createRecordWriter } from './record-writer.ts';
import {
  customerExists,
  customerOptions,
  deviceOptions,
  type FilterRequest,
  listSterilizationPage,
  resolveFilter,
} from './repository.ts';
import {
  consumeTicket,
  createTicket,
  EXPORT_ABILITY,
  type ExportName,
  type TicketHolder,
} from './tickets.ts';

const CSV_HEADERS = {
  'content-type': 'text/csv; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/** The ticket's user must still hold the export's ability (the role may have changed since). */
function holderScope(holder: TicketHolder, exportName: ExportName): number | null {
  if (!can(holder.role, EXPORT_ABILITY[exportName])) throw forbidden();
  return isTenantScoped(holder.role) ? holder.customerId : null;
}

/** The filters of the record lists and exports, as their queries carry them. */
type RecordQuery = Omit<FilterRequest, 'scope' | 'window'> & {
  from?: string | undefined;
  to?: string | undefined;
};

/**
 * Embedded PGlite serves every request over one connection: smaller export batches there keep other
 * requests from waiting long behind a batch (measured: health p99 66 ms with 5,000-row batches).
 */
const SINGLE_CONNECTION_BATCH_ROWS = 1_000;
/**
 * Ingestion writes under way at once (record-writer.ts). On PGlite one: its single connection queues
 * every round trip, so the requests that arrive meanwhile are best written together. On a PostgreSQL
 * server two per process: a statement's fixed cost (planning, opening the table's 14 indexes, the
 * commit's WAL flush) is then shared by the requests that gather, and single-record tokens went from
 * ~720 to ~940 records/s (16 in flight), with the 200-user list p95 unchanged
 * (docs/adr/0008-ingestion-writes.md). Four at a time measured worse for batches, and before the count slots
 * (migration 0015) for the 200-user list too, when every write of an owner's records queued for one
 * daily-count row.
 */
const CONCURRENT_WRITES = { singleConnection: 1, server: 2 };

export function sterilizationsModule(deps: {
  db: Db;
  sessionIdleMinutes: number;
  /** DEVICE_CLOCK_SKEW_SECONDS: a cycle time later than its arrival by more marks a suspect clock. */
  deviceClockSkewSeconds: number;
  /** Hears stored record ids after each ingestion (the alert evaluation); must not throw. */
  onRecordsStored?: (recordIds: number[]) => void;
  /** The chain the proof bundle and the cycle report's QR name (network, chain id, contract). */
  chain: ChainService;
  /** Origin of the /verify link printed as the cycle report's QR code (APP_URL). */
  appUrl: string;
  /** The requests in flight that a streamed export gives way to (#server/http/give-way.ts). */
  foreground?: ForegroundRequests;
}): ApiModule {
  const { db, sessionIdleMinutes, onRecordsStored } = deps;
  /** A streamed export: not a request others wait for; between its slices, it waits for them. */
  const streamed = (request: FastifyRequest): GiveWay => {
    if (!deps.foreground) return nextTurnOnly;
    deps.foreground.runsLong(request);
    return deps.foreground.giveWay;
  };
  const currentChain = async (): Promise<BundleChain> => {
    try {
      const connected = await deps.chain.chain();
      return connected
        ? {
            network: connected.network,
            chain_id: connected.chainId,
            contract_address: connected.contractAddress,
          }
        : null;
    } catch {
      // The chain down: the bundle still lists the records and proofs; a verifier names the chain.
      return null;
    }
  };
  /** The records a list or an export asks for, within what the caller may see (null: everything). */
  const recordFilter = (scope: number | null, query: RecordQuery) =>
    resolveFilter(db, {
      scope,
      customerId: query.customerId,
      deviceId: query.deviceId,
      anomaly: query.anomaly,
      lotStatus: query.lotStatus,
      lot: query.lot,
      window: receivedWindow(query.from, query.to),
    });

  /** An export's records: its one-time ticket taken, within what the ticket's user may see now. */
  const exportFilter = async (
    exportName: ExportName,
    query: RecordQuery & { ticket?: string | undefined },
  ) => {
    const holder = await consumeTicket(db, query.ticket, exportName, sessionIdleMinutes);
    return recordFilter(holderScope(holder, exportName), query);
  };

  /** One page of a filtered record list (the sterilization list and the recall list). */
  const recordPage = async (
    filter: SterilizationFilter,
    query: { page?: number; perPage?: number; sortBy?: SterilizationSort; sortDir?: Direction },
  ) => {
    const paging = pageRequest(query.page, query.perPage);
    const { rows, total } = await listSterilizationPage(db, filter, {
      sort: query.sortBy ?? 'received_ts',
      dir: query.sortDir ?? 'desc',
      limit: paging.limit,
      offset: paging.offset,
    });
    return pageOf(rows, total, paging);
  };
  const pool = (db as unknown as { $client?: { options?: { max?: number } } }).$client;
  const singleConnection = pool?.options?.max === 1;
  const batchRows = singleConnection ? SINGLE_CONNECTION_BATCH_ROWS : EXPORT_BATCH_ROWS;
  const recordWriter = createRecordWriter(db, {
    concurrentWrites: singleConnection ? CONCURRENT_WRITES.singleConnection : CONCURRENT_WRITES.server,
    deviceClockSkewSeconds: deps.deviceClockSkewSeconds,
  });
  return {
    handlers: {
      async ingestSterilizations(request) {
        try {
          return ok(await ingest(db, recordWriter, request.body.token, onRecordsStored), 'stored');
        } catch (error) {
          if (error instanceof HiddenRefusal)
            request.log.warn({ reason: error.reason, serial: error.serial }, 'device token refused');
          throw error;
        }
      },

      async listSterilizations(request) {
        const auth = requireModule(request, 'sterilizations');
        const filter = await recordFilter(tenantScope(auth), request.query);
        return ok(await recordPage(filter, request.query));
      },

      async listRecallRecords(request) {
        const auth = requireModule(request, 'sterilizations');
        const filter = await recordFilter(tenantScope(auth), request.query);
        return ok(await recordPage(filter, request.query));
      },

      async getRecallSummary(request) {
        const auth = requireModule(request, 'sterilizations');
        const filter = await recordFilter(tenantScope(auth), request.query);
        return ok(await recallSummary(db, filter, request.query.lot));
      },

      async getSterilizationCustomerFilter(request) {
        const auth = requireModule(request, 'sterilizations');
        return ok(await customerOptions(db, tenantScope(auth)));
      },

      async getSterilizationDeviceFilter(request) {
        const auth = requireModule(request, 'sterilizations');
        const { customerId } = request.params;
        const scope = tenantScope(auth);
        if (scope !== null && scope !== customerId) throw notFound();
        if (!(await customerExists(db, customerId))) throw notFound();
        return ok(await deviceOptions(db, customerId));
      },

      async getSterilizationEvidence(request) {
        const auth = requireModule(request, 'sterilizations');
        const evidence = await recordEvidence(db, request.params.id, tenantScope(auth));
        if (!evidence) throw notFound();
        return ok(evidence);
      },

      async downloadCycleReport(request, reply) {
        const auth = requireModule(request, 'sterilizations');
        const row = await findCycleRecord(db, request.params.id, tenantScope(auth));
        if (!row) throw notFound();
        const lang = request.query.lang ?? 'en';
        const pdf = Buffer.from(await cycleReportPdf(deps, row, lang));
        return sendPdf(reply, pdf, `cycle-report-${row.id}-${lang}.pdf`);
      },

      async createExportTicket(request, reply) {
        const exportName = request.body.export;
        const auth = requireAbility(request, EXPORT_ABILITY[exportName]);
        reply.code(201);
        return ok(
          await createTicket(db, { userId: auth.user.id, sessionId: auth.sessionId }, exportName),
          'exports.ticket_created',
        );
      },

      async exportSterilizationsFiltered(request, reply) {
        const filter = await exportFilter('sterilizations-filtered', request.query);
        reply.headers({ ...CSV_HEADERS, 'content-disposition': attachmentName('sterilizations') });
        return reply.send(filteredExport(db, filter, batchRows, streamed(request)));
      },

      async exportSterilizationsProofBundle(request, reply) {
        const filter = await exportFilter('sterilizations-proof-bundle', request.query);
        const chain = await currentChain();
        const now = new Date();
        reply.headers({
          'content-type': 'application/json; charset=utf-8',
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
          'content-disposition': attachmentName('proof-bundle', now, 'json'),
        });
        return reply.send(proofBundleExport(db, filter, chain, batchRows, now, streamed(request)));
      },

      async exportSterilizationsOk(request, reply) {
        const { ticket, from, to } = request.query;
        const holder = await consumeTicket(db, ticket, 'sterilizations-ok', sessionIdleMinutes);
        const scope = holderScope(holder, 'sterilizations-ok');
        reply.headers({ ...CSV_HEADERS, 'content-disposition': attachmentName('sterilizations-ok') });
        return reply.send(okExport(db, scope, receivedWindow(from, to), batchRows, streamed(request)));
      },

      async exportRecall(request, reply) {
        const filter = await exportFilter('recall', request.query);
        reply.headers({ ...CSV_HEADERS, 'content-disposition': attachmentName('recall') });
        return reply.send(recallExport(db, filter, batchRows, streamed(request)));
      },
    },
  };
}
