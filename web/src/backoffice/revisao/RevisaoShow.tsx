// The record under review: who, when, its flags and state, its fields, photos, point on the map and history, with
// the reviewer's actions (none for the externo, who only reads).
import { Alert, Box, Button, Chip, Paper, Stack, Typography } from '@mui/material';
import { getHistorico, type ItemRevisao } from '@novus/domain/api/revisao';
import { FLOW_BY_KEY } from '@novus/domain/flows/registry';
import { LoadContent } from '../extrator/LoadContent';
import { useApiLoad } from '../extrator/use-api-load';
import { FlagChip } from './FlagChip';
import { REVISAO_FAILURE } from './messages';
import { RegistroMapa } from './RegistroMapa';
import { camposDoRegistro, dataHoraTexto, ESTADO_COLOR, estadoTexto, SEM_VALOR } from './revisao-view';

interface Props {
  registro: ItemRevisao;
  /** Aprovar and Reprovar are offered (not to the externo). */
  podeDecidir: boolean;
  busy: boolean;
  tileUrl: string | undefined;
  onAprovar: () => void;
  onReprovar: () => void;
  onProximo: () => void;
  onAnterior: () => void;
  /** 'Excluir' (the administrador only, issue 39): absent, the button is not offered. */
  onExcluir?: () => void;
}

export function RevisaoShow({
  registro,
  podeDecidir,
  busy,
  tileUrl,
  onAprovar,
  onReprovar,
  onProximo,
  onAnterior,
  onExcluir,
}: Props) {
  const flow = FLOW_BY_KEY[registro.fluxo];
  const campos = camposDoRegistro(registro.fluxo, registro.dados);
  const { revisao } = registro;
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby="revisao-registro-titulo"
      data-testid="revisao-registro"
      sx={{ p: 2 }}
    >
      <Stack spacing={2}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography id="revisao-registro-titulo" component="h2" variant="h6">
            {flow.labels.record}
          </Typography>
          <Chip color={ESTADO_COLOR[revisao.estado]} label={estadoTexto(revisao.estado)} />
        </Stack>
        <Typography variant="body2">
          {registro.tecnico?.nome ?? SEM_VALOR} · {dataHoraTexto(registro.dataHora)}
          {registro.zona !== null && ` · ${registro.zona}`} · versão {revisao.versao}
          {registro.precisao !== null && ` · precisão ${String(registro.precisao).replace('.', ',')} m`}
        </Typography>
        {registro.flags.length > 0 && (
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }} aria-label="Sinalizações">
            {registro.flags.map((flag) => (
              <FlagChip key={flag.codigo} flag={flag} />
            ))}
          </Box>
        )}
        {revisao.estado === 'reprovado' && revisao.comentario !== null && (
          <Alert severity="error" icon={false}>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              Reprovado por {revisao.revisor ?? SEM_VALOR} em {dataHoraTexto(revisao.em)}
            </Typography>
            <Typography variant="body2">{revisao.comentario}</Typography>
          </Alert>
        )}

        {podeDecidir ? (
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <Button variant="contained" color="success" onClick={onAprovar} disabled={busy}>
              Aprovar
            </Button>
            <Button variant="contained" color="error" onClick={onReprovar} disabled={busy}>
              Reprovar
            </Button>
            <Button variant="outlined" onClick={onAnterior} disabled={busy}>
              Anterior
            </Button>
            <Button variant="outlined" onClick={onProximo} disabled={busy}>
              Próximo
            </Button>
            {onExcluir !== undefined && (
              <Button variant="outlined" color="error" onClick={onExcluir} disabled={busy}>
                Excluir
              </Button>
            )}
          </Stack>
        ) : (
          <Stack direction="row" spacing={1}>
            <Button variant="outlined" onClick={onAnterior}>
              Anterior
            </Button>
            <Button variant="outlined" onClick={onProximo}>
              Próximo
            </Button>
          </Stack>
        )}

        <Box>
          <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
            Campos
          </Typography>
          <Box
            component="dl"
            sx={{
              m: 0,
              display: 'grid',
              gridTemplateColumns: 'minmax(120px, auto) 1fr',
              columnGap: 2,
              rowGap: 0.5,
            }}
          >
            {campos.map((campo) => {
              const comentario = revisao.campos[campo.nome];
              return (
                <Box key={campo.nome} sx={{ display: 'contents' }}>
                  <Typography component="dt" variant="body2" sx={{ fontWeight: 600 }}>
                    {campo.label}
                  </Typography>
                  <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                    {campo.valor}
                    {comentario !== undefined && (
                      <Typography component="span" variant="body2" color="error" sx={{ display: 'block' }}>
                        {comentario}
                      </Typography>
                    )}
                  </Typography>
                </Box>
              );
            })}
          </Box>
        </Box>

        <Box>
          <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
            Fotos
          </Typography>
          {registro.fotos.length === 0 ? (
            <Typography variant="body2">{flow.noPhotosText}</Typography>
          ) : (
            <Box
              sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))', gap: 1 }}
            >
              {registro.fotos.map((url, index) => (
                <Box
                  key={url}
                  component="a"
                  href={url}
                  target="_blank"
                  rel="noopener"
                  sx={{ display: 'block', lineHeight: 0 }}
                >
                  <Box
                    component="img"
                    src={url}
                    alt={`Foto ${index + 1} de ${registro.fotos.length} do registro`}
                    loading="lazy"
                    sx={{
                      width: '100%',
                      aspectRatio: '4 / 3',
                      objectFit: 'cover',
                      borderRadius: 1,
                      bgcolor: 'grey.200',
                    }}
                  />
                </Box>
              ))}
            </Box>
          )}
        </Box>

        <Box>
          <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
            Local
          </Typography>
          {registro.coordenadas === null ? (
            <Typography variant="body2">Sem coordenadas.</Typography>
          ) : (
            <>
              <RegistroMapa
                lat={registro.coordenadas.lat}
                lng={registro.coordenadas.lng}
                color={flow.map.color}
                tileUrl={tileUrl}
              />
              <Typography variant="body2" color="text.secondary">
                {registro.coordenadas.lat.toFixed(6)}, {registro.coordenadas.lng.toFixed(6)}
              </Typography>
            </>
          )}
        </Box>

        <Historico registro={registro} />
      </Stack>
    </Paper>
  );
}

