// The generic routes of every flow in the registry (DESIGN.md 'The flow registry' and 'Sync protocol'):
// POST /api/{flow} (multipart, photos under 'fotos'), GET /api/{flow}/getByZona?id=, GET /api/{flow}/{id}/fotos,
// and the photo bytes at /api/fotos/{registro}/{slot}, each with its access check.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import { uploadEnvelopeSchema } from '@novus/domain/flows/flow';
import { FLOWS } from '@novus/domain/flows/registry';
import { type Access, ensure, policies } from '../../auth/access.ts';
import type { Database } from '../../db/database.ts';
import { badRequest, conflict, notFound, parseId, parseInput, unsupportedMedia } from '../../errors.ts';
import { type BlobStore, NotAnImageError } from '../../storage/blob-store.ts';
import {
  getRegistro,
  insertFotos,
  insertRegistro,
  listRegistrosByProjeto,
  listRegistrosByZona,
  type NewFoto,
  type RegistroRow,
} from './queries.ts';

export const MAX_PHOTO_BYTES = 15 * 1024 * 1024;

function fotoUrls(row: RegistroRow): string[] {
  return row.fotos.map((slot) => `/api/fotos/${row.id}/${slot}`);
}

/** A stored record as the app reads it: the flow's fields plus where, when, who, and its photos' URLs. */
export function registroJson(row: RegistroRow) {
  return {
    ...row.dados,
    _id: row.id,
    projeto: row.projeto,
    nomeProjeto: row.projeto_nome,
    zona: row.zona,
    tecnico: row.tecnico_nome,
    coordenadas: row.lat === null || row.lng === null ? null : { lat: row.lat, lng: row.lng },
    localizacao:
      row.lat === null || row.lng === null ? null : { type: 'Point', coordinates: [row.lng, row.lat] },
    dataHora: row.data_hora ? row.data_hora.getTime() : null,
    sincronizadoEm: row.sincronizado_em ? row.sincronizado_em.getTime() : null,
    coletado: row.coletado,
    adicionadoApp: row.adicionado_app,
    carregadoBackoffice: row.carregado_backoffice,
    fotos: fotoUrls(row),
  };
}

/** The slot a photo goes to: its file name when that is a slot number ('0', '2.jpg'), else the next free one. */
function slotOf(filename: string | undefined, used: Set<number>, max: number): number {
  const named = Number.parseInt((filename ?? '').split('.')[0] ?? '', 10);
  if (Number.isInteger(named) && named >= 0 && named < max && !used.has(named)) return named;
  for (let slot = 0; slot < max; slot += 1) if (!used.has(slot)) return slot;
  throw badRequest('Fotos demais para este registro.');
}

interface Upload {
  fields: Record<string, string>;
  fotos: NewFoto[];
}

async function readUpload(request: FastifyRequest, flow: FlowDefinition, blobs: BlobStore): Promise<Upload> {
  if (!request.isMultipart()) throw unsupportedMedia('O envio deve ser multipart/form-data.');
  const fields: Record<string, string> = {};
  const fotos: NewFoto[] = [];
  const used = new Set<number>();
  const parts = request.parts({
    limits: { fileSize: MAX_PHOTO_BYTES, files: flow.photoSlots, fields: 100, fieldSize: 64 * 1024 },
  });
  for await (const part of parts) {
    if (part.type === 'field') {
      if (typeof part.value === 'string') fields[part.fieldname] = part.value;
      continue;
    }
    if (part.fieldname !== 'fotos') {
      part.file.resume();
      throw badRequest('As fotos devem ser enviadas no campo fotos.');
    }
    // Photo bytes are stored before the record's transaction commits: content-addressed, a failed request
    // leaves at most an unreferenced file, never a record without its photo.
    const stored = await blobs.putImage(part.file).catch((error: unknown) => {
      if (error instanceof NotAnImageError) throw unsupportedMedia('O arquivo enviado não é uma imagem.');
      throw error;
    });
    const slot = slotOf(part.filename, used, flow.photoSlots);
    used.add(slot);
    fotos.push({ slot, hash: stored.hash, size: stored.size, mediaType: stored.mediaType });
  }
  return { fields, fotos };
}

