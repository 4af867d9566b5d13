// Keeps the screen from sleeping where the browser allows it (Screen Wake Lock:
// secure contexts only, such as the kiosk on localhost). The lock is released
// whenever the page is hidden, so it is asked for again when it is shown.
export function keepAwake(): void {
  if (!('wakeLock' in navigator)) return;
  const ask = (): void => {
    if (document.visibilityState !== 'visible') return;
    navigator.wakeLock.request('screen').catch(() => {
      // Refused (no user gesture, power saving, not allowed): the screen may sleep; nothing else to do.
    });
  };
  document.addEventListener('visibilitychange', ask);
  ask();
}
