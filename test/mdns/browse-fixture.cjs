// Runs browseBoxes from a built dist/showclock-mdns.cjs (its path in argv[2]) in a
// process of its own, so a test can start it inside a network namespace: one JSON
// line per event, {"event":"found"|"updated"|"gone","at":<Date.now()>,"box":FoundBox},
// and {"event":"log",...} for what the browser logs. Ends on SIGTERM.
'use strict';
const { browseBoxes } = require(process.argv[2]);

const print = (object) => process.stdout.write(`${JSON.stringify(object)}\n`);
const log = (level) => (fields, message) => print({ event: 'log', level, at: Date.now(), fields: typeof fields === 'string' ? fields : String(fields && fields.err ? fields.err : ''), message });
const logger = { trace: log('trace'), debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error'), fatal: log('fatal') };

const browser = browseBoxes({
  onFound: (box) => print({ event: 'found', at: Date.now(), box }),
  onUpdated: (box) => print({ event: 'updated', at: Date.now(), box }),
  onGone: (box) => print({ event: 'gone', at: Date.now(), box }),
  logger,
});
print({ event: 'browsing', at: Date.now() });
process.on('SIGTERM', () => {
  void browser.close().then(() => process.exit(0));
});
