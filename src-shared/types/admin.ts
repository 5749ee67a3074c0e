// Wire types of the local administration route `POST /admin/v1/accounts` (loopback only).
// Declared once here; the route's schemas are checked against them (src-main/api/routes/admin.ts
// `agree`) and the SDK re-exports them.

/** Body of `POST /admin/v1/accounts`: every field optional (a new account with generated credentials). */
export interface AdminAccountRequest {
  /** Key and secret as the CLI's --account takes them; a missing key creates a new account. */
  api_key?: string;
  api_secret?: string;
  /** USDT wallet to set, a decimal string (new account default 10000; an existing one is kept). */
  balance?: string;
  position_mode?: 'hedge' | 'one_way';
}

/** Answer of `POST /admin/v1/accounts`. */
export interface AdminAccount {
  user_id: number;
  api_key: string;
  api_secret: string;
  /** USDT wallet balance, 8 decimals. */
  balance: string;
  position_mode: 'hedge' | 'one_way';
}
