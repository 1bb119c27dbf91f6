/**
 * What the merchant API lists answer beside their rows. Their query (contract §7) is a request
 * schema, in the contract layer (src/contract/lists.ts), re-exported here.
 */
export { listQuery } from '../../../contract/lists.js';

export const NEXT_CURSOR_DESCRIPTION = 'pass as `cursor` for the next (older) page; null on the last page';
