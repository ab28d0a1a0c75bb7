import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Hono } from "hono";
import type { TAppEnv } from "./context";
import { AppError } from "./errors";
import { readMultipartToDisk, removeSpool } from "./multipart-spool";

const root = mkdtempSync(path.join(tmpdir(), "tradewinds-spool-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const BOUNDARY = "spoolBoundary";
const encoder = new TextEncoder();

/** Bytes that look like delimiters, line ends and part ends, to trip a naive parser. */
function awkwardBytes(n: number, seed: number): Uint8Array {
  const pieces = [
    "\r\n",
    "--",
    `--${BOUNDARY.slice(0, 5)}`,
    `\r\n--${BOUNDARY.slice(0, -1)}`,
    "\r",
    "-",
    "x",
    "\u0000",
  ];
  const out: number[] = [];
  let s = seed;
  while (out.length < n) {
    s = (s * 1103515245 + 12345) >>> 0;
    out.push(...encoder.encode(pieces[s % pieces.length]));
  }
  return new Uint8Array(out.slice(0, n));
}

function body(
  parts: ({ name: string; value: string } | { name: string; file: string; bytes: Uint8Array })[],
) {
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    const disposition =
      "value" in part
        ? `form-data; name="${part.name}"`
        : `form-data; name="${part.name}"; filename="${part.file}"`;
    chunks.push(encoder.encode(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n\r\n`));
    chunks.push("value" in part ? encoder.encode(part.value) : part.bytes, encoder.encode("\r\n"));
  }
  chunks.push(encoder.encode(`--${BOUNDARY}--\r\n`));
  return new Uint8Array(Buffer.concat(chunks));
}

/** The body as a stream of chunks of `size` bytes. */
const chunked = (bytes: Uint8Array, size: number) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.length; at += size) controller.enqueue(bytes.slice(at, at + size));
      controller.close();
    },
  });

let spoolCount = 0;
function appFor(maxParts = 10, maxFileBytes = 1024 * 1024, maxBodyBytes?: number) {
  return new Hono<TAppEnv>()
    .onError((error, c) => c.json({ message: error.message }, error instanceof AppError ? 422 : 500))
    .post("/", async (c) => {
      const spoolDir = path.join(root, `spool-${++spoolCount}`);
      try {
        const parsed = await readMultipartToDisk(c, {
          field: "documents",
          maxParts,
          tooManyMessage: "Too many",
          maxFileBytes,
          maxBodyBytes,
          tooLarge: () => new AppError("PAYLOAD_TOO_LARGE", "Body too large"),
          spoolDir,
        });
        const summary: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(parsed)) {
          const values = [value].flat();
          summary[key] = await Promise.all(
            values.map(async (v) =>
              typeof v === "string"
                ? v
                : {
                    name: v.name,
                    size: v.size,
                    hash: Bun.hash(new Uint8Array(await v.arrayBuffer())).toString(),
                  },
            ),
          );
        }
        return c.json(summary);
      } finally {
        removeSpool(spoolDir);
      }
    });
}

const post = (app: ReturnType<typeof appFor>, bytes: Uint8Array, size: number) =>
  app.request("/", {
    method: "POST",
    headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
    body: chunked(bytes, size),
    // @ts-expect-error Bun's fetch needs it for a stream body
    duplex: "half",
  });

describe("readMultipartToDisk", () => {
  const a = awkwardBytes(70_000, 1);
  const b = awkwardBytes(333, 2);
  const bytes = body([
    { name: "id", value: "42" },
    { name: "documents[]", file: "a.pdf", bytes: a },
    { name: "documents[]", file: "b ünï.pdf", bytes: b },
    { name: "documents[]", file: "empty.pdf", bytes: new Uint8Array(0) },
  ]);
  const expected = {
    id: ["42"],
    "documents[]": [
      { name: "a.pdf", size: a.length, hash: Bun.hash(a).toString() },
      { name: "b ünï.pdf", size: b.length, hash: Bun.hash(b).toString() },
      { name: "empty.pdf", size: 0, hash: Bun.hash(new Uint8Array(0)).toString() },
    ],
  };

  test.each([1, 2, 7, 61, 4096, 1 << 20])(
    "chunks of %d bytes give the same parts, byte for byte",
    async (size) => {
      const res = await post(appFor(), bytes, size);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(expected);
    },
  );

  test("more parts than allowed is refused as they arrive", async () => {
    const many = body(
      Array.from({ length: 50 }, (_, i) => ({ name: "documents[]", file: `f${i}.pdf`, bytes: b })),
    );
    const res = await post(appFor(5), many, 512);
    expect(res.status).toBe(422);
    expect(((await res.json()) as { message: string }).message).toBe("Too many");
  });

  test("a file over the limit is kept only one byte past it, so its size says it is too large", async () => {
    const res = await post(appFor(10, 1000), bytes, 4096);
    const parsed = (await res.json()) as { "documents[]": { size: number }[] };
    expect(parsed["documents[]"][0].size).toBe(1001);
  });

  test("a body cut short or without parts is a 422, and the spool folder is removed", async () => {
    for (const broken of [
      bytes.slice(0, bytes.length - 10),
      encoder.encode("no parts here"),
      new Uint8Array(0),
    ]) {
      const res = await post(appFor(), broken, 100);
      expect(res.status).toBe(422);
    }
    expect(readdirSync(root).filter((name) => existsSync(path.join(root, name)))).toEqual([]);
  });

  test("a streamed body over the whole-body cap is refused as it arrives (no Content-Length to check)", async () => {
    const res = await post(appFor(10, 1024 * 1024, 10_000), bytes, 4096);
    expect(((await res.json()) as { message: string }).message).toBe("Body too large");
  });
});
