import { createFileRoute, type SearchSchemaInput } from '@tanstack/react-router';
import { outboxQueryOptions } from '../../features/mail/api/outbox';
import { OutboxPage } from '../../features/mail/outbox-page';
import { type OutboxSearch, parseOutboxSearch } from '../../features/mail/search';
import { useDocumentTitle } from '../../lib/document-title';
import { requireAbilityPage } from '../../lib/route-guards';
import { useSearchChange } from '../../lib/search-change';

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
