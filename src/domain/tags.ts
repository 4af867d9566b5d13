// The room's tags: made, renamed, recoloured and deleted. Deleting a tag clears it
// from every timer that carried it, in the same change, so no timer ever points at
// a tag that is gone. Unknown tag ids are refused naming the field (`tagId`), as a
// field of the request, never as a missing page.
import { MAX_TAGS, TAG_ID_MAX_CHARS, TAG_NAME_MAX_CHARS } from './limits.js';
import { textProblem } from './text-rules.js';
import type { Room, Tag } from './types.js';

export type TagReduced = { readonly ok: true; readonly room: Room } | { readonly ok: false; readonly message: string };

/** `#rrggbb` or `rrggbb`, any case. */
const COLOUR = /^#?[0-9a-fA-F]{6}$/;

/** `#rrggbb` in lower case, as the room keeps it; null when `text` is no such colour. */
export function canonicalColour(text: string): string | null {
  return COLOUR.test(text) ? `#${text.replace('#', '').toLowerCase()}` : null;
}

export function unknownTag(id: string): string {
  return id === '' ? 'tagId: give the id of one of the room\'s tags (state.tags lists them)' : `tagId: no tag with id "${id.slice(0, TAG_ID_MAX_CHARS)}" in the room; state.tags lists them`;
}

/** The problem with a timer's tagId (null is no tag), or null when the room has it. */
export function tagIdProblem(room: Room, tagId: string | null | undefined): string | null {
  if (tagId === undefined || tagId === null) return null;
  return room.tags.some((t) => t.id === tagId) ? null : unknownTag(tagId);
}

function nameProblem(name: string): string | null {
  return textProblem('name', name, { maxChars: TAG_NAME_MAX_CHARS, mustShow: true });
}

export function createTag(room: Room, id: string, name: string, colour: string): TagReduced {
  const trimmed = name.trim();
  const problem = nameProblem(trimmed);
  if (problem !== null) return { ok: false, message: problem };
  const shade = canonicalColour(colour);
  if (shade === null) return { ok: false, message: `colour: must be #rrggbb (six hex digits), e.g. #ff9f0a; got ${JSON.stringify(colour)}` };
  if (id.length === 0 || id.length > TAG_ID_MAX_CHARS || room.tags.some((t) => t.id === id)) return { ok: false, message: `tagId: "${id}" is taken` };
  if (room.tags.length >= MAX_TAGS) return { ok: false, message: `the room's tags are full: at most ${MAX_TAGS}; delete one before adding another` };
  const tag: Tag = { id, name: trimmed, colour: shade };
  return { ok: true, room: { ...room, tags: [...room.tags, tag] } };
}

export function updateTag(room: Room, id: string, name: string | undefined, colour: string | undefined): TagReduced {
  if (name === undefined && colour === undefined) return { ok: false, message: 'tag update needs at least one field: name or colour' };
  const existing = room.tags.find((t) => t.id === id);
  if (existing === undefined) return { ok: false, message: unknownTag(id) };
  const trimmed = name === undefined ? existing.name : name.trim();
  const problem = nameProblem(trimmed);
  if (problem !== null) return { ok: false, message: problem };
  const shade = colour === undefined ? existing.colour : canonicalColour(colour);
  if (shade === null) return { ok: false, message: `colour: must be #rrggbb (six hex digits), e.g. #ff9f0a; got ${JSON.stringify(colour)}` };
  const tag: Tag = { id, name: trimmed, colour: shade };
  return { ok: true, room: { ...room, tags: room.tags.map((t) => (t.id === id ? tag : t)) } };
}

export function deleteTag(room: Room, id: string): TagReduced {
  if (!room.tags.some((t) => t.id === id)) return { ok: false, message: unknownTag(id) };
  return {
    ok: true,
    room: {
      ...room,
      tags: room.tags.filter((t) => t.id !== id),
      timers: room.timers.map((t) => (t.tagId === id ? { ...t, tagId: null } : t)),
    },
  };
}
