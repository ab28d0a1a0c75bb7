import { and, asc, count, eq, inArray } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { readSelect } from "../../../db/reader";
import { documents, licenses, msdocuments, products, shipments, wikis } from "../../../db/schema";
import type { TEnv } from "../../env";
import { storageFailureOf } from "../../lib/disk-space";
import type { TDbOrTx } from "../../lib/entity/entity";
import type { TLogger } from "../../lib/logger";
import { newStorageKey, type TStorage } from "../../lib/storage";
import { sanitizeFileName, sniffFileType } from "./file-types";

/** The documents column that points at an owner record. */
export type TOwnerColumn = "product_id" | "license_id" | "wiki_id" | "msdocument_id" | "shipment_id";

/** A workspace-scoped table that owns documents. */
export type TOwnerTable = SQLiteTable & { id: SQLiteColumn; workspace_id: SQLiteColumn };

/** One kind of owner: its documents column, its table and the API path its documents are served under. */
export type TDocumentOwnerConfig = { ownerColumn: TOwnerColumn; ownerTable: TOwnerTable; routeBase: string };

/** Every owner kind; routeBase is where server/app.ts mounts createDocumentRoutes for it. */
export const DOCUMENT_OWNERS = {
  product_id: { ownerColumn: "product_id", ownerTable: products, routeBase: "/api/products/documents" },
  license_id: { ownerColumn: "license_id", ownerTable: licenses, routeBase: "/api/licenses/documents" },
  wiki_id: { ownerColumn: "wiki_id", ownerTable: wikis, routeBase: "/api/wikis/documents" },
  msdocument_id: {
    ownerColumn: "msdocument_id",
    ownerTable: msdocuments,
    routeBase: "/api/shipping-documents/documents",
  },
  // Not mounted yet: shipments get their own document routes.
  shipment_id: { ownerColumn: "shipment_id", ownerTable: shipments, routeBase: "/api/shipments/documents" },
} as const satisfies Record<TOwnerColumn, TDocumentOwnerConfig>;

/** A document as the API shows it; `path` and `url` are both its download path. */
export type TDocument = {
  id: number;
  original_name: string;
  extension: string;
  path: string;
  url: string;
  content_type: string;
  size: number;
  created_at: string;
  document_type: string | null;
};

/** Why one file of an upload was refused. */
export type TUploadFailure = {
  name: string;
  /** "<name> file upload failed." */
  message: string;
  reason: string;
  code: "too_large" | "empty" | "type_not_allowed" | "storage_failed" | "save_failed";
};

/** What the document functions need; c.var satisfies it. */
export type TDocumentDeps = {
  db: TDbOrTx;
  storage: TStorage;
  env: Pick<TEnv, "uploadMaxBytes">;
  logger: TLogger;
};

type TDocumentRow = typeof documents.$inferSelect;

const TYPE_NOT_ALLOWED =
  "This file type is not allowed (PDF, images, Word, Excel, PowerPoint, plain text and CSV are).";

/** The API shape of a stored document. */
export function toDocument(row: TDocumentRow, ownerColumn: TOwnerColumn): TDocument {
  const path = `${DOCUMENT_OWNERS[ownerColumn].routeBase}/${row.id}`;
  return {
    id: row.id,
    original_name: row.original_name,
    extension: row.extension,
    path,
    url: path,
    content_type: row.content_type,
    size: row.size,
    created_at: row.created_at,
    document_type: row.document_type,
  };
}

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/**
 * Stores each file and records it against the owner. Files succeed or fail on their own: a refused
 * or broken file is reported in `failed` and never leaves a row without a file or a file without a
 * row. The caller has already checked that the owner is in `workspaceId`.
 */
