// The SVG check of an uploaded logo (src/commands/svg-scan.ts, issue 26): a linear walk
// that says what the regex checker it replaced said. That checker is kept here as the
// reference (it is quadratic, fine on the small documents of these tests): the walk
// gives its very message on generated documents, well-formed and broken, and on
// random tag soup; the few places where the two differ on purpose (the walk follows
// XML) are pinned below.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkLogo } from '../../src/commands/logo-content.js';
import { isJsSpace, svgProblem } from '../../src/commands/svg-scan.js';
import { LOGO_FIXTURES, LOGO_SVG_TEXT, SCRIPTED_SVG } from '../helpers/logo-fixtures.js';

// ---- The regex checker as it was (src/http/logo-content.ts before issue 26), verbatim.
const NAME = '[A-Za-z_][\\w:.-]*';
const TAG = new RegExp(`^<(/?)(${NAME})((?:\\s+${NAME}\\s*=\\s*(?:"[^"<]*"|'[^'<]*'))*)\\s*(/?)>`);

function referenceSvgProblem(text: string): string | null {
  let rest = text.replace(/^\uFEFF/, '').replace(/^\s*<\?xml[^>]*\?>/, '');
  if (/<!DOCTYPE/i.test(rest)) return 'an SVG with a DOCTYPE is not accepted';
  rest = rest.replace(/<!--[\s\S]*?-->/g, '').replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '').replace(/<\?[\s\S]*?\?>/g, '');
  const open: string[] = [];
  let root: string | null = null;
  let closedRoot = false;
  while (rest.length > 0) {
    const lt = rest.indexOf('<');
    const textPart = lt === -1 ? rest : rest.slice(0, lt);
    if ((open.length === 0 && textPart.trim() !== '') || textPart.includes('>')) return 'it is not well-formed XML (text outside the root element or a stray ">")';
    if (lt === -1) break;
    rest = rest.slice(lt);
    const tag = TAG.exec(rest);
    if (tag === null) return 'it is not well-formed XML (a malformed tag)';
    const [whole, closing = '', name = '', , selfClosing = ''] = tag;
    rest = rest.slice(whole.length);
    if (closedRoot) return 'it is not well-formed XML (an element after the root)';
    if (closing === '/') {
      if (open.pop() !== name) return `it is not well-formed XML (</${name}> closes nothing open)`;
    } else {
      if (root === null) root = name;
      if (selfClosing !== '/') open.push(name);
    }
    if (open.length === 0) closedRoot = true;
  }
  if (root === null) return 'it has no root element';
  if (open.length > 0) return `it is not well-formed XML (<${open[open.length - 1]}> is never closed)`;
  if (root !== 'svg' && !root.endsWith(':svg')) return `its root element is <${root}>, not <svg>`;
  return null;
}

const XMLNS = 'xmlns="http://www.w3.org/2000/svg"';

