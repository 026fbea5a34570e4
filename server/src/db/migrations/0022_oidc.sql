-- Sign-in with the company's account (OpenID Connect, issue 42): each attempt's state, nonce and PKCE verifier,
-- kept where every server on the database reads them, from the redirect to the provider until its callback takes
-- them once (an attempt is good for ten minutes).
CREATE TABLE oidc_tentativas (
  estado text PRIMARY KEY,
  nonce text NOT NULL,
  verificador text NOT NULL,
  destino text NOT NULL,
  criado_em timestamptz NOT NULL DEFAULT now()
);
