// The sync engine's network (offline/sync.ts SyncTransport) over HTTP: same-origin fetch with the auth cookie. Each
// request's path comes from its endpoint's declaration (domain/src/api), as `api.call`'s do; the answers are read here
// rather than by `api.call` because a 2xx that is not our JSON (a captive portal's page) must never confirm an upload.
import { log as logEndpoint } from '@novus/domain/api/auth';
import type { AnswerOf } from '@novus/domain/api/contract';
import { pathOf } from '@novus/domain/api/path';
import { listProjetosOfUser } from '@novus/domain/api/projetos';
import { conferirRegistros, flowEndpoints, fotosExistem, restaurarFotos } from '@novus/domain/api/registros';
import { type CorrecaoRemota, listCorrecoes } from '@novus/domain/api/revisao';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import type { LocalProjeto, LocalZona } from '../offline/db';
import {
  type CopiaPergunta,
  type CopiaResposta,
  type RemoteColeta,
  type SyncTransport,
  TransportError,
  type UploadFoto,
  type UploadOptions,
} from '../offline/sync';
import { ApiClient, ApiError, urlOf } from './client';

/** What a 2xx answer that is not our JSON (a captive portal's page) resolves to: never confirms an upload. */
export const NOT_JSON = Object.freeze({ naoJson: true });

type RemoteProjeto = AnswerOf<typeof listProjetosOfUser>[number];

export class HttpSyncTransport implements SyncTransport {
  private readonly fetchFn: typeof fetch;
  /** The declared calls whose JSON answer is all there is to read (issue 39's): `api.call`, over the same fetch. */
  private readonly api: ApiClient;
  /** Each flow's endpoints, declared once per flow (their schemas are built by the declaration). */
  private readonly endpoints = new Map<FlowDefinition, ReturnType<typeof flowEndpoints>>();

  constructor(fetchFn: typeof fetch = (input, init) => fetch(input, init)) {
    this.fetchFn = fetchFn;
    this.api = new ApiClient({ fetchFn });
  }

  private endpointsOf(flow: FlowDefinition): ReturnType<typeof flowEndpoints> {
    let endpoints = this.endpoints.get(flow);
    if (!endpoints) {
      endpoints = flowEndpoints(flow);
      this.endpoints.set(flow, endpoints);
    }
    return endpoints;
  }

  async getProjetos(): Promise<LocalProjeto[]> {
    const answer = listProjetosOfUser.ok.answer.safeParse(await this.getJson(pathOf(listProjetosOfUser)));
    if (!answer.success) throw new TransportError(0, 'Resposta inesperada do servidor ao baixar projetos.');
    return answer.data.map(toLocalProjeto);
  }

