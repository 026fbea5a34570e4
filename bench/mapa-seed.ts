// A city-sized project for the supervisor map's benches (issue 41): N points over five layers, seeded with
// set-based SQL on PostgreSQL (uploads make the same rows one by one; that is not what is measured). The points
// lie in ≈ 400 neighbourhoods of a 0.3° × 0.3° city around Curitiba (≈ 33 × 33 km), each a blob of its own size,
// so the clusters are uneven as a city's are: collected units (hc, 35 %) and poles (20 %), preloaded IP (20 %) and
// BDGD (20 %) points, a few of them collected, and Grupo A records (5 %). One in 40 carries a quality flag.
//   node --import tsx bench/mapa-seed.ts <database url> <points>   migrates an empty database, seeds it and prints
//                                                                  the fixture as JSON (the browser bench runs it)
import crypto from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { hashPassword } from '../server/src/auth/passwords.ts';
import { type Database, openPostgres } from '../server/src/db/database.ts';
import { migrate } from '../server/src/db/migrate.ts';
import { insertUser } from '../server/src/modules/usuarios/queries.ts';

export const MAPA_PASSWORD = 'bench-mapa-senha-1';
/** The city's centre and half-width, degrees. */
export const CIDADE = { lat: -25.45, lng: -49.27, half: 0.15 };

export interface MapaFixture {
  projeto: string;
  projetoNome: string;
  supervisor: string;
}

/** A client, its supervisor (password MAPA_PASSWORD), four technicians and an empty project of five flows. */
export async function mapaFixture(db: Database): Promise<MapaFixture & { tecnicos: string[] }> {
  const suffix = crypto.randomBytes(3).toString('hex');
  const [cliente] = await db.query<{ id: string }>('INSERT INTO clientes (nome) VALUES ($1) RETURNING id', [
    `Distribuidora da Cidade ${suffix}`,
  ]);
  if (!cliente) throw new Error('no cliente');
  const projetoNome = `Cidade Inteira ${suffix}`;
  const [projeto] = await db.query<{ id: string }>(
    `INSERT INTO projetos (nome, cliente, fluxos, fuso) VALUES ($1, $2, '{hc,poste,ip,bdgd,grupoA}', 22)
     RETURNING id`,
    [projetoNome, cliente.id],
  );
  if (!projeto) throw new Error('no projeto');
  const supervisor = `supervisor-mapa-${suffix}`;
  await insertUser(db, {
    login: supervisor,
    firstName: 'Supervisora',
    lastName: 'Mapa',
    passwordHash: await hashPassword(MAPA_PASSWORD),
    roles: ['supervisor'],
    cliente: cliente.id,
  });
  const tecnicos: string[] = [];
  for (const [index, nome] of ['João', 'Maria', 'José', 'Ana'].entries()) {
    const user = await insertUser(db, {
      login: `tecnico-mapa-${index}-${suffix}`,
      firstName: nome,
      lastName: 'Mapa',
      passwordHash: 'x',
      roles: ['tecnico'],
      cliente: cliente.id,
    });
    tecnicos.push(user.id);
  }
  return { projeto: projeto.id, projetoNome, supervisor, tecnicos };
}

/** `count` points in the project, in batches of 100,000 (one transaction each), then VACUUM ANALYZE. */
export async function seedMapa(
  db: Database,
  fixture: { projeto: string; tecnicos: string[] },
  count: number,
): Promise<void> {
  const BATCH = 100_000;
  for (let start = 1; start <= count; start += BATCH) {
    const end = Math.min(count, start + BATCH - 1);
    await db.query(
      `INSERT INTO registros (id, fluxo, projeto, tecnico, lat, lng, geom, data_hora, sincronizado_em, coletado,
         adicionado_app, carregado_backoffice, coleta, flags, dados)
       SELECT id, fluxo, $1::uuid,
         CASE WHEN preloaded AND NOT collected THEN NULL ELSE ($4::uuid[])[1 + i % cardinality($4::uuid[])] END,
         lat, lng, ST_SetSRID(ST_MakePoint(lng, lat), 4326),
         CASE WHEN preloaded AND NOT collected THEN NULL ELSE t END,
         CASE WHEN preloaded AND NOT collected THEN NULL ELSE t + interval '20 minutes' END,
         NOT preloaded OR collected, NOT preloaded, preloaded,
         CASE WHEN preloaded AND NOT collected THEN NULL ELSE id END,
         CASE WHEN i % 40 = 0 THEN '[{"tipo":"precisao"}]'::jsonb ELSE '[]'::jsonb END,
         '{}'::jsonb
       FROM (
         SELECT i, gen_random_uuid() AS id, fluxo, fluxo IN ('ip', 'bdgd') AS preloaded,
           fluxo IN ('ip', 'bdgd') AND i % 10 = 0 AS collected,
           -- a neighbourhood: its centre from its number, its spread from its size
           ${CIDADE.lat} + (((b * 7919) % 1000) / 1000.0 - 0.5) * ${2 * CIDADE.half}
             + (random() + random() + random() - 1.5) * (0.002 + (b % 7) * 0.0015) AS lat,
           ${CIDADE.lng} + (((b * 104729) % 1000) / 1000.0 - 0.5) * ${2 * CIDADE.half}
             + (random() + random() + random() - 1.5) * (0.002 + (b % 5) * 0.002) AS lng,
           timestamptz '2026-09-01 11:00Z' + (i * 4) * interval '1 second' AS t
         FROM (
           SELECT i, (i * 2654435761::bigint) % 400 AS b,
             CASE WHEN i % 20 < 7 THEN 'hc' WHEN i % 20 < 11 THEN 'poste' WHEN i % 20 < 15 THEN 'ip'
               WHEN i % 20 < 19 THEN 'bdgd' ELSE 'grupoA' END AS fluxo
           FROM generate_series($2::int, $3::int) i
         ) g
       ) s`,
      [fixture.projeto, start, end, fixture.tecnicos],
    );
  }
  await db.query('VACUUM ANALYZE registros');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [url, points] = process.argv.slice(2);
  if (url === undefined || !Number.isInteger(Number(points))) {
    throw new Error('usage: mapa-seed.ts <database url> <points>');
  }
  const db = openPostgres({ connectionString: url });
  try {
    await db.query('CREATE EXTENSION IF NOT EXISTS postgis');
    await migrate(db);
    const fixture = await mapaFixture(db);
    const started = performance.now();
    await seedMapa(db, fixture, Number(points));
    process.stdout.write(`${JSON.stringify({ ...fixture, seedS: (performance.now() - started) / 1000 })}\n`);
  } finally {
    await db.close();
  }
}
