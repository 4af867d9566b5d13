// Request bodies above this are refused with 413 (decisions.md, "JSON bodies").
export const MAX_BODY_BYTES = 16 * 1024;
