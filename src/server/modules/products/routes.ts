/** The products list (SPEC §2 Products list; §7 GET /products), for roles with the products module. */
import { requireModule } from '../../auth/guards.ts';
import type { ApiModule } from '../../contract/handler-types.ts';
import type { Db } from '../../db/client.ts';
import { searchText } from '../../db/text-search.ts';
import { ok } from '../../http/envelope.ts';
import { pageOf, pageRequest } from '../../http/paging.ts';
import { listProductPage } from './repository.ts';

export function productsModule(deps: { db: Db }): ApiModule {
  const { db } = deps;
  return {
    handlers: {
      async listProducts(request) {
        requireModule(request, 'products');
        const { page, q, sortBy, sortDir } = request.query;
        const paging = pageRequest(page);
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
