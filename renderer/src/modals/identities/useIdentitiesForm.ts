// The state of Configure Scan's Identities step: the API's defaults (loaded when the step first
// opens), the identity drafts, the sign-up choice, which identities show their errors, server errors
// placed on fields, and each identity's Test result.

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { IdentityDefaults, IdentityRecipe, KeptFrom, TestIdentityData } from '../../../../shared/contract';
import { holdsKeptSecret } from '../../../../shared/kept-secrets';
import type { ScanConfig, SignupSetting } from '../../../../shared/identities';
import { identityDefaults, testIdentity } from '../../api/scans';
import type { Loadable } from '../../components/LoadStatus';
import {
  checkForm,
  checkIdentity,
  draftEnvReferences,
  draftFromConfig,
  identitiesFromKeyForm,
  MAX_IDENTITIES,
  newIdentity,
  placeServerErrors,
  recipeCopy,
  type FieldErrors,
  type FormCheck,
  type IdentityDraft,
} from '../../lib/identity-form';
import { currentAuth } from '../../stores/useAuthStore';
import { reasonOf } from '../shared';

export type TestState = { kind: 'running' } | { kind: 'done'; data: TestIdentityData } | { kind: 'error'; message: string };

export interface IdentitiesForm {
  defaults: Loadable<{ value: IdentityDefaults | null }>;
  drafts: IdentityDraft[];
  signup: SignupSetting;
  /** The scan configuration the drafts make, when every one is valid (what Export writes). */
  config: ScanConfig | null;
  setSignup(value: SignupSetting): void;
  /** Errors to show, by draft id: the client's once revealed, else the server's. */
  errors: Record<string, FieldErrors>;
  /** Errors that name no identity (the list as a whole, a server error). */
  general: string[];
  envNames: string[];
  tests: Record<string, TestState>;
  add(): void;
  remove(id: string): void;
  /** Edits a copy of one draft; its Test result and server errors go stale. */
  update(id: string, edit: (draft: IdentityDraft) => void): void;
  test(id: string): Promise<void>;
  /** Edits a draft and tests it again once the edit is in (a pointer the failed test named). */
  editAndTest(id: string, edit: (draft: IdentityDraft) => void): void;
  /** Validates everything and shows every error. */
  check(): FormCheck;
  importConfig(config: ScanConfig): void;
  serverErrors(errors: { field: string; message: string }[]): void;
  /** Fills the form from a saved setup or a scan (issue 31): its secrets stay on the server as markers. */
  loadRecipe(recipe: IdentityRecipe, from: KeptFrom): void;
  /** Where the markers in the drafts take their values from; null when no draft holds one. */
  keptFrom: KeptFrom | null;
}

