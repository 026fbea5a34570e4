// SQL for users.
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
}

export async function findUserByLogin(db: Queryable, login: string): Promise<UsuarioRow | undefined> {
  const rows = await db.query<UsuarioRow>('SELECT * FROM usuarios WHERE lower(login) = lower($1)', [login]);
  return rows[0];
}

export async function userZonas(db: Queryable, userId: string): Promise<string[]> {
  const rows = await db.query<{ zona: string }>(
    'SELECT zona FROM usuario_zonas WHERE usuario = $1 ORDER BY zona',
    [userId],
  );
  return rows.map((row) => row.zona);
}

export async function countUsers(db: Queryable): Promise<number> {
  const rows = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM usuarios');
  return rows[0]?.count ?? 0;
}

export interface NewUsuario {
  login: string;
  firstName: string;
  lastName: string;
  passwordHash: string;
  roles: string[];
  cliente: string | undefined;
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
