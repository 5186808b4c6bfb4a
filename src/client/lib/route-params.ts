import { requireIdParam } from '../components/data-table/list-search';

/**
 * A route's `params` option for a path param that is a database id (`$id`, `$userId`…): parsed once,
 * when the URL is matched, so the loader, the components and the links below all see a number. Anything
 * but a positive integer is not found (the router's not-found view), before any loader runs.
 */
export function idParam<const K extends string>(name: K) {
  return {
    parse: (raw: Record<K, string>) => ({ [name]: requireIdParam(raw[name]) }) as Record<K, number>,
    stringify: (params: Record<K, number>) => ({ [name]: String(params[name]) }) as Record<K, string>,
  };
}
