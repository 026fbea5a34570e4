// 'Data inicial' and 'Data final' among a project's days; by default the whole range.
import { Stack } from '@mui/material';
import type { Periodo } from '@novus/domain/export/periodo';
import { DataSelect } from './DataSelect';
import { useScopedChoice } from './use-api-load';

export type PeriodoEscolhido = Required<Pick<Periodo, 'dataInicio' | 'dataFim'>>;

/** The range chosen for this project, else its first to its last day; null when the project has no days. */
export function usePeriodo(
  projetoId: string,
  datas: readonly string[],
): [PeriodoEscolhido | null, (periodo: PeriodoEscolhido) => void] {
  const whole = datas.length > 0 ? { dataInicio: datas[0], dataFim: datas[datas.length - 1] } : null;
  const [periodo, setPeriodo] = useScopedChoice<PeriodoEscolhido | null>(projetoId, whole);
  return [periodo, setPeriodo];
}

interface Props {
  /** Prefix of the selects' ids, unique on the page. */
  id: string;
  datas: readonly string[];
  periodo: PeriodoEscolhido;
  onChange: (periodo: PeriodoEscolhido) => void;
}

export function PeriodoSelects({ id, datas, periodo, onChange }: Props) {
  return (
    <Stack direction="row" spacing={2}>
      <DataSelect
        id={`${id}-data-inicial`}
        label="Data inicial"
        datas={datas}
        value={periodo.dataInicio}
        isDisabled={(data) => data > periodo.dataFim}
        onChange={(dataInicio) =>
          onChange({ dataInicio, dataFim: dataInicio > periodo.dataFim ? dataInicio : periodo.dataFim })
        }
      />
      <DataSelect
        id={`${id}-data-final`}
        label="Data final"
        datas={datas}
        value={periodo.dataFim}
        isDisabled={(data) => data < periodo.dataInicio}
        onChange={(dataFim) =>
          onChange({ dataInicio: dataFim < periodo.dataInicio ? dataFim : periodo.dataInicio, dataFim })
        }
      />
    </Stack>
  );
}
