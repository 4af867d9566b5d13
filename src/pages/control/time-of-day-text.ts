// The console reads and writes times of day with the code in src/client, which
// the Companion module shares (a key typed "19:30" means what the console's
// running order means by it): re-exported here so the console's imports stay.
export { instantText, parseInstantText, type DayChoice } from '../../client/time-of-day-text.js';
