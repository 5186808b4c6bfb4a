import { SEARCH_TEXT_MAX_LENGTH } from '../data-table/list-search';
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
