import { sanitizeText, stripMarkup } from './sanitize';

describe('stripMarkup', () => {
  it.each([
    ['<b>bold</b> text', 'bold text'],
    ['<a href="https://x.test" onclick="evil()">link</a>', 'link'],
    ['before<script>alert(1)</script>after', 'beforeafter'],
    ['<style>body{}</style>kept', 'kept'],
    ['a<!-- hidden -->b', 'ab'],
    ['<img src=x onerror=alert(1)>', ''],
    ['I <3 typing & you > me', 'I <3 typing & you > me'],
    ['&lt;b&gt;escaped&lt;/b&gt;', '&lt;b&gt;escaped&lt;/b&gt;'],
    ['plain', 'plain'],
    ['<div><p>nested <i>tags</i></p></div>', 'nested tags'],
  ])('%p → %p', (input, output) => {
    expect(stripMarkup(input)).toBe(output);
  });
});

describe('sanitizeText', () => {
  it('collapses 3+ newlines to two (the original platform test vector)', () => {
    expect(sanitizeText('Line1\n\n\nLine2\n\n\n\nLine3')).toBe('Line1\n\nLine2\n\nLine3');
  });

  it('trims and collapses 3+ spaces to two (the original platform test vector)', () => {
    expect(sanitizeText('  string     with      many      spaces      ')).toBe('string  with  many  spaces');
  });

  it('keeps two newlines and two spaces as they are', () => {
    expect(sanitizeText('a\n\nb  c')).toBe('a\n\nb  c');
  });

  it('treats CRLF as a newline', () => {
    expect(sanitizeText('a\r\n\r\n\r\nb')).toBe('a\n\nb');
  });

  it('drops stray combining marks but keeps accented letters', () => {
    expect(sanitizeText('cafe\u0301 z\u0336\u0337\u0338')).toBe('café z');
    expect(sanitizeText('Ünïcödé')).toBe('Ünïcödé');
  });

  it('strips markup and trims what is left', () => {
    expect(sanitizeText('  <p>hello</p>  ')).toBe('hello');
  });
});
