/**
 * The layer check (`npm run check:layers`, run by `npm test`): which folder of src/ may import which, as
 * docs/foundation.md's layout table says. cli, http and hosted sit on the domain; the domain on db,
 * providers and config; app, the composition root, may reach everything; nothing imports upward.
 */
const layer = (name) => `^src/${name}/`;

const below = {
  cli: ['app', 'domain', 'config'],
  http: ['domain', 'hosted', 'config'],
  hosted: ['domain', 'config'],
  domain: ['db', 'providers', 'config'],
  db: ['config'],
  providers: ['config'],
  config: [],
  client: [],
};

const layers = ['app', ...Object.keys(below)];

module.exports = {
  forbidden: [
    ...Object.entries(below).map(([from, allowed]) => ({
      name: `${from}-may-touch-only-${allowed.join('-') || 'itself'}`,
      comment: `src/${from} may import ${allowed.length ? allowed.map((name) => `src/${name}`).join(', ') : 'nothing else of src'}`,
      severity: 'error',
      from: { path: layer(from) },
      to: { path: `^src/(${layers.filter((name) => name !== from && !allowed.includes(name)).join('|')})/` },
    })),
    {
      name: 'domain-without-frameworks',
      comment: 'the domain is plain TypeScript: no hapi, no sequelize, no database driver',
      severity: 'error',
      from: { path: layer('domain') },
      to: { path: 'node_modules/(@hapi/|sequelize|pg/|sqlite3)' },
    },
    {
      name: 'hapi-only-in-http',
      comment: 'hapi is the HTTP layer\'s framework alone',
      severity: 'error',
      from: { path: '^src/', pathNot: [layer('http'), layer('app')] },
      to: { path: 'node_modules/@hapi/hapi' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js'] },
  },
};
