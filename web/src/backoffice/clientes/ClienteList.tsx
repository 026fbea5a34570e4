// 'Lista de Clientes': grid of Nome with edit and delete (SPEC.md section 2).
import { useCallback } from 'react';
import type { GridColDef } from '@mui/x-data-grid';
import type { Cliente } from '@novus/domain/cliente';
import { deleteCliente, listClientes } from '@novus/domain/api/clientes';
import { useBackofficeApi } from '../backoffice-api';
import { ResourceList, type ResourceListTexts } from '../shared/ResourceList';
import { CLIENTE_TEXT } from './messages';

const TEXTS: ResourceListTexts = {
  title: 'Lista de Clientes',
  confirmDelete: 'Isso irá remover o cliente',
  loadFailed: CLIENTE_TEXT.loadListFailed,
  deleteFailed: CLIENTE_TEXT.deleteFailed,
  deleted: CLIENTE_TEXT.deleted,
  logName: { plural: 'clientes', singular: 'cliente' },
};

const COLUMNS: GridColDef<Cliente>[] = [{ field: 'nome', headerName: 'Nome', flex: 1, minWidth: 200 }];

export function ClienteList() {
  const { api } = useBackofficeApi();
  const load = useCallback(() => api.call(listClientes, {}), [api]);
  const remove = useCallback(
    async (cliente: Cliente) => {
      await api.call(deleteCliente, { params: { id: cliente._id } });
    },
    [api],
  );
  return (
    <ResourceList
      basePath="/backoffice/cliente"
      texts={TEXTS}
      columns={COLUMNS}
      load={load}
      remove={remove}
    />
  );
}
