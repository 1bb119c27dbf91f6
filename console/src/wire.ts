/**
 * The console API's answers as the server declares them: `Answer<'consoleListUsers'>` is the
 * `data` of that operation, from console/src/generated/openapi.ts (made by scripts/console-types.ts
 * from the server's schemas, src/http/public/console/schemas/answers.ts). A page names its types
 * from here, never by hand, so a server change that breaks a page fails `npm run check`.
 * The server's lists and limits (roles, statuses, text limits) are in ./generated/server.ts.
 */
import type { operations } from './generated/openapi.js';

type Ok<R> = R extends { 200: { content: { 'application/json': infer B } } } ? B : R extends { 201: { content: { 'application/json': infer B } } } ? B : never;

/** The `data` of an operation's success answer. */
export type Answer<Op extends keyof operations> = Ok<operations[Op]['responses']> extends { data: infer D } ? D : never;

/** One row of a list operation's answer. */
export type RowOf<Op extends keyof operations> = Answer<Op> extends ReadonlyArray<infer R> ? R : never;

export type SessionInfo = Answer<'consoleGetSession'>;
export type Role = SessionInfo['user']['role'];
