import { ToggleButton, ToggleButtonGroup } from '@mui/material';
import { useIntl } from 'react-intl';
import { LOCALES, type Locale, setLocale, useLocale } from '#client/lib/intl.tsx';

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
        if (value) void setLocale(value);
      }}
      sx={{
        bgcolor: 'rgba(255,255,255,0.12)',
        '& .MuiToggleButton-root': {
          color: 'inherit',
          borderColor: 'rgba(255,255,255,0.4)',
          px: 1.25,
          py: 0.25,
        },
        // Inverted when selected: a light tint of the bar's purple left white text at 3.9:1 (WCAG AA wants 4.5).
        '& .MuiToggleButton-root.Mui-selected, & .MuiToggleButton-root.Mui-selected:hover': {
          bgcolor: 'common.white',
          color: 'primary.main',
        },
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
