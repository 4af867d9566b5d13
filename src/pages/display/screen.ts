// Puts a Face on the page. Writes to the DOM only what differs from the last
// face, so a redraw where nothing visible changed costs no layout or paint.
// The display page draws into its whole window; the console's live preview
// draws the same markup (display-html.ts) with the same code into a box of its
// own, so what the operator sees is what the screens show.
import type { DisplaySettings } from '../../domain/types.js';
import { askLinkImage } from './ask-link-image.js';
import type { Face, FaceMessage, FaceQuestion, Hold, Tone } from '../../client/face.js';
import type { ScreenExtras } from '../../client/screen-extras.js';
import { fitMessage, fitQuestion, fitTime, fitTitles, whenFontsLoaded, type ScreenSize } from './fit.js';

/** The ids of the screen's parts in the display's markup (display-html.ts). */
export type ScreenPart =
  | 'screen'
  | 'time'
  | 'label'
  | 'speaker'
  | 'bar'
  | 'message'
  | 'message-text'
  | 'clock'
  | 'mark'
  | 'tag'
  | 'info'
  | 'next'
  | 'tod'
  | 'onair'
  | 'logo'
  | 'blackout'
  | 'link'
  | 'question'
  | 'question-text'
  | 'question-name'
  | 'ask-link'
  | 'extras'
  | 'aux'
  | 'aux-label'
  | 'aux-time'
  | 'over-under'
  | 'show-end';

/** Where a screen is drawn: the display page's window, or the console's preview box. */
export interface ScreenHost {
  part(id: ScreenPart): HTMLElement;
  /** The screen's size in CSS pixels (what screen.css's --vw and --vh are hundredths of). */
  size(): ScreenSize;
  /** Paints behind the screen: what shows around the lowerThird's band. */
  backdrop(colour: string): void;
  /** Calls `refit` after the screen's size changed. */
  onResize(refit: () => void): void;
  /** Where this screen loads the audience link's code from: under its own link, which the box checks. */
  readonly askLinkUrl: string;
}

/** The display page: the parts by their ids, the window as the screen. */
export function windowHost(): ScreenHost {
  return {
    part(id) {
      const found = document.getElementById(id);
      if (found === null) throw new Error(`display page: #${id} is missing`);
      return found;
    },
    size: () => ({ width: window.innerWidth, height: window.innerHeight }),
    backdrop(colour) {
      document.body.style.backgroundColor = colour;
    },
    onResize(refit) {
      window.addEventListener('resize', refit);
    },
    // Under the page's own path, as its stream and time are: /display/… or /view/{key}/….
    askLinkUrl: `${location.pathname.replace(/\/+$/, '')}/ask-link.svg`,
  };
}

const MARKS: Record<Hold, string> = { running: '', ready: 'READY', paused: 'PAUSED', stopped: 'STOPPED AT ZERO', none: '' };

/** Font size classes by length, so h:mm:ss, +m:ss and a 12 h "12:04:18 PM" still fit the width. */
function lengthClass(text: string): string {
  return `time len-${Math.min(11, Math.max(4, text.length))}`;
}

/** The screen's look: the room's display settings, the layout possibly the viewer link's own. */
export type Look = Omit<DisplaySettings, 'showTimeOfDay' | 'showNext'>;

const HIDDEN_WHEN_OFF: readonly (readonly [keyof Look, string])[] = [
  ['showTitle', 'no-title'],
  ['showSpeaker', 'no-speaker'],
  ['showProgress', 'no-progress'],
  ['showTag', 'no-tag'],
  ['showMessage', 'no-message'],
  ['showQuestion', 'no-question'],
];

export interface Screen {
  render(face: Face): void;
  /** The optional elements beside the time (over/under, show end, aux); all hidden until this is called. */
  renderExtras(extras: ScreenExtras): void;
  /** Applies the look; nothing is written when it is the one shown. */
  setLook(look: Look): void;
  setLink(up: boolean): void;
}

/** Writes only what differs: a redraw where nothing changed costs no layout. */
function setText(element: HTMLElement, text: string): void {
  if (element.textContent !== text) element.textContent = text;
}

function setClass(element: HTMLElement, className: string): void {
  if (element.className !== className) element.className = className;
}

function setHidden(element: HTMLElement, hidden: boolean): void {
  if (element.hidden !== hidden) element.hidden = hidden;
}

