import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import {
  type DataColumn,
  DataTable,
  pagedRows,
  useListControls,
  YesNo,
} from '#client/components/data-table/index.ts';
import { ListPage, SearchBar } from '#client/components/list/index.ts';
import type { Product } from '#shared/api/index.ts';
import { useProducts } from './api/products';
import type { ProductsListSearch } from './search';

function TypeCell({ product }: { product: Product }) {
  const intl = useIntl();
  return <>{intl.formatMessage({ id: `products.type.${product.type}` })}</>;
}

type Props = {
  search: ProductsListSearch;
  onSearchChange: (patch: Partial<ProductsListSearch>) => void;
};

/**
 * docs/product.md §2 products_index: name, type, active, actions. The API has no product writes
 * (docs/product.md §7), so no row has an action and the list shows no actions column (DataTable leaves
 * out an actions column no row fills).
 */
export function ProductsListPage({ search, onSearchChange }: Props) {
  const products = useProducts(search);
  const list = useListControls(search, onSearchChange, 'products');

  const columns = useMemo<DataColumn<Product>[]>(
    () => [
      { id: 'name', headerId: 'products.columns.name', sortKey: 'name', cell: (row) => row.name },
      {
        id: 'type',
        headerId: 'products.columns.type',
        sortKey: 'type',
        cell: (row) => <TypeCell product={row} />,
      },
      {
        id: 'active',
        headerId: 'products.columns.active',
        sortKey: 'active',
        cell: (row) => <YesNo value={row.deleted_at === null} />,
      },
      { id: 'actions', headerId: 'products.columns.actions', align: 'right', cell: () => null },
    ],
    [],
  );

  return (
    <ListPage titleId="products.list.title">
      <SearchBar
        labelId="products.list.filters"
        placeholderId="products.list.search_placeholder"
        value={search.q}
        onChange={(q) => onSearchChange({ q, page: 1 })}
      />
      <DataTable
        {...list}
        labelId="products.list.label"
        columns={columns}
        {...pagedRows(products)}
        getRowId={(row) => row.id}
        emptyMessageId="products.list.empty"
      />
    </ListPage>
  );
}
