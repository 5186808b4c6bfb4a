/**
 * A disabled action says why. Given a reason, the action is shown disabled inside a focusable span
 * with a tooltip holding the reason: keyboard focus and pointing both open it, and a screen reader
 * reads it as the span's description. Without a reason the action is shown as it is. Used for a
 * missing ability (AbilityGate) and for a form that cannot be sent yet (FormDisabledReason).
 */
import { Box, Tooltip } from '@mui/material';
import { useFormikContext } from 'formik';
import { cloneElement, type ReactElement } from 'react';
import { useIntl } from 'react-intl';
import { translateValidation } from '../lib/intl';

type Action = ReactElement<{ disabled?: boolean }>;

export function DisabledReason({
  reason,
  children,
  data,
  fullWidth = false,
}: {
  /** Why the action cannot be used now; undefined when it can. */
  reason: string | undefined;
  /** The action (a button): given `disabled` while there is a reason. */
  children: Action;
  /** data-* attributes for the span, e.g. { 'data-ability': name }. */
  data?: Record<`data-${string}`, string>;
  /** The action spans its container's width (a full-width button): so does the span around it. */
  fullWidth?: boolean;
}) {
  if (reason === undefined) return children;
  return (
    <Tooltip title={reason} describeChild>
      {/* A disabled control gets no pointer or focus events: the span takes them for the tooltip. */}
      <Box
        component="span"
        tabIndex={0}
        {...data}
        sx={{
          display: fullWidth ? 'flex' : 'inline-flex',
          width: fullWidth ? '100%' : undefined,
          borderRadius: 1,
          '&:focus-visible': { outline: 2, outlineColor: 'primary.main' },
        }}
      >
        {cloneElement(children, { disabled: true })}
      </Box>
    </Tooltip>
  );
}

/**
 * The reason a form's submit button is disabled by the form's own state: the validation messages of
 * the fields still to fix ("Password is mandatory and password confirmation is mandatory"). Place
 * inside the <Formik>; `busy` (saving) disables the button without a reason, as a spinner shows it.
 * With `requireChanges` an unchanged form cannot be sent either ("Nothing has changed yet").
 */
export function useFormDisabledReason({ requireChanges = false } = {}): string | undefined {
  const intl = useIntl();
  const { errors, isValid, dirty } = useFormikContext<Record<string, unknown>>();
  if (isValid)
    return requireChanges && !dirty ? intl.formatMessage({ id: 'form.disabled.unchanged' }) : undefined;
  const messages = [
    ...new Set(
      Object.values(errors)
        .filter((error): error is string => typeof error === 'string')
        .map((error) => translateValidation(intl, error)),
    ),
  ];
  if (messages.length === 0) return undefined;
  // Joined into one sentence, the messages after the first start in lower case ("… and password is
  // mandatory"), unless they start with an acronym.
  const joined = messages.map((message, i) =>
    i > 0 && /^\p{Lu}\p{Ll}/u.test(message)
      ? message.charAt(0).toLocaleLowerCase(intl.locale) + message.slice(1)
      : message,
  );
  return intl.formatMessage({ id: 'form.disabled.reason' }, { problems: intl.formatList(joined) });
}

/** A form's submit button, disabled while the form is invalid (saying why) or `busy` (saving). */
export function FormDisabledReason({
  busy,
  requireChanges,
  fullWidth,
  children,
}: {
  busy: boolean;
  requireChanges?: boolean;
  fullWidth?: boolean;
  children: Action;
}) {
  const reason = useFormDisabledReason({ requireChanges });
  if (reason !== undefined)
    return (
      <DisabledReason reason={reason} fullWidth={fullWidth}>
        {children}
      </DisabledReason>
    );
  return cloneElement(children, { disabled: busy });
}
