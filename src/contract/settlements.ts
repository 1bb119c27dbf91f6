/**
 * The queries of the merchant API's settlements list and a settlement's lines (contract §7, §9):
 * the routes' validation and OpenAPI, and the merchant-settlements service's input types.
 */
import { type Static, Type } from '@sinclair/typebox';
import { listQuery } from './lists.js';

/** The list's query: contract §7's, without `status`; created_from/created_to bound `settled_at`. */
const { status: _noStatus, ...listProps } = listQuery(Type.String()).properties;
export const ListSettlementsQuery = Type.Object(listProps, { additionalProperties: false });
export const ListSettlementLinesQuery = Type.Object({ limit: listProps.limit, cursor: listProps.cursor }, { additionalProperties: false });

export type SettlementListQuery = Static<typeof ListSettlementsQuery>;
export type SettlementLinesQuery = Static<typeof ListSettlementLinesQuery>;
