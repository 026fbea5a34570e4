import { Suspense, type ReactNode } from 'react';
import { LinearProgress } from '@mui/material';

/** A screen whose code (or the device's) is still on its way: a progress bar where it will show. */
export function Loading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<LinearProgress aria-label="Carregando" />}>{children}</Suspense>;
}
