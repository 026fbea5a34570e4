import { useEffect, useState } from 'react';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import { useReportFailure, useServices } from '../../shared/services';
import { DEVICE_FAILURE } from '../../offline/device-log';
import type { LocalColeta } from '../../offline/records';

/** One record on the device; `loaded` tells 'still reading' from 'not here'. */
export function useRecord(flow: FlowDefinition, id: string | undefined) {
  const { records } = useServices();
  const reportFailure = useReportFailure();
  const [state, setState] = useState<{ record: LocalColeta | null; loaded: boolean }>({
    record: null,
    loaded: false,
  });
  useEffect(() => {
    let active = true;
    if (id === undefined) return;
    records.getByID(flow, id).then(
      (record) => active && setState({ record: record ?? null, loaded: true }),
      (error: unknown) => {
        reportFailure(DEVICE_FAILURE.read(flow.labels.record), error);
        if (active) setState({ record: null, loaded: true });
      },
    );
    return () => {
      active = false;
    };
  }, [records, flow, id, reportFailure]);
  return state;
}
