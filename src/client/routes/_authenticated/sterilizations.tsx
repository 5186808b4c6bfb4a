import { Backdrop, CircularProgress } from '@mui/material';
import { createFileRoute, type SearchSchemaInput } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { parseId, parseIsoDate, parseListSearch } from '#client/components/data-table/list-search.ts';
import { sterilizationsQueryOptions } from '#client/features/sterilizations/api/sterilizations.ts';
import {
  effectiveSearch,
  parseLotStatus,
  STERILIZATION_SORT_KEYS,
  type SterilizationListSearch,
} from '#client/features/sterilizations/search.ts';
import { SterilizationListPage } from '#client/features/sterilizations/sterilization-list-page.tsx';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { requireModulePage } from '#client/lib/route-guards.ts';
import { useSearchChange } from '#client/lib/search-change.ts';
import { parseAnomaly } from '#client/lib/sterilization-anomaly.ts';
import type { Sterilization } from '#shared/api/index.ts';

// The verification modal brings the hashing and chain code: loaded when first opened.
const VerificationDialog = lazy(() => import('#client/features/integrity/verification-dialog.tsx'));

/**
 * docs/product.md §2 sterilizations_index: default sort received_ts descending (docs/product.md §9). Every
 * filter, the sort and the page are in the URL, so a filtered view is a link; malformed values fall back to
 * defaults.
 */
export const Route = createFileRoute('/_authenticated/sterilizations')({
  beforeLoad: ({ context }) => requireModulePage(context.session.get(), 'sterilizations'),
  validateSearch: (
    raw: Partial<Record<keyof SterilizationListSearch, unknown>> & SearchSchemaInput,
  ): SterilizationListSearch => {
    const customerId = parseId(raw.customerId);
    // Every key is set, undefined when absent or malformed: the router keeps raw values otherwise.
    return {
      ...parseListSearch(raw, STERILIZATION_SORT_KEYS, { sortBy: 'received_ts', sortDir: 'desc' }),
      customerId,
      // A device belongs to a customer: without one the device filter is dropped.
      deviceId: customerId === undefined ? undefined : parseId(raw.deviceId),
      anomaly: parseAnomaly(raw.anomaly),
      from: parseIsoDate(raw.from),
      to: parseIsoDate(raw.to),
      lotStatus: parseLotStatus(raw.lotStatus),
    };
  },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => {
    const user = context.session.get()?.user;
    void context.queryClient.prefetchQuery(sterilizationsQueryOptions(effectiveSearch(deps, user)));
  },
  component: SterilizationsRoute,
});

function SterilizationsRoute() {
  useDocumentTitle({ id: 'titles.sterilizations' });
  const search = Route.useSearch();
  const [verifying, setVerifying] = useState<Sterilization | null>(null);
  const onSearchChange = useSearchChange(Route);
  return (
    <>
      <SterilizationListPage search={search} onSearchChange={onSearchChange} onVerify={setVerifying} />
      {verifying && (
        <Suspense
          fallback={
            <Backdrop open sx={{ zIndex: (theme) => theme.zIndex.modal }}>
              <CircularProgress color="inherit" />
            </Backdrop>
          }
        >
          <VerificationDialog record={verifying} onClose={() => setVerifying(null)} />
        </Suspense>
      )}
    </>
  );
}
