// The page side of worker.js: one module Web Worker, calls as promises.
export class Engine {
  constructor(url = new URL("worker.js", import.meta.url)) {
    this.w = new Worker(url, { type: "module" });
    this.next = 1;
    this.waiting = new Map();
    this.w.onmessage = (ev) => {
      const { id, result, error, status } = ev.data;
      const p = this.waiting.get(id);
      if (!p) return;
      this.waiting.delete(id);
      if (error !== undefined) {
        const e = new Error(error);
        e.status = status;
        p.reject(e);
      } else p.resolve(result);
    };
    this.w.onerror = (ev) => {
      const e = new Error(`the engine worker failed: ${ev.message || "load error"}`);
      for (const p of this.waiting.values()) p.reject(e);
      this.waiting.clear();
    };
  }
  call(op, args) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.w.postMessage({ id, op, args });
    });
  }
}
