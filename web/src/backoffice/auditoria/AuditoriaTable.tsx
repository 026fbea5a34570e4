// The audit entries of one page: when, who, what object, which action, and the fields that changed.
import {
  Box,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { Entrada } from '@novus/domain/api/auditoria';
import { acaoLabel, entidadeLabel, formatQuando, mudancas, objetoNome } from './auditoria-view';

export function AuditoriaTable({ entradas }: { entradas: readonly Entrada[] }) {
  return (
    // A long change list can make the table wider than the screen: then it scrolls, and the keyboard must reach it.
    <TableContainer tabIndex={0} role="region" aria-label="Alterações registradas">
      <Table size="small" aria-label="Alterações registradas">
        <TableHead>
          <TableRow>
            <TableCell>Quando</TableCell>
            <TableCell>Usuário</TableCell>
            <TableCell>Entidade</TableCell>
            <TableCell>Ação</TableCell>
            <TableCell>Antes → Depois</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {entradas.map((entrada) => (
            <TableRow key={entrada._id} sx={{ verticalAlign: 'top' }}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatQuando(entrada.em)}</TableCell>
              <TableCell>{entrada.usuario.nome}</TableCell>
              <TableCell>
                {entidadeLabel(entrada.entidade)}
                {objetoNome(entrada) !== undefined && (
                  <Typography component="span" variant="body2" sx={{ display: 'block', fontWeight: 500 }}>
                    {objetoNome(entrada)}
                  </Typography>
                )}
              </TableCell>
              <TableCell>{acaoLabel(entrada.acao)}</TableCell>
              <TableCell>
                <Mudancas entrada={entrada} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function Mudancas({ entrada }: { entrada: Entrada }) {
  const lista = mudancas(entrada);
  if (lista.length === 0) return <>Nenhum campo alterado</>;
  return (
    <Box component="ul" sx={{ m: 0, pl: 2 }}>
      {lista.map((mudanca) => (
        <li key={mudanca.campo}>
          <strong>{mudanca.campo}:</strong> {mudanca.antes} → {mudanca.depois}
        </li>
      ))}
    </Box>
  );
}
