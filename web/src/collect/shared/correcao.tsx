// A rejected record opened to be fixed (issue 24): the reviewer's word at the top of its form, and each field the
// reviewer pointed at in the error colour with the reviewer's comment under it, until the technician changes it.
import { useEffect } from 'react';
import { Alert, AlertTitle, Typography } from '@mui/material';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import type { Correcao } from '@novus/domain/revisao';

export const CORRECAO_TEXTS = {
  pedida: 'Correção pedida',
  corrigida: 'Correção gravada no aparelho: será enviada na próxima sincronização.',
} as const;

/** 'Ana Supervisora em 25/11/2026 14:02': who rejected the record and when. */
export function revisorText(correcao: Correcao): string {
  const em = new Date(correcao.em).toLocaleString('pt-BR', { dateStyle: 'short', timeStyle: 'short' });
  return `${correcao.revisor ?? 'Revisor'} em ${em}`;
}

/**
 * Marks the pointed fields as the form's errors (the inputs draw them in the error colour with the message as
 * helper text) and clears each once it changes. Gravar validates with the flow's schema and replaces them.
 * Call after the form was reset to the record's values.
 */
export function useCorrecaoHighlight(form: UseFormReturn<FieldValues>, correcao: Correcao | undefined) {
  const { setError, clearErrors, watch } = form;
  useEffect(() => {
    if (!correcao) return;
    const pointed = new Set(Object.keys(correcao.campos));
    for (const [campo, comentario] of Object.entries(correcao.campos)) {
      setError(campo, { type: 'correcao', message: comentario });
    }
    const subscription = watch((_values, { name }) => {
      if (name !== undefined && pointed.has(name)) {
        pointed.delete(name);
        clearErrors(name);
      }
    });
    return () => subscription.unsubscribe();
  }, [correcao, setError, clearErrors, watch]);
}

/** The top of the form: the reviewer's comment, who and when, and the pointed parts that are not a field. */
export function CorrecaoAlert({ correcao, campos }: { correcao: Correcao; campos: readonly string[] }) {
  const fields = new Set(campos);
  const others = Object.entries(correcao.campos).filter(([campo]) => !fields.has(campo));
  return (
    <Alert severity="error" data-testid="correcao-pedida">
      <AlertTitle>
        {CORRECAO_TEXTS.pedida}: {correcao.comentario}
      </AlertTitle>
      {others.map(([campo, comentario]) => (
        <Typography key={campo} variant="body2">
          {campo}: {comentario}
        </Typography>
      ))}
      <Typography variant="body2">{revisorText(correcao)}</Typography>
    </Alert>
  );
}
