/** Loads one resource's page data; an error becomes a message. */
import { useCallback } from 'react';
import { api } from '../../api.js';
import { useRead } from '../useRead.js';

export function useDetail<T>(path: string): { data: T | null; error: string | null } {
  return useRead(useCallback(() => api<T>('GET', path), [path]));
}
