/** E2E_PORT lets two runs (a developer's and a CI check) share a machine. */
export const PORT = Number(process.env.E2E_PORT ?? 4310);
export const BASE_URL = `http://127.0.0.1:${PORT}`;
/** The administrator the server bootstraps from ADMIN_LOGIN / ADMIN_PASSWORD. */
export const ADMIN = { login: 'admin', password: 'admin-e2e-senha', nome: 'Administrador' } as const;
