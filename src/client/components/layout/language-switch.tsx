import { ToggleButton, ToggleButtonGroup } from '@mui/material';
import { useIntl } from 'react-intl';
import { LOCALES, type Locale, setLocale, useLocale } from '../../lib/intl';

/** EN / IT switch, always visible in the top bar; the choice is remembered. */
export function LanguageSwitch() {
  const intl = useIntl();
  const locale = useLocale();
  return (
    <ToggleButtonGroup
      exclusive
      size="small"
      value={locale}
      aria-label={intl.formatMessage({ id: 'layout.language.label' })}
      onChange={(_event, value: Locale | null) => {
        if (value) setLocale(value);
      }}
      sx={{
        bgcolor: 'rgba(255,255,255,0.12)',
        '& .MuiToggleButton-root': {
          color: 'inherit',
          borderColor: 'rgba(255,255,255,0.4)',
          px: 1.25,
          py: 0.25,
        },
        '& .MuiToggleButton-root.Mui-selected': { bgcolor: 'rgba(255,255,255,0.28)', color: 'inherit' },
      }}
    >
      {LOCALES.map((code) => (
        <ToggleButton key={code} value={code} lang={code}>
          {code.toUpperCase()}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
