// The page's write queue (writequeue.js): a failed write is flashed,
// and when the last write is answered the outline may reload.
import { WriteQueue } from "./writequeue.js";
import { flash } from "./flash.js";
import { SETTLED, emit } from "./events.js";

export const writes = new WriteQueue({
  onError: (err) => flash(String(err.message || err), true),
  onSettled: () => emit(SETTLED),
});
export const queue = (work) => writes.add(work);
