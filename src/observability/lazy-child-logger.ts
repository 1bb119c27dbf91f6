/**
 * Fastify gives every request a child logger bound to its request id (`request.log`). Creating a
 * pino child for each request (bindings serialised, redaction and serializers copied) was a
 * measurable part of a request's CPU, and on the hot path nothing logs through it: the one line
 * per request has its own logger (accessLoggerFor). This stand-in creates the real child only when
 * a line at an enabled level is written through it, so a request that logs nothing pays for one
 * small object.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level, LevelWithSilentOrString, Logger } from 'pino';

export class LazyChildLogger implements FastifyBaseLogger {
  private real: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    this.real ??= this.parent.child(this.bindings, this.options);
    return this.real;
  }

  get level(): LevelWithSilentOrString {
    return this.real?.level ?? this.parent.level;
  }

  set level(level: LevelWithSilentOrString) {
    this.logger.level = level;
  }

  private enabled(level: Level): boolean {
    const logger = (this.real ?? this.parent) as Partial<Pick<Logger, 'isLevelEnabled'>>;
    return logger.isLevelEnabled?.(level) ?? true;
  }

  fatal(...args: unknown[]): void {
    if (this.enabled('fatal')) (this.logger.fatal as (...a: unknown[]) => void)(...args);
  }
  error(...args: unknown[]): void {
    if (this.enabled('error')) (this.logger.error as (...a: unknown[]) => void)(...args);
  }
  warn(...args: unknown[]): void {
    if (this.enabled('warn')) (this.logger.warn as (...a: unknown[]) => void)(...args);
  }
  info(...args: unknown[]): void {
    if (this.enabled('info')) (this.logger.info as (...a: unknown[]) => void)(...args);
  }
  debug(...args: unknown[]): void {
    if (this.enabled('debug')) (this.logger.debug as (...a: unknown[]) => void)(...args);
  }
  trace(...args: unknown[]): void {
    if (this.enabled('trace')) (this.logger.trace as (...a: unknown[]) => void)(...args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`. */
export function lazyChildLoggerFactory(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyChildLogger(logger, bindings, options);
}
