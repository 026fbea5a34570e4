import { describe, expect, it } from 'vitest';
import { endSession } from '../src/backoffice/backoffice-api';

function store(initial: { nome: string } | null) {
  let value = initial;
  return {
    get: () => value,
    clear: () => {
      value = null;
    },
  };
}

describe('a 401 in the back office', () => {
  it('ends a live session and sends the user to log in', () => {
    const session = store({ nome: 'Ana' });
    const sent: string[] = [];
    endSession(session as never, () => sent.push('login'));
    expect(session.get()).toBeNull();
    expect(sent).toEqual(['login']);
  });

  it('after Logout (no session left) changes nothing: the login form being filled in is not reloaded', () => {
    const session = store(null);
    const sent: string[] = [];
    endSession(session as never, () => sent.push('login'));
    endSession(session as never, () => sent.push('login'));
    expect(sent).toEqual([]);
  });
});
