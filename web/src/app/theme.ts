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
    },
  },
  ptBR,
);
