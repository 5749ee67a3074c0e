// Where a JSON text that JSON.parse refused goes wrong, for a one-line message naming the place
// (docs/sweeps.md: a grid file that cannot be read "with the place in the file"). V8's own
// message gives a position for some faults only; for others it quotes a snippet of the text,
// line breaks and all. This scans the text by JSON's grammar (RFC 8259, as JSON.parse reads it)
// to the first character it cannot take.

/** The first fault of a JSON text: its line and column (from 1, columns in characters) and what is wrong there. */
export interface JsonFault {
  line: number;
  column: number;
  what: string;
}

class Stop {
  index: number;
  what: string;
  constructor(index: number, what: string) {
    this.index = index;
    this.what = what;
  }
}

/** A character for a message: itself when printable, else as a JSON escape ("\n", "\u0001"). */
function described(ch: string): string {
  return /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(ch) ? `'${ch}'` : JSON.stringify(ch);
}

/**
 * The first place `text` is not JSON (null when the scan finds none: then JSON.parse's own
 * message is all there is). Nesting deeper than the stack allows is not JSON.parse's fault
 * either way: null too.
 */
export function jsonFault(text: string): JsonFault | null {
  let i = 0;
  const fail = (what?: string): never => {
    if (i >= text.length) throw new Stop(text.length, 'the text ends before the JSON value does');
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    throw new Stop(i, what ?? `unexpected ${described(ch)}`);
  };
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const digits = (): void => {
    if (!(text[i] >= '0' && text[i] <= '9')) fail();
    while (text[i] >= '0' && text[i] <= '9') i++;
  };
  const string = (): void => {
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) fail();
      const c = text[i];
      if (c === '"') {
        i++;
        return;
      }
      if (c === '\\') {
        i++;
        if (text[i] === 'u') {
          for (let k = 0; k < 4; k++) {
            i++;
            if (!/[0-9A-Fa-f]/.test(text[i] ?? '')) fail();
          }
        } else if (!'"\\/bfnrt'.includes(text[i] ?? 'x')) fail();
        i++;
      } else if (c.charCodeAt(0) < 0x20) fail(`unexpected ${described(c)} inside a string`);
      else i++;
    }
  };
  const literal = (word: string): void => {
    for (const c of word) {
      if (text[i] !== c) fail();
      i++;
    }
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || (c >= '0' && c <= '9')) {
      if (c === '-') i++;
      if (text[i] === '0') i++;
      else digits();
      if (text[i] === '.') {
        i++;
        digits();
      }
      if (text[i] === 'e' || text[i] === 'E') {
        i++;
        if (text[i] === '+' || text[i] === '-') i++;
        digits();
      }
      return;
    }
    fail();
  };
  const array = (): void => {
    i++;
    ws();
    if (text[i] === ']') {
      i++;
      return;
    }
    for (;;) {
      value();
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      if (text[i] !== ',') fail();
      i++;
    }
  };
  const object = (): void => {
    i++;
    ws();
    if (text[i] === '}') {
      i++;
      return;
    }
    for (;;) {
      ws();
      if (text[i] !== '"') fail();
      string();
      ws();
      if (text[i] !== ':') fail();
      i++;
      value();
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      if (text[i] !== ',') fail();
      i++;
    }
  };
  try {
    value();
    ws();
    if (i < text.length) fail(`${described(String.fromCodePoint(text.codePointAt(i)!))} after the JSON value`);
    return null;
  } catch (err) {
    if (!(err instanceof Stop)) return null; // a RangeError: nested too deep to scan
    const before = text.slice(0, err.index);
    const lineStart = before.lastIndexOf('\n') + 1;
    return {
      line: before.split('\n').length,
      column: Array.from(before.slice(lineStart)).length + 1,
      what: err.what,
    };
  }
}
