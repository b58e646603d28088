import { describe, expect, it } from "vitest";
import de from "../mindwidget/locales/class/de.json";
import en from "../mindwidget/locales/class/en.json";
import nl from "../mindwidget/locales/class/nl.json";
import { makeModel, say, tableLines } from "./classmodel.js";
import { seatNames } from "./render.js";

describe("the class page's words", () => {
  it("are the same keys in every language, with the join form's labels", () => {
    expect(Object.keys(nl).sort()).toEqual(Object.keys(en).sort());
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
    expect([say("nl", "code"), say("nl", "name"), say("nl", "join")]).toEqual(["Code", "Naam", "Meedoen"]);
    expect([say("de", "code"), say("de", "name"), say("de", "join")]).toEqual(["Code", "Name", "Mitspielen"]);
    expect(say("nl", "you_are", { name: "Bram", table: 1, seat: 2 })).toBe("Bram · Tafel 1 · Speler 2");
  });
});

describe("the model shim", () => {
  it("applies a whole state, then changes, and tells the widget's listeners", () => {
    const sent = [];
    const model = makeModel((m) => sent.push(m));
    const heard = [];
    model.on("change:view", () => heard.push("view"));
    model.on("change:lang", () => heard.push("lang"));
    model.on("msg:custom", (m) => heard.push(m.type)); // nothing emits it
    const view = { seat: 1, players: 3, tempo: null, speeds: [], names: [null, null, "Bram"] };
    model.apply({ view, lang: "nl", old: 1 }, true);
    expect(model.get("view")).toEqual(view); // the server's view, as it came: no edits
    model.apply({ lang: "de", trace: { epoch: 1, from: 0, points: [] } });
    expect(heard).toEqual(["view", "lang", "lang"]);
    // the widget draws the timeline from `live_trace` (its synced name in the notebook)
    const points = [{ seat: 0, card: 12 }];
    model.on("change:live_trace", () => heard.push("live_trace"));
    model.apply({ trace: { epoch: 2, from: 0, points } });
    expect(model.get("live_trace")).toEqual({ epoch: 2, from: 0, points });
    expect(heard.at(-1)).toBe("live_trace");
    model.apply({ view: { seat: 1, players: 3 } }, true);
    expect(model.get("old")).toBeUndefined(); // a whole state replaces what was held
    model.set("lang", "en");
    model.save_changes();
    model.send({ type: "play" });
    expect(sent).toEqual([{ type: "set", name: "lang", value: "en" }, { type: "play" }]);
  });

  it("shows the other pupils' names the server put in the view", () => {
    const model = makeModel(() => {});
    model.apply({ view: { seat: 0, players: 3, names: ["Anna", "Bram", null] } }, true);
    expect(seatNames(model.get("view"), "nl")).toEqual(["Jij", "Bram", "Bot 3"]);
  });
});

describe("the lines around the table", () => {
  const info = {
    table: 1,
    seat: 0,
    ready: true,
    seats: [
      { seat: 0, kind: "person", name: "Anna", connected: true },
      { seat: 1, kind: "person", name: "Bram", connected: false },
      { seat: 2, kind: "bot" },
    ],
    waiting_for: [0, 1],
  };
  it("say who sits where, who is gone, and whose Ready the table waits for", () => {
    const { who, waiting } = tableLines(info, "nl");
    expect(who).toBe("1. Anna (jij) · 2. Bram (verbinding kwijt) · 3. Bot 3");
    expect(waiting).toBe("Wachten op Klaar van: Bram");
    expect(tableLines({ ...info, ready: false }, "nl").waiting).toBe(""); // the table says "press Ready"
  });
});