describe('svgProblem, case by case', () => {
  const cases: [string, string | null][] = [
    [LOGO_SVG_TEXT, null],
    [new TextDecoder().decode(SCRIPTED_SVG), null],
    [`\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<svg ${XMLNS}/>`, null],
    [`  \n<?xml version='1.0'?><!-- c --><?pi x?><![CDATA[ top ]]>\n<svg:svg xmlns:svg="x">\n</svg:svg>\n<!-- after -->\n`, null],
    [`<svg ${XMLNS}><style><![CDATA[ a > b { fill: red } ]]></style><!-- <g> --><?p <x> ?><g\ta = "1"\n b='2' /></svg >`, null],
    [`<svg ${XMLNS} title="a > b &amp; 'c'"/>`, null],
    ['<svg\u00a0a="1"\u3000/>', null],
    ['<html><body>hi</body></html>', 'its root element is <html>, not <svg>'],
    ['<svgx/>', 'its root element is <svgx>, not <svg>'],
    ['', 'it has no root element'],
    ['  \n<!-- only a comment -->', 'it has no root element'],
    [`<!DOCTYPE svg><svg ${XMLNS}/>`, 'an SVG with a DOCTYPE is not accepted'],
    [`<svg ${XMLNS}><!-- <!doctype --></svg>`, 'an SVG with a DOCTYPE is not accepted'],
    // The declaration itself is passed over before the search, as it was.
    [`<?xml <!DOCTYPE ?><svg ${XMLNS}/>`, null],
    [`<svg ${XMLNS}><g></svg>`, 'it is not well-formed XML (</svg> closes nothing open)'],
    [`</svg>`, 'it is not well-formed XML (</svg> closes nothing open)'],
    [`<svg ${XMLNS}><g>`, 'it is not well-formed XML (<g> is never closed)'],
    [`<svg ${XMLNS}/><svg/>`, 'it is not well-formed XML (an element after the root)'],
    [`<svg ${XMLNS}/></svg>`, 'it is not well-formed XML (an element after the root)'],
    [`text<svg ${XMLNS}/>`, 'it is not well-formed XML (text outside the root element or a stray ">")'],
    [`<svg ${XMLNS}/>text`, 'it is not well-formed XML (text outside the root element or a stray ">")'],
    [`<svg ${XMLNS}>a > b</svg>`, 'it is not well-formed XML (text outside the root element or a stray ">")'],
    [`<svg ${XMLNS}><!-- a --> > </svg>`, 'it is not well-formed XML (text outside the root element or a stray ">")'],
    ['<svg a=1/>', 'it is not well-formed XML (a malformed tag)'],
    ['<svg a/>', 'it is not well-formed XML (a malformed tag)'],
    ['<svg a="1"b="2"/>', 'it is not well-formed XML (a malformed tag)'],
    ['<svg a="x<y"/>', 'it is not well-formed XML (a malformed tag)'],
    ['<svg a="1', 'it is not well-formed XML (a malformed tag)'],
    ['< svg/>', 'it is not well-formed XML (a malformed tag)'],
    ['<1svg/>', 'it is not well-formed XML (a malformed tag)'],
    ['<svg / >', 'it is not well-formed XML (a malformed tag)'],
    [`<svg ${XMLNS}><!-- never closed </svg>`, 'it is not well-formed XML (a malformed tag)'],
    [`<svg ${XMLNS}><![CDATA[ never closed </svg>`, 'it is not well-formed XML (a malformed tag)'],
    [`<svg ${XMLNS}><? never closed </svg>`, 'it is not well-formed XML (a malformed tag)'],
    [`<svg ${XMLNS}><!ENTITY x "y"></svg>`, 'it is not well-formed XML (a malformed tag)'],
    // A declaration whose first ">" is not after a "?" is an instruction like any other.
    [` <?xml a=">" ?><svg ${XMLNS}/>`, null],
  ];

  it.each(cases)('%j', (text, expected) => {
    expect(svgProblem(text)).toBe(expected);
    expect(referenceSvgProblem(text)).toBe(expected);
  });

  it('takes every white space the regexes took as \\s, and nothing else, for all 65 536 code units', () => {
    const differing: number[] = [];
    for (let code = 0; code <= 0xffff; code += 1) if (isJsSpace(code) !== /\s/.test(String.fromCharCode(code))) differing.push(code);
    expect(differing).toEqual([]);
    expect(isJsSpace(Number.NaN)).toBe(false);
  });

  it('gives checkLogo its messages, prefixed as before', () => {
    expect(checkLogo('image/svg+xml', LOGO_FIXTURES['image/svg+xml']).ok).toBe(true);
    expect(checkLogo('image/svg+xml', new TextEncoder().encode(`<svg ${XMLNS}><!--`))).toEqual({
      ok: false,
      message: 'body: declared image/svg+xml but it is not well-formed XML (a malformed tag)',
    });
  });
});

describe('where the walk follows XML and the regex checker did not', () => {
  it('refuses markup inside a tag, which the regexes stripped before reading the tag', () => {
    for (const text of [`<sv<!---->g ${XMLNS}/>`, `<svg a="<?x?>"/>`, `<svg a="<![CDATA[x]]>"/>`, `<svg <!-- a="1" -->/>`]) {
      expect(referenceSvgProblem(text), text).toBeNull();
      expect(svgProblem(text), text).toBe('it is not well-formed XML (a malformed tag)');
    }
  });

  it('reads a "<!--" inside CDATA or an instruction as part of it, where the regexes paired it with a later "-->"', () => {
    for (const text of [
      `<svg ${XMLNS}><![CDATA[ <!-- ]]><g/><!-- x --></svg>`,
      `<svg ${XMLNS}><?p <!-- ?><g/><!-- x --></svg>`,
      `<svg ${XMLNS}><?p <![CDATA[ ?><g/><![CDATA[ ]]></svg>`,
    ]) {
      expect(referenceSvgProblem(text), text).toBe('it is not well-formed XML (a malformed tag)');
      expect(svgProblem(text), text).toBeNull();
    }
  });
});

