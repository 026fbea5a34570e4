// The wizard's buttons, stuck to the bottom of the screen where a thumb reaches them. A button that changes
// role between steps needs its own key: a reused <button> turning type=submit mid-click would submit the form.
import type { ReactNode } from 'react';
import { Box, Stack } from '@mui/material';

export function ActionBar({ children }: { children: ReactNode }) {
  return (
    <Box
      sx={{
        position: 'sticky',
        bottom: 0,
        zIndex: 1100,
        mx: -2,
        px: 2,
        py: 1.5,
        bgcolor: 'background.paper',
        borderTop: 1,
        borderColor: 'grey.400',
        boxShadow: '0 -2px 6px rgba(0,0,0,0.12)',
      }}
    >
      {/* Four buttons share 358 px on a phone: each label ('Excluir', 'Limpar') must fit whole in its button,
          bold and in 'Alto contraste' too, so the buttons give up side padding and letter spacing first. */}
      <Stack
        direction="row"
        spacing={0.75}
        // '&&': outranks the button's own padding, minimum width and letter spacing
        sx={{
          '&& > *': { flex: 1, minWidth: 0, px: 0.5, letterSpacing: 0 },
          '&& > :first-of-type': { flex: 1.3 },
        }}
      >
        {children}
      </Stack>
    </Box>
  );
}
