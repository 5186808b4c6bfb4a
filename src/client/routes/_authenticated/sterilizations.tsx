import { Backdrop, CircularProgress } from '@mui/material';
import { createFileRoute, type SearchSchemaInput } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import type { Sterilization } from '../../../shared/api/index.ts';
import { parseId, parseIsoDate, parseListSearch } from '../../components/data-table/list-search';
import { sterilizationsQueryOptions } from '../../features/sterilizations/api/sterilizations';
import {
  effectiveSearch,
  parseLotStatus,
  STERILIZATION_SORT_KEYS,
  type SterilizationListSearch,
} from '../../features/sterilizations/search';
import { SterilizationListPage } from '../../features/sterilizations/sterilization-list-page';
import { useDocumentTitle } from '../../lib/document-title';
import { requireModulePage } from '../../lib/route-guards';
import { useSearchChange } from '../../lib/search-change';
import { parseAnomaly } from '../../lib/sterilization-anomaly';

// The verification modal brings the hashing and chain code: loaded when first opened.
const VerificationDialog = lazy(() => import('../../features/integrity/verification-dialog'));

/**
 * SPEC §2 sterilizations_index: default sort received_ts descending (SPEC §9). Every filter, the sort
 * and the page are in the URL, so a filtered view is a link; malformed values fall back to defaults.
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
