// What a load shows: three placeholder skeletons while it runs (SPEC.md section 2), the failure's message,
// then its content.
import type { ReactNode } from 'react';
import { Alert, Skeleton, Stack } from '@mui/material';
import type { Load } from './use-api-load';

interface Props<T> {
  load: Load<T>;
  /** Names the placeholder for assistive technology ('Carregando arquivos'). */
  loadingLabel: string;
  children: (value: T) => ReactNode;
}

export function LoadContent<T>({ load, loadingLabel, children }: Props<T>) {
  switch (load.status) {
    case 'idle':
      return null;
    case 'loading':
      return <LoadingSkeletons label={loadingLabel} />;
    case 'failed':
      return (
        <Alert severity="error" role="alert">
          {load.message}
        </Alert>
      );
    case 'done':
      return children(load.value);
  }
}

export function LoadingSkeletons({ label }: { label: string }) {
  return (
    <Stack spacing={1} role="status" aria-label={label}>
      <Skeleton variant="rounded" height={40} />
      <Skeleton variant="rounded" height={40} />
      <Skeleton variant="rounded" height={40} />
    </Stack>
  );
}
