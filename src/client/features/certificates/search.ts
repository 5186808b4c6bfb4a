/** The list's URL state: kept apart from the page so the route's search parsing does not pull the table into the first bundle. */
import type { SearchableListSearch } from '#client/components/data-table/list-search.ts';

export const CERTIFICATE_SORT_KEYS = ['lot_number', 'validated_treatment_number', 'expiration_date'] as const;
export type CertificateListSearch = SearchableListSearch<(typeof CERTIFICATE_SORT_KEYS)[number]>;
