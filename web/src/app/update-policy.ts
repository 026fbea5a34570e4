// When a new version of the app may reload this tab (issue 25): never while the technician is in the middle of
// something (a wizard open, a sync, a compression: the WorkTracker's busy state), and never on its own when
// another tab (or the installed app) updated while this one was busy. UpdatePrompt feeds it the service worker's
// events; what it answers is pure, so the rules are tested without a browser.

export interface UpdateState {
  /** A new version was found: its worker installed (waiting, or already active). */
  found: boolean;
  /** This tab pressed 'Atualizar'. */
  pressed: boolean;
  /** A reload now runs the new version: its worker controls this tab, or nothing is left waiting. */
  ready: boolean;
  /** The new worker took this tab over (another tab updated) while it was busy: it reloads on 'Atualizar' only. */
  deferred: boolean;
}

export type UpdateEvent =
  /** A new worker installed (vite-plugin-pwa's onNeedRefresh; it may come twice for one worker). */
  | { type: 'found' }
  /**
   * The new worker took control (onNeedReload) or, for the tab that pressed 'Atualizar', activated (a page the
   * worker never controlled gets no controllerchange). `busy`: whether this tab was busy at that moment.
   */
  | { type: 'activated'; busy: boolean }
  /** 'Atualizar' pressed; `waiting`: a worker was still waiting (it is then told to skip waiting). */
  | { type: 'pressed'; waiting: boolean };

export const NO_UPDATE: UpdateState = {
  found: false,
  pressed: false,
  ready: false,
  deferred: false,
};

export function nextUpdateState(state: UpdateState, event: UpdateEvent): UpdateState {
  switch (event.type) {
    case 'found':
      return { ...state, found: true };
    case 'activated':
      // Idempotent: the plugin may add its 'controlling' listener twice, and the pressing tab hears both events.
      if (state.ready) return state;
      return { ...state, found: true, ready: true, deferred: !state.pressed && event.busy };
    case 'pressed':
      return { ...state, pressed: true, ready: state.ready || !event.waiting };
  }
}

/**
 * Reload now: the new version controls this tab and nothing is in progress, and either this tab asked for it or
 * it was idle when another tab updated (an idle tab has nothing to lose and should not run old code under the
 * new worker, whose cache no longer holds the old screens' files).
 */
export function shouldReload(state: UpdateState, busy: boolean): boolean {
  return state.ready && !busy && (state.pressed || !state.deferred);
}

/**
 * 'Nova versão disponível — Atualizar' is on screen: a new version was found and nothing is in progress. It stays
 * there, its button disabled once pressed, until the reload (a tab taken over while busy keeps it until pressed).
 */
export function promptOpen(state: UpdateState, busy: boolean): boolean {
  return state.found && !busy;
}
