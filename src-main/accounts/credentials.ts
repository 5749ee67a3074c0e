// Rules of paper-account credentials, one home for the CLI's --account and the admin API: the
// syntax of API keys and secrets, the default paper balance, and fresh random credentials.
// Errors name the field and the rule; each caller words them for its own surface.
import { randomBytes } from 'node:crypto';
import { parseFixed } from '../../src-shared/decimal.ts';
import { USDT_DECIMALS } from '../core/account.ts';

/** 10,000 USDT in 1e-8 units: a new paper account's wallet. */
export const DEFAULT_PAPER_BALANCE = 10_000n * 10n ** BigInt(USDT_DECIMALS);

/**
 * The most USDT a paper account is made with or set to: the admin API's balance, a replay's and a
 * sweep job's starting balance (far inside what its wallet row and the reports read can hold).
 */
export const MAX_PAPER_USDT = 1_000_000_000n;
/** MAX_PAPER_USDT in 1e-8 units. */
export const MAX_PAPER_BALANCE = MAX_PAPER_USDT * 10n ** BigInt(USDT_DECIMALS);

export const CREDENTIAL_RULE = '8 to 128 letters, digits, _ or -';
const KEY_RE = /^[A-Za-z0-9_-]{8,128}$/;

/** Whether `text` follows the rule of API keys and secrets (CREDENTIAL_RULE): a well-formed key may still be unknown. */
export function isWellFormedCredential(text: string): boolean {
  return KEY_RE.test(text);
}

/**
 * What to say of an API-key header whose value holds a comma (no key has one): Node joins a
 * header sent more than once into one value with ', ', as a client that appends it twice sends
 * it. Undefined for a value without a comma. Read on the refusal path only.
 */
export function repeatedKeyHeader(header: string, value: string): string | undefined {
  if (!value.includes(',')) return undefined;
  const n = value.split(',').length;
  return `${header} came as ${n} comma-separated values (a header sent ${n} times is read so): send one API key, once`;
}

export type AccountField = 'KEY' | 'SECRET' | 'BALANCE';

/** A credential or balance that breaks its rule; `detail` reads after the field's name. */
export class AccountFieldError extends Error {
  readonly field: AccountField;
  readonly detail: string;
  readonly got: string | undefined;

  constructor(field: AccountField, detail: string, got?: string) {
    super(`${field} ${detail}`);
    this.field = field;
    this.detail = detail;
    this.got = got;
  }
}

/** Checks key, secret and an optional balance (USDT decimal text, default 10,000). */
export function checkAccountFields(apiKey: string, apiSecret: string, balanceText?: string): { balance: bigint } {
  if (!isWellFormedCredential(apiKey)) throw new AccountFieldError('KEY', `must be ${CREDENTIAL_RULE}`);
  if (!isWellFormedCredential(apiSecret)) throw new AccountFieldError('SECRET', `must be ${CREDENTIAL_RULE}`);
  if (balanceText === undefined) return { balance: DEFAULT_PAPER_BALANCE };
  return { balance: parsePaperBalance(balanceText) };
}

/** A paper balance (USDT decimal text) in 1e-8 units; AccountFieldError ('BALANCE') when it is not one. */
export function parsePaperBalance(balanceText: string): bigint {
  const r = parseFixed(balanceText, USDT_DECIMALS);
  // a zero balance is refused as a negative one is: said so (before, '0' read "must be a
  // non-negative decimal", which it is)
  if (!r.ok)
    throw new AccountFieldError(
      'BALANCE',
      r.reason === 'zero' || r.reason === 'negative'
        ? 'must be greater than 0'
        : `must be a positive decimal with at most ${USDT_DECIMALS} decimals`,
      balanceText,
    );
  return r.value;
}

/** A fresh API key: `<prefix>_` and 24 hex digits (prefix 'user', 'key' or 'local'). */
export function newApiKey(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

/** A fresh API secret: 64 hex digits. */
export function newApiSecret(): string {
  return randomBytes(32).toString('hex');
}
