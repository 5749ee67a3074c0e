// Wire types of the local administration routes (loopback only: `POST /admin/v1/accounts`, the bot
// IP whitelist), of the caller's whitelist status, and of the routes that hand out or change an
// account's credentials and wallet (login token, key regeneration, paper deposit). Declared once
// here; the routes' schemas are checked against them (src-main/api/routes/admin.ts, session.ts,
// paper.ts: `agree`) and the SDK re-exports them.

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

/** An account's API key and secret, as `POST /fapi/v1/account/apiKey/regenerate` answers the new pair. */
export interface ApiCredentials {
  api_key: string;
  api_secret: string;
}

/** Answer of `POST /api/v1/session`: the local account's id and credentials, for the one-time login token. */
export interface SessionCredentials {
  user_id: number;
  api_key: string;
  api_secret: string;
}

/** Answer of `POST /fapi/v1/account/deposit`: the USDT wallet balance after the deposit, 8 decimals. */
export interface DepositResult {
  balance: string;
}

/** The bot IP whitelist, as `GET` and `PUT /admin/v1/whitelist` answer it: loopback entries first. */
export interface IpWhitelist {
  ips: string[];
}

/** Answer of `GET /fapi/v1/bot/whitelist/status`: the caller's IP as the service sees it, and whether it may use the bot routes. */
export interface WhitelistStatus {
  ip: string;
  whitelisted: boolean;
}
