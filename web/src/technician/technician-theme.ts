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

/**
 * 'Alto contraste' (issue 26): every text at 7:1 or more against what is behind it (WCAG AAA, axe's
 * color-contrast-enhanced), disabled controls included, and 56 px buttons for a gloved or hurried thumb.
 * The colours are darker shades of the normal ones, so a red button is still red.
 */
export const ALTO_CONTRASTE_CORES = {
  primary: '#0d47a1',
  secondary: '#4a148c',
  error: '#a30000',
  warning: '#7f3300',
  info: '#014a85',
  success: '#1b5e20',
  text: '#000000',
  textSecondary: '#262626',
  disabled: '#333333',
  disabledBackground: '#d6d6d6',
} as const;

export const ALTO_CONTRASTE_BUTTON_HEIGHT = 56;

export function technicianAltoContrasteTheme(outer: Theme): Theme {
  const base = technicianTheme(outer);
  const cor = ALTO_CONTRASTE_CORES;
  // createTheme(theme, options) merges the options as they are: each colour needs its light, dark and contrast text
  const color = (main: string) => base.palette.augmentColor({ color: { main } });
  return createTheme(base, {
    palette: {
      primary: color(cor.primary),
      secondary: color(cor.secondary),
      error: color(cor.error),
      warning: color(cor.warning),
      info: color(cor.info),
      success: color(cor.success),
      text: { primary: cor.text, secondary: cor.textSecondary, disabled: cor.disabled },
      background: { default: '#ffffff', paper: '#ffffff' },
      divider: 'rgba(0, 0, 0, 0.6)',
      action: {
        active: cor.text,
        disabled: cor.disabled,
        disabledBackground: cor.disabledBackground,
        disabledOpacity: 0.8,
      },
    },
    components: {
      MuiButton: {
        styleOverrides: {
          // '&&' outranks a screen's own minHeight in sx (the photo slots' 48 px)
          root: { fontWeight: 700, '&&': { minHeight: ALTO_CONTRASTE_BUTTON_HEIGHT } },
          // MUI's outline is the colour at half strength: here the colour itself
          outlined: { borderWidth: 2, borderColor: 'currentColor', '&:hover': { borderWidth: 2 } },
        },
      },
      // MUI's alert text is a tint of its colour; here it is black, the icon and border keep the colour
      MuiAlert: {
        styleOverrides: {
          root: {
            variants: [
              { props: { variant: 'standard' }, style: { color: cor.text } },
              { props: { variant: 'outlined' }, style: { color: cor.text, borderWidth: 2 } },
            ],
          },
        },
      },
      // a min-height wins over a screen's fixed width and height (the photo's remove button, 48 px)
      MuiIconButton: {
        styleOverrides: {
          root: { minWidth: ALTO_CONTRASTE_BUTTON_HEIGHT, minHeight: ALTO_CONTRASTE_BUTTON_HEIGHT },
        },
      },
      MuiOutlinedInput: { styleOverrides: { notchedOutline: { borderColor: cor.text } } },
      MuiFormLabel: { styleOverrides: { root: { '&.Mui-disabled': { color: cor.textSecondary } } } },
      MuiFormHelperText: { styleOverrides: { root: { fontSize: '0.875rem' } } },
      MuiLink: { defaultProps: { underline: 'always' } },
    },
  });
}

/**
 * The field map's own texts under 'Alto contraste' (Leaflet's stylesheet, not MUI's): the attribution on white, not
 * on a see-through white over the tiles, and the cluster counts (white) on their colour darkened by half.
 */
export const ALTO_CONTRASTE_MAPA = {
  '.leaflet-container .leaflet-control-attribution.leaflet-control': {
    backgroundColor: '#ffffff',
    color: ALTO_CONTRASTE_CORES.text,
  },
  '.leaflet-container .leaflet-control-attribution a': { color: ALTO_CONTRASTE_CORES.primary },
  '.leaflet-container .leaflet-bar a': { color: ALTO_CONTRASTE_CORES.text },
  '.leaflet-container .mapa-cluster span': {
    backgroundImage: 'linear-gradient(rgba(0, 0, 0, 0.55), rgba(0, 0, 0, 0.55))',
  },
} as const;
