import { QueryClientProvider, useMutation } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Form, Formik } from 'formik';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it } from 'vitest';
import { object, string } from 'yup';
import en from '../i18n/en.json';
import { ApiError } from './api-client';
import { FormikTextField, InvalidSubmitNotifier, useFormFeedback } from './form-fields';
import { createQueryClient } from './query-client';
import { dismissAllToasts, Toaster, toast } from './toasts';

afterEach(() => {
  cleanup();
  act(() => dismissAllToasts());
});

const schema = object({ email: string().required('validation.user.email.required') });

/** A form whose save goes through a mutation (so the mutation cache alerts first, as in the app). */
function UserForm({ answers }: { answers: Array<ApiError | null> }) {
  const feedback = useFormFeedback('users.form.invalid');
  const save = useMutation({
    mutationFn: async () => {
      const answer = answers.shift();
      if (answer) throw answer;
    },
  });
  return (
    <Formik
      initialValues={{ email: '' }}
      validationSchema={schema}
      onSubmit={(_values, helpers) =>
        feedback.submit(helpers, async () => {
          await save.mutateAsync();
          toast.success({ id: 'users.created' });
        })
      }
    >
      <Form noValidate>
        <InvalidSubmitNotifier feedback={feedback} />
        <FormikTextField name="email" labelId="users.form.email" />
        <button type="submit">Save</button>
      </Form>
    </Formik>
  );
}

function renderForm(answers: Array<ApiError | null>) {
  render(
    <IntlProvider locale="en" messages={en}>
      <QueryClientProvider client={createQueryClient()}>
        <UserForm answers={answers} />
        <Toaster />
      </QueryClientProvider>
    </IntlProvider>,
  );
}

const alerts = () => screen.queryAllByRole('alert').map((alert) => alert.textContent);
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));

describe('a form’s alerts', () => {
  it('show one alert per failed submit, and none of them once the form is saved', async () => {
    const taken = new ApiError(422, 'validation_error', { email: ['validation.user.email.taken'] });
    renderForm([taken, null]);

    // Invalid: no call, the form's alert.
    submit();
    await waitFor(() => expect(alerts()).toEqual(['Verify inserted data']));

    // Refused by the server: one alert, the form's, listing the field (not also "Check data you entered").
    fireEvent.change(screen.getByLabelText('Email (used for login)'), { target: { value: 'a@b.it' } });
    submit();
    await waitFor(() =>
      expect(alerts()).toEqual(['Verify inserted dataEmail: Email address is already used by another user']),
    );
    expect(screen.getByLabelText('Email (used for login)').getAttribute('aria-invalid')).toBe('true');

    // Saved: only the success is left.
    submit();
    await waitFor(() => expect(alerts()).toEqual(['User created']));
  });

  it('keeps the server’s own alert for a refusal that is not about the data', async () => {
    renderForm([new ApiError(500, 'server_error')]);
    fireEvent.change(screen.getByLabelText('Email (used for login)'), { target: { value: 'a@b.it' } });
    submit();
    await waitFor(() =>
      expect(alerts()).toEqual(['Server side errorThe server could not complete the request']),
    );
  });
});
