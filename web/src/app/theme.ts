import { createTheme } from '@mui/material/styles';
import { ptBR } from '@mui/material/locale';

export const theme = createTheme(
  {
    palette: {
      primary: { main: '#1565c0' },
    },
    components: {
      // Buttons read exactly as the spec writes them ('Log off', 'Compactar Imagens').
      MuiButton: { styleOverrides: { root: { textTransform: 'none' } } },
      // Honour the system's reduced-motion setting everywhere, including MUI's inline transitions and the ripple;
      // it also keeps colours still while the end-to-end accessibility checks measure contrast.
      MuiCssBaseline: {
        styleOverrides: {
          '@media (prefers-reduced-motion: reduce)': {
            '*, *::before, *::after': {
              transition: 'none !important',
              animationDuration: '0s !important',
            },
          },
        },
      },
    },
  },
  ptBR,
);
