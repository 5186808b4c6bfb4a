export {
  type BulkAction,
  BulkBar,
  chosenIds,
  isSelected,
  NOTHING_SELECTED,
  type RowSelection,
  useRowSelection,
  useSelectableColumns,
} from './bulk-selection';
export { type CustomerDeviceFilterIds, CustomerDeviceFilters } from './customer-device-filters';
export { FilterBar } from './filter-bar';
export { ListPage } from './list-page';
export { ListPanel } from './list-panel';
export { SearchBar, SearchFilter } from './search-filter';
export { type FilterOption, SelectFilter } from './select-filter';
export { TEXT_FILTER_DELAY_MS, TextFilter } from './text-filter';
