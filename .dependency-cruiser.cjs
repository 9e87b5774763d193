// The house rules of STYLE.md ("arrows point inward"), checked by `pnpm deps:check`.
// Paths are repo-relative: workspace imports (@travelops/*) resolve through the pnpm
// symlinks and the `source` export condition to the target package's src/*.ts.
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

// Every app's package name, read from disk so a future apps/* is covered without an edit.
const appNames = readdirSync(join(__dirname, 'apps'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((entry) => {
    try {
      return [JSON.parse(readFileSync(join(__dirname, 'apps', entry.name, 'package.json'), 'utf8')).name];
    } catch {
      return [];
    }
  });
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
// '$^' never matches: with no app there is no app package to import.
const appPackage = appNames.length > 0 ? `^(${appNames.map(escapeRegExp).join('|')})(/|$)` : '$^';

// Tests and benchmarks may reach across layers (fixtures, in-process harnesses); only the
// "packages never import apps" and "apps never import apps" rules hold for them too.
const TESTS = '(\\.test\\.ts$|/test/|^bench/)';
// A package's own tooling (vitest/tsup configs at the package root) is not a layer either.
const outsideSrc = '^(packages|apps)/[^/]+/[^/]+$';
const notLayerCode = [TESTS, outsideSrc];

// npm packages, however they are declared (or not declared) in the importer's package.json.
const NPM = ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-bundled', 'npm-no-pkg', 'npm-unknown'];
// An npm package by name: resolved (pnpm's real path ends in node_modules/<name>/...) or,
// when the importer does not list it, the bare unresolved name.
const npmPackage = (names) => `(^|/node_modules/)(${names.join('|')})(/|$)`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-imports-no-workspace-package',
      severity: 'error',
      comment: 'packages/domain is the centre: it imports no other package or app of the workspace.',
      from: { path: '^packages/domain/', pathNot: notLayerCode },
      to: { path: ['^packages/(?!domain/)', '^apps/', '^@travelops/'] },
    },
    {
      name: 'domain-imports-only-valibot',
      severity: 'error',
      comment:
        'packages/domain uses no framework, database or HTTP library (express, helmet, knex, pg, ' +
        'ioredis, @electric-sql/*, knex-pglite, rate-limiter-flexible...): its only npm dependency is valibot.',
      from: { path: '^packages/domain/', pathNot: notLayerCode },
      // `unknown`: a package the domain does not list is unresolvable, and still not allowed.
      to: {
        dependencyTypes: [...NPM, 'unknown'],
        pathNot: [npmPackage(['valibot']), '^\\.', '^@travelops/'],
      },
    },
    {
      name: 'domain-imports-no-node-module',
      severity: 'error',
      comment:
        'packages/domain does no I/O and runs in browsers too (it owns the contract types the ' +
        'clients share): no node: module at all, node:fs/http/net/child_process/crypto... included. ' +
        'Ids need no node:crypto: ids.ts uses the Web Crypto global (globalThis.crypto), not an import.',
      from: { path: '^packages/domain/', pathNot: notLayerCode },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'domain-context-through-its-face',
      severity: 'error',
      comment:
        'A context of packages/domain/src is a module: another context reaches it only through its ' +
        'index.ts (the shared kernel, shared/, is open to all). Tests included: a test of one context ' +
        'uses another as any other caller does.',
      from: { path: '^packages/domain/src/([^/]+)/' },
      to: { path: '^packages/domain/src/(?!$1/|shared/)[^/]+/(?!index\\.ts$)' },
    },
    {
      name: 'domain-consumers-use-context-subpaths',
      severity: 'error',
      comment:
        'Outside packages/domain, a context is imported by its subpath (@travelops/domain/bookings), ' +
        "which lands on its index.ts; never a context's internal file.",
      from: { path: '^(packages/(?!domain/)|apps/|bench/)' },
      to: { path: '^packages/domain/src/(?![^/]+/index\\.ts$)' },
    },
    {
      name: 'db-imports-only-the-domain',
      severity: 'error',
      comment:
        'packages/db implements the domain ports with knex, pg and PGlite: among workspace packages it ' +
        'imports the domain only (no auth, jobs, webhooks, http).',
      from: { path: '^packages/db/', pathNot: notLayerCode },
      to: { path: ['^packages/(?!domain/|db/)', '^@travelops/(?!domain(/|$))'] },
    },
    {
      name: 'auth-imports-only-the-domain',
      severity: 'error',
      comment:
        'packages/auth (tokens, roles, sessions) is rules over domain ports: it imports the domain ' +
        'and no other workspace package (the database reaches it through those ports).',
      from: { path: '^packages/auth/', pathNot: notLayerCode },
      to: { path: ['^packages/(?!domain/|auth/)', '^@travelops/(?!domain(/|$))'] },
    },
    {
      name: 'jobs-import-the-domain-webhooks-and-mail-only',
      severity: 'error',
      comment:
        'packages/jobs runs domain use cases on a schedule, signs deliveries and sends guest e-mails: ' +
        'among workspace packages it imports the domain, webhooks and mail only; the apps hand it ' +
        'the database.',
      from: { path: '^packages/jobs/', pathNot: notLayerCode },
      to: {
        path: ['^packages/(?!domain/|webhooks/|mail/|jobs/)', '^@travelops/(?!(domain|webhooks|mail)(/|$))'],
      },
    },
    {
      name: 'jobs-drive-no-database-or-server',
      severity: 'error',
      comment:
        "Of npm packages, packages/jobs uses valibot (the jobs' settings both apps read) and " +
        'prom-client (the delivery metric both apps count), as it uses node:http for deliveries and ' +
        '@travelops/mail for SMTP: no driver, no framework.',
      from: { path: '^packages/jobs/', pathNot: notLayerCode },
      to: {
        dependencyTypes: [...NPM, 'unknown'],
        pathNot: [npmPackage(['valibot', 'prom-client']), '^\\.', '^@travelops/'],
      },
    },
    {
      name: 'mail-imports-the-domain-and-html-only',
      severity: 'error',
      comment:
        'packages/mail (the guest e-mail templates and the SMTP transport) implements a domain port: ' +
        'among workspace packages it imports the domain and html only; of npm packages, nodemailer.',
      from: { path: '^packages/mail/', pathNot: notLayerCode },
      to: {
        path: [
          '^packages/(?!domain/|html/|mail/)',
          '^@travelops/(?!(domain|html)(/|$))',
          npmPackage(['knex', 'knex-pglite', 'pg', '@electric-sql/[^/]+', 'express', 'helmet']),
        ],
      },
    },
    {
      name: 'logging-imports-only-the-domain',
      severity: 'error',
      comment:
        "packages/logging implements the domain's Logger port: it imports the domain and nothing else " +
        'of the workspace.',
      from: { path: '^packages/logging/', pathNot: notLayerCode },
      to: { path: ['^packages/(?!domain/|logging/)', '^@travelops/(?!domain(/|$))'] },
    },
    {
      name: 'webhooks-import-no-workspace-package',
      severity: 'error',
      comment:
        'packages/webhooks is published for integrators (sign, verify, the delivery policy): it stands ' +
        'alone, on node:crypto, and imports no workspace package.',
      from: { path: '^packages/webhooks/', pathNot: notLayerCode },
      to: { path: ['^packages/(?!webhooks/)', '^@travelops/'] },
    },
    {
      name: 'browser-apps-talk-through-the-client',
      severity: 'error',
      comment:
        'The console and the widget run in browsers and talk to the API over HTTP: among workspace ' +
        'packages they import @travelops/client only (never the domain, http or auth code).',
      from: { path: '^apps/(console|widget)/', pathNot: notLayerCode },
      to: { path: ['^packages/(?!client/)', '^@travelops/(?!client(/|$))'] },
    },
    {
      name: 'http-imports-no-db',
      severity: 'error',
      comment:
        'packages/http reaches use cases through the deps apps/api hands to createApp; ' +
        'it never imports packages/db (nor the drivers behind it).',
      from: { path: '^packages/http/', pathNot: notLayerCode },
      to: {
        path: [
          '^packages/db/',
          '^@travelops/db(/|$)',
          npmPackage(['knex', 'knex-pglite', 'pg', '@electric-sql/[^/]+']),
        ],
      },
    },
    {
      name: 'inner-packages-import-no-http',
      severity: 'error',
      comment:
        'db, auth, webhooks and jobs sit inside packages/http: they never import it, express or helmet.',
      from: { path: '^packages/(db|auth|webhooks|jobs)/', pathNot: notLayerCode },
      to: {
        path: [
          '^packages/http/',
          '^@travelops/http(/|$)',
          npmPackage(['express', 'helmet', '@types/express']),
        ],
      },
    },
    {
      name: 'octo-imports-the-domain-http-and-auth-only',
      severity: 'error',
      comment:
        'packages/octo is a wire protocol over the domain faces, built on the HTTP adapter: among ' +
        'workspace packages it imports domain, http and auth, never db (apps/api hands it the unit of work).',
      from: { path: '^packages/octo/', pathNot: notLayerCode },
      to: {
        path: [
          '^packages/(?!domain/|http/|auth/|octo/)',
          '^@travelops/(?!(domain|http|auth|octo)(/|$))',
          npmPackage(['knex', 'knex-pglite', 'pg', '@electric-sql/[^/]+']),
        ],
      },
    },
    {
      name: 'html-imports-nothing',
      severity: 'error',
      comment:
        'packages/html (the one escapeHtml of the pages and the e-mails) is a leaf: no workspace ' +
        'package, no npm or node: module, so http and jobs can both import it and point inward.',
      from: { path: '^packages/html/', pathNot: notLayerCode },
      to: { pathNot: '^packages/html/' },
    },
    {
      name: 'stripe-imports-only-the-domain',
      severity: 'error',
      comment:
        'packages/stripe adapts Stripe to a domain port: it imports the domain and the stripe SDK, ' +
        'never db, http, auth, jobs or webhooks; the composition root (apps/api) hands it to http.',
      from: { path: '^packages/stripe/', pathNot: notLayerCode },
      to: { path: ['^packages/(?!domain/|stripe/)', '^@travelops/(?!domain$)'] },
    },
    {
      name: 'only-the-adapter-imports-the-stripe-sdk',
      severity: 'error',
      comment:
        'The stripe SDK stays in packages/stripe: the domain stays provider-neutral and http reaches ' +
        'the provider through the deps apps/api hands to createApp.',
      from: { path: '^(packages|apps)/', pathNot: ['^packages/stripe/', ...notLayerCode] },
      to: { path: npmPackage(['stripe']) },
    },
    {
      name: 'packages-import-no-app',
      severity: 'error',
      comment: 'Apps are composition roots: no package imports one, not even from its tests.',
      from: { path: '^packages/' },
      to: { path: ['^apps/', appPackage] },
    },
    {
      name: 'apps-import-no-other-app',
      severity: 'error',
      comment:
        'Apps only assemble and never import each other, tests included: what two apps share ' +
        'belongs in a package (the worker jobs go to packages/jobs).',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/(?!$1/)' },
    },
    {
      name: 'no-cycle-between-packages',
      severity: 'error',
      comment: 'A cycle that leaves its package ties two packages into one: the arrows point one way only.',
      from: { path: '^(packages|apps)/([^/]+)/' },
      to: { circular: true, via: { pathNot: '^$1/$2/' } },
    },
    {
      name: 'cycle-inside-a-package',
      severity: 'warn',
      comment:
        'A cycle inside one package is allowed, but usually a sign that a module wants splitting. Type-only imports are left out: ports of two contexts may name each other (a booking port returns a departure), which costs nothing at run time.',
      from: { path: '^(packages|apps)/([^/]+)/' },
      to: {
        circular: true,
        dependencyTypesNot: ['type-only'],
        viaOnly: { path: '^$1/$2/', dependencyTypesNot: ['type-only'] },
      },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that cannot be resolved cannot be checked against the rules above.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)dist/', '(^|/)\\.turbo/', '(^|/)coverage/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      // `source` first: a workspace import lands on the package's src/*.ts, as in tests and tsc.
      conditionNames: ['source', 'import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