/** Every decision (who, when, comment, fields) and every revision the technician sent. */
function Historico({ registro }: { registro: ItemRevisao }) {
  const { id, revisao } = registro;
  // a decision names fields as the record does; shown by their labels
  const rotulos = new Map(camposDoRegistro(registro.fluxo, registro.dados).map((c) => [c.nome, c.label]));
  // a new decision or revision of the record asks again
  const historico = useApiLoad(
    JSON.stringify([id, revisao.versao, revisao.estado, revisao.em]),
    (api) => api.call(getHistorico, { params: { id } }),
    REVISAO_FAILURE.historico,
  );
  return (
    <Box>
      <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
        Histórico
      </Typography>
      <LoadContent load={historico} loadingLabel="Carregando histórico">
        {({ decisoes, versoes }) => (
          <Stack spacing={0.5}>
            <Typography component="h4" variant="body2" sx={{ fontWeight: 600 }}>
              Decisões
            </Typography>
            {decisoes.length === 0 ? (
              <Typography variant="body2">Nenhuma decisão ainda.</Typography>
            ) : (
              <Box component="ol" sx={{ m: 0, pl: 2.5 }} aria-label="Decisões">
                {decisoes.map((decisao) => (
                  <Typography component="li" variant="body2" key={`${decisao.em}-${decisao.estado}`}>
                    <strong>{estadoTexto(decisao.estado)}</strong> por {decisao.usuario ?? SEM_VALOR} em{' '}
                    {dataHoraTexto(decisao.em)} (versão {decisao.versao})
                    {decisao.comentario !== null && decisao.comentario !== '' && `: ${decisao.comentario}`}
                    {Object.entries(decisao.campos).map(([campo, texto]) => (
                      <Box component="span" key={campo} sx={{ display: 'block', pl: 1 }}>
                        {rotulos.get(campo) ?? campo}: {texto}
                      </Box>
                    ))}
                  </Typography>
                ))}
              </Box>
            )}
            <Typography component="h4" variant="body2" sx={{ fontWeight: 600 }}>
              Versões enviadas
            </Typography>
            <Box component="ol" sx={{ m: 0, pl: 2.5 }} aria-label="Versões">
              {versoes.map((versao) => (
                <Typography component="li" variant="body2" key={versao.versao}>
                  Versão {versao.versao}: coletada em {dataHoraTexto(versao.dataHora)}, enviada em{' '}
                  {dataHoraTexto(versao.sincronizadoEm)}, {versao.fotos.length}{' '}
                  {versao.fotos.length === 1 ? 'foto' : 'fotos'}
                </Typography>
              ))}
            </Box>
          </Stack>
        )}
      </LoadContent>
    </Box>
  );
}
