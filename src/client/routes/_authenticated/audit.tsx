import { createFileRoute, type SearchSchemaInput } from '@tanstack/react-router';
import { auditQueryOptions } from '../../features/audit/api/audit';
import { AuditListPage } from '../../features/audit/audit-list-page';
import { type AuditListSearch, parseAuditSearch } from '../../features/audit/search';
import { useDocumentTitle } from '../../lib/document-title';
import { requireAbilityPage } from '../../lib/route-guards';
import { useSearchChange } from '../../lib/search-change';

/** The audit trail (canSeeAudit): page and every filter in the URL, so a filtered view is a link. */
export const Route = createFileRoute('/_authenticated/audit')({
  beforeLoad: ({ context }) => requireAbilityPage(context.session.get(), 'canSeeAudit'),
  validateSearch: (
    raw: Partial<Record<keyof AuditListSearch, unknown>> & SearchSchemaInput,
  ): AuditListSearch => parseAuditSearch(raw),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(auditQueryOptions(deps));
  },
  component: AuditRoute,
});

function AuditRoute() {
  useDocumentTitle({ id: 'titles.audit' });
  const search = Route.useSearch();
  const onSearchChange = useSearchChange(Route);
  return <AuditListPage search={search} onSearchChange={onSearchChange} />;
}
