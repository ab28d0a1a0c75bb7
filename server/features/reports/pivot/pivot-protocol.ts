// Messages between the main thread (pivot-service.ts) and the pivot worker, tagged by connection id.

export type TPivotIn =
  | { type: "source"; databaseUrl: string; authToken?: string }
  | { type: "warm"; workspaceId: number }
  | { type: "open"; id: number; workspaceId: number }
  | { type: "request"; id: number; bytes: ArrayBuffer }
  | { type: "close"; id: number }
  /** Nothing is loaded and nobody is connected: close DuckDB, then say "stopped". */
  | { type: "stop" };

export type TPivotOut =
  | { type: "opened"; id: number }
  | { type: "response"; id: number; bytes: ArrayBuffer }
  | { type: "failed"; id: number; message: string }
  | { type: "idle" }
  | { type: "stopped" };

/** To the lines reader (pivot-lines.worker.ts): read this workspace's lines; a chunk was taken. */
export type TPivotLinesIn =
  | { type: "read"; databaseUrl: string; authToken?: string; workspaceId: number; pageSize: number }
  | { type: "taken" };

/** From the lines reader: the Arrow stream's chunks in order, then its end or why it failed. */
export type TPivotLinesOut =
  | { type: "chunk"; bytes: ArrayBuffer }
  | { type: "end" }
  | { type: "failed"; message: string };
