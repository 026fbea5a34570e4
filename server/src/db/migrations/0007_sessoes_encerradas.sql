-- Sessions ended by logout before their expiry: a token whose id (jti) is here is refused by every server on the
-- database, not only forgotten by the browser. Rows go once the token would have expired anyway.
CREATE TABLE sessoes_encerradas (
  jti uuid PRIMARY KEY,
  expira timestamptz NOT NULL
);
