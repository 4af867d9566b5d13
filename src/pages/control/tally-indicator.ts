// The tally beside the ON AIR button (issue 32). Once a tally source (TSL from a
// vision mixer, OBS) has reported, ON AIR follows the combined tally at each of its
// changes, and a press overrides it until the next one (src/domain/tally.ts). The
// operator sees that rule at work here: whether the tally says on air and which
// sources say so, and, when ON AIR differs from it, that ON AIR was set by hand and
// will follow the tally at its next change. Without a tally report (no tally
// configured) nothing here shows and the ON AIR button is as it always was.
import type { Snapshot } from '../../domain/snapshot.js';
import type { TallySnapshot } from '../../domain/tally.js';
import { TALLY_SOURCES, type TallySource } from '../../domain/types.js';
import { byId, setText } from './elements.js';

const BY_HAND_TEXT = 'ON AIR set by hand: follows the tally at its next change';
const ON_AIR_FOLLOWS = 'ON AIR follows the tally; a press here overrides it until the tally next changes';

function sourceName(source: TallySource): string {
  switch (source) {
    case 'tsl':
      return 'TSL';
    case 'obs':
      return 'OBS';
  }
}

export interface TallyWords {
  /** "Tally ON" or "Tally off". */
  readonly state: string;
  /** The sources that decide it: those that say on while it is on, else those heard (all off). */
  readonly sources: string;
  /** Each source heard and what it says, for the title: "TSL: on air · OBS: off". */
  readonly detail: string;
  /** ON AIR differs from the tally: a press overrode it. */
  readonly byHand: boolean;
}

export function tallyWords(tally: TallySnapshot, onAir: boolean): TallyWords {
  const deciding: string[] = [];
  const detail: string[] = [];
  for (const source of TALLY_SOURCES) {
    const says = tally.sources[source];
    if (says === undefined) continue;
    detail.push(`${sourceName(source)}: ${says ? 'on air' : 'off'}`);
    // While on, the ones saying on make it so; while off, every source heard says off.
    if (says || !tally.on) deciding.push(sourceName(source));
  }
  return {
    state: tally.on ? 'Tally ON' : 'Tally off',
    sources: deciding.join(' + '),
    detail: detail.join(' · '),
    byHand: onAir !== tally.on,
  };
}

export class TallyIndicator {
  readonly #box = byId('tally', HTMLElement);
  readonly #pill = byId('tally-pill', HTMLElement);
  readonly #state = byId('tally-state', HTMLElement);
  readonly #sources = byId('tally-sources', HTMLElement);
  readonly #byHand = byId('tally-by-hand', HTMLElement);
  readonly #onAir: HTMLButtonElement;

  constructor(onAirButton: HTMLButtonElement) {
    this.#onAir = onAirButton;
    setText(this.#byHand, BY_HAND_TEXT);
  }

  render(snapshot: Snapshot): void {
    const tally = snapshot.tally;
    if (tally === null) {
      this.#box.hidden = true;
      if (this.#onAir.hasAttribute('title')) this.#onAir.removeAttribute('title');
      return;
    }
    const words = tallyWords(tally, snapshot.onAir);
    setText(this.#state, words.state);
    setText(this.#sources, words.sources);
    this.#byHand.hidden = !words.byHand;
    const className = `tally${tally.on ? ' on' : ''}${words.byHand ? ' by-hand' : ''}`;
    if (this.#box.className !== className) this.#box.className = className;
    const title = `${words.state}: ${words.detail}${words.byHand ? `. ${BY_HAND_TEXT}.` : '.'}`;
    if (this.#pill.title !== title) this.#pill.title = title;
    if (this.#onAir.title !== ON_AIR_FOLLOWS) this.#onAir.title = ON_AIR_FOLLOWS;
    this.#box.hidden = false;
  }
}
