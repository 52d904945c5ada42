import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Caseplan, SessionState } from '@caseroom/protocol';
import { ApiError } from '../api/http';
import { createCaseplanSession, type CaseplanSessionDeps } from './caseplanSession';

const plan = (id: string): Caseplan => ({
  id,
  name: `Plan ${id}`,
  organization: 'org',
  users: {},
  roles: {},
  teams: {},
  activeUsers: [],
  createdBy: 'u',
  closed: false,
  created: '2030-01-01T00:00:00Z',
  updated: '2030-01-01T00:00:00Z',
  custom: {},
  policies: { read: true, edit: false, close: false, stats: false, participate: true },
});

const sessionState = (over: Partial<SessionState> = {}): SessionState => ({
  uid: 'u',
  caseplans: ['a'],
  organizations: ['org'],
  selectedCaseplan: 'a',
  selectedOrganization: 'org',
  isOrgAdmin: false,
  ...over,
});

/** A store on fake deps: `plans` is what `GET /api/caseplans` answers now. */
function setup(plans: Caseplan[] = [plan('a')]) {
  const served = { plans };
  const calls: [string, unknown][] = [];
  const deps = {
    call: vi.fn(async (name: string, data?: unknown) => {
      calls.push([name, data]);
      if (name === 'session-selectCaseplan') {
        const id = (data as { caseplanId: string }).caseplanId;
        if (id === 'norole') throw new ApiError('User has no role on caseplan', 412, 'failed-precondition');
        return sessionState({ selectedCaseplan: id });
      }
      if (name === 'session-selectOrganization') {
        return sessionState({ selectedOrganization: (data as { organizationId: string }).organizationId });
      }
      return sessionState();
    }),
    get: vi.fn(async () => served.plans),
    toast: vi.fn(),
    log: vi.fn(),
  };
  const store = createCaseplanSession(deps as unknown as CaseplanSessionDeps);
  return { store, deps, calls, served };
}

describe('caseplan session store (product-spec §4)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('loads through session-load, passing an invite token', async () => {
    const { store, calls } = setup();
    await store.load('inv.tok');
    expect(calls[0]).toEqual(['session-load', { invite: 'inv.tok' }]);
    const state = store.getSnapshot();
    expect(state.status).toBe('ready');
    if (state.status === 'ready') expect(state.session.selectedCaseplan).toBe('a');
  });

  it('waitForCaseplan answers true at once for a loaded plan', async () => {
    const { store } = setup();
    await store.load();
    await expect(store.waitForCaseplan('a')).resolves.toBe(true);
  });

  it('waitForCaseplan answers true when the plan arrives before the timeout', async () => {
    const { store, served } = setup([]);
    const waiting = store.waitForCaseplan('b');
    await vi.advanceTimersByTimeAsync(3_000);
    served.plans = [plan('b')];
    await store.load();
    await expect(waiting).resolves.toBe(true);
  });

  it('waitForCaseplan times out after 10000 ms, logs and yields false', async () => {
    const { store, deps } = setup();
    await store.load();
    let result: boolean | undefined;
    void store.waitForCaseplan('missing').then((r) => (result = r));
    await vi.advanceTimersByTimeAsync(9_999);
    expect(result).toBeUndefined();
    // One reload was tried for a plan made a moment ago.
    expect(deps.get).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toBe(false);
    expect(deps.log).toHaveBeenCalledWith('waiting for caseplan missing timed out after 10000 ms');
  });

  it('selecting records through the server and toasts its refusals', async () => {
    const { store, deps, calls } = setup([plan('a'), plan('b'), plan('norole')]);
    await expect(store.selectCaseplan('b')).resolves.toBe(false);
    expect(deps.toast).toHaveBeenLastCalledWith('User was not loaded into the session');
    await store.load();
    await expect(store.selectCaseplan('b')).resolves.toBe(true);
    expect(calls.at(-1)).toEqual(['session-selectCaseplan', { caseplanId: 'b' }]);
    const state = store.getSnapshot();
    if (state.status === 'ready') expect(state.session.selectedCaseplan).toBe('b');
    await expect(store.selectCaseplan('norole')).resolves.toBe(false);
    expect(deps.toast).toHaveBeenLastCalledWith('User has no role on caseplan');
    await expect(store.selectCaseplan('zzz')).resolves.toBe(false);
    expect(deps.toast).toHaveBeenLastCalledWith('Caseplan was not loaded into the session');
    await expect(store.selectOrganization('other')).resolves.toBe(false);
    expect(deps.toast).toHaveBeenLastCalledWith('Organization was not loaded into the session');
  });

  it('a failed load is an error state, and reset forgets the session', async () => {
    const { store, deps } = setup();
    deps.call.mockRejectedValueOnce(new ApiError('down', 0));
    await store.load();
    expect(store.getSnapshot()).toEqual({ status: 'error', error: 'down' });
    await store.load();
    expect(store.getSnapshot().status).toBe('ready');
    store.reset();
    expect(store.getSnapshot()).toEqual({ status: 'idle' });
  });
});
