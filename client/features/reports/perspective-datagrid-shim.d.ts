// @perspective-dev/viewer-datagrid is imported for its side effect (it registers the grid plugin),
// mapped in by tsconfig "paths": its own types pull in the viewer's sources, which augment the global
// Document for every other module in the program.
export {};
