/**
 * Toasts: alerts that close by themselves after 4000 ms (docs/product.md §4, §9), and notifyApiError, the one
 * place that turns a failed call into the alert docs/product.md §8 asks for. Toasts hold message ids, not
 * text, so they are translated when shown (and follow a language switch).
 */
import { Alert, type AlertColor, Box, Slide, Stack } from '@mui/material';
import { useEffect, useSyncExternalStore } from 'react';
import { useIntl } from 'react-intl';
import { ApiError } from './api-client';
import { translateKnown, translateServerMessage, translateValidation } from './intl';

export const TOAST_DURATION_MS = 4000;

export type MessageRef = { id: string; values?: Record<string, string | number> };

export type Toast = {
  key: number;
  severity: AlertColor;
  /** Translated title line. */
  title?: MessageRef;
  /** A server message id: translated when known, else shown as is (or replaced by `fallback`). */
  serverMessage?: string;
  fallback?: MessageRef;
  /** Per-field validation messages (message ids) from a validation_error answer. */
  fields?: Array<{ field: string; messages: string[] }>;
  /** The form the alert belongs to: a form shows one alert at a time and clears it when saved. */
  group?: string;
};

type ToastInput = Omit<Toast, 'key'>;

let toasts: Toast[] = [];
let nextKey = 1;
const listeners = new Set<() => void>();
const emit = () => {
  for (const listener of listeners) listener();
};

const signature = ({ key: _key, ...rest }: Toast | (ToastInput & { key?: number })) => JSON.stringify(rest);

/** Shows an alert and returns its key. An alert of a group replaces the group's earlier ones. */
export function showToast(input: ToastInput): number {
  // The same alert twice at once (e.g. a 401 seen by the middleware and by the caller) shows once.
  const sig = signature(input);
  const same = toasts.find((toast) => signature(toast) === sig);
  if (same) return same.key;
  const key = nextKey++;
  toasts = [...withoutGroup(input.group), { ...input, key }];
  emit();
  return key;
}

const withoutGroup = (group: string | undefined) =>
  group === undefined ? toasts : toasts.filter((toast) => toast.group !== group);

/** Closes the alerts of a group (a form that has been saved). */
export function dismissToastGroup(group: string): void {
  if (!toasts.some((toast) => toast.group === group)) return;
  toasts = withoutGroup(group);
  emit();
}

export function dismissToast(key: number): void {
  toasts = toasts.filter((toast) => toast.key !== key);
  emit();
}

/** Every alert closed at once (tests start from none). */
export function dismissAllToasts(): void {
  toasts = [];
  emit();
}

export const toast = {
  success: (title: MessageRef) => showToast({ severity: 'success', title }),
  info: (title: MessageRef) => showToast({ severity: 'info', title }),
  warning: (title: MessageRef) => showToast({ severity: 'warning', title }),
  error: (title: MessageRef) => showToast({ severity: 'error', title }),
};

function fieldErrors(data: unknown): Array<{ field: string; messages: string[] }> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return [];
  return Object.entries(data).map(([field, value]) => ({
    field,
    messages: Array.isArray(value) ? value.map(String) : [String(value)],
  }));
}

/**
 * docs/product.md §8: the alert for a failed call. `failureMessage` is the call's own text (e.g. "Unable to
 * retrieve client list"), shown instead of the server's message unless the session has expired;
 * `invalidTitle` titles refused data (a form's "Verify inserted data"), which lists the fields.
 */
function apiErrorToast(error: unknown, failureMessage?: MessageRef, invalidTitle?: MessageRef): ToastInput {
  const expired = error instanceof ApiError && (error.status === 401 || error.message === 'session_expired');
  if (expired) return { severity: 'error', title: { id: 'errors.session_expired' } };
  if (failureMessage) return { severity: 'error', title: failureMessage };
  if (!(error instanceof ApiError)) return { severity: 'error', title: { id: 'errors.generic' } };
  if (error.status === 405 || error.status >= 500)
    return { severity: 'error', title: { id: 'errors.server' }, serverMessage: error.message };
  if (error.message === 'validation_error') {
    const title = invalidTitle ?? { id: 'errors.validation' };
    return { severity: 'error', title, fields: fieldErrors(error.data) };
  }
  return { severity: 'error', serverMessage: error.message, fallback: { id: 'errors.generic' } };
}

/** The alert shown for each failed call, so a form can take it over instead of adding a second. */
const errorToasts = new WeakMap<object, number>();
const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** Shows the alert of a failed call (docs/product.md §8): every query and mutation failure comes here. */
export function notifyApiError(error: unknown, failureMessage?: MessageRef): void {
  const key = showToast(apiErrorToast(error, failureMessage));
  if (isObject(error)) errorToasts.set(error, key);
}

/**
 * A form's refused submit gets one alert. The mutation cache has usually shown the call's alert
 * already: that alert becomes the form's (in place, titled with the form's message when the server
 * refused the data) rather than a second one beside it, and replaces the form's earlier alert.
 */
export function notifyFormError(error: unknown, group: string, invalidTitle: MessageRef): void {
  const input: ToastInput = { ...apiErrorToast(error, undefined, invalidTitle), group };
  const shown = isObject(error) ? errorToasts.get(error) : undefined;
  const others = withoutGroup(group);
  if (shown !== undefined && others.some((toast) => toast.key === shown)) {
    toasts = others.map((toast) => (toast.key === shown ? { ...input, key: shown } : toast));
    emit();
    return;
  }
  showToast(input);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
const getToasts = () => toasts;

function ToastItem({ item }: { item: Toast }) {
  const intl = useIntl();
  useEffect(() => {
    const timer = setTimeout(() => dismissToast(item.key), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [item.key]);

  const title = item.title ? intl.formatMessage({ id: item.title.id }, item.title.values) : null;
  let server: string | null = null;
  if (item.serverMessage !== undefined) {
    server = translateServerMessage(intl, item.serverMessage);
    if (server === null) {
      server = item.fallback
        ? intl.formatMessage({ id: item.fallback.id }, item.fallback.values)
        : item.serverMessage;
    }
  } else if (!title && item.fallback) {
    server = intl.formatMessage({ id: item.fallback.id }, item.fallback.values);
  }

  return (
    <Slide direction="up" in mountOnEnter unmountOnExit>
      <Alert
        severity={item.severity}
        variant="filled"
        elevation={6}
        closeText={intl.formatMessage({ id: 'common.close' })}
        onClose={() => dismissToast(item.key)}
        sx={{ minWidth: 280, maxWidth: 560 }}
      >
        {title && <div>{title}</div>}
        {server && <div>{server}</div>}
        {item.fields && item.fields.length > 0 && (
          <Box component="ul" sx={{ m: 0, pl: 2 }}>
            {item.fields.map(({ field, messages }) => (
              <li key={field}>
                {translateKnown(intl, `fields.${field}`) ?? field}:{' '}
                {messages.map((message) => translateValidation(intl, message)).join(', ')}
              </li>
            ))}
          </Box>
        )}
      </Alert>
    </Slide>
  );
}

/** Renders the open toasts, newest at the bottom. Mount once, inside the intl provider. */
export function Toaster() {
  const items = useSyncExternalStore(subscribe, getToasts, getToasts);
  return (
    <Stack
      spacing={1}
      aria-live="polite"
      sx={{
        position: 'fixed',
        bottom: 24,
        left: '50%',
        transform: 'translateX(-50%)',
        zIndex: (theme) => theme.zIndex.snackbar,
        alignItems: 'center',
      }}
    >
      {items.map((item) => (
        <ToastItem key={item.key} item={item} />
      ))}
    </Stack>
  );
}
