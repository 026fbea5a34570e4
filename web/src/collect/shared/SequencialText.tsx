// The number the server gives a numbered flow's point (BDGD, IP: SPEC.md 3 and 9), or when it will.
import { Typography } from '@mui/material';
import type { LocalColeta } from '../../offline/records';

/** The point's sequencial as text, or undefined before the server numbered it. */
export function sequencialOf(record: LocalColeta | null): string | undefined {
  const sequencial = record?.dados.sequencial;
  return typeof sequencial === 'number' || typeof sequencial === 'string' ? String(sequencial) : undefined;
}

export function SequencialText({ record, testId }: { record: LocalColeta | null; testId: string }) {
  return (
    <Typography data-testid={testId}>
      Sequencial: {sequencialOf(record) ?? 'definido pelo servidor na sincronização'}
    </Typography>
  );
}
