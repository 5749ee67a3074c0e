// What each pattern of the native API's schemas asks for, in words: the error handler says this in
// place of Ajv's "must match pattern "^(0|[1-9][0-9]*)(\.[0-9]+)?$"" (1001). Keyed by the
// pattern's exact text, as Ajv reports it; test/api/pattern-words.test.ts checks that every
// pattern the OpenAPI document declares is here.

const DECIMAL = 'a decimal string of digits with at most one point, no sign or exponent, such as "0.010"';
const SYMBOL = '2 to 30 letters and digits, such as "BTCUSDT"';
const SHA256 = '64 hexadecimal digits';
const ID = '1 to 64 letters, digits, "_" or "-"';

const WORDS: Readonly<Record<string, string>> = {
  '^(0|[1-9][0-9]*)(\\.[0-9]+)?$': DECIMAL,
  '^\\d{1,12}(\\.\\d{1,12})?$': 'a decimal string, such as "95000.0": up to 12 digits, a point and up to 12 decimals',
  '^\\d{1,10}(\\.\\d{1,8})?$': 'an amount of USDT, such as "10000": up to 10 digits, a point and up to 8 decimals',
  '^[0-9]{1,2}(\\.[0-9])?$': 'a percent with at most one decimal, such as "1.5"',
  '^[A-Za-z0-9]{2,30}$': SYMBOL,
  '^[A-Z0-9]{2,30}$': '2 to 30 capital letters and digits, such as "BTCUSDT"',
  '^[A-Za-z0-9]{2,30}(,[A-Za-z0-9]{2,30})*$': 'pairs separated by commas, such as "BTCUSDT,ETHUSDT"',
  '^[.A-Z:/a-z0-9_-]{1,36}$': '1 to 36 letters, digits or ". : / _ -"',
  '^[A-Za-z0-9_-]*$': 'the next_cursor of the previous page, as it came',
  '^[0-9a-f]{64}$': '64 lowercase hexadecimal digits (the HMAC-SHA256 of the request, hex)',
  '^[0-9a-fA-F]{64}$': SHA256,
  '^[A-Za-z0-9_-]{1,64}$': ID,
  '^[A-Za-z0-9]{1,20}\\.svg$': 'a base asset and ".svg", such as "BTC.svg"',
};

/** What a value failing `pattern` should have been, in words ("must be …"); undefined for one not listed. */
export function patternWords(pattern: string): string | undefined {
  return WORDS[pattern];
}
