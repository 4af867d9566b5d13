// Comments in the config file: `// ...` to the end of the line and `/* ... */`,
// outside strings, as in tsconfig.json. The installed /etc/showclock/config.json
// explains itself with them. Each comment becomes spaces (newlines kept), so a
// JSON error still points at the right line and column.
export function stripJsonComments(text: string): string {
  let out = '';
  let i = 0;
  let inString = false;
  while (i < text.length) {
    const ch = text[i] as string;
    const next = text[i + 1];
    if (inString) {
      out += ch;
      if (ch === '\\' && next !== undefined) {
        out += next;
        i += 2;
        continue;
      }
      if (ch === '"') inString = false;
      i += 1;
      continue;
    }
    if (ch === '"') {
      inString = true;
      out += ch;
      i += 1;
      continue;
    }
    if (ch === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') {
        out += text[i] === '\r' ? '\r' : ' ';
        i += 1;
      }
      continue;
    }
    if (ch === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      // An unclosed comment is left as it is, for JSON.parse to report where it starts.
      if (end < 0) {
        out += text.slice(i);
        break;
      }
      out += text.slice(i, end + 2).replace(/[^\r\n]/g, ' ');
      i = end + 2;
      continue;
    }
    out += ch;
    i += 1;
  }
  return out;
}
