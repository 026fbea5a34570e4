// The review of issue 24: the back office lists a project's field records with their flags and decides on them
// (one by one or in bulk), reads a record's history and sets the project's thresholds; a technician's device
// fetches the records rejected to it, which come back as new revisions through the flow's own upload.
import type { FastifyRequest } from 'fastify';
import type { FastifyInstance } from 'fastify';
import * as api from '@novus/domain/api/revisao';
import { flowOf } from '@novus/domain/flows/registry';
import { ESTADOS_REVISAO, FLAG_CODIGOS } from '@novus/domain/revisao';
import { type Access, ensure, policies } from '../../auth/access.ts';
import { route } from '../../contract.ts';
import type { Database } from '../../db/database.ts';
import { conflict, notFound } from '../../errors.ts';
import { recordAuditoria } from '../auditoria/queries.ts';
import { findProjeto, getRegistro } from '../registros/queries.ts';
import type { PontosLive } from '../../live/pontos.ts';
import { fotoUrls, registroJson, statusOf } from '../registros/routes.ts';
import * as q from './queries.ts';

const ms = (date: Date | null) => (date ? date.getTime() : null);

function itemJson(row: q.ItemRow): api.ItemRevisao {
  return {
    id: row.id,
    fluxo: row.fluxo,
    projeto: row.projeto,
    tecnico: row.tecnico && row.tecnico_nome ? { id: row.tecnico, nome: row.tecnico_nome } : null,
    zona: row.zona,
    dataHora: ms(row.data_hora),
    sincronizadoEm: ms(row.sincronizado_em),
    coordenadas: row.lat === null || row.lng === null ? null : { lat: row.lat, lng: row.lng },
    precisao: typeof row.dados.precisao === 'number' ? row.dados.precisao : null,
    dados: row.dados,
    fotos: fotoUrls(row),
    flags: row.flags,
    revisao: {
      estado: row.revisao,
      versao: row.versao,
      comentario: row.revisao_comentario,
      campos: row.revisao_campos,
      revisor: row.revisor,
      em: ms(row.revisado_em),
    },
  };
}

export const REVISAO_TEXTS = {
  projetoNotFound: 'Projeto não encontrado.',
  registroNotFound: 'Registro não encontrado.',
  novaVersao: (versao: number) =>
    `O registro recebeu uma nova versão (${versao}) desde que foi aberto: revise a versão atual.`,
  listaMudou: (agora: number) =>
    `A lista mudou desde a confirmação: agora ${agora} registros seriam aprovados. Confirme de novo.`,
} as const;