export function createScreen(host: ScreenHost = windowHost()): Screen {
  const element = (id: ScreenPart): HTMLElement => host.part(id);
  const screen = element('screen');
  const time = element('time');
  const label = element('label');
  const speaker = element('speaker');
  const bar = element('bar');
  const message = element('message');
  const messageText = element('message-text');
  const clock = element('clock');
  const mark = element('mark');
  const tag = element('tag');
  const info = element('info');
  const next = element('next');
  const tod = element('tod');
  // The row holding the titles (display-html.ts: .top > .titles > #label): in the lower third it has a fixed height they must fit.
  const titlesRow = label.parentElement !== null && label.parentElement.parentElement !== null ? label.parentElement.parentElement : screen;
  /** Classes of the look (layout, elements off), kept apart from the tone classes that change every few seconds. */
  let lookClasses = '';
  let lookKey = '';
  const onair = element('onair');
  const logo = element('logo');
  const blackout = element('blackout');
  const link = element('link');
  const question = element('question');
  const questionText = element('question-text');
  const questionName = element('question-name');
  const extrasRow = element('extras');
  const auxBox = element('aux');
  const auxLabel = element('aux-label');
  const auxTime = element('aux-time');
  const overUnder = element('over-under');
  const showEnd = element('show-end');
  /** What the extras row showed last, by the lengths of its texts: a change of it may change the row's height, which the time is fitted to. */
  let extrasShape = '';
  const askLinkPart = element('ask-link');
  if (!(askLinkPart instanceof HTMLImageElement)) throw new Error('screen: #ask-link is not an image');
  const askLink = askLinkImage(askLinkPart, host.askLinkUrl);
  let linkLost = false;

  let last: Face | null = null;
  let lastMessage: FaceMessage | null = null;
  let lastQuestion: FaceQuestion | null = null;
  /** `has-message`, `has-question`: what shares the column with the time, so the stylesheet can share the height out. */
  let contentClasses = '';
  /** `has-extras` while the extras row shows: the lower third's band grows to hold it (screen.css). */
  let extrasClass = '';

  const setTone = (tone: Tone, danger: boolean, inverted: boolean, hold: Hold): void => {
    const className = `screen tone-${tone}${danger ? ' tone-danger' : ''}${inverted ? ' inverted' : ''} hold-${hold}${lookClasses}${contentClasses}${extrasClass}`;
    if (screen.className !== className) screen.className = className;
  };
  /** The screen's classes again after a look or the extras row changed: from the last face, or a neutral one before any. */
  const reclass = (): void => {
    const f = last;
    if (f !== null) setTone(f.tone, f.danger, f.inverted, f.hold);
    else screen.className = `screen tone-normal${lookClasses}${extrasClass}`;
  };
  // Sizes depend on the window and on what shares the column with the time: fitted
  // again when either changes, not every second (same-length digits have one width).
  // The titles, the message and the question first: the time gets what they leave.
  const refit = (): void => {
    const size = host.size();
    const f = last;
    if (f !== null) {
      fitTitles(titlesRow, [
        { element: label, full: f.label },
        { element: speaker, full: f.speaker },
      ]);
    }
    if (lastMessage !== null) fitMessage(message, messageText, lastMessage.text, size);
    if (lastQuestion !== null) fitQuestion(question, questionText, questionName, lastQuestion.text, size);
    fitTime(clock, time, mark);
  };
  host.onResize(refit);
  whenFontsLoaded(refit);

  return {
    render(face) {
      const prev = last;
      let layoutChanged = prev === null;
      if (prev === null || prev.blackout !== face.blackout) blackout.hidden = !face.blackout;
      if (prev === null || prev.time !== face.time) {
        time.textContent = face.time;
        const cls = lengthClass(face.time);
        if (time.className !== cls) {
          time.className = cls;
          layoutChanged = true;
        }
      }
      const content = `${face.message === null ? '' : ' has-message'}${face.question === null ? '' : ' has-question'}`;
      const contentChanged = content !== contentClasses;
      if (contentChanged) {
        contentClasses = content;
        layoutChanged = true;
      }
      if (prev === null || contentChanged || prev.tone !== face.tone || prev.danger !== face.danger || prev.inverted !== face.inverted || prev.hold !== face.hold) {
        setTone(face.tone, face.danger, face.inverted, face.hold);
      }
      if (prev === null || prev.hold !== face.hold) {
        const text = MARKS[face.hold];
        mark.textContent = text;
        if (mark.hidden !== (text === '')) {
          mark.hidden = text === '';
          layoutChanged = true;
        }
      }
      // Fitted (wrapped, smaller, or cut at a word end) by refit, which a change of them calls.
      if (prev === null || prev.label !== face.label) {
        label.textContent = face.label;
        layoutChanged = true;
      }
      if (prev === null || prev.speaker !== face.speaker) {
        speaker.textContent = face.speaker;
        layoutChanged = true;
      }
      if (prev === null || prev.next !== face.next || prev.clock !== face.clock) {
        next.textContent = face.next;
        tod.textContent = face.clock;
        const empty = face.next === '' && face.clock === '';
        if (info.hidden !== empty) {
          info.hidden = empty;
          layoutChanged = true;
        }
      }
      const t = face.tag;
      const pt = prev === null ? undefined : prev.tag;
      if (pt === undefined || (pt === null) !== (t === null) || (pt !== null && t !== null && (pt.name !== t.name || pt.colour !== t.colour))) {
        tag.hidden = t === null;
        if (t !== null) {
          tag.textContent = t.name;
          // Set through the style object, which the page's CSP allows (a style attribute it would not).
          tag.style.backgroundColor = t.colour;
          tag.style.color = t.text;
        }
        layoutChanged = true;
      }
      if (prev === null || prev.progress !== face.progress) {
        const bared = face.progress !== null;
        if (bar.parentElement !== null) bar.parentElement.hidden = !bared;
        // A transform, not a width: it does not lay out the page again.
        if (bared) bar.style.transform = `scaleX(${face.progress})`;
      }
      if (prev === null || prev.onAir !== face.onAir) {
        onair.hidden = !face.onAir;
        // In the time-only and the lower-third layouts the badge takes a row of its own: the rest is fitted again.
        layoutChanged = true;
      }

      const m = face.message;
      const lm = lastMessage;
      if (m === null) {
        if (lm !== null || prev === null) {
          message.hidden = true;
          layoutChanged = true;
        }
      } else {
        if (lm === null || lm.text !== m.text) {
          messageText.textContent = m.text;
          layoutChanged = true;
        }
        if (lm === null || lm.bold !== m.bold) layoutChanged = true;
        if (lm === null || lm.color !== m.color || lm.bold !== m.bold || lm.lit !== m.lit) {
          message.className = `message color-${m.color}${m.bold ? ' bold' : ''}${m.lit ? '' : ' dark'}`;
        }
        if (lm === null) message.hidden = false;
      }
      lastMessage = m;

      // Text only (textContent): whatever the audience typed is shown as the characters it is.
      const q = face.question;
      const lq = lastQuestion;
      if (q === null) {
        if (lq !== null || prev === null) {
          question.hidden = true;
          layoutChanged = true;
        }
      } else {
        if (lq === null || lq.text !== q.text) {
          questionText.textContent = q.text;
          layoutChanged = true;
        }
        if (lq === null || lq.name !== q.name) {
          questionName.textContent = q.name ?? '';
          questionName.hidden = q.name === null;
          layoutChanged = true;
        }
        if (lq === null) question.hidden = false;
      }
      lastQuestion = q;
      last = face;
      if (layoutChanged) refit();
    },
    renderExtras(extras) {
      const a = extras.aux;
      const o = extras.overUnder;
      if (a !== null) {
        setText(auxLabel, a.label);
        setText(auxTime, a.time);
        // Held digits dimmed and an overrun in the overrun colour, as the main time shows them.
        setClass(auxTime, `aux-time aux-${a.tone}${a.hold === 'paused' || a.hold === 'ready' ? ' aux-held' : ''}`);
      }
      if (o !== null) {
        setText(overUnder, o.text);
        setClass(overUnder, `over-under ${o.state}`);
      }
      setText(showEnd, extras.showEnd);
      setHidden(auxBox, a === null);
      setHidden(overUnder, o === null);
      setHidden(showEnd, extras.showEnd === '');
      const none = a === null && o === null && extras.showEnd === '';
      setHidden(extrasRow, none);
      const cls = none ? '' : ' has-extras';
      if (cls !== extrasClass) {
        extrasClass = cls;
        reclass();
        extrasShape = '';
      }
      const shape = `${a === null ? '-' : `${a.label.length}:${a.time.length}`} ${o === null ? '-' : o.text.length} ${extras.showEnd.length}`;
      if (shape !== extrasShape) {
        extrasShape = shape;
        refit();
      }
    },
    setLook(look) {
      const key = JSON.stringify(look);
      if (key === lookKey) return;
      lookKey = key;
      lookClasses = ` layout-${look.layout}`;
      for (const pair of HIDDEN_WHEN_OFF) if (!look[pair[0]]) lookClasses += ` ${pair[1]}`;
      // The clock keeps room for the code beside the digits (screen.css), so it never covers them.
      if (look.showAskLink) lookClasses += ' with-ask-link';
      askLink.show(look.showAskLink);
      // Custom properties through the style object (the CSP allows no style attribute).
      screen.style.setProperty('--bg', look.background);
      screen.style.setProperty('--normal', look.normalColour);
      screen.style.setProperty('--warn', look.warningColour);
      screen.style.setProperty('--over', look.overrunColour);
      screen.style.setProperty('--time-scale', String(look.timeSize / 100));
      host.backdrop(look.background);
      // The left slot of the top row, mirroring the ON AIR badge's: it never reaches the time or the badge.
      const logoUrl = look.logo !== null && look.showLogo ? `/logo/${encodeURIComponent(look.logo)}` : null;
      if (logoUrl === null) logo.hidden = true;
      else {
        if (logo.getAttribute('src') !== logoUrl) logo.setAttribute('src', logoUrl);
        logo.hidden = false;
      }
      reclass();
      refit();
    },
    setLink(up) {
      link.hidden = up;
      // Back after a loss: the box may have restarted (a rotated audience key), so the code is fetched again.
      if (up && linkLost) askLink.reload();
      linkLost = !up;
    },
  };
}
