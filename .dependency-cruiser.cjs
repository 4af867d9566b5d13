// Which folder of src/ may import which (README.md, "Development"). `npm test`
// runs `depcruise src --config .dependency-cruiser.cjs`; `npm run deps` alone.
// Type-only imports count (tsPreCompilationDeps): every import circle the tree
// had before issue 28 went through an `import type`.
//
// Layers (lower to higher, each importing only downward): domain, client, schema,
// commands, app, log, config, keys, store, systemd, push, web, venue (the venue's other rooms, watched
// for the overview). Adapters, the ways
// in and out: api, pages, osc, gpio, tally, mqtt, mdns, cec, companion, cli. src/http is the composition
// of the HTTP side (the one hono app mounting api and pages); main.ts wires it all.
const ADAPTERS = 'api|pages|osc|gpio|tally|mqtt|mdns|cec|companion|cli';
const LAYERS = 'domain|client|schema|commands|app|log|config|keys|store|systemd|push|web|venue';
/** The HTTP adapter: its composition, the API, the shared hono plumbing, the pages' server side (src/pages/*.ts). */
const HTTP_SIDE = ['^src/(http|api|web)/', '^src/pages/[^/]+\\.ts$'];
const HONO = '(^|/)node_modules/(hono|@hono/[^/]+)/';
/** Node's modules that talk to the network or the disk, as depcruise names them (`node:net` resolves to `net`). */
const NODE_IO = '^(node:)?(net|http|https|http2|dgram|tls|fs|fs/promises|child_process)$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'no import circle anywhere in src/, type-only imports included',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'adapter-not-to-adapter',
      severity: 'error',
      comment: 'an adapter imports layers, never another adapter nor src/http (the composition)',
      from: { path: `^src/(${ADAPTERS})/` },
      to: { path: `^src/(${ADAPTERS}|http)/`, pathNot: '^src/$1/' },
    },
    {
      name: 'layer-not-to-adapter',
      severity: 'error',
      comment: 'layers sit under every adapter: none of them imports one, nor src/http',
      from: { path: `^src/(${LAYERS})/` },
      to: { path: `^src/(${ADAPTERS}|http)/` },
    },
    {
      name: 'http-side-stays-inside',
      severity: 'error',
      comment: 'only the HTTP side itself and main.ts import from src/http, src/api, src/web and src/pages/*.ts',
      from: { path: '^src/', pathNot: ['^src/main\\.ts$', ...HTTP_SIDE] },
      to: { path: HTTP_SIDE },
    },
    {
      name: 'composition-only-from-main',
      severity: 'error',
      comment: 'src/http (createApp) is imported by main.ts alone',
      from: { path: '^src/', pathNot: ['^src/main\\.ts$', '^src/http/'] },
      to: { path: '^src/http/' },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'the engine: no node: modules, no packages, no other folder',
      from: { path: '^src/domain/' },
      to: { pathNot: '^src/domain/' },
    },
    {
      name: 'client-is-pure',
      severity: 'error',
      comment: 'what every screen computes (pages, Companion, OSC feedback): src/domain and itself only',
      from: { path: '^src/client/' },
      to: { pathNot: '^src/(client|domain)/' },
    },
    {
      name: 'commands-no-hono-no-io',
      severity: 'error',
      comment: 'the vocabulary every adapter speaks: no hono, no sockets, no files',
      from: { path: '^src/commands/' },
      to: { path: [HONO, NODE_IO] },
    },
    {
      name: 'commands-only-downward',
      severity: 'error',
      comment: 'the vocabulary stands on the engine and zod only',
      from: { path: '^src/commands/' },
      to: { path: '^src/', pathNot: '^src/(commands|domain|schema)/' },
    },
    {
      name: 'push-under-http',
      severity: 'error',
      comment: 'the SSE hub is a layer under the HTTP side: no hono, nothing of the web side',
      from: { path: '^src/push/' },
      to: { path: ['^src/', HONO], pathNot: '^src/(push|domain|app|log)/' },
    },
    {
      name: 'browser-pages-pure',
      severity: 'error',
      comment: 'the browser bundles: src/domain, src/client and the page folders only',
      from: { path: '^src/pages/[^/]+/' },
      to: { pathNot: '^src/(domain|client|pages/[^/]+/)' },
    },
    {
      name: 'companion-shares-domain-and-client',
      severity: 'error',
      comment: 'the Companion bundle shares exactly src/domain and src/client with the service and the pages',
      from: { path: '^src/companion/' },
      to: { pathNot: ['^src/(companion|domain|client)/', '(^|/)node_modules/@companion-module/base/'] },
    },
    {
      name: 'service-not-to-companion',
      severity: 'error',
      comment: 'the Companion module is a bundle of its own: the service never imports it',
      from: { path: '^src/', pathNot: '^src/companion/' },
      to: { path: '^src/companion/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Without it `import type` edges vanish, and so would every circle the tree had.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
