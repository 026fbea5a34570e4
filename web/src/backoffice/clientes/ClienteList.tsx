// 'Lista de Clientes': grid of Nome with edit and delete (SPEC.md section 2).
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { DataGrid, GridActionsCellItem, type GridColDef } from '@mui/x-data-grid';
import { ptBR } from '@mui/x-data-grid/locales';
import type { Cliente } from '@novus/domain/cliente';
import { GRID_PAGE_SIZE } from '@novus/domain/constants';
import { deleteCliente, listClientes } from '../../api/cliente';
import { useBackofficeApi } from '../backoffice-api';
import { serverMessageOr } from '../server-message';
import { ClienteDeleteDialog } from './ClienteDeleteDialog';
import { CLIENTE_TEXT } from './messages';

interface Notice {
  severity: 'success' | 'error';
  text: string;
}

export function ClienteList() {
  const { api, log } = useBackofficeApi();
  const navigate = useNavigate();
  const [rows, setRows] = useState<Cliente[]>([]);
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [pendingDelete, setPendingDelete] = useState<Cliente | null>(null);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      setRows(await listClientes(api));
      setLoadError(null);
    } catch (error) {
      log('Falha ao carregar clientes', error);
      setLoadError(serverMessageOr(error, CLIENTE_TEXT.loadListFailed));
    } finally {
      setLoading(false);
    }
  }, [api, log]);

  useEffect(() => {
    void load();
  }, [load]);

  const confirmDelete = async () => {
    const cliente = pendingDelete;
    setPendingDelete(null);
    if (cliente === null) return;
    setNotice(null);
    try {
      await deleteCliente(api, cliente._id);
    } catch (error) {
      log('Falha ao excluir cliente', error);
      setNotice({ severity: 'error', text: serverMessageOr(error, CLIENTE_TEXT.deleteFailed) });
      return;
    }
    setNotice({ severity: 'success', text: CLIENTE_TEXT.deleted });
    await load();
  };

  const columns = useMemo<GridColDef<Cliente>[]>(
    () => [
      { field: 'nome', headerName: 'Nome', flex: 1, minWidth: 200 },
      {
        field: 'actions',
        type: 'actions',
        headerName: 'Ações',
        width: 120,
        getActions: ({ row }) => [
          <GridActionsCellItem
            key="editar"
            icon={<EditIcon />}
            label="Editar"
            onClick={() => navigate(`/backoffice/cliente/${encodeURIComponent(row._id)}`)}
          />,
          <GridActionsCellItem
            key="excluir"
            icon={<DeleteIcon />}
            label="Excluir"
            onClick={() => setPendingDelete(row)}
          />,
        ],
      },
    ],
    [navigate],
  );

  return (
    <Stack spacing={2}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography component="h1" variant="h5">
          Lista de Clientes
        </Typography>
        <Button
          component={RouterLink}
          to="/backoffice/cliente/add"
          variant="contained"
          startIcon={<AddIcon />}
        >
          Novo
        </Button>
      </Stack>
      {loadError !== null && <Alert severity="error">{loadError}</Alert>}
      {notice !== null && (
        <Alert severity={notice.severity} onClose={() => setNotice(null)}>
          {notice.text}
        </Alert>
      )}
      <Box sx={{ width: '100%' }}>
        <DataGrid
          aria-label="Lista de Clientes"
          rows={rows}
          columns={columns}
          getRowId={(row) => row._id}
          loading={loading}
          autoHeight
          disableRowSelectionOnClick
          initialState={{ pagination: { paginationModel: { pageSize: GRID_PAGE_SIZE, page: 0 } } }}
          pageSizeOptions={[GRID_PAGE_SIZE]}
          localeText={ptBR.components.MuiDataGrid.defaultProps.localeText}
        />
      </Box>
      <ClienteDeleteDialog
        open={pendingDelete !== null}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setPendingDelete(null)}
      />
    </Stack>
  );
}
