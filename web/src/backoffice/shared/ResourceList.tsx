// A back-office list (clients, projects, users): heading, 'Novo', a data grid with edit and delete, the
// delete dialog and its messages (SPEC.md sections 2, 4 and 8).
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { DataGrid, GridActionsCellItem, type GridColDef } from '@mui/x-data-grid';
import { ptBR } from '@mui/x-data-grid/locales';
import { GRID_PAGE_SIZE } from '@novus/domain/constants';
import { useBackofficeApi } from '../backoffice-api';
import { serverMessageOr } from '../server-message';
import { DeleteDialog } from './DeleteDialog';
import { NoticeAlert, type Notice } from './notice';

export interface ResourceListTexts {
  title: string;
  /** The dialog's text: 'Isso irá remover o …'. */
  confirmDelete: string;
  loadFailed: string;
  deleteFailed: string;
  deleted: string;
  /** What goes to /api/logger, e.g. 'clientes' in 'Falha ao carregar clientes'. */
  logName: { plural: string; singular: string };
}

interface Props<T extends { _id: string }> {
  /** '/backoffice/cliente': 'Novo' goes to {basePath}/add, edit to {basePath}/{id}. */
  basePath: string;
  texts: ResourceListTexts;
  columns: GridColDef<T>[];
  load: () => Promise<T[]>;
  remove: (row: T) => Promise<void>;
}

export function ResourceList<T extends { _id: string }>({
  basePath,
  texts,
  columns,
  load,
  remove,
}: Props<T>) {
  const { log } = useBackofficeApi();
  const navigate = useNavigate();
  const [rows, setRows] = useState<T[]>([]);
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [pendingDelete, setPendingDelete] = useState<T | null>(null);

  const reload = useCallback(async () => {
    setLoading(true);
    try {
      setRows(await load());
      setLoadError(null);
    } catch (error) {
      log(`Falha ao carregar ${texts.logName.plural}`, error);
      setLoadError(serverMessageOr(error, texts.loadFailed));
    } finally {
      setLoading(false);
    }
  }, [load, log, texts]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const confirmDelete = async () => {
    const row = pendingDelete;
    setPendingDelete(null);
    if (row === null) return;
    setNotice(null);
    try {
      await remove(row);
    } catch (error) {
      log(`Falha ao excluir ${texts.logName.singular}`, error);
      setNotice({ severity: 'error', text: serverMessageOr(error, texts.deleteFailed) });
      return;
    }
    setNotice({ severity: 'success', text: texts.deleted });
    await reload();
  };

  const allColumns = useMemo<GridColDef<T>[]>(
    () => [
      ...columns,
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
            onClick={() => navigate(`${basePath}/${encodeURIComponent(row._id)}`)}
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
    [columns, navigate, basePath],
  );

  return (
    <Stack spacing={2}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography component="h1" variant="h5">
          {texts.title}
        </Typography>
        <Button component={RouterLink} to={`${basePath}/add`} variant="contained" startIcon={<AddIcon />}>
          Novo
        </Button>
      </Stack>
      {loadError !== null && <Alert severity="error">{loadError}</Alert>}
      <NoticeAlert notice={notice} onClose={() => setNotice(null)} />
      <Box sx={{ width: '100%' }}>
        <DataGrid
          aria-label={texts.title}
          rows={rows}
          columns={allColumns}
          getRowId={(row) => row._id}
          loading={loading}
          autoHeight
          disableRowSelectionOnClick
          initialState={{ pagination: { paginationModel: { pageSize: GRID_PAGE_SIZE, page: 0 } } }}
          pageSizeOptions={[GRID_PAGE_SIZE]}
          localeText={ptBR.components.MuiDataGrid.defaultProps.localeText}
          // A filter would first probe for eval, which the Content-Security-Policy forbids and reports (issue 40).
          disableEval
        />
      </Box>
      <DeleteDialog
        open={pendingDelete !== null}
        text={texts.confirmDelete}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setPendingDelete(null)}
      />
    </Stack>
  );
}
