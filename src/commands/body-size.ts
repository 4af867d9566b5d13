// Request bodies above this are refused with 413 (decisions.md, "JSON bodies").
export const MAX_BODY_BYTES = 16 * 1024;
/** An import of the running order (running-order-routes.ts): a hundred long labels in four-byte characters fit; a file a hundred times that does not. */
export const MAX_IMPORT_BYTES = 256 * 1024;
