export * from "./auth";
export * from "./catalogue";
export * from "./contacts";
export * from "./documents";
export * from "./list-versions";
export * from "./reference";
export * from "./screening";
export * from "./shipments";
