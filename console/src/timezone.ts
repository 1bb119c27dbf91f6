/**
 * The time zone every day boundary and timestamp of the console is shown in (issue #32 item 1):
 * India's (Asia/Kolkata, "IST") unless the person chose another in the header's "Time zone"
 * field. The choice is kept in this browser (localStorage), not on the server: it is a way of
 * reading, like a window size, and the API takes instants and an explicit `tz` anyway.
 */
import { useSyncExternalStore } from 'react';

export const DEFAULT_ZONE = 'Asia/Kolkata';
const KEY = 'tijori.console.timeZone';
const listeners = new Set<() => void>();

function valid(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-IN', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function stored(): string | null {
  try {
    return window.localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

let current: string = (() => {
  const z = stored();
  return z && valid(z) ? z : DEFAULT_ZONE;
})();

export function timeZone(): string {
  return current;
}

export function setTimeZone(zone: string): void {
  if (!valid(zone) || zone === current) return;
  current = zone;
  try {
    window.localStorage.setItem(KEY, zone);
  } catch {
    // private mode: the choice lasts this page load
  }
  for (const l of listeners) l();
}

/** The chosen zone; the component re-renders when the person picks another. */
export function useTimeZone(): string {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    timeZone,
  );
}

/** The zones offered: India first, UTC, the browser's own, and a few where Indian businesses often work. */
export function zoneChoices(): string[] {
  let own = DEFAULT_ZONE;
  try {
    own = Intl.DateTimeFormat().resolvedOptions().timeZone || DEFAULT_ZONE;
  } catch {
    // keep India
  }
  return [...new Set([DEFAULT_ZONE, 'UTC', own, 'Asia/Dubai', 'Asia/Singapore', 'Europe/London', 'America/New_York', current])];
}

/** The short name of a zone as people read it ("IST", "UTC", "GMT+4"). */
export function zoneName(zone: string, at = new Date()): string {
  if (zone === DEFAULT_ZONE) return 'IST';
  const part = new Intl.DateTimeFormat('en-IN', { timeZone: zone, timeZoneName: 'short' }).formatToParts(at).find((p) => p.type === 'timeZoneName');
  return part?.value ?? zone;
}

/** Milliseconds the zone is ahead of UTC at instant `ms`. */
function offsetMs(zone: string, ms: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(ms));
  const n = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')) - Math.floor(ms / 1000) * 1000;
}

/** A wall-clock time in `zone` ("YYYY-MM-DD" or "YYYY-MM-DDTHH:MM") → the instant, as ISO 8601. */
export function zonedInstant(local: string, zone = current, plusDays = 0): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/.exec(local);
  if (!m) return null;
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + plusDays, Number(m[4] ?? 0), Number(m[5] ?? 0));
  let t = wall - offsetMs(zone, wall);
  t = wall - offsetMs(zone, t); // once more, for a day when the offset changes (summer time)
  return new Date(t).toISOString();
}

/** The calendar day ("YYYY-MM-DD") of an instant in `zone`. */
export function zonedDay(at: Date, zone = current): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** `day` ("YYYY-MM-DD") moved by `n` days. */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}
