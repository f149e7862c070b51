import { describe, expect, it } from 'vitest';
import { codeSpanParts } from './CodeSpans';

describe('a description\'s code spans', () => {
  it('shows `spans` as code and keeps everything else as written', () => {
    expect(codeSpanParts('The API answers `Origin: null` with Access-Control-Allow-Origin: null.')).toEqual([
      { code: false, text: 'The API answers ' },
      { code: true, text: 'Origin: null' },
      { code: false, text: ' with Access-Control-Allow-Origin: null.' },
    ]);
    // A quoted answer keeps what Markdown would have eaten: asterisks, underscores, backslashes, brackets.
    const quoted = 'The error read "near 1/**/OR/**/1=1 at __proto__ \\"x\\"" and [click](https://example.com/).';
    expect(codeSpanParts(quoted)).toEqual([{ code: false, text: quoted }]);
    // An unpaired backtick, or one across lines, is text.
    expect(codeSpanParts('a ` b\nc ` d')).toEqual([{ code: false, text: 'a ` b\nc ` d' }]);
    expect(codeSpanParts('`x` and `y`')).toEqual([
      { code: true, text: 'x' },
      { code: false, text: ' and ' },
      { code: true, text: 'y' },
    ]);
    expect(codeSpanParts('')).toEqual([]);
  });
});
