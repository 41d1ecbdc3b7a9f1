// A write queue: writes go to the server one after another, in the
// order they were made, so typing never waits for the network and a
// draft learns its place when its turn comes. A write that fails is
// reported and the next one still goes.

export class WriteQueue {
  // onError(err) hears of a write that failed; onSettled() is called
  // each time the queue has run dry.
  constructor({ onError = () => {}, onSettled = () => {} } = {}) {
    this.chain = Promise.resolve();
    this.pending = 0;
    this.onError = onError;
    this.onSettled = onSettled;
  }

  // add puts work (a function returning a promise) last in the queue.
  // Its promise ends once work has, failed or not.
  add(work) {
    this.pending++;
    this.chain = this.chain.then(work).catch((err) => this.onError(err))
      .finally(() => { if (--this.pending === 0) this.onSettled(); });
    return this.chain;
  }

  // busy says whether a write is waiting or on its way.
  busy() { return this.pending > 0; }
}
