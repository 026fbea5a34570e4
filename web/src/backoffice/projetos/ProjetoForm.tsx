// 'Adicionar Projeto' (/backoffice/projeto/add) and 'Alterar Projeto' (/backoffice/projeto/:projetoId):
// the form on the left, the map of its zones and points on the right (SPEC.md section 2).
import { useEffect, useMemo, useReducer, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import {
  Box,
  Button,
  Checkbox,
  CircularProgress,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormLabel,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { createProjeto, getProjeto, updateProjeto } from '@novus/domain/api/projetos';
import { getConfig } from '@novus/domain/api/sistema';
import { RETENCAO_COPIAS_DIAS_MAX, RETENCAO_COPIAS_DIAS_MIN } from '@novus/domain/constants';
import { FLUXOS } from '@novus/domain/flows/keys';
import { FLUXO_FORM_LABELS, PRELOADED_FLOWS } from '@novus/domain/flows/registry';
import { decodeTextFile } from '@novus/domain/geo/text-file';
import { FUSOS } from '@novus/domain/geo/fusos';
import { projetoDetail } from '../../api/projeto';
import { ProjetoMap } from '../../map/ProjetoMap';
import { useBackofficeApi } from '../backoffice-api';
import { serverMessageOr } from '../server-message';
import { NoticeAlert, type Notice } from '../shared/notice';
import { SubmitButton } from '../shared/SubmitButton';
import { useClientes } from '../shared/use-clientes';
import { useRecordLoad } from '../shared/use-record-load';
import { FileField } from './FileField';
import { MapaOffline } from './MapaOffline';
import { PROJETO_TEXT } from './messages';
import {
  EMPTY_PROJETO_FORM,
  FILE_ACCEPT,
  type FileSlot,
  mapData,
  projetoFormBody,
  projetoFormReducer,
  readFile,
  rereadForFuso,
  sizeError,
  validate,
} from './projeto-form';

const zonasText = (n: number) => (n === 1 ? '1 zona' : `${n} zonas`);
const pontosText = (n: number) => (n === 1 ? '1 ponto' : `${n} pontos`);

export function ProjetoForm() {
  const { projetoId } = useParams();
  const editing = projetoId !== undefined;
  const { api, log } = useBackofficeApi();
  const [state, dispatch] = useReducer(projetoFormReducer, EMPTY_PROJETO_FORM);
  const clientes = useClientes();
  const [tileUrl, setTileUrl] = useState<string>();
  const [sending, setSending] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [clienteError, setClienteError] = useState<string>();

  useEffect(() => {
    let active = true;
    api.call(getConfig, {}).then(
      ({ tiles }) => active && setTileUrl(tiles.street),
      (error: unknown) => log('Falha ao carregar a configuração do mapa', error),
    );
    return () => {
      active = false;
    };
  }, [api, log]);

  const loading = useRecordLoad(projetoId, {
    fetch: async (id) => projetoDetail(await api.call(getProjeto, { params: { id } })),
    loaded: (projeto) => dispatch({ type: 'loaded', projeto }),
    failure: { log: 'Falha ao carregar projeto', text: PROJETO_TEXT.loadFailed },
    onNotice: setNotice,
  });

  const map = useMemo(() => mapData(state), [state]);

  const pick = async (slot: FileSlot, file: File) => {
    const tooLarge = sizeError(slot, file.size);
    if (tooLarge !== null) {
      dispatch({ type: 'fileRefused', slot, message: tooLarge });
      return;
    }
    // Latin-1 files from Brazilian spreadsheets are read right, not as mojibake (file.text() assumes UTF-8).
    const text = decodeTextFile(new Uint8Array(await file.arrayBuffer()));
    dispatch(await readFile(slot, file.name, text, state.fuso));
  };

  const changeFuso = async (fuso: string) => {
    dispatch({ type: 'field', field: 'fuso', value: fuso });
    for (const action of await rereadForFuso(state, fuso)) dispatch(action);
  };

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    const problems = validate(state);
    setClienteError(problems.cliente);
    if (problems.cliente !== undefined) return;
    setNotice(null);
    setSending(true);
    try {
      if (projetoId === undefined) {
        await api.call(createProjeto, { body: projetoFormBody(state) });
        dispatch({ type: 'reset' });
        setNotice({ severity: 'success', text: PROJETO_TEXT.created });
      } else {
        const saved = await api.call(updateProjeto, {
          params: { id: projetoId },
          body: projetoFormBody(state, projetoId),
        });
        dispatch({ type: 'loaded', projeto: projetoDetail(saved) });
        setNotice({ severity: 'success', text: PROJETO_TEXT.updated });
      }
    } catch (error) {
      log(editing ? 'Falha ao alterar projeto' : 'Falha ao adicionar projeto', error);
      setNotice({
        severity: 'error',
        text: editing
          ? serverMessageOr(error, PROJETO_TEXT.updateFailed, 'edit')
          : serverMessageOr(error, PROJETO_TEXT.createFailed, 'create'),
      });
    } finally {
      setSending(false);
    }
  };

  return (
    <Stack spacing={2}>
      <Typography component="h1" variant="h5">
        {editing ? 'Alterar Projeto' : 'Adicionar Projeto'}
      </Typography>
      <NoticeAlert notice={notice} />
      {loading ? (
        <CircularProgress aria-label="Carregando projeto" />
      ) : (
        <Stack direction={{ xs: 'column', lg: 'row' }} spacing={3} sx={{ alignItems: 'flex-start' }}>
          <Box
            component="form"
            onSubmit={(event) => void onSubmit(event)}
            noValidate
            sx={{ flex: 1, minWidth: 0, width: '100%' }}
          >
            <Stack spacing={2}>
              <TextField
                label="Nome"
                value={state.nome}
                onChange={(event) => dispatch({ type: 'field', field: 'nome', value: event.target.value })}
                slotProps={{ inputLabel: { shrink: true } }}
              />
              <TextField
                select
                required
                label="Cliente"
                value={clientes.some((c) => c._id === state.cliente) ? state.cliente : ''}
                onChange={(event) => {
                  setClienteError(undefined);
                  dispatch({ type: 'field', field: 'cliente', value: event.target.value });
                }}
                error={clienteError !== undefined}
                helperText={clienteError}
                slotProps={{ inputLabel: { shrink: true } }}
              >
                {clientes.map((cliente) => (
                  <MenuItem key={cliente._id} value={cliente._id}>
                    {cliente.nome}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                select
                label="Fuso"
                value={state.fuso}
                onChange={(event) => void changeFuso(event.target.value)}
                slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
              >
                <MenuItem value="">
                  <em>Nenhum</em>
                </MenuItem>
                {FUSOS.map((fuso) => (
                  <MenuItem key={fuso} value={String(fuso)}>
                    {fuso}
                  </MenuItem>
                ))}
              </TextField>

              <FormControl component="fieldset">
                <FormLabel component="legend">Zoneamento</FormLabel>
                <FileField
                  buttonLabel="Escolher arquivo KML"
                  inputLabel="Arquivo KML"
                  accept={FILE_ACCEPT.kml}
                  help="Arquivo .kml com os polígonos das zonas."
                  picked={state.files.kml}
                  error={state.fileErrors.kml}
                  savedText={
                    state.saved.zonas.length > 0
                      ? `${zonasText(state.saved.zonas.length)} (já cadastradas)`
                      : null
                  }
                  countText={zonasText}
                  onPick={(file) => void pick('kml', file)}
                  onClear={() => dispatch({ type: 'fileCleared', slot: 'kml' })}
                />
              </FormControl>

              <FormControl component="fieldset">
                <FormLabel component="legend">Fluxos</FormLabel>
                <FormGroup sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)' } }}>
                  {FLUXOS.map((fluxo) => (
                    <FormControlLabel
                      key={fluxo}
                      label={FLUXO_FORM_LABELS[fluxo]}
                      control={
                        <Checkbox
                          checked={state.fluxos.includes(fluxo)}
                          onChange={(event) =>
                            dispatch({ type: 'fluxo', fluxo, checked: event.target.checked })
                          }
                        />
                      }
                    />
                  ))}
                </FormGroup>
              </FormControl>

              {PRELOADED_FLOWS.filter(({ key }) => state.fluxos.includes(key)).map(
                ({ key: fluxo, preload }) => (
                  <FormControl key={fluxo} component="fieldset">
                    <FormLabel component="legend">{`Pontos ${FLUXO_FORM_LABELS[fluxo]}`}</FormLabel>
                    <FileField
                      buttonLabel={preload.fileLabel.replace(/^Arquivo/, 'Escolher arquivo')}
                      inputLabel={preload.fileLabel}
                      accept={FILE_ACCEPT[fluxo]}
                      help={preload.help(state.fuso)}
                      picked={state.files[fluxo]}
                      error={state.fileErrors[fluxo]}
                      savedText={
                        state.saved.counts[fluxo] > 0
                          ? `${pontosText(state.saved.counts[fluxo])} (já cadastrados)`
                          : null
                      }
                      countText={pontosText}
                      disabled={preload.utmZone === 'projeto' && state.fuso === ''}
                      onPick={(file) => void pick(fluxo, file)}
                      onClear={() => dispatch({ type: 'fileCleared', slot: fluxo })}
                    />
                  </FormControl>
                ),
              )}

              <FormGroup>
                <FormControlLabel
                  label="Disponibilizar no Interpres"
                  control={
                    <Checkbox
                      checked={state.disponivelInterpres}
                      onChange={(event) =>
                        dispatch({ type: 'opcao', field: 'disponivelInterpres', value: event.target.checked })
                      }
                    />
                  }
                />
                <FormControlLabel
                  label="Carimbar as fotos (data, hora, local e técnico)"
                  control={
                    <Checkbox
                      checked={state.carimboFotos}
                      onChange={(event) =>
                        dispatch({ type: 'opcao', field: 'carimboFotos', value: event.target.checked })
                      }
                    />
                  }
                />
              </FormGroup>
              <TextField
                id="projeto-retencao-copias"
                type="number"
                label="Cópias de segurança no aparelho (dias)"
                value={state.retencaoCopiasDias}
                onChange={(event) =>
                  dispatch({ type: 'field', field: 'retencaoCopiasDias', value: event.target.value })
                }
                helperText="Por quantos dias o aparelho guarda o que enviou, para reenviar a um servidor restaurado de um backup."
                slotProps={{
                  inputLabel: { shrink: true },
                  htmlInput: { min: RETENCAO_COPIAS_DIAS_MIN, max: RETENCAO_COPIAS_DIAS_MAX, step: 1 },
                }}
              />
              <Stack direction="row" spacing={1}>
                <SubmitButton sending={sending} />
                <Button component={RouterLink} to="/backoffice/projeto" variant="text">
                  Voltar
                </Button>
              </Stack>
              <MapaOffline projetoId={projetoId} zonas={state.saved.zonas} />
            </Stack>
          </Box>
          <Box sx={{ flex: 1, minWidth: 0, width: '100%', position: { lg: 'sticky' }, top: { lg: 88 } }}>
            <ProjetoMap tileUrl={tileUrl} zonas={map.zonas} pontos={map.pontos} />
          </Box>
        </Stack>
      )}
    </Stack>
  );
}
