// Text put into the box's HTML pages: every character that could open markup or
// end an attribute becomes a character reference, so what a person typed (a
// question, a label) is always shown as the text it is.
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
