// 'Revisão' (issue 24): a project's records with their automatic flags, filtered and counted, 50 at a time; the
// chosen one beside the list with its fields, photos, point and history; approve, reject with comments, or
// approve everything the filter shows. Keyboard: A, R, N or J, K. The externo reads only.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material';
import { listProjetos } from '@novus/domain/api/projetos';
import { deleteRegistro } from '@novus/domain/api/registros';
import { aprovarLote, decidirRevisao, listRevisao, type ItemRevisao } from '@novus/domain/api/revisao';
import { FLOW_BY_KEY } from '@novus/domain/flows/registry';
import { getConfig } from '@novus/domain/api/sistema';
import type { EstadoRevisao } from '@novus/domain/revisao';
import { ApiError } from '../../api/client';
import { useSession } from '../../shared/services';
import { useBackofficeApi } from '../backoffice-api';
import { LoadContent } from '../extrator/LoadContent';
import { LOAD_FAILURE } from '../extrator/messages';
import { ProjetoPageHead } from '../extrator/ProjetoPageHead';
import { useApiLoad, useScopedChoice } from '../extrator/use-api-load';
import { serverMessageOr } from '../server-message';
import { DeleteDialog } from '../shared/DeleteDialog';
import { NoticeAlert, type Notice } from '../shared/notice';
import { LimitesQualidade } from './LimitesQualidade';
import { REVISAO_FAILURE, REVISAO_TEXT } from './messages';
import { AprovarTodosDialog, type Reprovacao, ReprovarDialog } from './ReprovarDialog';
import { RevisaoContagem, RevisaoFiltros } from './RevisaoFiltros';
import { RevisaoShow } from './RevisaoShow';
import { RevisaoTable } from './RevisaoTable';
import {
  ATALHOS,
  atalhoDe,
  camposDoRegistro,
  filtroApi,
  juntarTecnicos,
  paginas,
  passo,
  SEM_FILTROS,
  type Atalho,
  type FiltrosRevisao,
} from './revisao-view';

const REVIEWERS = ['administrador', 'supervisor', 'interpretador'];

/** The chosen record of a page: by id, or the page's first or last row after 'Próximo' / 'Anterior' crossed pages. */
type Escolha = { id: string } | { ponta: 'primeira' | 'ultima' } | null;

