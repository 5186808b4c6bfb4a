/**
 * The calls behind a list's Columns and Views menus (docs/lists.md): the user's kept columns per list
 * (GET/PUT /auth/me/list-columns) and the saved views of a list (/saved-views). Shared by every list,
 * hence here rather than in a feature.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '#client/lib/api-client.ts';
import { useSession } from '#client/lib/session.ts';
import type { ListName, SavedViewVisibility } from '#shared/api/index.ts';

/**
 * GET /auth/me/list-columns: every list's kept columns of the logged-in user, keyed by the user so that
 * another user in the same tab never sees them.
 */
export const listColumnsQueryOptions = (userId: number | undefined) =>
  queryOptions({
    queryKey: ['auth', 'me', 'list-columns', userId],
    queryFn: () => unwrap(api.GET('/auth/me/list-columns')),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** The kept columns of one list (undefined without a choice, while loading, or without `list`). */
export function useKeptColumns(list: ListName | undefined): string[] | undefined {
  const userId = useSession()?.user.id;
  const query = useQuery({
    ...listColumnsQueryOptions(userId),
    enabled: list !== undefined && userId !== undefined,
  });
  return list === undefined ? undefined : query.data?.find((kept) => kept.list === list)?.columns;
}

/** PUT /auth/me/list-columns/{list}: keeps a choice; an empty one returns the list to its default. */
export function useKeepColumns(list: ListName) {
  const queryClient = useQueryClient();
  const userId = useSession()?.user.id;
  return useMutation({
    mutationKey: ['auth', 'me', 'list-columns', list, 'update'],
    mutationFn: (columns: string[]) =>
      unwrap(api.PUT('/auth/me/list-columns/{list}', { params: { path: { list } }, body: { columns } })),
    onSuccess: (kept) => queryClient.setQueryData(listColumnsQueryOptions(userId).queryKey, kept),
  });
}

/** GET /saved-views?list=: the views of a list the user may pick. */
export const savedViewsQueryOptions = (list: ListName) =>
  queryOptions({
    queryKey: ['saved-views', { list }],
    queryFn: () => unwrap(api.GET('/saved-views', { params: { query: { list } } })),
  });

export const useSavedViews = (list: ListName, enabled: boolean) =>
  useQuery({ ...savedViewsQueryOptions(list), enabled });

export type SavedViewValues = { name: string; search: string; visibility: SavedViewVisibility };

export function useCreateSavedView(list: ListName) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['saved-views', 'create'],
    mutationFn: (values: SavedViewValues) => unwrap(api.POST('/saved-views', { body: { list, ...values } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['saved-views'] }),
  });
}

export function useUpdateSavedView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['saved-views', 'update'],
    mutationFn: ({ id, ...body }: SavedViewValues & { id: number }) =>
      unwrap(api.PUT('/saved-views/{viewId}', { params: { path: { viewId: id } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['saved-views'] }),
  });
}

export function useDeleteSavedView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['saved-views', 'delete'],
    mutationFn: (id: number) =>
      unwrap(api.DELETE('/saved-views/{viewId}', { params: { path: { viewId: id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['saved-views'] }),
  });
}
