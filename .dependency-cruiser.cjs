// Import direction checks (issue #15): `npm run lint:cycles`, part of `npm run lint`. test/import-cycles.test.ts
// shows it failing on a deliberate cycle (test/fixtures/import-cycle).
// Type-only imports count too: a cycle through types still ties the two modules' designs together.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Imports run one way: features depend on the shell, stores on their interface, never back.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(node_modules|/dist/|\\.d\\.ts$)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
