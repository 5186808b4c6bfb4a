/**
 * The products list (docs/product.md §2 Products list; §7 GET /products), for roles with the products module.
 */

import type { ApiModule } from '#server/contract/handler-types.ts';
import type { Db } from '#server/db/client.ts';
import { searchText } from '#server/db/text-search.ts';
import { ok } from '#server/http/envelope.ts';
import { pageOf, pageRequest } from '#server/http/paging.ts';
import { requireModule } from '#server/security/guards.ts';
import { listProductPage } from './repository.ts';

export function productsModule(deps: { db: Db }): ApiModule {
  const { db } = deps;
  return {
    handlers: {
      async listProducts(request) {
        requireModule(request, 'products');
        const { page, q, sortBy, sortDir } = request.query;
        const paging = pageRequest(page, request.query.perPage);
        const { rows, total } = await listProductPage(db, {
          sortBy: sortBy === 'type' || sortBy === 'active' ? sortBy : 'name',
          dir: sortDir === 'desc' ? 'desc' : 'asc',
          limit: paging.limit,
          offset: paging.offset,
          search: searchText(q),
        });
        return ok(pageOf(rows, total, paging));
      },
    },
  };
}
