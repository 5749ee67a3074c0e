// Help's key caps: a bracketed alternative ('+ / - (= / _)') is drawn with its brackets outside
// the caps; split at ' / ' alone, the caps read "- (=" and "_)".
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ShortcutKeys } from '../../src-renderer/src/features/help/shortcut-keys.tsx';
import { SHORTCUTS } from '../../src-shared/shortcuts.ts';

const markup = (keys: string): string => renderToStaticMarkup(createElement(ShortcutKeys, { keys }));
const caps = (keys: string): string[] => [...markup(keys).matchAll(/<kbd>(.*?)<\/kbd>/g)].map((m) => m[1]);
const text = (keys: string): string => markup(keys).replace(/<[^>]+>/g, '');

describe('help key caps', () => {
  it('draws + / - (= / _) as four caps, the brackets and slashes between them', () => {
    expect(caps('+ / - (= / _)')).toEqual(['+', '-', '=', '_']);
    expect(text('+ / - (= / _)')).toBe('+ / - (= / _)');
    expect(caps('N / . / Shift+.')).toEqual(['N', '.', 'Shift+.']);
    expect(caps('/')).toEqual(['/']);
  });

  it('no cap of any shortcut holds a bracket or a slash between keys, and each row reads as written', () => {
    for (const [keys] of SHORTCUTS) {
      for (const cap of caps(keys)) expect(cap, keys).not.toMatch(/[()]| \/ /);
      expect(text(keys), keys).toBe(keys);
    }
  });
});
