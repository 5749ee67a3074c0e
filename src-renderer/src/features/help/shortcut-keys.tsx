// A shortcut's keys as help shows them: each key in a cap (<kbd>), the words between them (" / ",
// "…") and a bracketed alternative outside the caps: '+ / - (= / _)' is + / - then, in brackets,
// = / _ (split at " / " alone, it drew the caps "- (=" and "_)").

/** One piece of a shortcut's keys: a key (drawn in a cap) or the text between keys. */
export type KeyPiece = { key: string } | { text: string };

/** The pieces of `keys` as SHORTCUTS writes them: keys split at ' / ', one bracketed alternative at the end. */
function keyPieces(keys: string): KeyPiece[] {
  const alt = /^(.+) \((.+)\)$/.exec(keys);
  if (alt === null) return alternatives(keys);
  return [...alternatives(alt[1]), { text: ' (' }, ...alternatives(alt[2]), { text: ')' }];
}

function alternatives(keys: string): KeyPiece[] {
  return keys.split(' / ').flatMap((key, i): KeyPiece[] => (i === 0 ? [{ key }] : [{ text: ' / ' }, { key }]));
}

const draw = (pieces: KeyPiece[]) =>
  pieces.map((p, i) => ('key' in p ? <kbd key={i}>{p.key}</kbd> : <span key={i}>{p.text}</span>));

/** The caps of `keys`; a bracketed alternative kept on one line, so that no bracket wraps away from its cap. */
export function ShortcutKeys({ keys }: { keys: string }) {
  const pieces = keyPieces(keys);
  const alt = pieces.findIndex((p) => 'text' in p && p.text === ' (');
  if (alt < 0) return <>{draw(pieces)}</>;
  return (
    <>
      {draw(pieces.slice(0, alt))}
      <span className="key-alt">{draw(pieces.slice(alt))}</span>
    </>
  );
}
