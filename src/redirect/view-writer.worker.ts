// The Worker that owns view writes: its own SQLite connection, one transaction per batch,
// so that the request thread never waits on the disk.
import { openSqlite } from "../db/connection.ts";
import { createBatchWriter, type ViewBatch } from "./view-batch.ts";

declare const self: Worker;

type Message = { type: "open"; dbPath: string } | { type: "batch"; id: number; views: ViewBatch } | { type: "close" };

let sqlite: ReturnType<typeof openSqlite> | null = null;
let writeBatch: ((batch: ViewBatch) => void) | null = null;

self.onmessage = (event: MessageEvent<Message>) => {
  const message = event.data;
  if (message.type === "open") {
    sqlite = openSqlite(message.dbPath);
    // createBatchWriter checks each link once per batch; per-row foreign key checks would double the cost.
    sqlite.run("PRAGMA foreign_keys = OFF");
    writeBatch = createBatchWriter(sqlite);
    self.postMessage({ type: "ready" });
  } else if (message.type === "batch") {
    try {
      writeBatch!(message.views);
      self.postMessage({ type: "committed", id: message.id });
    } catch (error) {
      self.postMessage({ type: "failed", id: message.id, error: String(error) });
    }
  } else if (message.type === "close") {
    sqlite?.close();
    self.postMessage({ type: "closed" });
  }
};
