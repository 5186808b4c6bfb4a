import { createFileRoute, type SearchSchemaInput } from '@tanstack/react-router';
import { parseId, parseIsoDate, parseListSearch, parseText } from '../../components/data-table/list-search';
import { recallRecordsQueryOptions } from '../../features/recall/api/recall';
import { RecallPage } from '../../features/recall/recall-page';
import { RECALL_SORT_KEYS, type RecallSearch, recallQuery } from '../../features/recall/search';
import { useDocumentTitle } from '../../lib/document-title';
import { requireModulePage } from '../../lib/route-guards';
import { useSearchChange } from '../../lib/search-change';

/**
 * Recall by lot (issue 13). Part of the sterilizations module: the same records, the same tenancy
 * (docs/decisions.md, "Recall by lot"). Lot, filters, sort and page are in the URL; malformed values
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