export async function attachDocuments(
  deps: TDocumentDeps,
  owner: { ownerColumn: TOwnerColumn; ownerId: number; workspaceId: number; documentType?: string | null },
  files: File[],
): Promise<{ documents: TDocument[]; failed: TUploadFailure[] }> {
  const stored: TDocument[] = [];
  const failed: TUploadFailure[] = [];
  for (const file of files) {
    const name = sanitizeFileName(file.name);
    const fail = (code: TUploadFailure["code"], reason: string) =>
      failed.push({ name, message: `${name} file upload failed.`, reason, code });
    if (file.size > deps.env.uploadMaxBytes) {
      fail("too_large", `The file is larger than the ${megabytes(deps.env.uploadMaxBytes)} limit.`);
      continue;
    }
    if (file.size === 0) {
      fail("empty", "The file is empty.");
      continue;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    const type = sniffFileType(bytes, name);
    if (!type) {
      fail("type_not_allowed", TYPE_NOT_ALLOWED);
      continue;
    }
    const key = newStorageKey("documents");
    try {
      await deps.storage.put(key, bytes);
    } catch (error) {
      // A full disk is the server's problem, not the file's: the error handler answers 507.
      if (storageFailureOf(error)) throw error;
      deps.logger.error("could not store an uploaded document", { key, error: String(error) });
      fail("storage_failed", "The file could not be stored.");
      continue;
    }
    try {
      const [row] = await deps.db
        .insert(documents)
        .values({
          workspace_id: owner.workspaceId,
          [owner.ownerColumn]: owner.ownerId,
          document_type: owner.documentType ?? null,
          original_name: name,
          extension: type.extension,
          content_type: type.contentType,
          size: bytes.length,
          storage_key: key,
        })
        .returning();
      stored.push(toDocument(row, owner.ownerColumn));
    } catch (error) {
      // No row points at the file, so nothing would ever remove it: take it back now.
      deps.logger.error("could not record an uploaded document", { error: String(error) });
      await deps.storage
        .delete(key)
        .catch((e) => deps.logger.error("could not remove an unrecorded upload", { key, error: String(e) }));
      fail("save_failed", "The file could not be saved.");
    }
  }
  return { documents: stored, failed };
}

/** The documents of many owners at once, by owner id (oldest first), for embedding into records. */
export async function listDocuments(
  db: TDbOrTx,
  ownerColumn: TOwnerColumn,
  ownerIds: number[],
): Promise<Map<number, TDocument[]>> {
  const byOwner = new Map<number, TDocument[]>(ownerIds.map((id) => [id, []]));
  if (ownerIds.length === 0) return byOwner;
  const column = documents[ownerColumn];
  const rows = await readSelect(
    db,
    db
      .select()
      .from(documents)
      .where(inArray(column, [...new Set(ownerIds)]))
      .orderBy(asc(documents.id)),
  );
  for (const row of rows) {
    const ownerId = row[ownerColumn];
    if (ownerId !== null) byOwner.get(ownerId)?.push(toDocument(row, ownerColumn));
  }
  return byOwner;
}

/** An entity `decorate` hook: sets `documents` on each item from its id. */
export const documentsDecorator =
  (ownerColumn: TOwnerColumn) => async (db: TDbOrTx, items: Record<string, unknown>[]) => {
    const byOwner = await listDocuments(
      db,
      ownerColumn,
      items.map((item) => Number(item.id)),
    );
    for (const item of items) item.documents = byOwner.get(Number(item.id)) ?? [];
  };

/**
 * The storage keys of an owner's documents. Read them in the transaction that deletes the owner,
 * just before it: its rows go by ON DELETE CASCADE, and afterwards nothing says which files were
 * theirs; read any earlier and a document added in between would be left on disk.
 */
export async function storageKeysOf(
  db: TDbOrTx,
  ownerColumn: TOwnerColumn,
  ownerId: number,
): Promise<string[]> {
  const rows = await db
    .select({ key: documents.storage_key })
    .from(documents)
    .where(eq(documents[ownerColumn], ownerId));
  return rows.map((row) => row.key);
}

/** Removes stored files after their rows are gone (committed); a failure is logged, never thrown. */
export async function deleteOwnerFiles(
  deps: Pick<TDocumentDeps, "storage" | "logger">,
  storageKeys: string[],
): Promise<void> {
  for (const key of storageKeys) {
    await deps.storage
      .delete(key)
      .catch((error) =>
        deps.logger.error("could not remove a deleted document's file", { key, error: String(error) }),
      );
  }
}

/**
 * One document of the given owner kind, only when both the document and its owner belong to the
 * workspace; null otherwise, so another workspace's ids look exactly like missing ones.
 */
export async function findDocument(
  db: TDbOrTx,
  owner: Pick<TDocumentOwnerConfig, "ownerColumn" | "ownerTable">,
  workspaceId: number,
  documentId: number,
): Promise<TDocumentRow | null> {
  const [found] = await db
    .select({ document: documents })
    .from(documents)
    .innerJoin(owner.ownerTable, eq(owner.ownerTable.id, documents[owner.ownerColumn]))
    .where(
      and(
        eq(documents.id, documentId),
        eq(documents.workspace_id, workspaceId),
        eq(owner.ownerTable.workspace_id, workspaceId),
      ),
    )
    .limit(1);
  return found?.document ?? null;
}

/** True when the owner record exists in the workspace. */
export async function ownerExists(
  db: TDbOrTx,
  ownerTable: TOwnerTable,
  workspaceId: number,
  ownerId: number,
): Promise<boolean> {
  const [found] = await db
    .select({ id: ownerTable.id })
    .from(ownerTable)
    .where(and(eq(ownerTable.id, ownerId), eq(ownerTable.workspace_id, workspaceId)))
    .limit(1);
  return Boolean(found);
}

/** Deletes one of the workspace's documents and then its file; false when there is no such document. */
export async function deleteDocument(
  deps: Pick<TDocumentDeps, "db" | "storage" | "logger">,
  owner: Pick<TDocumentOwnerConfig, "ownerColumn" | "ownerTable">,
  workspaceId: number,
  documentId: number,
): Promise<boolean> {
  const row = await findDocument(deps.db, owner, workspaceId, documentId);
  if (!row) return false;
  // Row first: a leftover file is harmless, a row pointing at a missing file is a broken download.
  await deps.db
    .delete(documents)
    .where(and(eq(documents.id, row.id), eq(documents.workspace_id, workspaceId)));
  await deleteOwnerFiles(deps, [row.storage_key]);
  return true;
}

/** How many documents an owner record holds (the per-record cap counts them before an upload). */
export async function countDocuments(
  db: TDbOrTx,
  ownerColumn: TOwnerColumn,
  ownerId: number,
): Promise<number> {
  const [row] = await db.select({ n: count() }).from(documents).where(eq(documents[ownerColumn], ownerId));
  return row?.n ?? 0;
}