  async upload(
    flow: FlowDefinition,
    fields: Record<string, string>,
    fotos: UploadFoto[],
    options: UploadOptions = {},
  ): Promise<unknown> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    // A record the server said it lacked (issue 39): stored as any upload, and audited as sent again.
    if (options.reenvio) form.append('reenvio', '1');
    // Photos the server said it holds go by their SHA-256 alone (resumable sync), before the files.
    const held = fotos.flatMap((foto) => ('hash' in foto ? [{ slot: foto.slot, hash: foto.hash }] : []));
    if (held.length > 0) form.append('fotosNoServidor', JSON.stringify(held));
    // The file name carries the slot ('2.jpg'): the server puts each photo back where it was taken.
    for (const foto of fotos) {
      if ('blob' in foto) form.append('fotos', foto.blob, `${foto.slot}.${extensionOf(foto.blob)}`);
    }
    const response = await this.send(pathOf(this.endpointsOf(flow).upload), { method: 'POST', body: form });
    return readJsonOr(response, NOT_JSON);
  }

  async fotosNoServidor(hashes: string[]): Promise<ReadonlySet<string>> {
    const response = await this.send(pathOf(fotosExistem), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ hashes }),
    });
    const answer = fotosExistem.ok.answer.safeParse(await readJsonOr(response, NOT_JSON));
    if (!answer.success) throw new TransportError(0, 'Resposta inesperada do servidor (fotos).');
    // Only hashes asked about: a portal or a proxy cannot make the device skip a photo it did not ask for.
    const asked = new Set(hashes);
    return new Set(answer.data.existem.filter((hash) => asked.has(hash)));
  }

  async conferir(registros: CopiaPergunta[]): Promise<CopiaResposta[]> {
    const { registros: answer } = await this.declared(() =>
      this.api.call(conferirRegistros, { body: { registros } }),
    );
    // Only ids asked about: a proxy's answer cannot make the device drop or send a copy it did not ask for.
    const asked = new Set(registros.map(({ id }) => id));
    return answer.filter(({ id }) => asked.has(id));
  }

  async restaurarFotos(id: string, fotos: { slot: number; blob: Blob }[]): Promise<void> {
    const form = new FormData();
    // The file name carries the slot, as the upload's: the server checks each against its slot's SHA-256.
    for (const foto of fotos) form.append('fotos', foto.blob, `${foto.slot}.${extensionOf(foto.blob)}`);
    // A variable, not a literal: the declaration reads its multipart body in the route, not by a schema.
    const input = { params: { id }, body: form };
    await this.declared(() => this.api.call(restaurarFotos, input));
  }

  async getByZona(flow: FlowDefinition, zonaId: string): Promise<RemoteColeta[]> {
    const list = this.endpointsOf(flow).byZona;
    if (!list) throw new Error(`${flow.labels.record}: o fluxo não tem lista por zona.`);
    const answer = await this.getJson(urlOf(list, { query: { id: zonaId } }));
    if (!Array.isArray(answer))
      throw new TransportError(0, 'Resposta inesperada do servidor ao baixar registros.');
    return answer as RemoteColeta[];
  }

  async getByProjeto(
    flow: FlowDefinition,
    projeto: Pick<LocalProjeto, 'id' | 'nome'>,
  ): Promise<RemoteColeta[]> {
    const list = this.endpointsOf(flow).byProject;
    if (!list || !flow.byProject)
      throw new Error(`${flow.labels.record}: o fluxo não tem lista por projeto.`);
    const key = flow.byProject.by === 'id' ? projeto.id : projeto.nome;
    const answer = await this.getJson(pathOf(list, { projeto: key }));
    if (!Array.isArray(answer))
      throw new TransportError(0, 'Resposta inesperada do servidor ao baixar registros.');
    return answer as RemoteColeta[];
  }

  async getCorrecoes(): Promise<CorrecaoRemota[]> {
    const answer = listCorrecoes.ok.answer.safeParse(await this.getJson(pathOf(listCorrecoes)));
    if (!answer.success) throw new TransportError(0, 'Resposta inesperada do servidor ao baixar correções.');
    return answer.data;
  }

  /** A photo's bytes; only the server's own photo URLs (/api/fotos/...), same origin with the session. */
  async getFoto(url: string): Promise<Blob> {
    if (!url.startsWith('/api/fotos/')) throw new TransportError(0, 'Endereço de foto inesperado.');
    const response = await this.send(url, { method: 'GET' });
    const type = response.headers.get('content-type') ?? '';
    if (!type.startsWith('image/')) throw new TransportError(0, 'Resposta inesperada do servidor (foto).');
    return response.blob();
  }

  /** The photo URLs of a record on the server; empty when the server cannot say (SPEC.md section 7). */
  async listFotos(flow: FlowDefinition, id: string): Promise<string[]> {
    try {
      const { fotos } = this.endpointsOf(flow);
      const answer = fotos.ok.answer.safeParse(await this.getJson(pathOf(fotos, { id })));
      return answer.success ? answer.data : [];
    } catch {
      return [];
    }
  }

  async log(message: string, extras: Record<string, unknown>): Promise<void> {
    await this.send(pathOf(logEndpoint), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ severity: 'ERROR', message, extras }),
    });
  }

  /** A declared call through `api.call`, its failures as the sync reads them: a status, or 0 for no usable answer. */
  private async declared<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof ApiError) throw new TransportError(error.status, error.message);
      // An answer that is not our JSON (a captive portal's page) or not the declared shape.
      throw new TransportError(0, 'Resposta inesperada do servidor.');
    }
  }

  private async getJson(path: string): Promise<unknown> {
    const response = await this.send(path, { method: 'GET', headers: { Accept: 'application/json' } });
    const answer = await readJsonOr(response, NOT_JSON);
    if (answer === NOT_JSON) throw new TransportError(0, 'Resposta inesperada do servidor (não é JSON).');
    return answer;
  }

  private async send(path: string, init: RequestInit): Promise<Response> {
    let response: Response;
    try {
      response = await this.fetchFn(path, { ...init, credentials: 'same-origin' });
    } catch (cause) {
      throw new TransportError(0, cause instanceof Error ? `Sem conexão (${cause.message})` : 'Sem conexão');
    }
    if (!response.ok) throw new TransportError(response.status, await errorMessage(response));
    return response;
  }
}

function toLocalProjeto(remote: RemoteProjeto): LocalProjeto {
  return {
    id: remote._id,
    nome: remote.nome,
    fluxos: remote.fluxos,
    zonas: remote.zonas.map((zona): LocalZona => ({
      _id: zona._id,
      label: zona.label,
      poligono: zona.poligono.map(({ lat, lng }) => ({ lat, lng })),
    })),
    ...(typeof remote.fuso === 'number' ? { fuso: remote.fuso } : {}),
    ...(typeof remote.limiteDownload === 'number' ? { limiteDownload: remote.limiteDownload } : {}),
    mapaBase: remote.mapaBase,
    carimboFotos: remote.carimboFotos,
    retencaoCopiasDias: remote.retencaoCopiasDias,
  };
}

function extensionOf(blob: Blob): string {
  if (blob.type === 'image/png') return 'png';
  if (blob.type === 'image/webp') return 'webp';
  return 'jpg';
}

async function readJsonOr<T>(response: Response, fallback: T): Promise<unknown> {
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('json')) return fallback;
  try {
    return (await response.json()) as unknown;
  } catch {
    return fallback;
  }
}

async function errorMessage(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { message?: unknown; errors?: { msg?: unknown }[] };
    const details = Array.isArray(body.errors)
      ? body.errors.map((error) => error.msg).filter((msg): msg is string => typeof msg === 'string')
      : [];
    if (details.length > 0) return details.join(' | ');
    if (typeof body.message === 'string') return body.message;
  } catch {
    // not JSON: fall through to the status
  }
  return `HTTP ${response.status}`;
}
