// Where a JSON text that JSON.parse refused goes wrong, for a one-line message naming the place
// (docs/sweeps.md: a grid file that cannot be read "with the place in the file"). V8's own
// message gives a position for some faults only; for others it quotes a snippet of the text,
// line breaks and all. The place comes from jsonc-parser (the JSON scanner of VS Code), held to
// strict JSON: no comments, no trailing commas.
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

/** The first fault of a JSON text: its line and column (from 1, columns in characters) and what is wrong there. */
export interface JsonFault {
  line: number;
  column: number;
  what: string;
}

/** A character for a message: itself when printable, else as a JSON escape ("\n", "\u0001"). */
function described(ch: string): string {
  return /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(ch) ? `'${ch}'` : JSON.stringify(ch);
}

/** Where the fault is and what to say of it. */
function placeOf(text: string, e: ParseError): { at: number; what: string } {
  const ch = (i: number): string => String.fromCodePoint(text.codePointAt(i)!);
  const at = e.offset;
  if (at >= text.length) return { at: text.length, what: 'the text ends before the JSON value does' };
  switch (printParseErrorCode(e.error)) {
    case 'InvalidCharacter': {
      // a control character inside a string: the token is the string, the fault the character
      for (let i = at; i < at + e.length; i++)
        if (text.charCodeAt(i) < 0x20) return { at: i, what: `unexpected ${described(ch(i))} inside a string` };
      return { at, what: `unexpected ${described(ch(at))}` };
    }
    case 'InvalidEscapeCharacter':
      return { at, what: 'a string with an escape JSON does not have' };
    case 'InvalidUnicode':
      return { at, what: 'a string with a \\u escape that is not 4 hex digits' };
    case 'UnexpectedEndOfString':
      return { at, what: 'a string that is not closed on its line' };
    case 'UnexpectedEndOfNumber':
    case 'InvalidNumberFormat':
      return { at, what: `a number cut short: ${text.slice(at, at + e.length)}` };
    case 'InvalidCommentToken':
    case 'UnexpectedEndOfComment':
      return { at, what: 'a comment (JSON has none)' };
    case 'EndOfFileExpected':
      return { at, what: `${described(ch(at))} after the JSON value` };
    default:
      return { at, what: `unexpected ${described(ch(at))}` };
  }
}

/** The first place `text` is not JSON; null when the scanner finds none (JSON.parse's own message is all there is). */
export function jsonFault(text: string): JsonFault | null {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (errors.length === 0) return null;
  const { at, what } = placeOf(text, errors[0]);
  const before = text.slice(0, at);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: Array.from(before.slice(lineStart)).length + 1, what };
}