// ---- Generated documents. Comment, CDATA and instruction bodies hold no "<" or ">",
// attribute values and text no "-", "]" or "?": markup then sits only where XML puts
// it, the one place the walk and the regexes are meant to agree. Broken documents come
// from whole tokens dropped, repeated, swapped or broken (at most one unclosed comment,
// CDATA or instruction: the regexes, stripping comments first, could pair a second one's
// opener with a closer the walk sees inside the first) and from cutting the text anywhere.
const pick = <T,>(...values: T[]) => fc.constantFrom(...values);
const join = (parts: string[]) => parts.join('');
const SPACE = pick(' ', ' ', '\n', '\t', '\r\n', '\u00a0', '\u3000', '\ufeff', '\u2028', '\v');
const spaces = (min: number) => fc.array(SPACE, { minLength: min, maxLength: 3 }).map(join);
const NAMES = pick('svg', 'svg', 'g', 'rect', 's:svg', 'svg:g', 'html', 'a.b-c', '_x', 'text');
const body = fc.array(pick('a', ' ', '-', '!', '?', ']', '[', '"', "'", '&', '\n', 'doctype'), { maxLength: 6 }).map(join);
const text = fc.array(pick('a', ' ', ' ', '\n', '\u00a0', '&amp;', '/', '=', '"', "'", '>'), { maxLength: 4 }).map(join);
const attribute = fc
  .tuple(spaces(1), NAMES, spaces(0), spaces(0), pick('"', "'"), fc.array(pick('a', ' ', '>', '/', '=', '&', '"', "'"), { maxLength: 4 }))
  .map(([s1, name, s2, s3, quote, value]) => `${s1}${name}${s2}=${s3}${quote}${value.filter((c) => c !== quote).join('')}${quote}`);
const markup = fc.oneof(
  body.map((b) => `<!--${b}-->`),
  body.map((b) => `<![CDATA[${b}]]>`),
  body.map((b) => `<?${b}?>`),
);

const { element } = fc.letrec<{ element: string[]; content: string[] }>((tie) => ({
  element: fc
    .tuple(NAMES, fc.array(attribute, { maxLength: 3 }), spaces(0), fc.option(fc.array(tie('content'), { maxLength: 4 }), { nil: null }), spaces(0), fc.boolean())
    .map(([name, attributes, s1, children, s2, namespaced]) => {
      const attrs = (namespaced ? ` ${XMLNS}` : '') + attributes.join('');
      return children === null ? [`<${name}${attrs}${s1}/>`] : [`<${name}${attrs}${s1}>`, ...children.flat(), `</${name}${s2}>`];
    }),
  content: fc.oneof({ depthSize: 'small' }, text.map((t) => [t]), tie('element'), markup.map((m) => [m])),
}));

const misc = fc.oneof(spaces(1), markup);
const prolog = fc.tuple(
  pick('', '\ufeff'),
  spaces(0),
  pick('', '', '<?xml version="1.0" encoding="UTF-8"?>', "<?xml version='1.0'?>\n", '<?xml <!DOCTYPE ?>', '<?xml a=">" ?>'),
);
/** A document as its tokens: one per tag, text, comment, CDATA, instruction or run of white space. */
const documentTokens = fc
  .tuple(prolog, fc.array(misc, { maxLength: 2 }), element, fc.array(misc, { maxLength: 2 }))
  .map(([[bom, s, declaration], before, root, after]) => [bom + s + declaration, ...before, ...root, ...after].filter((t) => t !== ''));

/** Tokens broken on their own: whatever follows, they stay broken. */
const BROKEN = [
  '<g a=1>',
  '<g a>',
  '< g>',
  '<1g/>',
  '<g a="1"b="2">',
  '</>',
  '<g/ >',
  '<g a="x<">',
  '<g =\'1\'>',
  '<!- x ->',
  '<![CDATA x]]>',
  '<!ENTITY e "v">',
  '-->',
  ']]>',
  '?>',
  '>',
  'stray',
  '<!DOCTYPE svg>',
  '<!-- <!DocType -->',
  '<svg/>',
  '</svg>',
  '</g >',
  `<svg ${XMLNS}>`,
];
/** Unclosed, and not ending in half a closer (which a comment the regexes stripped could complete). */
const UNCLOSED = ['<!--', '<!-- a-', '<![CDATA[', '<![CDATA[ x', '<?', '<? a'];

