/**
 * formik ↔ MUI bindings used by every form. Errors are message ids (yup schemas in
 * src/shared/validation, or the server's validation_error data) translated here.
 */
import { Checkbox, FormControlLabel, TextField, type TextFieldProps } from '@mui/material';
import { type FormikErrors, type FormikHelpers, useField, useFormikContext } from 'formik';
import { createContext, type ReactNode, useContext, useEffect, useId, useMemo, useRef } from 'react';
import { useIntl } from 'react-intl';
import { type AnySchema, ValidationError } from 'yup';
import { ApiError } from './api-client';
import { translateValidation } from './intl';
import { dismissToastGroup, notifyFormError, showToast } from './toasts';

type FieldProps = Omit<TextFieldProps, 'name' | 'value' | 'onChange' | 'onBlur' | 'error' | 'label'> & {
  name: string;
  /** Message id of the label. */
  labelId: string;
  /** Message id of a helper text shown when there is no error. */
  helperId?: string;
};

const FieldsReadOnly = createContext(false);

/**
 * The fields inside are read-only, for a user who may not save the form (who has no Save button):
 * they show as values rather than inputs (readOnlyLook) and password fields are left out, since
 * there is nothing to set a password for.
 */
export function ReadOnlyFields({ when, children }: { when: boolean; children: ReactNode }) {
  return <FieldsReadOnly.Provider value={when}>{children}</FieldsReadOnly.Provider>;
}

/** Whether the fields here are read-only (inside <ReadOnlyFields when>). */
export const useFieldsReadOnly = (): boolean => useContext(FieldsReadOnly);

type LookProps = { variant: 'filled'; slotProps: TextFieldProps['slotProps'] };

/**
 * How a read-only field looks: filled and without underline, so it reads as a value (an outlined
 * input that refuses typing looks editable and broken). Every read-only field uses it, and drops its
 * required mark.
 */
export function readOnlyLook(slotProps: TextFieldProps['slotProps'] = {}): LookProps {
  const input = typeof slotProps.input === 'object' ? slotProps.input : {};
  return {
    variant: 'filled',
    slotProps: { ...slotProps, input: { ...input, readOnly: true, disableUnderline: true } },
  };
}

export function FormikTextField({ name, labelId, helperId, id, ...rest }: FieldProps) {
  const intl = useIntl();
  const [field, meta] = useField<string | undefined>(name);
  const { submitCount } = useFormikContext();
  const readOnly = useFieldsReadOnly();
  if (readOnly && rest.type === 'password') return null;
  const showError = Boolean(meta.error) && (meta.touched || submitCount > 0);
  const helper = helperId ? intl.formatMessage({ id: helperId }) : rest.helperText;
  return (
    <TextField
      fullWidth
      margin="normal"
      {...rest}
      {...(readOnly ? readOnlyLook(rest.slotProps) : {})}
      required={rest.required && !readOnly}
      id={id ?? `field-${name}`}
      name={field.name}
      value={field.value ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      label={intl.formatMessage({ id: labelId })}
      error={showError}
      helperText={showError && meta.error ? translateValidation(intl, meta.error) : helper}
    />
  );
}

/** A checkbox stored as "1" / "0" (the multipart form convention for booleans). */
export function FormikCheckbox({
  name,
  labelId,
  disabled,
}: {
  name: string;
  labelId: string;
  disabled?: boolean;
}) {
  const intl = useIntl();
  const [field, , helpers] = useField<string | boolean | undefined>(name);
  const readOnly = useFieldsReadOnly();
  const checked = field.value === true || field.value === '1';
  return (
    <FormControlLabel
      label={intl.formatMessage({ id: labelId })}
      control={
        <Checkbox
          name={field.name}
          checked={checked}
          disabled={disabled || readOnly}
          onChange={(event) => void helpers.setValue(event.target.checked ? '1' : '0')}
          onBlur={field.onBlur}
        />
      }
    />
  );
}

export type FormFeedback = {
  /** Saves the values (wrap the form's onSubmit body): see useFormFeedback. */
  submit: <T>(helpers: FormikHelpers<T>, save: () => Promise<void>) => Promise<void>;
  /** Whether the submit that just ended reached `submit` (passed validation); resets the answer. */
  takeSubmitted: () => boolean;
  group: string;
  invalidMessageId: string;
};

/**
 * The alerts of one form (docs/product.md §5, §8): one alert per failed submit, replacing the form's earlier
 * one, and none left once the form is saved. An invalid submit (no call made) shows the form's
 * `invalidMessageId` (through <InvalidSubmitNotifier>); a refused save shows the call's alert, titled
 * with the same message when the server refused the data, and its messages go on the fields.
 */
export function useFormFeedback(invalidMessageId: string): FormFeedback {
  const group = useId();
  const submitted = useRef(false);
  return useMemo<FormFeedback>(
    () => ({
      group,
      invalidMessageId,
      takeSubmitted: () => {
        const value = submitted.current;
        submitted.current = false;
        return value;
      },
      submit: async (helpers, save) => {
        submitted.current = true;
        try {
          await save();
          dismissToastGroup(group);
        } catch (error) {
          notifyFormError(error, group, { id: invalidMessageId });
          applyServerErrors(error, helpers.setErrors);
        }
      },
    }),
    [group, invalidMessageId],
  );
}

/** Place inside the <Formik> of `feedback`: an invalid submit (no call is made) shows the form's alert. */
export function InvalidSubmitNotifier({ feedback }: { feedback: FormFeedback }) {
  const { isSubmitting, isValidating, errors, submitCount } = useFormikContext();
  const seen = useRef(submitCount);
  useEffect(() => {
    if (isSubmitting || isValidating || submitCount === seen.current) return;
    seen.current = submitCount;
    // A submit that reached the save has had its alert (or its success) from feedback.submit.
    if (feedback.takeSubmitted()) return;
    if (Object.keys(errors).length > 0)
      showToast({ severity: 'error', title: { id: feedback.invalidMessageId }, group: feedback.group });
  }, [isSubmitting, isValidating, errors, submitCount, feedback]);
  return null;
}

/** Shows a validation_error answer on the form's fields (the toast lists them too). */
function applyServerErrors<T>(error: unknown, setErrors: (errors: FormikErrors<T>) => void): void {
  if (!(error instanceof ApiError) || error.message !== 'validation_error') return;
  if (typeof error.data !== 'object' || error.data === null) return;
  const errors: Record<string, string> = {};
  for (const [field, messages] of Object.entries(error.data)) {
    const first: unknown = Array.isArray(messages) ? messages[0] : messages;
    if (typeof first === 'string') errors[field] = first;
  }
  setErrors(errors as FormikErrors<T>);
}

/**
 * Errors of the initial values, computed synchronously: with `initialErrors` a submit button bound to
 * `isValid` is disabled from the first render, not only after validateOnMount has run.
 */
export function initialErrorsFor<T>(schema: AnySchema, values: T): FormikErrors<T> {
  try {
    schema.validateSync(values, { abortEarly: false });
    return {};
  } catch (error) {
    if (!(error instanceof ValidationError)) return {};
    const errors: Record<string, string> = {};
    for (const inner of error.inner) {
      if (inner.path && !errors[inner.path] && inner.errors[0]) errors[inner.path] = inner.errors[0];
    }
    return errors as FormikErrors<T>;
  }
}
