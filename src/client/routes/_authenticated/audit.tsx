import { createFileRoute, type SearchSchemaInput } from '@tanstack/react-router';
import { auditQueryOptions } from '#client/features/audit/api/audit.ts';
import { AuditListPage } from '#client/features/audit/audit-list-page.tsx';
import { type AuditListSearch, parseAuditSearch } from '#client/features/audit/search.ts';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { requireAbilityPage } from '#client/lib/route-guards.ts';
import { useSearchChange } from '#client/lib/search-change.ts';

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
