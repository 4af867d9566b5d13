// A refusal's message as the refusal page's sentence (issue 31, finding 7b): a
// capital first letter, a full stop, `spans` as <code>, and everything escaped,
// since the message can quote what a link's query held.
import { describe, expect, it } from 'vitest';
import { renderErrorPage, sentenceHtml } from '../../src/pages/error-page.js';

describe('sentenceHtml', () => {
  it('starts with a capital, ends with a full stop and shows backtick spans as code', () => {
    expect(sentenceHtml('on the box, `npm run key` prints the current control link')).toBe('On the box, <code>npm run key</code> prints the current control link.');
    expect(sentenceHtml('try again in 40 s (a right key is not affected)')).toBe('Try again in 40 s (a right key is not affected).');
    expect(sentenceHtml('Already a sentence.')).toBe('Already a sentence.');
    expect(sentenceHtml('/display is for the box itself')).toBe('/display is for the box itself.');
    // A command first stays as it is typed.
    expect(sentenceHtml('`npm run key` prints it')).toBe('<code>npm run key</code> prints it.');
  });

  it('keeps markup text, inside code spans too, and shows a backtick with no partner as it is', () => {
    expect(sentenceHtml('layout: "`<img src=x onerror=alert(1)>`<b>b</b>" is not a layout')).toBe(
      'Layout: &#34;<code>&#60;img src=x onerror=alert(1)&#62;</code>&#60;b&#62;b&#60;/b&#62;&#34; is not a layout.',
    );
    expect(sentenceHtml('show: "a`<script>" is not a timer')).toBe('Show: &#34;a`&#60;script&#62;&#34; is not a timer.');
  });

  it('puts the field and its script only on a page asked for with one', () => {
    const plain = renderErrorPage('Nothing here', 'nothing at this address');
    expect(plain).not.toContain('<script');
    expect(plain).not.toContain('<form');
    const control = renderErrorPage('This control link is not valid', 'this control link is not valid', 'control');
    expect(control.match(/<script\b[^>]*>/g)).toEqual(['<script src="/assets/home.js" defer>']);
    expect(control).toContain('<label for="control-key">API key or control link</label>');
    // No name: a form sent without the script could not put the key into a query either.
    expect(control).not.toMatch(/<input[^>]*\sname=/);
  });
});