type Edit =
  | { kind: 'drop' | 'repeat'; at: number }
  | { kind: 'swap'; at: number; with: number }
  | { kind: 'insert'; at: number; token: string };
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constantFrom('drop' as const, 'repeat' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swap' as const), at: fc.nat(), with: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), token: pick(...BROKEN) }),
);

function applyEdits(tokens: string[], edits: Edit[], unclosed: { at: number; token: string } | null): string[] {
  const out = [...tokens];
  for (const e of edits) {
    const at = e.at % (out.length + 1);
    if (e.kind === 'insert') out.splice(at, 0, e.token);
    else if (at < out.length && e.kind === 'drop') out.splice(at, 1);
    else if (at < out.length && e.kind === 'repeat') out.splice(at, 0, out[at] ?? '');
    else if (at < out.length && e.kind === 'swap') {
      const other = e.with % out.length;
      [out[at], out[other]] = [out[other] ?? '', out[at] ?? ''];
    }
  }
  if (unclosed !== null) out.splice(unclosed.at % (out.length + 1), 0, unclosed.token);
  return out;
}

const brokenDocument = fc
  .tuple(
    documentTokens,
    fc.array(edit, { maxLength: 3 }),
    fc.option(fc.record({ at: fc.nat(), token: pick(...UNCLOSED) }), { nil: null }),
    fc.option(fc.nat(), { nil: null }),
  )
  .map(([tokens, edits, unclosed, cut]) => {
    const whole = applyEdits(tokens, edits, unclosed).join('');
    return cut === null ? whole : whole.slice(0, cut % (whole.length + 1));
  });

describe('against the regex checker', () => {
  it('gives the same answer on generated well-formed documents', () => {
    let accepted = 0;
    fc.assert(
      fc.property(documentTokens, (tokens) => {
        const doc = tokens.join('');
        const expected = referenceSvgProblem(doc);
        if (expected === null) accepted += 1;
        expect(svgProblem(doc)).toBe(expected);
      }),
      { numRuns: 3000 },
    );
    // Most of them are SVG documents the check takes (the rest have another root).
    expect(accepted).toBeGreaterThan(300);
  });

  it('gives the same message on generated broken documents', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(brokenDocument, (doc) => {
        const expected = referenceSvgProblem(doc);
        seen.add(expected ?? 'ok');
        expect(svgProblem(doc)).toBe(expected);
      }),
      { numRuns: 5000 },
    );
    // Every kind of answer came up.
    const kinds = new Set([...seen].map((m) => m.replace(/^(it is not well-formed XML \(<\/?|its root element is <)[\w:.-]+>/, '$1x>')));
    expect([...kinds]).toEqual(
      expect.arrayContaining([
        'ok',
        'an SVG with a DOCTYPE is not accepted',
        'it has no root element',
        'it is not well-formed XML (a malformed tag)',
        'it is not well-formed XML (an element after the root)',
        'it is not well-formed XML (text outside the root element or a stray ">")',
        'it is not well-formed XML (</x> closes nothing open)',
        'it is not well-formed XML (<x> is never closed)',
        'its root element is <x>, not <svg>',
      ]),
    );
  });

  it('gives the same message on random tag soup (no comment, CDATA or instruction in it)', () => {
    const fragment = pick('<', '>', '/', '</', '<svg', '<g', 'svg', 'g', ':svg', ' ', '\t', '\u00a0', '\ufeff', '=', '"', "'", 'a', '1', '-', '.', '_', ' x="1"', " y='2'", '/>', '\n');
    const soup = fc.tuple(pick('', '\ufeff', ' <?xml version="1.0"?>', '<?xml?>'), fc.array(fragment, { maxLength: 30 })).map(([head, parts]) => head + parts.join(''));
    fc.assert(
      fc.property(soup, (doc) => {
        expect(svgProblem(doc)).toBe(referenceSvgProblem(doc));
      }),
      { numRuns: 5000 },
    );
  });

  it('answers, without throwing, on any string of markup pieces', () => {
    const piece = pick('<', '>', '<!--', '-->', '<![CDATA[', ']]>', '<?', '?>', '<svg', '</svg>', '<g>', '</g>', '"', "'", ' ', 'a="1"', '<!DOCTYPE', '/>', 'x', '\ufeff');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }).map(join), (doc) => {
        const problem = svgProblem(doc);
        expect(problem === null || typeof problem === 'string').toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
