// @ts-check
// Runs in a worker thread: copies the write-ahead log back into the database file every
// `intervalMs`, so the fsyncs of a checkpoint never stall the event loop that answers requests.
// Plain JavaScript that imports only packages, so it also runs beside the test run's
// esbuild-compiled entries (test/_compiled-entries.ts), which copy it there.
import { pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import Database from "libsql";

/** @type {{ path: string; intervalMs: number; timeoutMs: number }} */
const { path, intervalMs, timeoutMs } = workerData;
// `mode=rw` never creates the file: a database removed meanwhile must stay missing, so that the
// server reports it unavailable instead of finding an empty one.
const uri = `${pathToFileURL(path).href}?mode=rw`;

function checkpointOnce() {
  /** @type {InstanceType<typeof Database> | undefined} */
  let connection;
  try {
    // A connection per pass: a file replaced meanwhile is simply the next pass's file.
    connection = new Database(uri, { timeout: timeoutMs });
    connection.exec("PRAGMA wal_checkpoint(PASSIVE)");
    // A pass done: the server only counts them (tests wait on the count).
    parentPort?.postMessage(null);
  } catch {
    // Missing, unreadable or busy: the server's own probe reports an outage; try again next pass.
  } finally {
    connection?.close();
  }
}

const passes = setInterval(checkpointOnce, intervalMs);
// Asked to stop, the worker ends between passes, never inside one: terminated in the middle of a libsql call, the
// native module panics (neon's "PendingException") and aborts the whole process, turning a clean stop into SIGABRT.
parentPort?.once("message", () => {
  clearInterval(passes);
  parentPort?.close();
});
