import { createFileRoute, type SearchSchemaInput } from '@tanstack/react-router';
import { outboxQueryOptions } from '#client/features/mail/api/outbox.ts';
import { OutboxPage } from '#client/features/mail/outbox-page.tsx';
import { type OutboxSearch, parseOutboxSearch } from '#client/features/mail/search.ts';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { requireAbilityPage } from '#client/lib/route-guards.ts';
import { useSearchChange } from '#client/lib/search-change.ts';

/** The e-mail outbox (canSeeMailOutbox): page and filters in the URL. */
export const Route = createFileRoute('/_authenticated/outbox')({
  beforeLoad: ({ context }) => requireAbilityPage(context.session.get(), 'canSeeMailOutbox'),
  validateSearch: (raw: Partial<Record<keyof OutboxSearch, unknown>> & SearchSchemaInput): OutboxSearch =>
    parseOutboxSearch(raw),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(outboxQueryOptions(deps));
  },
  component: OutboxRoute,
});

function OutboxRoute() {
  useDocumentTitle({ id: 'titles.outbox' });
  const search = Route.useSearch();
  const onSearchChange = useSearchChange(Route);
  return <OutboxPage search={search} onSearchChange={onSearchChange} />;
}
