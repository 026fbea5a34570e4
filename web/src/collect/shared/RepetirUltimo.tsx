// 'Repetir último' on a new record's form (issue 26): fills the fields a flow repeats from the technician's
// previous record of the flow in the project, and marks them until each is changed.
import { useEffect, useId, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { Button, Stack, Typography } from '@mui/material';
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import { useReportFailure, useServices, useSession } from '../../shared/services';
import { DEVICE_FAILURE } from '../../offline/device-log';
import type { LocalColeta } from '../../offline/records';
import { valuesOf } from '../flow-ui';
import {
  browserRepeatMemory,
  type LastRecord,
  newestOwnRecord,
  REPETIR_TEXTS,
  repeatScope,
  stillRepeated,
} from './repetir';

export interface RepeatArgs<V extends FieldValues> {
  flow: FlowDefinition;
  form: UseFormReturn<V>;
  /** The record on the form: only a new one (null) repeats; a stored one keeps its own values. */
  record: LocalColeta | null;
  /** Read-only (a record's screen). */
  disabled?: boolean;
  /** The flow's empty form, to read the previous record's fields in the form's shapes. */
  initialValues: () => V;
  /** Which of the previous record's values the form takes now (the flow's rule). */
  repeated: (previous: V, current: V) => Partial<V>;
}

export interface Repeat {
  /** The button belongs on this form (a new record, editable). */
  shown: boolean;
  /** Null while the previous record is looked for. */
  reason: string | null;
  canRepeat: boolean;
  apply: () => void;
  marked: (name: string) => boolean;
  /** How many fields the last press filled (for the status line). */
  filled: number | null;
}

export function useRepeat<V extends FieldValues>({
  flow,
  form,
  record,
  disabled,
  initialValues,
  repeated,
}: RepeatArgs<V>): Repeat {
  const { projetoId = '' } = useParams();
  const tecnico = useSession()?.nome;
  const { records } = useServices();
  const reportFailure = useReportFailure();
  const shown = record === null && !disabled;
  const scope = useMemo(() => repeatScope(flow.key, projetoId, tecnico), [flow.key, projetoId, tecnico]);
  const remembered = useMemo(() => browserRepeatMemory().read(scope), [scope]);
  const [onDevice, setOnDevice] = useState<{ last: LastRecord | null } | null>(null);
  const [marks, setMarks] = useState<ReadonlyMap<string, unknown>>(() => new Map());
  const [filled, setFilled] = useState<number | null>(null);

  // Nothing remembered (records saved before issue 26, a cleared storage): the newest one still on the device.
  useEffect(() => {
    if (!shown || remembered !== null) return;
    let active = true;
    records.byProjeto(flow, scope.projeto).then(
      (list) => active && setOnDevice({ last: newestOwnRecord(list, scope.tecnico) }),
      (error: unknown) => {
        reportFailure(DEVICE_FAILURE.read(flow.labels.record), error);
        if (active) setOnDevice({ last: null });
      },
    );
    return () => {
      active = false;
    };
  }, [shown, remembered, records, flow, scope, reportFailure]);

  useEffect(() => {
    const subscription = form.watch((values) => setMarks((current) => stillRepeated(current, values)));
    return () => subscription.unsubscribe();
  }, [form]);

  const previous = remembered ?? onDevice?.last ?? null;
  const searching = remembered === null && onDevice === null;
  const patch = previous ? repeated(valuesOf(initialValues(), previous.dados), form.getValues()) : {};
  const names = Object.keys(patch);
  const reason = searching
    ? null
    : previous === null
      ? REPETIR_TEXTS.nothing
      : names.length === 0
        ? REPETIR_TEXTS.nothingHere
        : null;

  const apply = () => {
    const submitted = form.formState.isSubmitted;
    for (const [name, value] of Object.entries(patch)) {
      // keys and values of `patch` are the form's own: the rule picks them from the same V
      form.setValue(name as Path<V>, value as PathValue<V, Path<V>>, {
        shouldDirty: true,
        shouldValidate: submitted,
      });
    }
    setMarks(new Map(Object.entries(patch)));
    setFilled(names.length);
  };

  return {
    shown,
    reason,
    canRepeat: shown && !searching && names.length > 0,
    apply,
    // the watch above drops a changed field's mark; the value is compared again here for changes made by a
    // reset (the unit's type rules), whichever comes first
    marked: (name) => marks.has(name) && Object.is(form.getValues(name as Path<V>), marks.get(name)),
    filled,
  };
}

/** The button, why it is disabled when it is, and what it did (announced to screen readers). */
export function RepetirUltimo({ repeat }: { repeat: Repeat }) {
  const reasonId = useId();
  if (!repeat.shown) return null;
  return (
    <Stack spacing={0.5}>
      <Button
        variant="outlined"
        disabled={!repeat.canRepeat}
        onClick={repeat.apply}
        aria-describedby={repeat.reason ? reasonId : undefined}
        sx={{ alignSelf: 'flex-start', minHeight: 48 }}
      >
        {REPETIR_TEXTS.button}
      </Button>
      {repeat.reason && (
        <Typography id={reasonId} variant="body2" color="text.secondary">
          {repeat.reason}
        </Typography>
      )}
      <Typography role="status" variant="body2">
        {repeat.filled !== null ? REPETIR_TEXTS.done(repeat.filled) : ''}
      </Typography>
    </Stack>
  );
}
