import { createTheme } from '@mui/material/styles';

export const theme = createTheme({
  palette: {
    primary: { main: '#4527a0' },
    secondary: { main: '#00897b' },
    background: { default: '#f5f4fa' },
    // WCAG AA for normal text: with MUI's default of 3, white text lands on the warning and info
    // colours (chips, filled alerts) at about 3:1; at 4.5 those get dark text instead.
    contrastThreshold: 4.5,
  },
  shape: { borderRadius: 8 },
  components: {
    MuiButton: { defaultProps: { disableElevation: true } },
    // The active column's label does not change on focus and has no ripple: keyboard focus was invisible.
    MuiTableSortLabel: {
      styleOverrides: {
        root: ({ theme }) => ({
          '&.Mui-focusVisible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: 2 },
        }),
      },
    },
  },
});
