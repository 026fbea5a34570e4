// Phones in the sun, one thumb: 48 px targets, strong borders and text on the technician screens.
import { createTheme, type Theme } from '@mui/material/styles';

export function technicianTheme(outer: Theme): Theme {
  return createTheme(outer, {
    palette: { text: { primary: '#111111', secondary: '#424242' } },
    components: {
      MuiButton: { styleOverrides: { root: { minHeight: 48, fontSize: '1rem', fontWeight: 600 } } },
      MuiOutlinedInput: {
        styleOverrides: {
          notchedOutline: { borderColor: '#616161' },
          input: { minHeight: 24, fontSize: '1rem' },
        },
      },
      // read-only records (/poste/:id) stay readable in the sun: disabled text is dark, not MUI's pale grey
      MuiInputBase: {
        styleOverrides: { input: { '&.Mui-disabled': { WebkitTextFillColor: '#212121', color: '#212121' } } },
      },
      MuiFormLabel: { styleOverrides: { root: { '&.Mui-disabled': { color: '#424242' } } } },
      MuiFormControlLabel: { styleOverrides: { label: { '&.Mui-disabled': { color: '#212121' } } } },
      MuiListItemButton: { styleOverrides: { root: { minHeight: 56 } } },
    },
  });
}
