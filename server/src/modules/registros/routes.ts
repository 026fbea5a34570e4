// The routes of every flow in the registry (DESIGN.md 'The flow registry' and 'Sync protocol'): POST /api/{flow}
// (multipart, photos under 'fotos'), GET /api/{flow}/getByZona?id= when the flow has it, the back office's list by
// project when the flow declares one, GET /api/{flow}/{id}/fotos, and the photo bytes at /api/fotos/{registro}/{slot};
// POST /api/fotos/existem answers a syncing device which of its photos the server already holds. Issue 39: the back
// office deletes a record (DELETE /api/registro/{id}, remembered), a phone asks which of the records it kept the
// server lacks (POST /api/registros/conferir) and gives back the lost files of a held record's photos
// (POST /api/registros/{id}/fotos).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as api from '@novus/domain/api/registros';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import { deviceDownload, uploadEnvelopeSchema } from '@novus/domain/flows/flow';
import { FLOWS, flowOf } from '@novus/domain/flows/registry';
import { STATUS } from '@novus/domain/mapa/api';
import { type Access, type Actor, ensure, policies } from '../../auth/access.ts';
import type { Callers } from '../../auth/callers.ts';
import { route, SENT } from '../../contract.ts';
import type { Database } from '../../db/database.ts';
import { badRequest, conflict, notFound, parseInput } from '../../errors.ts';
import type { PontosLive } from '../../live/pontos.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { recordAuditoria } from '../auditoria/queries.ts';
import { qualidadeDe, sinalizacoesLigadas } from '../revisao/flags.ts';
import { saveColeta } from './coleta.ts';
import { conferir } from './conferir.ts';
import {
  excluirRegistro,
  findProjeto,
  fotosDoRegistro,
  getFoto,
  getFotoDaVersao,
  getProjetoZonas,
  getRegistro,
  getZona,
  listColetas,
  listRegistrosByPeriodo,
  listRegistrosByProjeto,
  listRegistrosByZona,
  lockRegistroExcluivel,
  type RegistroRow,
} from './queries.ts';
import { heldPhotos, type PhotoSweeper, readPhotos, readUpload } from './upload.ts';

/**
 * The photos' URLs. A corrected record's photos may change under the same slot: its URLs name the revision
 * (`?v=`), so a browser's immutable cache of an older one is never shown for it.
 */
export function fotoUrls(row: Pick<RegistroRow, 'id' | 'fotos' | 'versao'>): string[] {
  const versao = row.versao > 1 ? `?v=${row.versao}` : '';
  return row.fotos.map((slot) => `/api/fotos/${row.id}/${slot}${versao}`);
}

/** A technician's zones, for the zone flag (issue 24); null for a sender without zones (the administrador). */
function tecnicoZonas(actor: Actor): string[] | null {
  return actor.roles.includes('tecnico') && !actor.roles.includes('administrador') ? actor.zonas : null;
}

/** A point's status bits on the supervisor map (domain/src/mapa/api.ts STATUS). */
export function statusOf(ponto: RegistroRow, conflito: boolean): number {
  return (
    (ponto.coletado ? STATUS.coletado : 0) +
    (ponto.carregado_backoffice ? STATUS.carregadoBackoffice : 0) +
    (conflito ? STATUS.conflito : 0) +
    (ponto.flags.length > 0 ? STATUS.sinalizado : 0) +
    (ponto.revisao === 'aprovado' ? STATUS.aprovado : 0) +
    (ponto.revisao === 'reprovado' ? STATUS.reprovado : 0)
  );
}

/** One collection of a point or list record: who, when, where, what and its photos. */
function coletaJson(row: RegistroRow) {
  return {
    ...row.dados,
    _id: row.id,
    tecnico: row.tecnico_nome,
    dataHora: row.data_hora ? row.data_hora.getTime() : null,
    sincronizadoEm: row.sincronizado_em ? row.sincronizado_em.getTime() : null,
    coordenadas: row.lat === null || row.lng === null ? null : { lat: row.lat, lng: row.lng },
    fotos: fotoUrls(row),
  };
}

/**
 * The collections listed under a record: a point lists those competing with its value (in the order they reached
 * the server); a list's record (LPT Agiltec) may be collected again and again, so it lists every collection,
 * its current one included, newest first.
 */
function coletasJson(flow: FlowDefinition, row: RegistroRow, competing: RegistroRow[]) {
  if (flow.lifecycle !== 'lista') return competing.map(coletaJson);
  return (row.coletado ? [row, ...competing] : competing)
    .map(coletaJson)
    .sort((a, b) => (b.dataHora ?? 0) - (a.dataHora ?? 0));
}

