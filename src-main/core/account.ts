// A paper account as the venue keeps it: API key and secret, USDT wallet. Money is a bigint count
// of 1e-8 USDT (USDT_DECIMALS) so that sums are exact; the wire shows decimal strings.
export const USDT_DECIMALS = 8;

export type AccountKind = 'user' | 'local' | 'house';

export interface Account {
  id: number;
  apiKey: string;
  apiSecret: string;
  kind: AccountKind;
  walletBalance: bigint;
  totalDeposits: bigint;
  positionMode: 'hedge' | 'one_way';
  createdAt: number;
  updatedAt: number;
}
