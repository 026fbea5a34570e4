// The first two steps of the Extrator and Relatórios screens: the user's projects, the chosen one, its days.
import { useState } from 'react';
import { listDatas } from '@novus/domain/api/extrator';
import { listProjetos, type ProjetoSummary } from '@novus/domain/api/projetos';
import { isoDate } from './datas';
import { LOAD_FAILURE } from './messages';
import { useApiLoad, type Load } from './use-api-load';

export interface ProjetoDatas {
  projetos: Load<ProjetoSummary[]>;
  /** '' until the user picks one. */
  projetoId: string;
  setProjetoId: (id: string) => void;
  /** The chosen project's days with records, YYYY-MM-DD ascending. */
  datas: Load<string[]>;
}

export function useProjetoDatas(): ProjetoDatas {
  // GET /api/projeto answers only the projects the user may see (SPEC.md section 6).
  const projetos = useApiLoad('projetos', (api) => api.call(listProjetos, {}), LOAD_FAILURE.projetos);
  const [projetoId, setProjetoId] = useState('');
  const datas = useApiLoad(
    projetoId === '' ? null : projetoId,
    async (api) =>
      [...new Set((await api.call(listDatas, { params: { id: projetoId } })).map(isoDate))].sort(),
    LOAD_FAILURE.datas,
  );
  return { projetos, projetoId, setProjetoId, datas };
}