/**
 * A stored record as the app reads it: the flow's fields plus where, when, who, and its photos' URLs. Points
 * (every flow but the `coleta` ones) also say whether another collection competes with the one shown, and list
 * the collections; a list's record says whether it was collected (possuiColeta, SPEC.md section 3).
 */
export function registroJson(flow: FlowDefinition, row: RegistroRow, competing: RegistroRow[] = []) {
  return {
    ...row.dados,
    _id: row.id,
    projeto: row.projeto,
    nomeProjeto: row.projeto_nome,
    zona: row.zona,
    tecnico: row.tecnico_nome,
    coordenadas: row.lat === null || row.lng === null ? null : { lat: row.lat, lng: row.lng },
    localizacao:
      row.lat === null || row.lng === null
        ? null
        : { type: 'Point' as const, coordinates: [row.lng, row.lat] },
    dataHora: row.data_hora ? row.data_hora.getTime() : null,
    sincronizadoEm: row.sincronizado_em ? row.sincronizado_em.getTime() : null,
    coletado: row.coletado,
    adicionadoApp: row.adicionado_app,
    carregadoBackoffice: row.carregado_backoffice,
    fotos: fotoUrls(row),
    versao: row.versao,
    revisao: row.revisao,
    flags: row.flags,
    ...(flow.lifecycle === 'coleta'
      ? {}
      : { conflito: competing.length > 0, coletas: coletasJson(flow, row, competing) }),
    ...(flow.lifecycle === 'lista' ? { possuiColeta: row.coletado } : {}),
  };
}

