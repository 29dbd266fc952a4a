/**
 * Alert `transactions` items (SPEC 2.4.4). Every listed field is nullable and the spec says
 * further fields exist but are "not shown", so these objects are open: extra fields are part
 * of the contract and never reported.
 */
import { Type, type Static } from '@sinclair/typebox';
import { TransactionAmountFieldName, TransactionDirection, TransactionType } from './enums.js';
import { DateTime, Maybe, OpenObject, Uuid } from './schema-helpers.js';

const Str = Type.String();

export const TransactionAmount = OpenObject(
  { fieldName: Maybe(TransactionAmountFieldName) },
  { title: 'TransactionAmount' },
);
export type TransactionAmount = Static<typeof TransactionAmount>;

export const TransactionInfo = OpenObject(
  {
    hash: Maybe(Str),
    blockchainChainId: Maybe(Str),
    direction: Maybe(TransactionDirection),
    amount: Maybe(Str),
    currencyCode: Maybe(Type.String({ format: 'currency-code', description: 'a currency code (SPEC 2.1)' })),
    hashUrl: Maybe(Str),
    transactionAmounts: Maybe(Type.Array(TransactionAmount)),
  },
  { title: 'TransactionInfo' },
);
export type TransactionInfo = Static<typeof TransactionInfo>;

export const Transaction = OpenObject(
  {
    // The spec gives no type for id, only that it is nullable.
    id: Type.Optional(Type.Unknown()),
    transactionDate: Maybe(DateTime()),
    transactionType: Maybe(TransactionType),
    customerId: Maybe(Uuid()),
    transactionInfo: Maybe(TransactionInfo),
  },
  { title: 'Transaction' },
);
export type Transaction = Static<typeof Transaction>;
