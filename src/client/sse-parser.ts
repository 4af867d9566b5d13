// A Server-Sent Events parser for a stream read with fetch. The page reads the
// stream itself rather than through EventSource because EventSource hides the
// heartbeat comments, and those are how a half-open connection is noticed.
export interface SseEvent {
  readonly event: string;
  readonly data: string;
  readonly id: string | null;
}

/** Feed it decoded text in any pieces; it calls `onEvent` per complete event and `onComment` per comment line. */
export function createSseParser(onEvent: (event: SseEvent) => void, onComment: (text: string) => void = () => {}): (text: string) => void {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | null = null;
  // A chunk may end between \r and \n: the \n then belongs to the line already taken.
  let skipLeadingLf = false;

  const line = (text: string): void => {
    if (text === '') {
      if (data.length > 0) onEvent({ event: event === '' ? 'message' : event, data: data.join('\n'), id });
      event = '';
      data = [];
      return;
    }
    if (text.charAt(0) === ':') {
      onComment(text.slice(1).trim());
      return;
    }
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.charAt(0) === ' ') value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id') id = value;
  };

  return (text: string): void => {
    buffer += text;
    if (skipLeadingLf && buffer.charAt(0) === '\n') buffer = buffer.slice(1);
    skipLeadingLf = false;
    for (;;) {
      const cr = buffer.indexOf('\r');
      const lf = buffer.indexOf('\n');
      const end = cr < 0 ? lf : lf < 0 ? cr : Math.min(cr, lf);
      if (end < 0) return;
      const taken = buffer.slice(0, end);
      let rest = end + 1;
      if (buffer.charAt(end) === '\r') {
        if (end + 1 < buffer.length) {
          if (buffer.charAt(end + 1) === '\n') rest = end + 2;
        } else {
          skipLeadingLf = true;
        }
      }
      buffer = buffer.slice(rest);
      line(taken);
    }
  };
}
