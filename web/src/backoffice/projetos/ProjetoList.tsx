// 'Lista de Projetos': grid of Nome with edit and delete (SPEC.md section 2).
import { useCallback } from 'react';
import type { GridColDef } from '@mui/x-data-grid';
import { deleteProjeto, listProjetos, type ProjetoSummary } from '@novus/domain/api/projetos';
import { useBackofficeApi } from '../backoffice-api';
import { ResourceList, type ResourceListTexts } from '../shared/ResourceList';
import { PROJETO_TEXT } from './messages';

const TEXTS: ResourceListTexts = {
  title: 'Lista de Projetos',
  confirmDelete: 'Isso irá remover o projeto',
  loadFailed: PROJETO_TEXT.loadFailed,
  deleteFailed: PROJETO_TEXT.deleteFailed,
  deleted: PROJETO_TEXT.deleted,
  logName: { plural: 'projetos', singular: 'projeto' },
};

const COLUMNS: GridColDef<ProjetoSummary>[] = [{ field: 'nome', headerName: 'Nome', flex: 1, minWidth: 200 }];

export function ProjetoList() {
  const { api } = useBackofficeApi();
  const load = useCallback(() => api.call(listProjetos, {}), [api]);
  const remove = useCallback(
    async (projeto: ProjetoSummary) => {
      await api.call(deleteProjeto, { params: { id: projeto._id } });
    },
    [api],
  );
  return (
    <ResourceList
      basePath="/backoffice/projeto"
      texts={TEXTS}
      columns={COLUMNS}
      load={load}
      remove={remove}
    />
  );
}
