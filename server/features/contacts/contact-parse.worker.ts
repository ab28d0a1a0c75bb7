// Parses and validates a contacts CSV for the CLI's import on a thread of its own (decision 009): the
// main thread then only matches and writes, and is the import's critical path with the recording of
// the screenings. Each chunk's rows go back in one message, in order; what the parser refuses is
// sent as the same file error the main thread's parser would throw.
import type { TContactValues } from "../../../db/contracts/contacts";
import {
  ImportFileError,
  RowReader,
  type TLookups,
  type TParsedChunk,
  type TParseReply,
  type TParseRequest,
} from "./contact-rows";

declare const self: Worker;

let reader: RowReader | null = null;
let current: TParsedChunk = { rows: 0, valid: [], rejected: [], isLast: false };
let hasFailed = false;

function start(lookups: TLookups) {
  reader = new RowReader(lookups, {
    onRow: () => {
      current.rows++;
    },
    onValid: (values: TContactValues) => {
      current.valid.push(values);
    },
    onReject: (line, errors) => {
      current.rejected.push([line, errors]);
    },
  });
}

self.onmessage = (event: MessageEvent<TParseRequest>) => {
  const message = event.data;
  if (message.type === "init") {
    start(message.lookups);
    self.postMessage({ type: "ready" } satisfies TParseReply);
    return;
  }
  if (hasFailed || !reader) return;
  try {
    if (message.type === "chunk") reader.push(message.text);
    else {
      reader.end();
      current.isLast = true;
    }
    self.postMessage({ type: "parsed", ...current } satisfies TParseReply);
    current = { rows: 0, valid: [], rejected: [], isLast: false };
  } catch (error) {
    hasFailed = true;
    self.postMessage({
      type: "error",
      message: String((error as Error)?.message ?? error),
      isFileError: error instanceof ImportFileError,
    } satisfies TParseReply);
  }
};
