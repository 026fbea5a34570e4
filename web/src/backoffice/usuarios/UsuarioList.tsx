// 'Lista de Usuários': Nome, Login, Perfis, Cliente, Projetos, Criado em, edit and delete (SPEC.md section 2).
import { useCallback } from 'react';
import { Stack } from '@mui/material';
import type { GridColDef } from '@mui/x-data-grid';
import { isRole, ROLE_LABELS } from '@novus/domain/roles';
import { deleteUsuario, listUsuarios, type UsuarioSummary } from '@novus/domain/api/usuarios';
import { useBackofficeApi } from '../backoffice-api';
import { ResourceList, type ResourceListTexts } from '../shared/ResourceList';
import { USUARIO_TEXT } from './messages';
import { ExigirSegundoFator } from './SegundoFatorAdmin';

const TEXTS: ResourceListTexts = {
  title: 'Lista de Usuários',
  confirmDelete: 'Isso irá remover o usuário',
  loadFailed: USUARIO_TEXT.loadListFailed,
  deleteFailed: USUARIO_TEXT.deleteFailed,
  deleted: USUARIO_TEXT.deleted,
  logName: { plural: 'usuários', singular: 'usuário' },
};

const COLUMNS: GridColDef<UsuarioSummary>[] = [
  {
    field: 'nome',
    headerName: 'Nome',
    flex: 1,
    minWidth: 160,
    valueGetter: (_value, row) => `${row.firstName} ${row.lastName}`.trim(),
  },
  { field: 'login', headerName: 'Login', flex: 1, minWidth: 120 },
  {
    field: 'roles',
    headerName: 'Perfis',
    flex: 1,
    minWidth: 140,
    valueGetter: (_value, row) =>
      row.roles.map((role) => (isRole(role) ? ROLE_LABELS[role] : role)).join(', '),
  },
  {
    field: 'cliente',
    headerName: 'Cliente',
    flex: 1,
    minWidth: 120,
    valueGetter: (_value, row) => row.cliente?.nome ?? '',
  },
  {
    field: 'projetos',
    headerName: 'Projetos',
    flex: 1,
    minWidth: 140,
    valueGetter: (_value, row) => row.projetos.join(', '),
  },
  {
    field: 'createdAt',
    headerName: 'Criado em',
    width: 120,
    // sort by the instant, show the pt-BR day
    valueFormatter: (value: string) => new Date(value).toLocaleDateString('pt-BR'),
  },
];

export function UsuarioList() {
  const { api } = useBackofficeApi();
  const load = useCallback(() => api.call(listUsuarios, {}), [api]);
  const remove = useCallback(
    async (usuario: UsuarioSummary) => {
      await api.call(deleteUsuario, { params: { id: usuario._id } });
    },
    [api],
  );
  return (
    <Stack spacing={2}>
      <ExigirSegundoFator />
      <ResourceList
        basePath="/backoffice/usuario"
        texts={TEXTS}
        columns={COLUMNS}
        load={load}
        remove={remove}
      />
    </Stack>
  );
}
