import { createFileRoute, redirect, type SearchSchemaInput } from '@tanstack/react-router';
import { parseListSearch, parseSearchText } from '#client/components/data-table/list-search.ts';
import { certificatesQueryOptions } from '#client/features/certificates/api/certificates.ts';
import { CertificateListPage } from '#client/features/certificates/certificate-list-page.tsx';
import { rememberedListSearch } from '#client/features/certificates/list-memory.ts';
import { CERTIFICATE_SORT_KEYS, type CertificateListSearch } from '#client/features/certificates/search.ts';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { requireModulePage } from '#client/lib/route-guards.ts';
import { useSearchChange } from '#client/lib/search-change.ts';

const parseSearch = (raw: Record<string, unknown>): CertificateListSearch => ({
  ...parseListSearch(raw, CERTIFICATE_SORT_KEYS, { sortBy: 'lot_number', sortDir: 'asc' }),
  q: parseSearchText(raw.q),
});

const isDefault = (search: CertificateListSearch) =>
  search.page === 1 && search.sortBy === 'lot_number' && search.sortDir === 'asc' && search.q === undefined;

/**
 * docs/product.md §2 certificates_index; default sort lot_number ascending (docs/product.md §9). Sort and
 * page live in the URL and are remembered for the tab: entering the list with the default state (the menu
 * link, the way back from the upload) comes back to the page and sort used last. Changes made on the list
 * itself ("stay") are never redirected.
 */
export const Route = createFileRoute('/_authenticated/certificates/')({
  validateSearch: (raw: Record<string, unknown> & SearchSchemaInput): CertificateListSearch =>
    parseSearch(raw),
  beforeLoad: ({ context, search, cause }) => {
    requireModulePage(context.session.get(), 'certificates');
    if (cause !== 'enter' || !isDefault(search)) return;
    const remembered = rememberedListSearch();
    if (!remembered) return;
    const restored = parseSearch(remembered);
    if (isDefault(restored)) return;
    throw redirect({ to: '/certificates', search: restored, replace: true });
  },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(certificatesQueryOptions(deps));
  },
  component: CertificatesRoute,
});

function CertificatesRoute() {
  useDocumentTitle({ id: 'titles.certificates' });
  const search = Route.useSearch();
  const onSearchChange = useSearchChange(Route);
  return <CertificateListPage search={search} onSearchChange={onSearchChange} />;
}
