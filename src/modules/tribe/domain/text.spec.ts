import { chatMessage, escapeChat, roomNameProblem, sameName } from './text';

describe('escapeChat: the client’s own escapeHTML rule, safe to insert as HTML', () => {
  it.each([
    ['hello world.', 'hello world.'],
    ['a_b 1.2', 'a_b 1.2'],
    ['<script>alert(1)</script>', '&#60;script&#62;alert&#40;1&#41;&#60;&#47;script&#62;'],
    ['"quoted" & \'single\'', '&#34;quoted&#34; &#38; &#39;single&#39;'],
    ['@bob hi', '&#64;bob hi'],
    [':smile:', '&#58;smile&#58;'],
    ['héllo', 'h&#233;llo'],
    // One reference per character outside the BMP, not two surrogate halves (which a browser shows as two �).
    ['😀', '&#128512;'],
  ])('%j → %j', (input, expected) => {
    expect(escapeChat(input)).toBe(expected);
  });

  it('leaves nothing a browser would parse as markup', () => {
    const out = escapeChat('<img src=x onerror="alert(1)">`${x}`');
    expect(out).not.toMatch(/[<>"'`&](?!#\d+;)/);
  });
});

describe('chatMessage', () => {
  it.each<[string, string, string | null]>([
    ['trimmed', '  hi  ', 'hi'],
    ['empty', '', null],
    ['blank', '   ', null],
    ['control characters only', '\u0000\u0007', null],
    ['a line break becomes a space', 'line\nbreak', 'line break'],
    ['a bidirectional override becomes a space', 'a\u202eb', 'a b'],
    ['512 characters, the client’s cap', 'x'.repeat(512), 'x'.repeat(512)],
    ['513 characters', 'x'.repeat(513), null],
    ['a lone surrogate is dropped', '\ud800 lone', 'lone'],
  ])('%s', (_, input, expected) => {
    expect(chatMessage(input)).toBe(expected);
  });
});

describe('roomNameProblem', () => {
  it.each<[string, string | null]>([
    ["alice's room", null],
    ['Room 1', null],
    ['x'.repeat(32), null],
    ['', 'Room name cannot be empty'],
    ['x'.repeat(33), 'Room name cannot be longer than 32 characters'],
    ['<b>bold</b>', 'Room name cannot contain <, >, &, " or `'],
    ['a & b', 'Room name cannot contain <, >, &, " or `'],
    ['say "hi"', 'Room name cannot contain <, >, &, " or `'],
    ['tab\there', 'Room name cannot contain control characters'],
    ['rtl\u202eeman', 'Room name cannot contain control characters'],
  ])('%j → %j', (name, expected) => {
    expect(roomNameProblem(name)).toBe(expected);
  });
});

describe('sameName', () => {
  it.each([
    ['Alice', 'alice', true],
    ['alice', 'alice_', false],
  ])('%s vs %s → %s', (a, b, expected) => {
    expect(sameName(a, b)).toBe(expected);
  });
});
