// Types for scripts/companion-deps.mjs, so the TypeScript Companion host can start modules on Companion's node22 runtime.
export const MODULE_PACKAGE_DIR: string;
export const MODULE_NODE_MODULES: string;
export const COMPANION_NODE_VERSION: string;
export function companionNode(): string;
export function companionEnv(node: string, extra?: Record<string, string>): Record<string, string | undefined>;
export function companionDepsCurrent(): boolean;
export function ensureCompanionDeps(options?: { log?: (line: string) => void }): { node: string; installed: boolean; output: string };
