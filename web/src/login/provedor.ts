// Whether this device's session came from the company's account with a provider logout to offer (issue 42):
// logging out of Novus then shows 'Sair também da conta da empresa' on the login page, once.
const OFERECER = 'novus-oidc-sair';
const SAIU = 'novus-oidc-saiu';

export function lembrarSairDoProvedor(storage: Storage, sair: boolean): void {
  if (sair) storage.setItem(OFERECER, '1');
  else storage.removeItem(OFERECER);
}

/** At Novus's logout: the login page is to offer the provider's logout (whichever route brings it there). */
export function aoSairDoNovus(storage: Storage): void {
  if (storage.getItem(OFERECER) !== '1') return;
  storage.removeItem(OFERECER);
  storage.setItem(SAIU, '1');
}

/** Whether the login page offers the provider's logout now. */
export function oferecerSairDoProvedor(storage: Storage): boolean {
  return storage.getItem(SAIU) === '1';
}

/** Offered once: gone when the login page leaves or the person signs in again. */
export function esquecerSairDoProvedor(storage: Storage): void {
  storage.removeItem(SAIU);
}
