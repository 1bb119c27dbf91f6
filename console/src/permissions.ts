/** The signed-in user's permissions for components deep in a page (e.g. an order's "Replay" buttons). */
import { createContext, useContext } from 'react';

export const PermissionsContext = createContext<readonly string[]>([]);

export function useCan(permission: string): boolean {
  return useContext(PermissionsContext).includes(permission);
}
