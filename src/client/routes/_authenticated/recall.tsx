import { createFileRoute, type SearchSchemaInput } from '@tanstack/react-router';
import {
  parseId,
  parseIsoDate,
  parseListSearch,
  parseText,
} from '#client/components/data-table/list-search.ts';
import { recallRecordsQueryOptions } from '#client/features/recall/api/recall.ts';
import { RecallPage } from '#client/features/recall/recall-page.tsx';
import { RECALL_SORT_KEYS, type RecallSearch, recallQuery } from '#client/features/recall/search.ts';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { requireModulePage } from '#client/lib/route-guards.ts';
import { useSearchChange } from '#client/lib/search-change.ts';

/**
 * Recall by lot. Part of the sterilizations module: the same records, the same tenancy
 * (docs/adr/0024-lot-compliance-and-recall.md). Lot, filters, sort and page are in the URL; malformed values
 * fall back to defaults, an over-long lot is dropped.
 */
export const Route = createFileRoute('/_authenticated/recall')({
  beforeLoad: ({ context }) => requireModulePage(context.session.get(), 'sterilizations'),
  validateSearch: (raw: Partial<Record<keyof RecallSearch, unknown>> & SearchSchemaInput): RecallSearch => {
    const customerId = parseId(raw.customerId);
    return {
      ...parseListSearch(raw, RECALL_SORT_KEYS, { sortBy: 'received_ts', sortDir: 'desc' }),
      lot: parseText(raw.lot),
      customerId,
      deviceId: customerId === undefined ? undefined : parseId(raw.deviceId),
      from: parseIsoDate(raw.from),
      to: parseIsoDate(raw.to),
    };
  },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => {
    const query = recallQuery(deps, context.session.get()?.user);
    if (query) void context.queryClient.prefetchQuery(recallRecordsQueryOptions(query));
  },
  component: RecallRoute,
});

function RecallRoute() {
  useDocumentTitle({ id: 'titles.recall' });
  const search = Route.useSearch();
  const onSearchChange = useSearchChange(Route);
  return <RecallPage search={search} onSearchChange={onSearchChange} />;
}
