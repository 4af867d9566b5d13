// A push stream's body read as text to its end, with a watchdog: a stream that delivers
// nothing, not even a heartbeat, for `silenceMs` is cancelled, so a link that died without
// closing (a pulled cable, a frozen box) ends the read like one that closed. Shared by the
// pages that hold a stream open (the display, the venue overview).
export async function readStreamText(reader: ReadableStreamDefaultReader<Uint8Array>, onText: (text: string) => void, silenceMs: number): Promise<void> {
  const decoder = new TextDecoder();
  let watchdog: ReturnType<typeof setTimeout> | null = null;
  const arm = (): void => {
    if (watchdog !== null) clearTimeout(watchdog);
    watchdog = setTimeout(() => void reader.cancel().catch(() => {}), silenceMs);
  };
  arm();
  try {
    for (;;) {
      // No destructuring: esbuild cannot lower it for the Safari 12 target.
      const chunk = await reader.read();
      if (chunk.done === true) return;
      arm();
      onText(decoder.decode(chunk.value, { stream: true }));
    }
  } finally {
    if (watchdog !== null) clearTimeout(watchdog);
  }
}
