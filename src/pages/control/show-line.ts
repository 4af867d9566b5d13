// The console's header line, in the sticky transport band: when the show ends as
// things stand, and how far behind or ahead of its plan it is ("Show ends 17:42 ·
// 4:20 behind"), coloured by which. Redrawn at every snapshot and as the clock goes on.
import type { Schedule } from '../../domain/schedule.js';
import type { OffsetState } from '../../domain/schedule-text.js';
import type { TimeOfDaySettings } from '../../client/time-of-day.js';
import { byId, setText } from './elements.js';
import { showLineOf } from './schedule-text.js';

const STATE_CLASS: Readonly<Record<OffsetState, string>> = { behind: 'behind', ahead: 'ahead', onTime: 'on-time' };

export class ShowLine {
  readonly #line = byId('show-line', HTMLElement);

  render(schedule: Schedule, settings: TimeOfDaySettings): void {
    const line = showLineOf(schedule, settings);
    setText(this.#line, line.text);
    const className = `show-line${line.state === null ? '' : ` ${STATE_CLASS[line.state]}`}`;
    if (this.#line.className !== className) this.#line.className = className;
  }
}