export async function revisaoRoutes(
  app: FastifyInstance,
  { db, access, live }: { db: Database; access: Access; live: PontosLive },
) {
  /** The open supervisor maps recolour a point whose review state changed (its status bits). */
  async function announce(id: string) {
    const row = await getRegistro(db, id);
    if (!row || row.lat === null || row.lng === null) return;
    const [competing] = await db.query<{ sim: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM registros WHERE conflito_de = $1) AS sim',
      [id],
    );
    live.publish({
      projeto: row.projeto,
      zona: row.zona,
      fluxo: row.fluxo,
      id: row.id,
      lat: row.lat,
      lng: row.lng,
      status: statusOf(row, competing?.sim === true),
      tecnico: row.tecnico_nome,
      dataHora: row.data_hora ? row.data_hora.getTime() : null,
    });
  }

  /** The project of a filter, found and readable by the caller. */
  async function projetoLegivel(request: FastifyRequest, id: string) {
    const projeto = await findProjeto(db, 'id', id);
    if (!projeto) throw notFound(REVISAO_TEXTS.projetoNotFound);
    ensure(
      policies.readProjeto(access.actor(request), {
        cliente: projeto.cliente,
        disponivelInterpres: projeto.disponivel_interpres,
      }),
    );
    return projeto;
  }

  route(app, access, api.listRevisao, async ({ query, request }) => {
    const { pagina, ...filtro } = query;
    await projetoLegivel(request, filtro.projeto);
    const page = await q.listRevisao(db, filtro, pagina);
    const count = <K extends string>(keys: readonly K[], counts: Record<string, number>) =>
      Object.fromEntries(keys.map((key) => [key, counts[key] ?? 0])) as Record<K, number>;
    return {
      total: page.total,
      pagina,
      porPagina: api.REVISAO_POR_PAGINA as typeof api.REVISAO_POR_PAGINA,
      registros: page.registros.map(itemJson),
      aAprovar: page.aAprovar,
      tecnicos: page.tecnicos,
      contagem: { flags: count(FLAG_CODIGOS, page.flags), estados: count(ESTADOS_REVISAO, page.estados) },
    };
  });

  route(app, access, api.decidirRevisao, async ({ params, body, request }) => {
    const actor = access.actor(request);
    await db.transaction(async (tx) => {
      const registro = await q.lockRevisavel(tx, params.id);
      if (!registro) throw notFound(REVISAO_TEXTS.registroNotFound);
      ensure(
        policies.readProjeto(actor, {
          cliente: registro.cliente,
          disponivelInterpres: registro.disponivel_interpres,
        }),
      );
      if (body.versao !== registro.versao) throw conflict(REVISAO_TEXTS.novaVersao(registro.versao));
      const decisao = {
        estado: body.estado,
        comentario: body.comentario || null,
        // Fields are pointed at only to say what to correct.
        campos: body.estado === 'reprovado' ? (body.campos ?? {}) : {},
        usuario: actor.id,
      };
      await q.decidir(tx, registro, decisao);
      await recordAuditoria(tx, {
        usuario: actor.id,
        entidade: 'revisao',
        entidadeId: registro.id,
        acao: 'alterar',
        antes: { estado: registro.revisao, versao: registro.versao },
        depois: {
          estado: decisao.estado,
          versao: registro.versao,
          comentario: decisao.comentario,
          campos: decisao.campos,
        },
      });
    });
    announce(params.id).catch((error: unknown) =>
      request.log.error({ err: error }, 'live notification failed'),
    );
    const item = await q.getItem(db, params.id);
    if (!item) throw notFound(REVISAO_TEXTS.registroNotFound);
    return itemJson(item);
  });

  route(app, access, api.aprovarLote, async ({ body, request }) => {
    const actor = access.actor(request);
    const { esperado, ...filtro } = body;
    await projetoLegivel(request, filtro.projeto);
    const aprovados = await db.transaction(async (tx) => {
      if (esperado !== undefined) {
        const agora = await q.contarAAprovar(tx, filtro);
        if (agora !== esperado) throw conflict(REVISAO_TEXTS.listaMudou(agora));
      }
      const n = await q.aprovarTodos(tx, filtro, actor.id);
      await recordAuditoria(tx, {
        usuario: actor.id,
        entidade: 'revisao',
        entidadeId: filtro.projeto,
        acao: 'alterar',
        antes: null,
        depois: { aprovados: n, filtro },
      });
      return n;
    });
    return { aprovados };
  });

  route(app, access, api.getHistorico, async ({ params, request }) => {
    const row = await getRegistro(db, params.id);
    if (!row || !row.coletado || row.conflito_de !== null) throw notFound(REVISAO_TEXTS.registroNotFound);
    ensure(
      policies.readProjeto(access.actor(request), {
        cliente: row.cliente,
        disponivelInterpres: row.disponivel_interpres,
      }),
    );
    const [decisoes, versoes] = await Promise.all([q.listDecisoes(db, row.id), q.listVersoes(db, row.id)]);
    return {
      decisoes: decisoes.map((d) => ({
        versao: d.versao,
        estado: d.estado,
        comentario: d.comentario,
        campos: d.campos,
        usuario: d.usuario,
        em: d.em.getTime(),
      })),
      versoes: versoes.map((v) => ({
        versao: v.versao,
        dataHora: ms(v.data_hora),
        sincronizadoEm: ms(v.sincronizado_em),
        coordenadas: v.lat === null || v.lng === null ? null : { lat: v.lat, lng: v.lng },
        dados: v.dados,
        // Each revision's own photos: an earlier one's by its number (the photo route reads registro_versoes).
        fotos: v.fotos.map((slot) => `/api/fotos/${row.id}/${slot}?v=${v.versao}`),
        flags: v.flags,
      })),
    };
  });

  route(app, access, api.getLimites, async ({ params, request }) => {
    await projetoLegivel(request, params.id);
    const limites = await q.getLimites(db, params.id);
    if (!limites) throw notFound(REVISAO_TEXTS.projetoNotFound);
    return limites;
  });

  route(app, access, api.putLimites, async ({ params, body, request }) => {
    const actor = access.actor(request);
    await projetoLegivel(request, params.id);
    await db.transaction(async (tx) => {
      const antes = await q.getLimites(tx, params.id);
      await q.setLimites(tx, params.id, body);
      await recordAuditoria(tx, {
        usuario: actor.id,
        entidade: 'projeto',
        entidadeId: params.id,
        acao: 'alterar',
        antes: antes ? { ...antes } : null,
        depois: { ...body },
      });
    });
    return body;
  });

  route(app, access, api.listCorrecoes, async ({ request }) => {
    const actor = access.actor(request);
    const correcoes = await q.listCorrecoes(db, actor.id);
    const answers = [];
    for (const correcao of correcoes) {
      const row = await getRegistro(db, correcao.id);
      if (!row) continue;
      const flow = flowOf(row.fluxo);
      const urls = fotoUrls(row);
      answers.push({
        fluxo: flow.key,
        registro: registroJson(flow, row),
        fotos: correcao.fotos.map((foto) => ({
          slot: foto.slot,
          hash: foto.hash,
          url: urls[row.fotos.indexOf(foto.slot)] ?? `/api/fotos/${row.id}/${foto.slot}`,
        })),
        revisao: {
          versao: correcao.versao,
          comentario: correcao.revisao_comentario ?? '',
          campos: correcao.revisao_campos,
          revisor: correcao.revisor,
          em: ms(correcao.revisado_em) ?? 0,
        },
      });
    }
    return answers;
  });
}
