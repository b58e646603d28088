import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { keepOpen, parse } from "./socket.js";

class FakeSocket {
  static OPEN = 1;
  static made = [];
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    this.handlers = {};
    FakeSocket.made.push(this);
  }
  addEventListener(kind, fn) {
    this.handlers[kind] = fn;
  }
  send(text) {
    this.sent.push(text);
  }
  fire(kind, ev = {}) {
    if (kind === "open") this.readyState = 1;
    if (kind === "close") this.readyState = 3;
    this.handlers[kind]?.(ev);
  }
}

describe("keepOpen", () => {
  beforeEach(() => {
    FakeSocket.made = [];
    vi.stubGlobal("WebSocket", FakeSocket);
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("passes JSON messages on, drops the rest, and sends only while open", () => {
    const got = [];
    const s = keepOpen(() => "ws://x/ws", { message: (m) => got.push(m), firstMs: 500, maxMs: 5000 });
    expect(s.send({ a: 1 })).toBe(false);
    const ws = FakeSocket.made[0];
    ws.fire("open");
    expect(s.send({ a: 1 })).toBe(true);
    expect(ws.sent).toEqual(['{"a":1}']);
    ws.fire("message", { data: "{not json" });
    ws.fire("message", { data: '{"type":"update"}' });
    expect(got).toEqual([{ type: "update" }]);
    expect(parse("[1]")).toEqual([1]);
  });

  it("connects again, waiting twice as long each time up to the most, and from the start after an answer", () => {
    const closed = vi.fn();
    const s = keepOpen(() => "ws://x/ws", { message: () => {}, closed, firstMs: 500, maxMs: 1500 });
    const waits = [];
    for (let i = 0; i < 3; i++) {
      FakeSocket.made.at(-1).fire("close");
      const n = FakeSocket.made.length;
      let ms = 0;
      while (FakeSocket.made.length === n) {
        vi.advanceTimersByTime(100);
        ms += 100;
      }
      waits.push(ms);
    }
    expect(waits).toEqual([500, 1000, 1500]);
    expect(closed).toHaveBeenCalledTimes(3);
    s.answered();
    FakeSocket.made.at(-1).fire("close");
    vi.advanceTimersByTime(500);
    expect(FakeSocket.made).toHaveLength(5);
    s.stop();
    FakeSocket.made.at(-1).fire("close");
    vi.advanceTimersByTime(60000);
    expect(FakeSocket.made).toHaveLength(5);
    expect(closed).toHaveBeenCalledTimes(4);
  });

  it("gives up a silent socket: its late messages are ignored and a new one connects", () => {
    const got = [];
    const closed = vi.fn();
    const s = keepOpen(() => "ws://x/ws", { message: (m) => got.push(m), closed, firstMs: 500, maxMs: 5000 });
    const old = FakeSocket.made[0];
    old.close = vi.fn();
    old.fire("open");
    s.drop();
    expect(old.close).toHaveBeenCalled();
    expect(closed).toHaveBeenCalledTimes(1);
    expect(s.send({ a: 1 })).toBe(false); // nothing is sent on the socket given up
    old.fire("message", { data: '{"type":"update"}' }); // held by the network, arrives late
    old.fire("close");
    expect(got).toEqual([]);
    expect(closed).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(500);
    expect(FakeSocket.made.length).toBe(2);
    FakeSocket.made[1].fire("open");
    expect(s.send({ a: 2 })).toBe(true);
  });
});
