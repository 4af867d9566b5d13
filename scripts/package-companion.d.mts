// Types for scripts/package-companion.mjs, so tests can build the Companion module package in-process.
export function packageCompanionModule(options?: { outDir?: string; log?: (line: string) => void }): Promise<{ tarball: string; output: string }>;
