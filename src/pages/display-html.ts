// The display page's markup (kiosk and viewers). No inline script or style: the
// CSP allows only /assets from the box. The page finds its stream and time
// endpoints from its own URL, so nothing secret is written into it.
// The audience question has its own box under the message's; the audience link's
// code sits inside the clock, whose padding keeps the digits beside it (screen.css).
// The optional over/under, show end and aux timer share a row of their own under
// those boxes (screen.css), so the time, fitted in what they leave, is never under them.
export const DISPLAY_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<meta name="color-scheme" content="dark">
<title>Showclock</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/display.css">
<script src="/assets/display.js" defer></script>
</head>
<body>
<main id="screen" class="screen tone-normal">
<div class="top"><div class="side"><img id="logo" class="logo" alt="" hidden></div><div class="titles"><div id="tag" class="tag" hidden></div><div id="label" class="label"></div><div id="speaker" class="speaker"></div></div><div class="side"><div id="onair" class="onair" hidden>ON AIR</div></div></div>
<div id="clock" class="clock"><div id="time" class="time">&nbsp;</div><div id="mark" class="mark" hidden></div><img id="ask-link" class="ask-link" alt="" hidden></div>
<div id="message" class="message" hidden><div id="message-text" class="message-text"></div></div>
<div id="question" class="question" hidden><div id="question-text" class="question-text"></div><div id="question-name" class="question-name" hidden></div></div>
<div id="extras" class="extras" hidden><div id="aux" class="aux" hidden><span id="aux-label" class="aux-label"></span><span id="aux-time" class="aux-time"></span></div><span id="over-under" class="over-under" hidden></span><span id="show-end" class="show-end" hidden></span></div>
<div class="progress"><div id="bar" class="bar"></div></div>
<div id="info" class="info" hidden><span id="next" class="next"></span><span id="tod" class="tod"></span></div>
<div id="link" class="link" hidden>reconnecting</div>
</main>
<div id="clock-warning" class="clock-warning" hidden>Clock not synchronised</div>
<div id="blackout" class="blackout" hidden></div>
<button type="button" id="sound" class="sound" hidden>Tap to enable sound</button>
</body>
</html>
`;
