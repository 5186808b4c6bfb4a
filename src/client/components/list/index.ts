export { FilterBar } from './filter-bar';
export { ListPage } from './list-page';
export { type FilterOption, SelectFilter } from './select-filter';