export async function registroRoutes(
  app: FastifyInstance,
  { db, access, blobs }: { db: Database; access: Access; blobs: BlobStore },
) {
  const readers = { preHandler: access.allow('administrador', 'supervisor', 'tecnico') };

  async function readable(request: FastifyRequest, id: string): Promise<RegistroRow> {
    const row = await getRegistro(db, id);
    if (!row) throw notFound('Registro não encontrado.');
    ensure(policies.readRegistro(access.actor(request), row));
    return row;
  }

  for (const flow of FLOWS) {
    const base = `/api/${flow.apiPath}`;

    app.post(base, { preHandler: access.allow('tecnico', 'administrador') }, async (request, reply) => {
      const actor = access.actor(request);
      const { fields, fotos } = await readUpload(request, flow, blobs);
      const envelope = parseInput(uploadEnvelopeSchema, fields);
      const dados = parseInput(flow.dados, fields);
      const zonas = await db.query<{ id: string }>('SELECT id::text AS id FROM zonas WHERE projeto = $1', [
        envelope.projeto,
      ]);
      if (
        zonas.length === 0 &&
        !(await db.query('SELECT 1 FROM projetos WHERE id = $1', [envelope.projeto])).length
      ) {
        throw badRequest('Projeto não encontrado.');
      }
      ensure(
        policies.uploadTo(
          actor,
          zonas.map((zona) => zona.id),
        ),
      );

      const created = await db.transaction(async (tx) => {
        const inserted = await insertRegistro(tx, {
          id: envelope.id,
          fluxo: flow.key,
          projeto: envelope.projeto,
          tecnico: actor.id,
          lat: envelope.coordenadas.lat,
          lng: envelope.coordenadas.lng,
          dataHora: envelope.dataHora,
          dados: { ...dados, ...(envelope.precisao === undefined ? {} : { precisao: envelope.precisao }) },
        });
        if (inserted) await insertFotos(tx, envelope.id, fotos);
        return inserted;
      });
      const row = await getRegistro(db, envelope.id);
      if (!row) throw notFound('Registro não encontrado.');
      // The id is the idempotency key: a replay answers with what is stored, never a second record.
      if (
        !created &&
        (row.fluxo !== flow.key || row.projeto !== envelope.projeto || row.tecnico !== actor.id)
      ) {
        throw conflict('Já existe outro registro com esse identificador.');
      }
      return reply.status(created ? 201 : 200).send(registroJson(row));
    });

    app.get<{ Querystring: { id?: string } }>(`${base}/getByZona`, readers, async (request) => {
      const zonaId = parseId(request.query.id, 'Identificador de zona');
      const zona = (
        await db.query<{ id: string; cliente: string }>(
          'SELECT z.id, p.cliente FROM zonas z JOIN projetos p ON p.id = z.projeto WHERE z.id = $1',
          [zonaId],
        )
      )[0];
      if (!zona) throw notFound('Zona não encontrada.');
      ensure(policies.readZona(access.actor(request), zona));
      return (await listRegistrosByZona(db, flow.key, zonaId)).map(registroJson);
    });

    app.get<{ Params: { id: string } }>(`${base}/:id/fotos`, readers, async (request) => {
      const row = await readable(request, parseId(request.params.id, 'Identificador do registro'));
      if (row.fluxo !== flow.key) throw notFound('Registro não encontrado.');
      return fotoUrls(row);
    });
  }

  app.get<{ Params: { registro: string; slot: string } }>(
    '/api/fotos/:registro/:slot',
    readers,
    async (request, reply) => {
      const row = await readable(request, parseId(request.params.registro, 'Identificador do registro'));
      const slot = Number(request.params.slot);
      if (!Number.isInteger(slot) || !row.fotos.includes(slot)) throw notFound('Foto não encontrada.');
      const foto = (
        await db.query<{ hash: string; media_type: string }>(
          'SELECT hash, media_type FROM fotos WHERE registro = $1 AND slot = $2',
          [row.id, slot],
        )
      )[0];
      const stream = foto ? blobs.open(foto.hash) : undefined;
      if (!foto || !stream) throw notFound('Foto não encontrada.');
      return reply
        .header('Content-Type', foto.media_type)
        .header('Cache-Control', 'private, max-age=31536000, immutable')
        .header('X-Content-Type-Options', 'nosniff')
        .send(stream);
    },
  );

  // Lists by project name for the back office (SPEC.md section 7).
  const byProjectName = async (
    request: FastifyRequest<{ Params: { projectName: string } }>,
    fluxo: string,
  ) => {
    const projeto = (
      await db.query<{ id: string; cliente: string; disponivel_interpres: boolean }>(
        'SELECT id, cliente, disponivel_interpres FROM projetos WHERE lower(nome) = lower($1)',
        [request.params.projectName],
      )
    )[0];
    if (!projeto) throw notFound('Projeto não encontrado.');
    ensure(
      policies.readProjeto(access.actor(request), {
        cliente: projeto.cliente,
        disponivelInterpres: projeto.disponivel_interpres,
      }),
    );
    return (await listRegistrosByProjeto(db, fluxo, projeto.id)).map(registroJson);
  };
  const backoffice = { preHandler: access.allow('administrador', 'supervisor', 'interpretador', 'externo') };
  app.get<{ Params: { projectName: string } }>('/api/unidade/:projectName', backoffice, (request) =>
    byProjectName(request, 'hc'),
  );
  app.get<{ Params: { projectName: string } }>(
    '/api/poste/getByNomeProjeto/:projectName',
    backoffice,
    (request) => byProjectName(request, 'poste'),
  );
}
