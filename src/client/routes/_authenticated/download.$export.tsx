import { createFileRoute, notFound, type SearchSchemaInput } from '@tanstack/react-router';
import { parseId, parseIsoDate, parseText } from '#client/components/data-table/list-search.ts';
import { DownloadPage } from '#client/features/exports/download-page.tsx';
import { parseLotStatus as parseLotStatusFilter } from '#client/features/sterilizations/search.ts';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { EXPORT_NAMES, type ExportName } from '#client/lib/exports.ts';
import { parseAnomaly, type SterilizationAnomaly } from '#client/lib/sterilization-anomaly.ts';
import type { LotStatusFilter } from '#shared/api/index.ts';

type DownloadSearch = {
  from?: string;
  to?: string;
  customerId?: number;
  deviceId?: number;
  anomaly?: SterilizationAnomaly;
  lot?: string;
  lotStatus?: LotStatusFilter;
};

/**
 * /download/<export>?filters: where a download link leads when it is opened in a new tab or copied
 * (a click on it downloads in place). Logged out, it goes through login and back here.
 */
export const Route = createFileRoute('/_authenticated/download/$export')({
  params: {
    parse: ({ export: name }) => {
      const known = EXPORT_NAMES.find((candidate) => candidate === name);
      if (!known) throw notFound();
      return { export: known };
    },
    stringify: ({ export: name }) => ({ export: name }),
  },
  validateSearch: (
    raw: Partial<Record<keyof DownloadSearch, unknown>> & SearchSchemaInput,
  ): DownloadSearch => ({
    from: parseIsoDate(raw.from),
    to: parseIsoDate(raw.to),
    customerId: parseId(raw.customerId),
    deviceId: parseId(raw.deviceId),
    anomaly: parseAnomaly(raw.anomaly),
    lot: parseText(raw.lot),
    lotStatus: parseLotStatusFilter(raw.lotStatus),
  }),
  component: DownloadRoute,
});

function DownloadRoute() {
  useDocumentTitle({ id: 'titles.download' });
  const { export: name } = Route.useParams() as { export: ExportName };
  const { from, to, customerId, deviceId, anomaly, lot, lotStatus } = Route.useSearch();
  // Another link opened in this tab is another download: a fresh page for it.
  const key = JSON.stringify([name, from, to, customerId, deviceId, anomaly, lot, lotStatus]);
  // Each export takes only its own filters.
  if (name === 'sterilizations-ok')
    return <DownloadPage key={key} exportName={name} filters={{ from, to }} />;
  if (name === 'recall') {
    // A recall is of one lot: a link without one names no file.
    if (lot === undefined) throw notFound();
    return <DownloadPage key={key} exportName={name} filters={{ lot, from, to, customerId, deviceId }} />;
  }
  return (
    <DownloadPage
      key={key}
      exportName={name}
      filters={{ from, to, customerId, deviceId, anomaly, lotStatus }}
    />
  );
}
