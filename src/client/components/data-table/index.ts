export {
  type DataColumn,
  DataTable,
  type DataTableProps,
  detailRowId,
  stopRowClick,
  YesNo,
} from './data-table';
export {
  type ListSearch,
  parseId,
  parseIsoDate,
  parseListSearch,
  parseOneOf,
  parsePage,
  parseSortDir,
  requireIdParam,
  type SortDir,
  useListControls,
} from './list-search';
export { listState, pagedRows } from './paged-rows';
