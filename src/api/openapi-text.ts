// The OpenAPI document as GET /api/v1/openapi.json serves it, made from src by
// src/commands/openapi.ts on the first request. The service bundle has openapi-text.bundle.ts
// in its place, which reads the same text that the build made and wrote beside it
// (scripts/build.mjs, BUNDLE_STAND_INS).

/** The document's text, compact JSON. */
export async function openApiText(): Promise<string> {
  return JSON.stringify((await import('../commands/openapi.js')).buildOpenApiDocument());
}
