/**
 * The logged-in session (user + bearer token), persisted in localStorage (docs/product.md §1) and shared
 * between tabs. A tiny store: get / set / clear / subscribe, plus a React hook.
 */
import { useSyncExternalStore } from 'react';
import type { Abilities, Module } from '#shared/access/index.ts';
import { MODULES } from '#shared/access/index.ts';
import type { SessionUser } from '#shared/api/index.ts';

export type { SessionUser };
export type Session = { user: SessionUser; token: string };

const STORAGE_KEY = 'uvtrace.session';

type Listener = () => void;

function isSession(value: unknown): value is Session {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { token?: unknown; user?: unknown };
  return typeof candidate.token === 'string' && typeof candidate.user === 'object' && candidate.user !== null;
}

function read(): Session | null {
  try {
    const raw = globalThis.localStorage?.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed: unknown = JSON.parse(raw);
    return isSession(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

export type SessionStore = {
  get(): Session | null;
  set(session: Session): void;
  clear(): void;
  subscribe(listener: Listener): () => void;
  /** Only changes made by another tab (login or logout there). */
  subscribeExternal(listener: Listener): () => void;
};

export function createSessionStore(): SessionStore {
  let current = read();
  const listeners = new Set<Listener>();
  const externalListeners = new Set<Listener>();
  const emit = () => {
    for (const listener of listeners) listener();
  };

  // Another tab logged in or out: follow it.
  globalThis.addEventListener?.('storage', (event: StorageEvent) => {
    if (event.key !== STORAGE_KEY && event.key !== null) return;
    current = read();
    emit();
    for (const listener of externalListeners) listener();
  });

  return {
    get: () => current,
    set(session) {
      current = session;
      try {
        localStorage.setItem(STORAGE_KEY, JSON.stringify(session));
      } catch {
        // Storage full or disabled: the session still lives in memory for this tab.
      }
      emit();
    },
    clear() {
      if (current === null) return;
      current = null;
      try {
        localStorage.removeItem(STORAGE_KEY);
      } catch {
        // ignore: nothing persisted
      }
      emit();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    subscribeExternal(listener) {
      externalListeners.add(listener);
      return () => externalListeners.delete(listener);
    },
  };
}

export const session = createSessionStore();

export function useSession(): Session | null {
  return useSyncExternalStore(session.subscribe, session.get, session.get);
}

/** Menu modules the login response granted, in the canonical menu order. */
export function sessionModules(current: Session | null): Module[] {
  const granted: readonly string[] = current?.user.modules ?? [];
  return MODULES.filter((module) => granted.includes(module));
}

const NO_ABILITIES = {} as Partial<Abilities>;

/** Ability flags of the logged-in user; a missing flag means "not allowed". The client only hides. */
export function useAbilities(): Partial<Abilities> {
  return useSession()?.user.abilities ?? NO_ABILITIES;
}
