-- Who may do what is cached for a few seconds in each server process (server/src/auth/callers.ts, issue 22): any
-- change to users, their zones, projects and their zones, or ended sessions tells every process on the database
-- to forget what it holds, once the change commits.
CREATE FUNCTION novus_acesso_mudou() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('novus_acesso', TG_TABLE_NAME);
  RETURN NULL;
END
$$;

CREATE TRIGGER acesso_usuarios AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON usuarios
  FOR EACH STATEMENT EXECUTE FUNCTION novus_acesso_mudou();
CREATE TRIGGER acesso_usuario_zonas AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON usuario_zonas
  FOR EACH STATEMENT EXECUTE FUNCTION novus_acesso_mudou();
CREATE TRIGGER acesso_projetos AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON projetos
  FOR EACH STATEMENT EXECUTE FUNCTION novus_acesso_mudou();
CREATE TRIGGER acesso_zonas AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON zonas
  FOR EACH STATEMENT EXECUTE FUNCTION novus_acesso_mudou();
CREATE TRIGGER acesso_sessoes_encerradas AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sessoes_encerradas
  FOR EACH STATEMENT EXECUTE FUNCTION novus_acesso_mudou();
