import {
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useNavigate } from '@tanstack/react-router';
import { Form, Formik, type FormikHelpers } from 'formik';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { PageError, PagePending } from '#client/components/route-fallbacks.tsx';
import { UnsavedChangesGuard } from '#client/components/unsaved-changes.tsx';
import { trimValues } from '#client/lib/form-data.ts';
import {
  FormikTextField,
  InvalidSubmitNotifier,
  ReadOnlyFields,
  useFieldsReadOnly,
  useFormFeedback,
} from '#client/lib/form-fields.tsx';
import { useAbilities, useSession } from '#client/lib/session.ts';
import { toast } from '#client/lib/toasts.tsx';
import { assignableRoles, rolesAllowedFor } from '#shared/access/index.ts';
import type { Role } from '#shared/api/index.ts';
import { userSchema } from '#shared/validation/index.ts';
import {
  type UserData,
  type UserFormValues,
  useCreateCustomerUser,
  useCustomerUser,
  useDisableCustomerUser,
  useEnableCustomerUser,
  useEndUserSessions,
  useResetUserSecondFactor,
  useUpdateCustomerUser,
} from './api/users';
import { ROLE_LABEL_IDS, RoleBadge } from './role-badge';

/** The role select; when it cannot be changed, its helper text says why (read with the field). */
function RoleSelect({
  options,
  isSelf,
  customerId,
}: {
  options: Role[];
  isSelf: boolean;
  customerId: number;
}) {
  const intl = useIntl();
  const readOnly = useFieldsReadOnly();
  const reasonId = isSelf
    ? 'users.form.role.own'
    : rolesAllowedFor(customerId).length <= 1
      ? 'users.form.role.clinic'
      : options.length <= 1
        ? 'users.form.role.only'
        : undefined;
  return (
    <FormikTextField
      name="role"
      labelId="fields.role"
      select
      disabled={reasonId !== undefined}
      helperText={reasonId && !readOnly ? intl.formatMessage({ id: reasonId }) : undefined}
      // The reason is read, not greyed out with the field.
      slotProps={{ formHelperText: { sx: { '&.Mui-disabled': { color: 'text.secondary' } } } }}
    >
      {options.map((role) => (
        <MenuItem key={role} value={role}>
          {intl.formatMessage({ id: ROLE_LABEL_IDS[role] })}
        </MenuItem>
      ))}
    </FormikTextField>
  );
}

