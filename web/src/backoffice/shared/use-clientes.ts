// The clients a back-office form offers in its Cliente dropdown (a failed load is only logged, SPEC.md section 8).
import { useEffect, useState } from 'react';
import type { Cliente } from '@novus/domain/cliente';
import { listClientes } from '@novus/domain/api/clientes';
import { useBackofficeApi } from '../backoffice-api';

export function useClientes(): Cliente[] {
  const { api, log } = useBackofficeApi();
  const [clientes, setClientes] = useState<Cliente[]>([]);
  useEffect(() => {
    let active = true;
    api.call(listClientes, {}).then(
      (list) => active && setClientes(list),
      (error: unknown) => log('Falha ao carregar clientes', error),
    );
    return () => {
      active = false;
    };
  }, [api, log]);
  return clientes;
}
