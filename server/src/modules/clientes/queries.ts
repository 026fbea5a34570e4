// SQL for clients.
import type { Cliente } from '@novus/domain/cliente';
import type { Queryable } from '../../db/database.ts';

const COLUMNS = 'id AS "_id", nome';

export async function listClientes(db: Queryable): Promise<Cliente[]> {
  return db.query<Cliente>(`SELECT ${COLUMNS} FROM clientes ORDER BY lower(nome)`);
}

export async function getCliente(db: Queryable, id: string): Promise<Cliente | undefined> {
  const rows = await db.query<Cliente>(`SELECT ${COLUMNS} FROM clientes WHERE id = $1`, [id]);
  return rows[0];
}

export async function insertCliente(db: Queryable, nome: string): Promise<Cliente> {
  const rows = await db.query<Cliente>(`INSERT INTO clientes (nome) VALUES ($1) RETURNING ${COLUMNS}`, [
    nome,
  ]);
  const row = rows[0];
  if (!row) throw new Error('INSERT ... RETURNING gave no row');
  return row;
}

export async function updateCliente(db: Queryable, id: string, nome: string): Promise<Cliente | undefined> {
  const rows = await db.query<Cliente>(`UPDATE clientes SET nome = $2 WHERE id = $1 RETURNING ${COLUMNS}`, [
    id,
    nome,
  ]);
  return rows[0];
}

/** How many projects and users still point at the client (a client in use is not deleted). */
export async function clienteUsage(
  db: Queryable,
  id: string,
): Promise<{ projetos: number; usuarios: number }> {
  const rows = await db.query<{ projetos: number; usuarios: number }>(
    `SELECT (SELECT count(*)::int FROM projetos WHERE cliente = $1) AS projetos,
            (SELECT count(*)::int FROM usuarios WHERE cliente = $1) AS usuarios`,
    [id],
  );
  return rows[0] ?? { projetos: 0, usuarios: 0 };
}

export async function deleteCliente(db: Queryable, id: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>('DELETE FROM clientes WHERE id = $1 RETURNING id', [id]);
  return rows.length > 0;
}
