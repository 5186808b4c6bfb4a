import { SEARCH_TEXT_MAX_LENGTH } from '../data-table/list-search';
import { FilterBar } from './filter-bar';
import { TextFilter } from './text-filter';

/**
 * A list's free-text search (`q` in the URL), a text filter like the others: it applies after a short
 * pause in the typing. `placeholderId` names what the list searches (e.g. "Name or city").
 */
export function SearchFilter({
  placeholderId,
  value,
  onChange,
}: {
  placeholderId: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}) {
  return (
    <TextFilter
      name="q"
      labelId="list.search.label"
      placeholderId={placeholderId}
      value={value}
      onChange={onChange}
      maxLength={SEARCH_TEXT_MAX_LENGTH}
      width={280}
    />
  );
}

/**
 * The filter bar of a list whose only filter is its search: the search field, then Reset (enabled
 * while a search is set). `onChange(undefined)` is the reset; a paged list goes back to page 1 in it.
 */
export function SearchBar({
  labelId,
  placeholderId,
  value,
  onChange,
}: {
  labelId: string;
  placeholderId: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}) {
  return (
    <FilterBar labelId={labelId} filtered={value !== undefined} onReset={() => onChange(undefined)}>
      <SearchFilter placeholderId={placeholderId} value={value} onChange={onChange} />
    </FilterBar>
  );
}
