/** The Node flags the service runs with everywhere (see node-flags.mjs). */
export declare const NODE_FLAGS: readonly string[];