/** Disable (warning: PDF files will be deleted) or enable (can log in again), each confirmed first. */
function ActivationButton({ customerId, user }: { customerId: number; user: UserData }) {
  const intl = useIntl();
  const [open, setOpen] = useState(false);
  const disable = useDisableCustomerUser(customerId, user.id);
  const enable = useEnableCustomerUser(customerId, user.id);
  const active = user.deleted_at === null;
  const mutation = active ? disable : enable;
  const prefix = active ? 'users.disable' : 'users.enable';

  const confirm = async () => {
    try {
      await mutation.mutateAsync();
      toast.success({ id: active ? 'users.disabled' : 'users.enabled' });
    } catch {
      // The alert came from the mutation cache (docs/product.md §8).
    }
    setOpen(false);
  };

  return (
    <>
      <Button variant="outlined" color={active ? 'error' : 'success'} onClick={() => setOpen(true)}>
        {intl.formatMessage({ id: `${prefix}.button` })}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="user-activation-title">
        <DialogTitle id="user-activation-title">{intl.formatMessage({ id: `${prefix}.title` })}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {intl.formatMessage({ id: `${prefix}.text` }, { name: user.name })}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{intl.formatMessage({ id: 'common.cancel' })}</Button>
          <Button
            onClick={() => void confirm()}
            color={active ? 'error' : 'success'}
            variant="contained"
            disabled={mutation.isPending}
            autoFocus
          >
            {intl.formatMessage({ id: `${prefix}.confirm` })}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/** Signs the user out everywhere at once, confirmed first (docs/accounts.md §3). */
function EndSessionsButton({ customerId, user }: { customerId: number; user: UserData }) {
  const intl = useIntl();
  const [open, setOpen] = useState(false);
  const endSessions = useEndUserSessions(customerId, user.id);

  const confirm = async () => {
    try {
      const { ended } = await endSessions.mutateAsync();
      toast.success({ id: 'users.sessions.ended', values: { count: ended } });
    } catch {
      // The alert came from the mutation cache (docs/product.md §8).
    }
    setOpen(false);
  };

  return (
    <>
      <Button variant="outlined" onClick={() => setOpen(true)}>
        {intl.formatMessage({ id: 'users.sessions.end_all' })}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="user-end-sessions-title">
        <DialogTitle id="user-end-sessions-title">
          {intl.formatMessage({ id: 'users.sessions.confirm.title' })}
        </DialogTitle>
        <DialogContent>
          <DialogContentText>
            {intl.formatMessage({ id: 'users.sessions.confirm.text' }, { name: user.name })}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{intl.formatMessage({ id: 'common.cancel' })}</Button>
          <Button
            onClick={() => void confirm()}
            variant="contained"
            disabled={endSessions.isPending}
            autoFocus
          >
            {intl.formatMessage({ id: 'users.sessions.confirm.button' })}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/** A SUPER_ADMIN lifts a user's second factor (a lost phone), saying why; never their own. */
function ResetSecondFactorButton({ customerId, user }: { customerId: number; user: UserData }) {
  const intl = useIntl();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const reset = useResetUserSecondFactor(customerId, user.id);

  const confirm = async () => {
    try {
      await reset.mutateAsync(reason.trim());
      toast.success({ id: 'users.second_factor.reset_done' });
      setOpen(false);
      setReason('');
    } catch {
      // The alert came from the mutation cache (docs/product.md §8).
    }
  };

  return (
    <>
      <Button variant="outlined" onClick={() => setOpen(true)}>
        {intl.formatMessage({ id: 'users.second_factor.reset' })}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="user-reset-factor-title" fullWidth>
        <DialogTitle id="user-reset-factor-title">
          {intl.formatMessage({ id: 'users.second_factor.confirm.title' })}
        </DialogTitle>
        <DialogContent>
          <DialogContentText>
            {intl.formatMessage({ id: 'users.second_factor.confirm.text' }, { name: user.name })}
          </DialogContentText>
          <TextField
            fullWidth
            margin="normal"
            name="reason"
            label={intl.formatMessage({ id: 'users.second_factor.reason' })}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            slotProps={{ htmlInput: { maxLength: 500 } }}
            required
            autoFocus
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{intl.formatMessage({ id: 'common.cancel' })}</Button>
          <Button
            onClick={() => void confirm()}
            variant="contained"
            disabled={reason.trim() === '' || reset.isPending}
          >
            {intl.formatMessage({ id: 'users.second_factor.confirm.button' })}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

function UserForm({
  customerId,
  user,
  onSave,
}: {
  customerId: number;
  user: UserData | undefined;
  onSave: (values: UserFormValues) => Promise<void>;
}) {
  const intl = useIntl();
  const abilities = useAbilities();
  const me = useSession()?.user;
  const isNew = user === undefined;
  const canSave = Boolean(isNew ? abilities.canCreateUsers : abilities.canUpdateUsers);
  // Without a session role yet nothing is granted: only the user's current role is offered.
  const options = assignableRoles(me?.role ?? 'CUSTOMER', customerId, user?.role);
  const isSelf = user !== undefined && me?.id === user.id;
  const schema = userSchema(isNew);
  const initialValues: UserFormValues = {
    name: user?.name ?? '',
    email: user?.email ?? '',
    role: user?.role ?? options[0] ?? 'CUSTOMER',
    new_password: '',
    repeat_new_password: '',
  };

  const feedback = useFormFeedback('users.form.invalid');
  const onSubmit = (values: UserFormValues, helpers: FormikHelpers<UserFormValues>) =>
    feedback.submit(helpers, async () => {
      await onSave(trimValues(values));
      if (!isNew) helpers.resetForm({ values: { ...values, new_password: '', repeat_new_password: '' } });
    });

  return (
    <Formik initialValues={initialValues} validationSchema={schema} enableReinitialize onSubmit={onSubmit}>
      {({ isSubmitting }) => (
        <Form noValidate aria-label={intl.formatMessage({ id: 'users.form.label' })}>
          <InvalidSubmitNotifier feedback={feedback} />
          <UnsavedChangesGuard />
          <ReadOnlyFields when={!canSave}>
            <FormikTextField name="name" labelId="users.form.name" required />
            <FormikTextField
              name="email"
              labelId="users.form.email"
              type="email"
              autoComplete="off"
              required
            />
            <RoleSelect options={options} isSelf={isSelf} customerId={customerId} />
            <FormikTextField
              name="new_password"
              labelId="users.form.new_password"
              type="password"
              autoComplete="new-password"
              required={isNew}
              helperId={isNew ? undefined : 'users.form.password_hint'}
            />
            <FormikTextField
              name="repeat_new_password"
              labelId="users.form.repeat_new_password"
              type="password"
              autoComplete="new-password"
              required={isNew}
            />
          </ReadOnlyFields>
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 2, mt: 2 }}>
            {!isNew && me?.role === 'SUPER_ADMIN' && !isSelf && (
              <ResetSecondFactorButton customerId={customerId} user={user} />
            )}
            {!isNew && abilities.canUpdateUsers && !isSelf && user.deleted_at === null && (
              <EndSessionsButton customerId={customerId} user={user} />
            )}
            {!isNew && abilities.canUpdateUsers && !isSelf && (
              <ActivationButton customerId={customerId} user={user} />
            )}
            {canSave && (
              <Button
                type="submit"
                variant="contained"
                disabled={isSubmitting}
                startIcon={isSubmitting ? <CircularProgress size={18} color="inherit" /> : undefined}
              >
                {intl.formatMessage({ id: 'users.form.save' })}
              </Button>
            )}
          </Box>
        </Form>
      )}
    </Formik>
  );
}

function Heading({ user }: { user: UserData | undefined }) {
  const intl = useIntl();
  if (!user) {
    return (
      <Typography variant="h5" component="h2">
        {intl.formatMessage({ id: 'users.edit.new' })}
      </Typography>
    );
  }
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
      <Typography variant="h5" component="h2">
        {intl.formatMessage({ id: 'users.edit.code' }, { id: user.id })}
      </Typography>
      <RoleBadge role={user.role} />
      {user.deleted_at !== null && (
        <Typography color="error" variant="body2">
          {intl.formatMessage({ id: 'users.edit.disabled' })}
        </Typography>
      )}
    </Box>
  );
}

/** /customers/$id/users/new: after create, the new user's edit page. */
export function UserCreatePage({ customerId }: { customerId: number }) {
  const create = useCreateCustomerUser(customerId);
  const navigate = useNavigate();
  return (
    <Card>
      <CardContent>
        <Stack spacing={1}>
          <Heading user={undefined} />
          <UserForm
            customerId={customerId}
            user={undefined}
            onSave={async (values) => {
              const user = await create.mutateAsync(values);
              toast.success({ id: 'users.created' });
              await navigate({
                to: '/customers/$id/users/$userId',
                params: { id: customerId, userId: user.id },
              });
            }}
          />
        </Stack>
      </CardContent>
    </Card>
  );
}

/** /customers/$id/users/$userId. */
export function UserEditPage({ customerId, userId }: { customerId: number; userId: number }) {
  const user = useCustomerUser(customerId, userId);
  const update = useUpdateCustomerUser(customerId, userId);
  if (user.isPending) return <PagePending />;
  if (user.isError) return <PageError />;
  return (
    <Card>
      <CardContent>
        <Stack spacing={1}>
          <Heading user={user.data} />
          <UserForm
            customerId={customerId}
            user={user.data}
            onSave={async (values) => {
              await update.mutateAsync(values);
              toast.success({ id: 'users.updated' });
            }}
          />
        </Stack>
      </CardContent>
    </Card>
  );
}
