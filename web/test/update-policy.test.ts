import { describe, expect, it } from 'vitest';
import {
  NO_UPDATE,
  nextUpdateState,
  promptOpen,
  shouldReload,
  type UpdateEvent,
  type UpdateState,
} from '../src/app/update-policy';

const play = (...events: UpdateEvent[]): UpdateState => events.reduce(nextUpdateState, NO_UPDATE);

const IDLE = false;
const BUSY = true;

describe('a new version in this tab', () => {
  it('is offered when found, and hidden while a wizard, a sync or a compression runs', () => {
    expect(promptOpen(NO_UPDATE, IDLE)).toBe(false);
    const found = play({ type: 'found' });
    expect(promptOpen(found, IDLE)).toBe(true);
    expect(promptOpen(found, BUSY)).toBe(false);
    expect(shouldReload(found, IDLE)).toBe(false);
    // the plugin may say so twice for one worker
    expect(play({ type: 'found' }, { type: 'found' })).toEqual(found);
  });

  it("reloads after 'Atualizar' once the new worker controls the tab, not before", () => {
    const pressed = play({ type: 'found' }, { type: 'pressed', waiting: true });
    expect(shouldReload(pressed, IDLE)).toBe(false);
    expect(promptOpen(pressed, IDLE)).toBe(true); // its button disabled until the reload
    const taken = nextUpdateState(pressed, { type: 'activated', busy: false });
    expect(shouldReload(taken, IDLE)).toBe(true);
    // controllerchange and the worker's own 'activated' both arrive: still one decision
    expect(nextUpdateState(taken, { type: 'activated', busy: false })).toBe(taken);
  });

  it("reloads at once on 'Atualizar' when nothing waits any more (another tab already updated)", () => {
    const state = play({ type: 'found' }, { type: 'pressed', waiting: false });
    expect(shouldReload(state, IDLE)).toBe(true);
  });

  it("never reloads while busy, even after 'Atualizar': a sync started in between is let finish", () => {
    const state = play(
      { type: 'found' },
      { type: 'pressed', waiting: true },
      { type: 'activated', busy: true },
    );
    expect(shouldReload(state, BUSY)).toBe(false);
    expect(promptOpen(state, BUSY)).toBe(false);
    expect(shouldReload(state, IDLE)).toBe(true); // asked for, so no second question
  });
});

describe('another tab (or the installed app) updated', () => {
  it('an idle tab follows at once: nothing to lose, and no old code left under the new worker', () => {
    const state = play({ type: 'found' }, { type: 'activated', busy: false });
    expect(shouldReload(state, IDLE)).toBe(true);
  });

  it("a tab with a form open keeps it: no reload while busy, then the prompt, and a reload on 'Atualizar' only", () => {
    const taken = play({ type: 'found' }, { type: 'activated', busy: true });
    expect(shouldReload(taken, BUSY)).toBe(false);
    expect(promptOpen(taken, BUSY)).toBe(false);
    // the form saved or left: the prompt, not a reload under the technician's next tap
    expect(shouldReload(taken, IDLE)).toBe(false);
    expect(promptOpen(taken, IDLE)).toBe(true);
    // another form opened before answering: hidden again, still no reload
    expect(promptOpen(taken, BUSY)).toBe(false);
    expect(shouldReload(taken, BUSY)).toBe(false);
    // 'Atualizar': no worker waits (it already controls the tab), so the reload alone
    const pressed = nextUpdateState(taken, { type: 'pressed', waiting: false });
    expect(shouldReload(pressed, IDLE)).toBe(true);
    expect(shouldReload(pressed, BUSY)).toBe(false);
  });
});
