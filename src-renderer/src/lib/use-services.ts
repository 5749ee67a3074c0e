// React access to the services: one context, and `useSel` to read a slice of a vanilla store
// (re-rendering only when that slice changes).
import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { Services } from './services.ts';

export const ServicesContext = createContext<Services | null>(null);

export function useServices(): Services {
  const s = useContext(ServicesContext);
  if (s === null) throw new Error('useServices outside ServicesContext');
  return s;
}

export function useSel<T, U>(store: StoreApi<T>, selector: (state: T) => U): U {
  return useStore(store, selector);
}
