// Keeps the screen from sleeping. The Screen Wake Lock API works only in secure
// contexts (the kiosk on localhost, https); a phone or tablet on the box's plain
// http:// link has none, so there a silent, muted video plays in a loop (what
// NoSleep.js does): browsers keep the screen on while a video plays. The lock is
// released whenever the page is hidden, so both are asked for again when it is shown.

interface KeepAwakeMedia {
  readonly webm: string;
  readonly mp4: string;
}

declare global {
  interface Window {
    showclockKeepAwakeMedia?: KeepAwakeMedia;
  }
}

/** The silent videos come as a script of their own, loaded only by a screen that needs them. */
const MEDIA_SCRIPT = '/assets/keep-awake-media.js';

function startVideo(): void {
  let video: HTMLVideoElement | null = null;
  const play = (): void => {
    if (video === null || document.visibilityState !== 'visible') return;
    const played = video.play();
    // Refused until a tap on some browsers: the tap below tries again.
    if (played !== undefined) played.catch(() => undefined);
  };
  const script = document.createElement('script');
  script.src = MEDIA_SCRIPT;
  script.onload = (): void => {
    const media = window.showclockKeepAwakeMedia;
    if (media === undefined) return;
    const v = document.createElement('video');
    v.muted = true;
    v.loop = true;
    v.setAttribute('muted', '');
    v.setAttribute('playsinline', '');
    v.setAttribute('aria-hidden', 'true');
    v.className = 'keep-awake';
    v.src = v.canPlayType('video/webm') !== '' ? media.webm : media.mp4;
    document.body.appendChild(v);
    video = v;
    play();
  };
  document.head.appendChild(script);
  document.addEventListener('visibilitychange', play);
  document.addEventListener('click', play);
  document.addEventListener('touchend', play);
}

export function keepAwake(): void {
  if (!('wakeLock' in navigator) || !window.isSecureContext) {
    startVideo();
    return;
  }
  const ask = (): void => {
    if (document.visibilityState !== 'visible') return;
    navigator.wakeLock.request('screen').catch(() => {
      // Refused (no user gesture, power saving, not allowed): the screen may sleep; nothing else to do.
    });
  };
  document.addEventListener('visibilitychange', ask);
  ask();
}
