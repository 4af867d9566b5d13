// Sends one question to the box as JSON and reads the answer into what the page
// says: received (201), the box's own reason (its `error`), or that it did not
// arrive. Nothing here touches the page, so the page decides how to show it.

export type SendResult = { readonly ok: true } | { readonly ok: false; readonly message: string };

export const NOT_SENT = 'not sent: check the Wi-Fi and try again';

/**
 * Long enough for a slow hall Wi-Fi and the box's save to disk; short enough that
 * a request lost on the way does not leave the button disabled for good. A race,
 * not AbortController: Safari 12.0 has the controller but its fetch ignores it.
 */
const GIVE_UP_MS = 30_000;

function afterTimeout(ms: number): Promise<null> {
  return new Promise((resolve) => setTimeout(() => resolve(null), ms));
}

async function errorOf(response: Response): Promise<string> {
  try {
    const body: unknown = await response.json();
    if (typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string') {
      return (body as { error: string }).error;
    }
  } catch {
    // Not JSON (a proxy's page, a cut-off body): say what is known.
  }
  return `not sent: the box answered ${response.status}; try again`;
}

export async function sendQuestion(url: string, text: string, name: string, giveUpMs: number = GIVE_UP_MS): Promise<SendResult> {
  let response: Response | null;
  try {
    const request = fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ text, name }),
      credentials: 'same-origin',
      cache: 'no-store',
    });
    response = await Promise.race([request, afterTimeout(giveUpMs)]);
  } catch {
    return { ok: false, message: NOT_SENT };
  }
  if (response === null) return { ok: false, message: NOT_SENT };
  if (response.status === 201) return { ok: true };
  return { ok: false, message: await errorOf(response) };
}