export function RevisaoPage() {
  const session = useSession();
  const roles = session?.roles ?? [];
  const podeDecidir = roles.some((role) => REVIEWERS.includes(role));
  const isAdmin = roles.includes('administrador');
  const { api, log } = useBackofficeApi();
  const tileUrl = useStreetTiles();

  const projetos = useApiLoad('projetos', (call) => call.call(listProjetos, {}), LOAD_FAILURE.projetos);
  const [projetoId, setProjetoId] = useState('');
  const [filtros, setFiltros] = useScopedChoice<FiltrosRevisao>(projetoId, SEM_FILTROS);
  const filtro = filtroApi(projetoId, filtros);
  const filtroKey = JSON.stringify(filtro);
  const [pagina, setPagina] = useScopedChoice(filtroKey, 1);
  const paginaKey = JSON.stringify([filtroKey, pagina]);
  /** The chosen record, kept with the page it was chosen on. */
  const [escolhida, setEscolhida] = useState<{ pagina: string; escolha: Escolha }>({
    pagina: '',
    escolha: null,
  });
  const escolha = escolhida.pagina === paginaKey ? escolhida.escolha : null;
  const setEscolha = (next: Escolha) => setEscolhida({ pagina: paginaKey, escolha: next });
  /** Bumped to ask for the page again (a conflict, a bulk approval). */
  const [recarga, setRecarga] = useState(0);
  const listaKey = JSON.stringify([paginaKey, recarga]);
  /** The project's technicians for the filter: the list answers name them all (and every record's). */
  const [tecnicosVistos, setTecnicosVistos] = useState<{
    projeto: string;
    lista: { id: string; nome: string }[];
  }>({
    projeto: '',
    lista: [],
  });
  const lista = useApiLoad(
    projetoId === '' ? null : listaKey,
    async (call) => {
      const value = await call.call(listRevisao, { query: { ...filtro, pagina } });
      setTecnicosVistos((current) => ({
        projeto: projetoId,
        lista: juntarTecnicos(
          [...(current.projeto === projetoId ? current.lista : []), ...value.tecnicos],
          value.registros,
        ),
      }));
      return value;
    },
    REVISAO_FAILURE.lista,
  );
  const vistos = tecnicosVistos.projeto === projetoId ? tecnicosVistos.lista : [];
  /** Decisions made on this load of the page: the rows show them until the page is asked for again. */
  const [decididos, setDecididos] = useScopedChoice<ReadonlyMap<string, ItemRevisao>>(listaKey, new Map());

  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);
  const [reprovando, setReprovando] = useState(false);
  /** 'Aprovar todos' asks: how many the filter shows that are not approved yet (null: no dialog). */
  const [aAprovar, setAAprovar] = useState<number | null>(null);
  const aprovandoTodos = aAprovar !== null;
  /** The record 'Excluir' asks about (null: no dialog). */
  const [aExcluir, setAExcluir] = useState<ItemRevisao | null>(null);

  const answer = lista.status === 'done' ? lista.value : null;
  const registros = (answer?.registros ?? []).map((registro) => decididos.get(registro.id) ?? registro);
  const index =
    escolha === null
      ? -1
      : 'id' in escolha
        ? registros.findIndex((registro) => registro.id === escolha.id)
        : escolha.ponta === 'primeira'
          ? 0
          : registros.length - 1;
  const selecionado = index >= 0 ? (registros[index] ?? null) : null;
  const totalPaginas = answer === null ? 1 : paginas(answer.total, answer.porPagina);

  const projeto = projetos.status === 'done' ? projetos.value.find((p) => p._id === projetoId) : undefined;

  const mudarFiltros = (next: FiltrosRevisao) => {
    setNotice(null);
    setFiltros(next);
  };

  const mover = (direcao: 1 | -1) => {
    if (answer === null) return;
    const next = passo(direcao, index, registros.length, pagina, totalPaginas);
    if (next === null) return;
    if (next.kind === 'linha') {
      const registro = registros[next.index];
      if (registro !== undefined) setEscolha({ id: registro.id });
      return;
    }
    setPagina(next.pagina);
    // chosen for the page that comes: its first row going forward, its last going back
    setEscolhida({ pagina: JSON.stringify([filtroKey, next.pagina]), escolha: { ponta: next.ponta } });
  };

  const decidir = async (registro: ItemRevisao, estado: EstadoRevisao, reprovacao?: Reprovacao) => {
    setBusy(true);
    setNotice(null);
    try {
      const decidido = await api.call(decidirRevisao, {
        params: { id: registro.id },
        body: {
          estado,
          versao: registro.revisao.versao,
          ...(reprovacao === undefined
            ? {}
            : { comentario: reprovacao.comentario, campos: reprovacao.campos }),
        },
      });
      setDecididos(new Map(decididos).set(decidido.id, decidido));
      setEscolha({ id: decidido.id });
      setReprovando(false);
      setNotice({
        severity: 'success',
        text: estado === 'aprovado' ? REVISAO_TEXT.aprovado : REVISAO_TEXT.reprovado,
      });
    } catch (error) {
      log(REVISAO_FAILURE.decisao.log, error);
      setNotice({ severity: 'error', text: serverMessageOr(error, REVISAO_FAILURE.decisao.text) });
      if (error instanceof ApiError && error.status === 409) {
        // another revision or decision came meanwhile: show the record as it is now
        setReprovando(false);
        setEscolha({ id: registro.id });
        setRecarga((value) => value + 1);
      }
    } finally {
      setBusy(false);
    }
  };

  /**
   * The administrador deletes a record (issue 39): the server remembers it, so the phones that still keep a copy do
   * not send it back. The page is asked for again, without it.
   */
  const excluir = async (registro: ItemRevisao) => {
    setAExcluir(null);
    setBusy(true);
    setNotice(null);
    try {
      await api.call(deleteRegistro, { params: { id: registro.id } });
      setNotice({ severity: 'success', text: REVISAO_TEXT.excluido });
      setEscolha(null);
      setRecarga((value) => value + 1);
    } catch (error) {
      log(REVISAO_FAILURE.exclusao.log, error);
      setNotice({ severity: 'error', text: serverMessageOr(error, REVISAO_FAILURE.exclusao.text) });
    } finally {
      setBusy(false);
    }
  };

  /** The count the confirmation announces and the server checks: the filter's records not approved yet (`aAprovar`). */
  const perguntarAprovarTodos = async () => {
    if (answer === null) return;
    setBusy(true);
    setNotice(null);
    try {
      // asked again: decisions made since the page came change it
      const { aAprovar: n } = await api.call(listRevisao, { query: { ...filtro, pagina: 1 } });
      if (n === 0) setNotice({ severity: 'success', text: REVISAO_TEXT.nadaAAprovar });
      else setAAprovar(n);
    } catch (error) {
      log(REVISAO_FAILURE.lista.log, error);
      setNotice({ severity: 'error', text: serverMessageOr(error, REVISAO_FAILURE.lista.text) });
    } finally {
      setBusy(false);
    }
  };

  const aprovarTodos = async () => {
    if (aAprovar === null) return;
    setBusy(true);
    setNotice(null);
    try {
      const { aprovados } = await api.call(aprovarLote, { body: { ...filtro, esperado: aAprovar } });
      setNotice({ severity: 'success', text: REVISAO_TEXT.aprovadosLote(aprovados) });
    } catch (error) {
      log(REVISAO_FAILURE.lote.log, error);
      setNotice({ severity: 'error', text: serverMessageOr(error, REVISAO_FAILURE.lote.text) });
    } finally {
      setBusy(false);
      setAAprovar(null);
      setRecarga((value) => value + 1);
    }
  };

  const atalho = (acao: Atalho) => {
    if (busy || reprovando || aprovandoTodos || aExcluir !== null) return;
    if (acao === 'proximo') mover(1);
    else if (acao === 'anterior') mover(-1);
    else if (selecionado !== null && podeDecidir) {
      if (acao === 'aprovar') void decidir(selecionado, 'aprovado');
      else setReprovando(true);
    }
  };
  useShortcuts(atalho);

  // counts of the answer, moved by the decisions made since
  const estados = answer === null ? null : { ...answer.contagem.estados };
  if (estados !== null && answer !== null) {
    for (const original of answer.registros) {
      const decidido = decididos.get(original.id);
      if (decidido === undefined || decidido.revisao.estado === original.revisao.estado) continue;
      estados[original.revisao.estado] -= 1;
      estados[decidido.revisao.estado] += 1;
    }
  }

  return (
    <Stack spacing={2}>
      <ProjetoPageHead
        title={REVISAO_TEXT.title}
        id="revisao-projeto"
        projetos={projetos}
        projetoId={projetoId}
        onProjeto={(id) => {
          setNotice(null);
          setProjetoId(id);
        }}
      />
      {projeto !== undefined && (
        <>
          <RevisaoFiltros
            fluxos={projeto.fluxos}
            tecnicos={vistos}
            filtros={filtros}
            onChange={mudarFiltros}
          />
          {answer !== null && estados !== null && (
            <RevisaoContagem
              estados={estados}
              flags={answer.contagem.flags}
              filtros={filtros}
              onChange={mudarFiltros}
            />
          )}
          <NoticeAlert notice={notice} onClose={() => setNotice(null)} />
          <Box
            sx={{
              display: 'grid',
              gap: 2,
              gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 5fr) minmax(0, 6fr)' },
              alignItems: 'start',
            }}
          >
            <Paper
              component="section"
              variant="outlined"
              aria-labelledby="revisao-lista-titulo"
              sx={{ p: 2 }}
            >
              <Stack spacing={1}>
                <Stack
                  direction="row"
                  spacing={1}
                  sx={{ alignItems: 'center', justifyContent: 'space-between' }}
                >
                  <Typography id="revisao-lista-titulo" component="h2" variant="h6">
                    {REVISAO_TEXT.lista}
                  </Typography>
                  {podeDecidir && (
                    <Button
                      variant="outlined"
                      color="success"
                      disabled={answer === null || answer.total === 0 || busy}
                      onClick={() => void perguntarAprovarTodos()}
                    >
                      Aprovar todos
                    </Button>
                  )}
                </Stack>
                <LoadContent load={lista} loadingLabel="Carregando registros">
                  {(value) =>
                    value.total === 0 ? (
                      <Alert severity="info">{REVISAO_TEXT.semRegistros}</Alert>
                    ) : (
                      <RevisaoTable
                        registros={registros}
                        selecionado={selecionado?.id ?? null}
                        onSelect={(id) => setEscolha({ id })}
                        pagina={value.pagina}
                        total={value.total}
                        porPagina={value.porPagina}
                        onPagina={setPagina}
                      />
                    )
                  }
                </LoadContent>
                <Atalhos podeDecidir={podeDecidir} />
              </Stack>
            </Paper>
            {selecionado === null ? (
              answer !== null &&
              answer.total > 0 && <Alert severity="info">{REVISAO_TEXT.escolhaRegistro}</Alert>
            ) : (
              <RevisaoShow
                key={selecionado.id}
                registro={selecionado}
                podeDecidir={podeDecidir}
                busy={busy}
                tileUrl={tileUrl}
                onAprovar={() => void decidir(selecionado, 'aprovado')}
                onReprovar={() => setReprovando(true)}
                onProximo={() => mover(1)}
                onAnterior={() => mover(-1)}
                {...(isAdmin ? { onExcluir: () => setAExcluir(selecionado) } : {})}
              />
            )}
          </Box>
          {isAdmin && <LimitesQualidade projetoId={projetoId} />}
        </>
      )}
      <ReprovarDialog
        open={reprovando && selecionado !== null}
        campos={selecionado === null ? [] : camposDoRegistro(selecionado.fluxo, selecionado.dados)}
        busy={busy}
        onCancel={() => setReprovando(false)}
        onConfirm={(reprovacao) => {
          if (selecionado !== null) void decidir(selecionado, 'reprovado', reprovacao);
        }}
      />
      <AprovarTodosDialog
        open={aprovandoTodos}
        total={aAprovar ?? 0}
        busy={busy}
        onCancel={() => setAAprovar(null)}
        onConfirm={() => void aprovarTodos()}
      />
      <DeleteDialog
        open={aExcluir !== null}
        text={aExcluir === null ? '' : FLOW_BY_KEY[aExcluir.fluxo].deleteConfirm}
        onConfirm={() => aExcluir !== null && void excluir(aExcluir)}
        onCancel={() => setAExcluir(null)}
      />
    </Stack>
  );
}