export function useIdentitiesForm(apiId: string, active: boolean, keys: { key1: string; key2: string; lower: 1 | 2 }): IdentitiesForm {
  const [defaults, setDefaults] = useState<IdentitiesForm['defaults']>({ kind: 'loading' });
  const [drafts, setDrafts] = useState<IdentityDraft[]>([]);
  const [signup, setSignup] = useState<SignupSetting>('off');
  const [revealed, setRevealed] = useState<Set<string> | 'all'>(new Set());
  const [server, setServer] = useState<{ byId: Record<string, FieldErrors>; general: string[] }>({ byId: {}, general: [] });
  const [tests, setTests] = useState<Record<string, TestState>>({});
  const started = useRef(false);
  const keysRef = useRef(keys);
  keysRef.current = keys;
  const testSeq = useRef<Record<string, number>>({});
  const [source, setSource] = useState<KeptFrom | null>(null);
  const [queued, setQueued] = useState<string | null>(null);
  /** A recipe was loaded: the API's defaults no longer choose the sign-up setting. */
  const loaded = useRef(false);

  // The defaults are read the first time the step opens; the key form's keys become identities.
  useEffect(() => {
    if (!active || started.current) return;
    started.current = true;
    const auth = currentAuth();
    if (!auth) return;
    const init = (value: IdentityDefaults | null) => {
      const { key1, key2, lower } = keysRef.current;
      const fromKeys = identitiesFromKeyForm(value, key1, key2, lower);
      setDrafts((current) => (current.length ? current : fromKeys.length ? fromKeys : [newIdentity(value, [])]));
      if (!loaded.current) setSignup(value?.signup_default ?? 'off');
    };
    identityDefaults(auth, apiId)
      .then((res) => {
        if (res.ok && res.data) {
          setDefaults({ kind: 'ready', value: res.data });
          init(res.data);
        } else {
          setDefaults({ kind: 'error', message: res.message || 'Could not read the API\'s defaults.' });
          init(null);
        }
      })
      .catch((err: unknown) => {
        setDefaults({ kind: 'error', message: reasonOf(err, 'Could not read the API\'s defaults.') });
        init(null);
      });
  }, [active, apiId]);

  const defaultsValue = defaults.kind === 'ready' ? defaults.value : null;
  const formCheck = useMemo(() => checkForm(drafts, signup), [drafts, signup]);

  const errors = useMemo(() => {
    const out: Record<string, FieldErrors> = {};
    for (const d of drafts) {
      const own = revealed === 'all' || revealed.has(d.id) ? formCheck.errors[d.id] : undefined;
      const merged = { ...server.byId[d.id], ...own };
      if (Object.keys(merged).length) out[d.id] = merged;
    }
    return out;
  }, [drafts, formCheck, revealed, server]);

  const general = useMemo(() => [...(revealed === 'all' ? formCheck.general : []), ...server.general], [formCheck, revealed, server]);
  const envNames = useMemo(() => draftEnvReferences(drafts), [drafts]);

  const forget = (id: string) => {
    setServer((s) => {
      if (!s.byId[id] && !s.general.length) return s;
      const byId = { ...s.byId };
      delete byId[id];
      return { byId, general: [] };
    });
    setTests((t) => {
      if (!t[id]) return t;
      const next = { ...t };
      delete next[id];
      return next;
    });
    testSeq.current[id] = (testSeq.current[id] ?? 0) + 1;
  };

  const update = useCallback((id: string, edit: (draft: IdentityDraft) => void) => {
    setDrafts((list) =>
      list.map((d) => {
        if (d.id !== id) return d;
        const copy = structuredClone(d);
        edit(copy);
        return copy;
      }),
    );
    forget(id);
  }, []);

  const test = async (id: string) => {
    const draft = drafts.find((d) => d.id === id);
    const auth = currentAuth();
    if (!draft || !auth) return;
    setRevealed((r) => (r === 'all' ? r : new Set(r).add(id)));
    const checked = checkIdentity(draft);
    if (!checked.config || draftEnvReferences([draft]).length) return;
    const seq = (testSeq.current[id] ?? 0) + 1;
    testSeq.current[id] = seq;
    setTests((t) => ({ ...t, [id]: { kind: 'running' } }));
    const settle = (state: TestState) => {
      if (testSeq.current[id] === seq) setTests((t) => ({ ...t, [id]: state }));
    };
    try {
      const res = await testIdentity(auth, apiId, checked.input, holdsKeptSecret(checked.input) ? source : null);
      if (res.ok && res.data) settle({ kind: 'done', data: res.data });
      else {
        if (!res.ok && res.errors.length) {
          const placed = placeServerErrors(res.errors, drafts, id);
          setServer((s) => ({ byId: { ...s.byId, ...placed.byId }, general: placed.general }));
        }
        settle({ kind: 'error', message: res.message || 'The test failed.' });
      }
    } catch (err) {
      settle({ kind: 'error', message: reasonOf(err, 'The test failed.') });
    }
  };

  // A test queued with an edit runs once the edited draft is the one in state.
  useEffect(() => {
    if (!queued) return;
    setQueued(null);
    void test(queued);
  }, [queued]);

  return {
    defaults,
    drafts,
    signup,
    config: formCheck.config,
    setSignup,
    errors,
    general,
    envNames,
    tests,
    add: () => {
      if (drafts.length >= MAX_IDENTITIES) return;
      // The first identity's recipe, without who logs in or any secret: usually only those differ.
      setDrafts((list) => [...list, list[0] ? recipeCopy(list[0], defaultsValue, list.map((d) => d.name)) : newIdentity(defaultsValue, list.map((d) => d.name))]);
    },
    remove: (id) => {
      setDrafts((list) => list.filter((d) => d.id !== id));
      forget(id);
    },
    update,
    test,
    editAndTest: (id, edit) => {
      update(id, edit);
      setQueued(id);
    },
    check: () => {
      setRevealed('all');
      return formCheck;
    },
    importConfig: (config) => {
      setDrafts(config.identities.map((c) => draftFromConfig(c, defaultsValue)));
      if (config.signup !== undefined) setSignup(config.signup);
      setServer({ byId: {}, general: [] });
      setTests({});
      setRevealed('all');
    },
    serverErrors: (list) => setServer(placeServerErrors(list, drafts)),
    loadRecipe: (recipe, from) => {
      loaded.current = true;
      setDrafts(recipe.identities.map((c) => draftFromConfig(c, defaultsValue)));
      if (recipe.signup !== null) setSignup(recipe.signup);
      setSource(from);
      setServer({ byId: {}, general: [] });
      setTests({});
      setRevealed(new Set());
    },
    keptFrom: holdsKeptSecret(drafts) ? source : null,
  };
}
