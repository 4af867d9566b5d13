// The audience link's code on a screen (display setting showAskLink): an <img> of
// the page's own ask-link.svg (/display/ask-link.svg on the kiosk, /view/{key}/
// ask-link.svg on a viewer), which the box answers with 404 while the setting is
// off. It is fetched again each time the setting turns on and after a lost link
// comes back (the box may have restarted with a new audience key); a numbered
// query makes each of those a new request, as the same src would not reload.
// Shown only once loaded, so a refused or failed load leaves no broken image.

export interface AskLinkImage {
  /** The room's setting; a change to on loads the code afresh. */
  show(on: boolean): void;
  /** Loads it again if it is shown (after a reconnection). */
  reload(): void;
}

export function askLinkImage(img: HTMLImageElement, url: string): AskLinkImage {
  let on = false;
  let loads = 0;
  img.addEventListener('load', () => {
    img.hidden = !on;
  });
  img.addEventListener('error', () => {
    img.hidden = true;
  });
  const load = (): void => {
    loads += 1;
    img.setAttribute('src', `${url}?r=${loads}`);
  };
  return {
    show(wanted) {
      if (wanted === on) return;
      on = wanted;
      if (on) load();
      else img.hidden = true;
    },
    reload() {
      if (on) load();
    },
  };
}
