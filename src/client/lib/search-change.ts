import { useCallback } from 'react';

/** What a file route's `Route.useNavigate()` gives, as far as changing its search goes. */
type SearchNavigate<TSearch> = (options: { search: (prev: TSearch) => TSearch }) => Promise<void>;

/**
 * A list route's `onSearchChange` (`useSearchChange(Route)`): merges a patch (page, sort, filters)
 * into the route's search params. The same function for the route's whole life, so what pages memoise
 * on it (useListControls) stays memoised. The search type comes from the route's `useSearch`, so a
 * patch is checked against what the route's validateSearch returns.
 */
export function useSearchChange<TSearch extends object>(route: {
  useSearch: () => TSearch;
  useNavigate: () => SearchNavigate<NoInfer<TSearch>>;
}): (patch: Partial<TSearch>) => void {
  const navigate = route.useNavigate();
  return useCallback(
    (patch: Partial<TSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }) }),
    [navigate],
  );
}
