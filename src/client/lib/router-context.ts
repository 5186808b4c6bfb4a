import type { QueryClient } from '@tanstack/react-query';
import type { SessionStore } from './session';

/** What every route's beforeLoad/loader receives. */
export type RouterContext = {
  queryClient: QueryClient;
  session: SessionStore;
};
