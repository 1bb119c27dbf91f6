/**
 * The service's clock (issue #30 item 6): what "now" is and how long a wait is, for the rules that
 * depend on time — the live check's 2 s gate, the console's idle time-out, the API client cache.
 * The composition root hands one clock to every service that needs it; production uses
 * `realClock`, tests may hand a `TestClock` and move time forward at once and exactly instead of
 * sleeping.
 *
 * Rules that PostgreSQL checks against its own `now()` (a session's last use, an order's last
 * check) take `sqlNow()` as a parameter: null with the real clock, so the database's `now()` is
 * used exactly as before (`COALESCE($n::timestamptz, now())`); the test clock's instant otherwise.
 */

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** For SQL comparing with the database's time: null means the database's own now(). */
  sqlNow(): Date | null;
  /** Resolves after `ms` of this clock's time. */
  sleep(ms: number): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sqlNow: () => null,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * A clock for tests: it stands still at the instant it was made (or `startMs`) and moves only when
 * `advance` moves it, so a rule can be checked one millisecond short of its time and at it, however
 * slowly the machine runs. A sleeper wakes when `advance` passes its deadline.
 */
export class TestClock implements Clock {
  private nowMs: number;
  private sleepers: Array<{ at: number; wake: () => void }> = [];

  constructor(startMs = Date.now()) {
    this.nowMs = startMs;
  }

  now(): number {
    return this.nowMs;
  }

  sqlNow(): Date {
    return new Date(this.nowMs);
  }

  sleep(ms: number): Promise<void> {
    const at = this.nowMs + ms;
    return new Promise((resolve) => {
      this.sleepers.push({ at, wake: resolve });
      this.wakeDue();
    });
  }

  /** Moves the clock forward by `ms` and wakes the sleepers whose time has come. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new Error('a clock only moves forward');
    this.nowMs += ms;
    this.wakeDue();
  }

  private wakeDue(): void {
    const due = this.sleepers.filter((s) => s.at <= this.nowMs);
    this.sleepers = this.sleepers.filter((s) => s.at > this.nowMs);
    for (const s of due) s.wake();
  }
}

/**
 * A clock for tests whose service must see time pass as usual (caches, gates, worker rounds) and
 * also jump a window at once: real time plus what `advance` added. While nothing was added,
 * `sqlNow()` is null, so SQL uses the database's own now() exactly as with the real clock.
 */
export class RunningTestClock implements Clock {
  private offsetMs = 0;
  private sleepers: Array<{ at: number; wake: () => void }> = [];

  now(): number {
    return Date.now() + this.offsetMs;
  }

  sqlNow(): Date | null {
    return this.offsetMs === 0 ? null : new Date(this.now());
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const sleeper = { at: this.now() + ms, wake: () => {} };
      const timer = setTimeout(() => sleeper.wake(), ms);
      sleeper.wake = () => {
        clearTimeout(timer);
        this.sleepers = this.sleepers.filter((s) => s !== sleeper);
        resolve();
      };
      this.sleepers.push(sleeper);
    });
  }

  /** Moves the clock `ms` ahead of real time (added up) and wakes the sleepers whose time has come. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new Error('a clock only moves forward');
    this.offsetMs += ms;
    for (const s of this.sleepers.filter((x) => x.at <= this.now())) s.wake();
  }
}
