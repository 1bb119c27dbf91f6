/**
 * Who may do what in the console (contract §5): the one table of role → permissions. Every
 * route names the permission it needs; reading is open to every role.
 */
import { AppError } from '../../domain/errors.js';
import type { ConsoleRole } from '../../store/repos/console-repo.js';

export const ROLES: readonly ConsoleRole[] = ['admin', 'developer', 'maker', 'checker', 'reviewer', 'viewer'];

export type Permission =
  | 'read'
  | 'users.manage'
  /** The organization's settings page: its name, whether refunds wait for a reviewer. */
  | 'org.manage'
  | 'clients.manage'
  | 'destinations.manage'
  | 'events.replay'
  | 'payouts.make'
  | 'payouts.check'
  | 'reviews.decide'
  /** Start a refund of a paid order from its page (issue #32 item 4); it then waits for a reviewer as contract §6 says. */
  | 'refunds.request'
  /** Provider accounts (contract §8): list them with their intake addresses, add one, choose the collections account. */
  | 'providers.manage'
  /** What providers sent that could not be used (issue #22): on the provider accounts, order and payout pages. */
  | 'providers.anomalies'
  /** One's own account: password, second factor, sign out everywhere. */
  | 'self.manage';

const DEVELOPER: Permission[] = ['clients.manage', 'destinations.manage', 'events.replay', 'providers.anomalies'];

export const PERMISSIONS: Readonly<Record<ConsoleRole, readonly Permission[]>> = {
  admin: ['read', 'self.manage', 'users.manage', 'org.manage', ...DEVELOPER, 'payouts.make', 'payouts.check', 'reviews.decide', 'refunds.request', 'providers.manage'],
  developer: ['read', 'self.manage', ...DEVELOPER],
  maker: ['read', 'self.manage', 'payouts.make', 'refunds.request'],
  checker: ['read', 'self.manage', 'payouts.check'],
  reviewer: ['read', 'self.manage', 'reviews.decide'],
  viewer: ['read'],
};

export function isRole(value: string): value is ConsoleRole {
  return (ROLES as readonly string[]).includes(value);
}

export function can(role: ConsoleRole, permission: Permission): boolean {
  return PERMISSIONS[role].includes(permission);
}

export function requirePermission(role: ConsoleRole, permission: Permission): void {
  if (!can(role, permission)) throw new AppError('API_SCOPE_DENIED', `The ${role} role may not do this (needs ${permission}).`);
}
