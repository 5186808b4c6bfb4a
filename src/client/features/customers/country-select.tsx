import { Autocomplete, createFilterOptions, TextField } from '@mui/material';
import { useField, useFormikContext } from 'formik';
import { useIntl } from 'react-intl';
import { readOnlyLook, useFieldsReadOnly } from '#client/lib/form-fields.tsx';
import { translateValidation } from '#client/lib/intl.tsx';
import { type CountryOption, useCountryOptions } from './countries';

const filterOptions = createFilterOptions<CountryOption>({
  stringify: (option) => `${option.name} ${option.code}`,
});

/** Searchable country select (by name in the current language or by code); the form value is the code. */
export function CountrySelect({ name }: { name: string }) {
  const intl = useIntl();
  const readOnly = useFieldsReadOnly();
  const [field, meta, helpers] = useField<string | undefined>(name);
  const { submitCount } = useFormikContext();
  const options = useCountryOptions(field.value || undefined);
  const value = options.find((option) => option.code === field.value?.toUpperCase()) ?? null;
  const showError = Boolean(meta.error) && (meta.touched || submitCount > 0);
  return (
    <Autocomplete
      id={`field-${name}`}
      options={options}
      value={value}
      readOnly={readOnly}
      filterOptions={filterOptions}
      getOptionLabel={(option) => `${option.name} (${option.code})`}
      isOptionEqualToValue={(option, selected) => option.code === selected.code}
      onChange={(_event, option) => void helpers.setValue(option?.code ?? '')}
      onBlur={() => void helpers.setTouched(true)}
      autoHighlight
      noOptionsText={intl.formatMessage({ id: 'customers.form.country_none' })}
      renderInput={(params) => (
        <TextField
          {...params}
          name={name}
          margin="normal"
          required={!readOnly}
          label={intl.formatMessage({ id: 'fields.country' })}
          error={showError}
          helperText={showError && meta.error ? translateValidation(intl, meta.error) : undefined}
          {...(readOnly ? readOnlyLook(params.slotProps) : {})}
        />
      )}
    />
  );
}