/** The shortcuts, listed under the list. */
function Atalhos({ podeDecidir }: { podeDecidir: boolean }) {
  const atalhos = podeDecidir
    ? ATALHOS
    : ATALHOS.filter((atalho) => atalho.teclas !== 'A' && atalho.teclas !== 'R');
  return (
    <Typography variant="body2" color="text.secondary" data-testid="revisao-atalhos">
      Atalhos:{' '}
      {atalhos.map((atalho, i) => (
        <Box component="span" key={atalho.teclas}>
          {i > 0 && ' · '}
          <Box component="kbd" sx={{ fontFamily: 'monospace', fontWeight: 600 }}>
            {atalho.teclas}
          </Box>{' '}
          {atalho.acao}
        </Box>
      ))}
    </Typography>
  );
}

/** A, R, N/J and K on the page, not while typing; the handler is the latest render's. */
function useShortcuts(handler: (atalho: Atalho) => void) {
  const latest = useRef(handler);
  useLayoutEffect(() => {
    latest.current = handler;
  });
  const onKeyDown = useCallback((event: KeyboardEvent) => {
    if (event.defaultPrevented || event.repeat) return;
    const atalho = atalhoDe(event);
    if (atalho === null) return;
    event.preventDefault();
    latest.current(atalho);
  }, []);
  useEffect(() => {
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [onKeyDown]);
}

/** The configured street tile URL (GET /api/config); the record's map shows only its point until it comes. */
function useStreetTiles(): string | undefined {
  const config = useApiLoad('config', (api) => api.call(getConfig, {}), {
    log: REVISAO_FAILURE.tiles.log,
    text: '',
  });
  return config.status === 'done' ? config.value.tiles.street : undefined;
}
