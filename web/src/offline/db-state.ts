// The device database's state as the app shows it, apart from Dexie so the first page can say it without loading it.

/**
 * What the app may tell the technician about its database (issue 25): 'aberto' once open; 'bloqueado' while an old
 * tab holds an older version open and so blocks this version's upgrade; 'substituido' once a newer version, opened
 * in another tab, asked this one to let go (it did; Dexie reopens it when the stores it knows are still there, but
 * this tab runs the older code until it reloads).
 */
export type DatabaseState = 'fechado' | 'aberto' | 'bloqueado' | 'substituido';

export const DATABASE_TEXTS = {
  bloqueado:
    'O Novus foi atualizado, mas outra aba ou janela do Novus ainda usa a versão anterior. Feche as outras abas do Novus para continuar; nenhum dado foi perdido.',
  substituido:
    'O Novus foi atualizado em outra aba. Recarregue esta página para usar a nova versão; os registros gravados estão no aparelho.',
} as const;
