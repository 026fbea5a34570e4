// A titled block of the Extrator and Relatórios screens.
import { useId, type ReactNode } from 'react';
import { Paper, Stack, Typography } from '@mui/material';

interface Props {
  title: string;
  /** Beside the title, right-aligned (a download button). */
  action?: ReactNode;
  children: ReactNode;
}

export function SectionPaper({ title, action, children }: Props) {
  const headingId = useId();
  return (
    <Paper component="section" aria-labelledby={headingId} variant="outlined" sx={{ p: 2 }}>
      <Stack spacing={2}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography id={headingId} component="h2" variant="h6">
            {title}
          </Typography>
          {action}
        </Stack>
        {children}
      </Stack>
    </Paper>
  );
}
