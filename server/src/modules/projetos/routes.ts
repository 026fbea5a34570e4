// /api/projeto: administration by the administrador; reads by role and ownership; getByUser for technicians.
import type { FastifyInstance } from 'fastify';
import { PRELOADED_FLOWS } from '@novus/domain/flows/registry';
import { type Access, ensure, policies, projetoScope } from '../../auth/access.ts';
import type { Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { badRequest, conflict, notFound, parseId } from '../../errors.ts';
import { startProjetoAudit } from '../auditoria/projeto-audit.ts';
import { projetoValores, recordAuditoria } from '../auditoria/queries.ts';
import { getCliente } from '../clientes/queries.ts';
import { countRegistrosDeCampo } from '../registros/queries.ts';
import { type ProjetoInput, readProjetoInput } from './input.ts';
import {
  deleteProjeto,
  getProjeto,
  insertProjeto,
  invalidZonaLabels,
  listPreloadedPontos,
  listProjetos,
  listProjetosByCliente,
  listProjetosOfUser,
  listZonas,
  type PontoRow,
  type ProjetoRow,
  replacePreloadedPontos,
  replaceZonas,
  updateProjeto,
  type ZonaRow,
} from './queries.ts';

const NOT_FOUND = 'Projeto não encontrado.';
/** Zones and point files make big forms; the browser refuses files past their own limits first. */
const FORM_LIMIT = 40 * 1024 * 1024;

function zonaJson(zona: ZonaRow) {
  const outer = zona.poligono2.coordinates[0] ?? [];
  return {
    _id: zona.id,
    label: zona.label,
    poligono: outer.map(([lng, lat]) => ({ lat, lng })),
    poligono2: zona.poligono2,
  };
}

function pontoJson(ponto: PontoRow) {
  const located =
    ponto.lat === null || ponto.lng === null
      ? {}
      : {
          coordenadas: [ponto.lat, ponto.lng],
          localizacao: { type: 'Point', coordinates: [ponto.lng, ponto.lat] },
        };
  return {
    _id: ponto.id,
    ...ponto.dados,
    ...located,
    coletado: ponto.coletado,
    carregadoBackoffice: ponto.carregado_backoffice,
  };
}

function projetoSummary(row: ProjetoRow) {
  return {
    _id: row.id,
    nome: row.nome,
    cliente: { _id: row.cliente, nome: row.cliente_nome },
    fluxos: row.fluxos,
    fuso: row.fuso,
    disponivelInterpres: row.disponivel_interpres,
  };
}

export async function projetoRoutes(app: FastifyInstance, { db, access }: { db: Database; access: Access }) {
  async function projetoDetail(row: ProjetoRow) {
    const [zonas, pontos] = await Promise.all([listZonas(db, [row.id]), listPreloadedPontos(db, row.id)]);
    const byFluxo = Object.fromEntries(
      PRELOADED_FLOWS.map((flow) => [
        flow.preload.formField,
        pontos.filter((ponto) => ponto.fluxo === flow.key).map(pontoJson),
      ]),
    );
    return {
      _id: row.id,
      nome: row.nome,
      cliente: row.cliente,
      fluxos: row.fluxos,
      fuso: row.fuso,
      disponivelInterpres: row.disponivel_interpres,
      limiteDownload: row.limite_download,
      imagensMapa: row.imagens_mapa,
      zonas: zonas.map(zonaJson),
      ...byFluxo,
    };
  }

  async function save(input: ProjetoInput, id: string | undefined, usuario: string): Promise<string> {
    if (!(await getCliente(db, input.cliente))) throw badRequest('Cliente não encontrado.');
    try {
      return await db.transaction(async (tx) => {
        const audit = await startProjetoAudit(tx, usuario, id);
        const projetoId = id ?? (await insertProjeto(tx, input));
        if (id && !(await updateProjeto(tx, id, input))) throw notFound(NOT_FOUND);
        if (input.zonas) {
          const invalid = await invalidZonaLabels(tx, input.zonas);
          if (invalid.length > 0) {
            throw badRequest(
              `Zoneamento: o polígono "${invalid.join('", "')}" é inválido (as bordas se cruzam).`,
            );
          }
          await replaceZonas(tx, projetoId, input.zonas);
        }
        for (const flow of PRELOADED_FLOWS) {
          const pontos = input.pontos[flow.key];
          if (pontos) await replacePreloadedPontos(tx, projetoId, flow, pontos);
        }
        await audit.finish(projetoId, {
          zonas: input.zonas !== undefined,
          fluxos: PRELOADED_FLOWS.filter((flow) => input.pontos[flow.key]).map((flow) => flow.key),
        });
        return projetoId;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('Já existe um projeto com esse nome.');
      throw error;
    }
  }

  app.get('/api/projeto/getByUser', { preHandler: access.allow() }, async (request) => {
    const actor = access.actor(request);
    const projetos = await listProjetosOfUser(db, actor.id);
    const zonas = await listZonas(
      db,
      projetos.map((projeto) => projeto.id),
      actor.id,
    );
    return projetos.map((projeto) => ({
      _id: projeto.id,
      nome: projeto.nome,
      zonas: zonas.filter((zona) => zona.projeto === projeto.id).map(zonaJson),
      fluxos: projeto.fluxos,
      imagensMapa: projeto.imagens_mapa,
      fuso: projeto.fuso,
      limiteDownload: projeto.limite_download,
    }));
  });

  app.get<{ Params: { clienteId: string } }>(
    '/api/projeto/getByCliente/:clienteId',
    { preHandler: access.allow('administrador', 'supervisor') },
    async (request) => {
      const clienteId = parseId(request.params.clienteId, 'Identificador de cliente');
      ensure(policies.readCliente(access.actor(request), clienteId));
      const projetos = await listProjetosByCliente(db, clienteId);
      const zonas = await listZonas(
        db,
        projetos.map((projeto) => projeto.id),
      );
      return projetos.map((projeto) => ({
        ...projetoSummary(projeto),
        zonas: zonas
          .filter((zona) => zona.projeto === projeto.id)
          .map((zona) => ({ _id: zona.id, label: zona.label })),
      }));
    },
  );

  app.get(
    '/api/projeto',
    { preHandler: access.allow('administrador', 'supervisor', 'interpretador', 'externo') },
    async (request) => (await listProjetos(db, projetoScope(access.actor(request)))).map(projetoSummary),
  );

  app.get<{ Params: { id: string } }>(
    '/api/projeto/:id',
    { preHandler: access.allow('administrador', 'supervisor', 'interpretador', 'externo') },
    async (request) => {
      const row = await getProjeto(db, parseId(request.params.id, 'Identificador de projeto'));
      if (!row) throw notFound(NOT_FOUND);
      ensure(
        policies.readProjeto(access.actor(request), {
          cliente: row.cliente,
          disponivelInterpres: row.disponivel_interpres,
        }),
      );
      return projetoDetail(row);
    },
  );

  app.post(
    '/api/projeto',
    { preHandler: access.allow('administrador'), bodyLimit: FORM_LIMIT },
    async (request, reply) => {
      const id = await save(await readProjetoInput(request.body), undefined, access.actor(request).id);
      const row = await getProjeto(db, id);
      if (!row) throw notFound(NOT_FOUND);
      return reply.status(201).send(await projetoDetail(row));
    },
  );

  app.put<{ Params: { id: string } }>(
    '/api/projeto/:id',
    { preHandler: access.allow('administrador'), bodyLimit: FORM_LIMIT },
    async (request) => {
      const id = parseId(request.params.id, 'Identificador de projeto');
      await save(await readProjetoInput(request.body), id, access.actor(request).id);
      const row = await getProjeto(db, id);
      if (!row) throw notFound(NOT_FOUND);
      return projetoDetail(row);
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/api/projeto/:id',
    { preHandler: access.allow('administrador') },
    async (request) => {
      const id = parseId(request.params.id, 'Identificador de projeto');
      return db.transaction(async (tx) => {
        // Losing nothing comes first: a project whose records technicians collected is not deleted.
        if ((await countRegistrosDeCampo(tx, id)) > 0) {
          throw conflict('O projeto tem registros coletados em campo e não pode ser excluído.');
        }
        const antes = await projetoValores(tx, id);
        if (!(await deleteProjeto(tx, id))) throw notFound(NOT_FOUND);
        await recordAuditoria(tx, {
          usuario: access.actor(request).id,
          entidade: 'projeto',
          entidadeId: id,
          acao: 'excluir',
          antes,
          depois: null,
        });
        return { _id: id };
      });
    },
  );
}
