// /api/projeto: administration by the administrador; reads by role and ownership; getByUser for technicians
// (domain/src/api/projetos.ts).
import type { FastifyInstance } from 'fastify';
import * as api from '@novus/domain/api/projetos';
import { isFluxo } from '@novus/domain/flows/keys';
import { PRELOADED_FLOWS } from '@novus/domain/flows/registry';
import { type Access, ensure, policies, projetoScope } from '../../auth/access.ts';
import { route } from '../../contract.ts';
import type { Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { startProjetoAudit } from '../auditoria/projeto-audit.ts';
import { auditoriaDe, projetoValores } from '../auditoria/queries.ts';
import { getCliente } from '../clientes/queries.ts';
import { listMapaBaseRows, mapaBaseJson } from '../mapa-base/queries.ts';
import { removeUnreferencedArchive } from '../mapa-base/routes.ts';
import { countRegistrosDeCampo } from '../registros/queries.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
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

/** The project's flows, typed: written only through projetoFieldsSchema, which admits flow keys alone. */
const fluxosOf = (row: Pick<ProjetoRow, 'fluxos'>) => row.fluxos.filter(isFluxo);

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
    fluxos: fluxosOf(row),
    fuso: row.fuso,
    disponivelInterpres: row.disponivel_interpres,
  };
}

export async function projetoRoutes(
  app: FastifyInstance,
  { db, access, blobs }: { db: Database; access: Access; blobs: BlobStore },
) {
  async function projetoDetail(row: ProjetoRow) {
    const [zonas, pontos, mapas] = await Promise.all([
      listZonas(db, [row.id]),
      listPreloadedPontos(db, row.id),
      listMapaBaseRows(db, [row.id]),
    ]);
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
      fluxos: fluxosOf(row),
      fuso: row.fuso,
      disponivelInterpres: row.disponivel_interpres,
      limiteDownload: row.limite_download,
      carimboFotos: row.carimbo_fotos,
      retencaoCopiasDias: row.retencao_copias_dias,
      imagensMapa: row.imagens_mapa,
      zonas: zonas.map(zonaJson),
      mapaBase: mapas[0] ? mapaBaseJson(mapas[0], zonas) : null,
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

  route(app, access, api.listProjetosOfUser, async ({ request }) => {
    const actor = access.actor(request);
    const projetos = await listProjetosOfUser(db, actor.id);
    const ids = projetos.map((projeto) => projeto.id);
    const [zonas, mapas] = await Promise.all([listZonas(db, ids, actor.id), listMapaBaseRows(db, ids)]);
    return projetos.map((projeto) => {
      const suas = zonas.filter((zona) => zona.projeto === projeto.id);
      const mapa = mapas.find((candidate) => candidate.projeto === projeto.id);
      return {
        _id: projeto.id,
        nome: projeto.nome,
        zonas: suas.map(zonaJson),
        fluxos: fluxosOf(projeto),
        imagensMapa: projeto.imagens_mapa,
        fuso: projeto.fuso,
        limiteDownload: projeto.limite_download,
        carimboFotos: projeto.carimbo_fotos,
        retencaoCopiasDias: projeto.retencao_copias_dias,
        mapaBase: mapa ? mapaBaseJson(mapa, suas) : null,
      };
    });
  });

  route(app, access, api.listProjetosByCliente, async ({ params: { clienteId }, request }) => {
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
  });

  route(app, access, api.listProjetos, async ({ request }) =>
    (await listProjetos(db, projetoScope(access.actor(request)))).map(projetoSummary),
  );

  route(app, access, api.getProjeto, async ({ params, request }) => {
    const row = await getProjeto(db, params.id);
    if (!row) throw notFound(NOT_FOUND);
    ensure(
      policies.readProjeto(access.actor(request), {
        cliente: row.cliente,
        disponivelInterpres: row.disponivel_interpres,
      }),
    );
    return projetoDetail(row);
  });

  route(app, access, api.createProjeto, async ({ body, request }) => {
    const id = await save(await readProjetoInput(body), undefined, access.actor(request).id);
    const row = await getProjeto(db, id);
    if (!row) throw notFound(NOT_FOUND);
    return projetoDetail(row);
  });

  route(app, access, api.updateProjeto, async ({ params: { id }, body, request }) => {
    await save(await readProjetoInput(body), id, access.actor(request).id);
    const row = await getProjeto(db, id);
    if (!row) throw notFound(NOT_FOUND);
    return projetoDetail(row);
  });

  route(app, access, api.deleteProjeto, async ({ params: { id }, request }) => {
    const mapas = await listMapaBaseRows(db, [id]);
    const deleted = await db.transaction(async (tx) => {
      // Losing nothing comes first: a project whose records technicians collected is not deleted.
      if ((await countRegistrosDeCampo(tx, id)) > 0) {
        throw conflict('O projeto tem registros coletados em campo e não pode ser excluído.');
      }
      const antes = await projetoValores(tx, id);
      if (!(await deleteProjeto(tx, id))) throw notFound(NOT_FOUND);
      await auditoriaDe(tx, access.actor(request).id, 'projeto').excluir(id, antes);
      return { _id: id };
    });
    // Its basemap package went with it (ON DELETE CASCADE): the archive too, when no other project has it.
    await removeUnreferencedArchive(db, blobs, mapas[0]?.hash);
    return deleted;
  });
}