export async function registroRoutes(
  app: FastifyInstance,
  {
    db,
    access,
    blobs,
    live,
    callers,
    sweeper,
  }: {
    db: Database;
    access: Access;
    blobs: BlobStore;
    live: PontosLive;
    callers: Callers;
    sweeper: PhotoSweeper;
  },
) {
  const sinalizacoes = sinalizacoesLigadas();
  /**
   * Tells the open supervisor maps (any server process) that a point was stored or changed. Not waited for by the
   * upload's answer: the notifications go out in batches (live/pontos.ts).
   */
  async function announce(row: RegistroRow, conflito: boolean) {
    if (row.lat === null || row.lng === null) return;
    const ponto = row.conflito_de === null ? row : await getRegistro(db, row.conflito_de);
    if (!ponto || ponto.lat === null || ponto.lng === null) return;
    live.publish({
      projeto: ponto.projeto,
      zona: ponto.zona,
      fluxo: flowOf(ponto.fluxo).key,
      id: ponto.id,
      lat: ponto.lat,
      lng: ponto.lng,
      status: statusOf(ponto, conflito || row.conflito_de !== null),
      tecnico: row.tecnico_nome,
      dataHora: row.data_hora ? row.data_hora.getTime() : null,
    });
  }

  /**
   * A record a phone sent again because the server lacked it (issue 39: a restored backup), told to the operator:
   * in the log and in the audit. Written just after the record's own statement: a crash between the two loses the
   * entry, never the record.
   */
  async function reenviado(request: FastifyRequest, actor: Actor, row: RegistroRow) {
    const registro = { registro: row.id, fluxo: row.fluxo, projeto: row.projeto, tecnico: actor.id };
    request.log.info(registro, 'registro reenviado');
    await recordAuditoria(db, {
      usuario: actor.id,
      entidade: 'registro',
      entidadeId: row.id,
      acao: 'criar',
      antes: null,
      depois: {
        reenvio: true,
        fluxo: row.fluxo,
        projeto: row.projeto_nome,
        tecnico: row.tecnico_nome,
        dataHora: row.data_hora?.toISOString() ?? null,
      },
    });
  }

  async function readable(request: FastifyRequest, id: string): Promise<RegistroRow> {
    const row = await getRegistro(db, id);
    if (!row) throw notFound('Registro não encontrado.');
    ensure(policies.readRegistro(access.actor(request), row));
    return row;
  }

  /** The records as JSON, each point with its competing collections (one query for all of them). */
  async function recordsJson(flow: FlowDefinition, rows: RegistroRow[]) {
    const ids = flow.lifecycle === 'coleta' ? [] : rows.map((row) => row.id);
    const coletas = new Map<string, RegistroRow[]>();
    for (const coleta of await listColetas(db, ids)) {
      const ponto = coleta.conflito_de ?? '';
      coletas.set(ponto, [...(coletas.get(ponto) ?? []), coleta]);
    }
    return rows.map((row) => registroJson(flow, row, coletas.get(row.id)));
  }

  for (const flow of FLOWS) {
    const endpoints = api.flowEndpoints(flow);

    route(app, access, endpoints.upload, async ({ request, reply }) => {
      const actor = access.actor(request);
      const photos = sweeper.request();
      try {
        const upload = await readUpload(request, flow, blobs, {
          // Checked before the first photo byte is stored.
          admit: async (received) => {
            const envelope = parseInput(uploadEnvelopeSchema, received);
            const zonas = await callers.get(`zonas:${envelope.projeto}`, () =>
              getProjetoZonas(db, envelope.projeto),
            );
            if (!zonas) throw badRequest('Projeto não encontrado.');
            ensure(policies.uploadTo(actor, zonas));
            return envelope;
          },
          stored: photos.stored,
          held: (hashes) => heldPhotos(db, blobs, hashes),
        });
        const { fields, admitted: envelope, fotos } = upload;
        const dados = {
          ...parseInput(flow.dados, fields),
          ...(envelope.precisao === undefined ? {} : { precisao: envelope.precisao }),
        };
        const outcome = await saveColeta(db, flow, {
          id: envelope.id,
          coletaId: envelope.coletaId ?? envelope.id,
          projeto: envelope.projeto,
          tecnico: actor.id,
          lat: envelope.coordenadas.lat,
          lng: envelope.coordenadas.lng,
          dataHora: envelope.dataHora,
          dados,
          named: new Set(Object.keys(fields)),
          fotos,
          versao: envelope.versao ?? 1,
          qualidade: sinalizacoes ? qualidadeDe(envelope.precisao, fotos, tecnicoZonas(actor)) : null,
        });
        if (outcome.kind === 'clash') throw conflict('Já existe outro registro com esse identificador.');
        // A record just written by the one statement has its row, its photos and no competing collection yet.
        const written = outcome.kind === 'created' ? outcome.row : undefined;
        if (written) photos.referenced();
        const row = written ?? (await getRegistro(db, outcome.id));
        if (!row) throw notFound('Registro não encontrado.');
        if (upload.reenvio && (outcome.kind === 'created' || outcome.kind === 'collected')) {
          await reenviado(request, actor, row);
        }
        // The answer always carries the id the device sent, which is how it knows this upload is stored.
        const [json] = written ? [registroJson(flow, written)] : await recordsJson(flow, [row]);
        if (outcome.kind !== 'replay') {
          announce(row, json?.conflito === true).catch((error: unknown) =>
            request.log.error({ err: error }, 'live notification failed'),
          );
        }
        void reply.status(outcome.kind === 'created' ? 201 : 200).send(json);
        return SENT;
      } finally {
        await photos
          .sweep()
          .catch((error: unknown) => request.log.error({ err: error }, 'photo sweep failed'));
      }
    });

    if (endpoints.byZona) {
      route(app, access, endpoints.byZona, async ({ query, request }) => {
        const zona = await getZona(db, query.id);
        if (!zona) throw notFound('Zona não encontrada.');
        ensure(policies.readZona(access.actor(request), zona));
        return recordsJson(flow, await listRegistrosByZona(db, flow.key, zona.id));
      });
    }

    if (flow.byProject && endpoints.byProject) {
      const { by } = flow.byProject;
      const devices = deviceDownload(flow) === 'projeto';
      route(app, access, endpoints.byProject, async ({ params, request }) => {
        const projeto = await findProjeto(db, by, params.projeto);
        if (!projeto) throw notFound('Projeto não encontrado.');
        ensure(
          policies.readRegistrosByProjeto(
            access.actor(request),
            {
              cliente: projeto.cliente,
              disponivelInterpres: projeto.disponivel_interpres,
              zonas: projeto.zonas,
            },
            devices,
          ),
        );
        return recordsJson(flow, await listRegistrosByProjeto(db, flow.key, projeto.id));
      });
    }

    // The back office's lists by day and by period (SPEC.md 7: getByData, getByPeriodo), for every flow.
    const byPeriodo = async (
      request: FastifyRequest,
      nomeProjeto: string,
      periodo: { dataInicio: string; dataFim: string },
    ) => {
      const projeto = await findProjeto(db, 'nome', nomeProjeto);
      if (!projeto) throw notFound('Projeto não encontrado.');
      ensure(
        policies.readProjeto(access.actor(request), {
          cliente: projeto.cliente,
          disponivelInterpres: projeto.disponivel_interpres,
        }),
      );
      return recordsJson(flow, await listRegistrosByPeriodo(db, flow.key, projeto.id, periodo));
    };
    route(app, access, endpoints.byData, async ({ query: { nomeProjeto, data }, request }) =>
      byPeriodo(request, nomeProjeto, { dataInicio: data, dataFim: data }),
    );
    route(
      app,
      access,
      endpoints.byPeriodo,
      async ({ query: { nomeProjeto, dataInicio, dataFim }, request }) =>
        byPeriodo(request, nomeProjeto, { dataInicio, dataFim }),
    );

    route(app, access, endpoints.fotos, async ({ params, request }) => {
      const row = await readable(request, params.id);
      if (row.fluxo !== flow.key) throw notFound('Registro não encontrado.');
      return fotoUrls(row);
    });
  }

  // Resumable sync (DESIGN.md 'Sync protocol'): the photos among these the server already holds, which the device
  // then names by hash in its upload (field fotosNoServidor) instead of sending their bytes again.
  route(app, access, api.fotosExistem, async ({ body: { hashes } }) => ({
    existem: [...(await heldPhotos(db, blobs, hashes)).keys()],
  }));

  // One record of any flow by its id (the supervisor map's popup).
  route(app, access, api.getRegistro, async ({ params, request }) => {
    const row = await readable(request, params.id);
    const [json] = await recordsJson(flowOf(row.fluxo), [row]);
    if (!json) throw notFound('Registro não encontrado.');
    return json;
  });

  // The back office deletes a record, remembered so the phones that kept it do not send it back (issue 39).
  route(app, access, api.deleteRegistro, async ({ params, request }) => {
    const actor = access.actor(request);
    await db.transaction(async (tx) => {
      const registro = await lockRegistroExcluivel(tx, params.id);
      if (!registro) throw notFound('Registro não encontrado.');
      await excluirRegistro(tx, registro.id, actor.id);
      await recordAuditoria(tx, {
        usuario: actor.id,
        entidade: 'registro',
        entidadeId: registro.id,
        acao: 'excluir',
        antes: {
          fluxo: registro.fluxo,
          projeto: registro.projeto_nome,
          tecnico: registro.tecnico_nome,
          dataHora: registro.data_hora?.toISOString() ?? null,
          ...(registro.coletas > 0 ? { coletasConcorrentes: registro.coletas } : {}),
        },
        depois: null,
      });
    });
    return { _id: params.id };
  });

  // What of the records a phone kept after sending them the server lacks (issue 39).
  route(app, access, api.conferirRegistros, async ({ body, request }) => ({
    registros: await conferir(db, blobs, access.actor(request), body.registros),
  }));

  // The lost files of a held record's photos, given back by the phone that sent them: each must be the photo stored
  // in its slot (its SHA-256), or the request is refused and the bytes it stored go with the sweep.
  route(app, access, api.restaurarFotos, async ({ params, request }) => {
    const row = await getRegistro(db, params.id);
    if (!row) throw notFound('Registro não encontrado.');
    ensure(policies.ownRegistro(access.actor(request), row));
    const hashes = await fotosDoRegistro(db, row.id);
    const photos = sweeper.request();
    try {
      const restauradas = await readPhotos(request, blobs, new Set(hashes.keys()), {
        stored: photos.stored,
        check: (slot, blob) => {
          if (blob.hash !== hashes.get(slot)) {
            throw conflict(
              `A foto enviada para a posição ${slot} não é a que o servidor guarda nesse registro.`,
            );
          }
        },
      });
      photos.referenced();
      return { restauradas };
    } finally {
      await photos.sweep().catch((error: unknown) => request.log.error({ err: error }, 'photo sweep failed'));
    }
  });

  route(app, access, api.getFoto, async ({ params, query, request, reply }) => {
    const row = await readable(request, params.registro);
    const slot = Number(params.slot);
    if (!Number.isInteger(slot)) throw notFound('Foto não encontrada.');
    // An earlier revision's photo (the review's history), or the current one.
    const antiga = query.v !== undefined && query.v !== row.versao;
    if (!antiga && !row.fotos.includes(slot)) throw notFound('Foto não encontrada.');
    const foto = antiga
      ? await getFotoDaVersao(db, row.id, query.v ?? 0, slot)
      : await getFoto(db, row.id, slot);
    const stream = foto ? await blobs.open(foto.hash) : undefined;
    if (!foto || !stream) throw notFound('Foto não encontrada.');
    await reply
      .header('Content-Type', foto.media_type)
      .header('Cache-Control', 'private, max-age=31536000, immutable')
      .header('X-Content-Type-Options', 'nosniff')
      .send(stream);
    return SENT;
  });
}
