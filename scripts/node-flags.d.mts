/** The Node flags the service runs with everywhere (see node-flags.mjs). */
export declare const NODE_FLAGS: readonly string[];
/** The process environment the service runs with beside the flags, everywhere (see node-flags.mjs). */
export declare const NODE_ENVIRONMENT: Readonly<Record<string, string>>;
