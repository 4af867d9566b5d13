// Types for scripts/build.mjs, so TypeScript tests can build the pages into a temporary directory.
export function buildServer(options?: { minify?: boolean }): Promise<void>;
export function buildPages(options?: { outdir?: string; minify?: boolean; only?: readonly string[] }): Promise<string[]>;
export function warmCodeCache(cacheFile: string, options?: { timeoutMs?: number }): Promise<void>;
export function serviceBundleOptions(options: { sourceRoot?: string; outfile: string; minify?: boolean }): import('esbuild').BuildOptions;
export function writeBundleSideFiles(dir: string, options?: { sourceRoot?: string; minify?: boolean }): Promise<void>;
export function openApiDocument(sourceRoot?: string): Promise<Record<string, unknown>>;
export const BESIDE_BUNDLE: readonly string[];
