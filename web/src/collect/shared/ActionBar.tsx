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
      <Stack
        direction="row"
        spacing={1}
        sx={{ '& > *': { flex: 1, px: 1 }, '& > :first-of-type': { flex: 1.6 } }}
      >
        {children}
      </Stack>
    </Box>
  );
}
