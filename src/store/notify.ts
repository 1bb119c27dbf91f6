/**
 * LISTEN on a PostgreSQL channel with one dedicated pooled connection, reconnecting after errors.
 * A NOTIFY issued inside a transaction is delivered only when it commits, which is what makes it a
 * safe "new work was committed" signal, and it reaches every instance listening on the database.
 */
import type pg from 'pg';
import type { Logger } from '../observability/logger.js';
import type { Db } from './db.js';

export interface Subscription {
  close(): Promise<void>;
}

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

export function listen(db: Db, channel: string, onNotify: () => void, log: Logger, retryMs = 1_000): Subscription {
  if (!CHANNEL.test(channel)) throw new Error(`invalid channel name "${channel}"`);
  let client: pg.PoolClient | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  const released = new WeakSet<pg.PoolClient>();

  const drop = (c: pg.PoolClient, broken: boolean): void => {
    if (released.has(c)) return;
    released.add(c);
    c.removeAllListeners('notification');
    c.release(broken);
    if (client === c) client = undefined;
  };

  const connect = async (): Promise<void> => {
    timer = undefined;
    if (closed) return;
    let c: pg.PoolClient | undefined;
    try {
      c = await db.sessionPool.connect();
      c.on('notification', (msg) => {
        if (msg.channel === channel) onNotify();
      });
      const conn = c;
      conn.on('error', (err) => {
        if (released.has(conn)) return;
        log.warn({ channel, err: err.message }, 'notification connection lost; reconnecting');
        drop(conn, true);
        if (!closed && !timer) timer = setTimeout(() => void connect(), retryMs);
      });
      await c.query(`LISTEN ${channel}`);
      if (closed) return drop(c, false);
      client = c;
      // Anything committed while we were not listening was not announced: look once now.
      onNotify();
    } catch (err) {
      if (c) drop(c, true);
      log.warn({ channel, err: (err as Error).message }, 'cannot listen for notifications; retrying');
      if (!closed && !timer) timer = setTimeout(() => void connect(), retryMs);
    }
  };
  void connect();

  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const c = client;
      if (!c) return;
      try {
        await c.query(`UNLISTEN ${channel}`);
        drop(c, false);
      } catch {
        drop(c, true);
      }
    },
  };
}
