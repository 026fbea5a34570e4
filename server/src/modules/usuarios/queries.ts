// SQL for users and their zones.
import type { Queryable } from '../../db/database.ts';

export interface UsuarioRow {
  id: string;
  login: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  roles: string[];
  cliente: string | null;
  created_at: Date;
  /** 'Verificação em duas etapas' (issue 42): the active secret, and one being set up. */
  totp_segredo: string | null;
  totp_pendente: string | null;
}

export interface UsuarioListRow extends Omit<UsuarioRow, 'password_hash'> {
  cliente_nome: string | null;
  zonas: string[];
  projetos: string[];
}

export async function findUserByLogin(db: Queryable, login: string): Promise<UsuarioRow | undefined> {
  const rows = await db.query<UsuarioRow>('SELECT * FROM usuarios WHERE lower(login) = lower($1)', [login]);
  return rows[0];
}

export async function userZonas(db: Queryable, userId: string): Promise<string[]> {
  const rows = await db.query<{ zona: string }>(
    'SELECT zona::text AS zona FROM usuario_zonas WHERE usuario = $1 ORDER BY zona',
    [userId],
  );
  return rows.map((row) => row.zona);
}

export async function countUsers(db: Queryable): Promise<number> {
  const rows = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM usuarios');
  return rows[0]?.count ?? 0;
}

export async function countAdmins(db: Queryable): Promise<number> {
  const rows = await db.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM usuarios WHERE 'administrador' = ANY(roles)",
  );
  return rows[0]?.count ?? 0;
}

const LIST_SELECT = `SELECT u.id, u.login, u.first_name, u.last_name, u.roles, u.cliente, u.created_at,
    c.nome AS cliente_nome,
    COALESCE(array_agg(DISTINCT uz.zona::text) FILTER (WHERE uz.zona IS NOT NULL), '{}') AS zonas,
    COALESCE(array_agg(DISTINCT p.nome) FILTER (WHERE p.nome IS NOT NULL), '{}') AS projetos
  FROM usuarios u
  LEFT JOIN clientes c ON c.id = u.cliente
  LEFT JOIN usuario_zonas uz ON uz.usuario = u.id
  LEFT JOIN zonas z ON z.id = uz.zona
  LEFT JOIN projetos p ON p.id = z.projeto`;

export async function listUsers(db: Queryable): Promise<UsuarioListRow[]> {
  return db.query<UsuarioListRow>(`${LIST_SELECT} GROUP BY u.id, c.nome ORDER BY lower(u.login)`);
}

export async function getUser(db: Queryable, id: string): Promise<UsuarioListRow | undefined> {
  return (await db.query<UsuarioListRow>(`${LIST_SELECT} WHERE u.id = $1 GROUP BY u.id, c.nome`, [id]))[0];
}

export interface NewUsuario {
  login: string;
  firstName: string;
  lastName: string;
  passwordHash: string;
  roles: string[];
  cliente?: string | undefined;
}

export async function insertUser(db: Queryable, user: NewUsuario): Promise<UsuarioRow> {
  const rows = await db.query<UsuarioRow>(
    `INSERT INTO usuarios (login, first_name, last_name, password_hash, roles, cliente)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
    [user.login, user.firstName, user.lastName, user.passwordHash, user.roles, user.cliente ?? null],
  );
  const row = rows[0];
  if (!row) throw new Error('INSERT ... RETURNING gave no row');
  return row;
}

export async function updateUser(
  db: Queryable,
  id: string,
  user: Omit<NewUsuario, 'login' | 'passwordHash'> & { passwordHash: string | undefined },
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE usuarios SET first_name = $2, last_name = $3, roles = $4, cliente = $5,
       password_hash = COALESCE($6, password_hash)
     WHERE id = $1 RETURNING id`,
    [id, user.firstName, user.lastName, user.roles, user.cliente ?? null, user.passwordHash ?? null],
  );
  return rows.length > 0;
}

export async function setUserZonas(db: Queryable, userId: string, zonas: string[]): Promise<void> {
  await db.query('DELETE FROM usuario_zonas WHERE usuario = $1', [userId]);
  if (zonas.length === 0) return;
  await db.query(
    'INSERT INTO usuario_zonas (usuario, zona) SELECT $1, unnest($2::uuid[]) ON CONFLICT DO NOTHING',
    [userId, zonas],
  );
}

/** How many of the zones belong to projects of the client. */
export async function countZonasOfCliente(
  db: Queryable,
  zonas: string[],
  clienteId: string,
): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM zonas z JOIN projetos p ON p.id = z.projeto
     WHERE z.id = ANY($1::uuid[]) AND p.cliente = $2`,
    [zonas, clienteId],
  );
  return rows[0]?.n ?? 0;
}

export async function deleteUser(db: Queryable, id: string): Promise<boolean> {
  return (await db.query('DELETE FROM usuarios WHERE id = $1 RETURNING id', [id])).length > 0;
}
