import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '#client/lib/api-client.ts';
import { formDataSerializer } from '#client/lib/form-data.ts';

/** GET /auth/me: the logged-in user. */
export const meQueryOptions = () =>
  queryOptions({
    queryKey: ['auth', 'me'],
    queryFn: () => unwrap(api.GET('/auth/me')),
  });

export const useMe = () => useQuery(meQueryOptions());

export type ProfileValues = {
  name: string;
  email: string;
  current_password: string;
  new_password: string;
  repeat_new_password: string;
};

/** PUT /auth/me (multipart). Empty values are not sent (docs/product.md §5). */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['auth', 'me', 'update'],
    mutationFn: (values: ProfileValues) =>
      unwrap(api.PUT('/auth/me', { body: values, bodySerializer: formDataSerializer })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['auth', 'me'] }),
  });
}
