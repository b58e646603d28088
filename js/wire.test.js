// The front end against the one schema on the wire (js/wire.schema.json, generated from
// mindwidget/wire.py): its fixtures, the messages it sends, and the JSDoc types of js/wire.gen.js.
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { clock, notice, trace, views } from "./fixtures.js";
import { actionMessage, tickMessage } from "./messages.js";

const schema = JSON.parse(readFileSync(new URL("./wire.schema.json", import.meta.url), "utf8"));
const ajv = new Ajv2020({ allErrors: true, strict: false });
ajv.addSchema(schema, "wire");
const check = (name, payload) => {
  const validate = ajv.getSchema(`wire#/$defs/${name}`);
  const ok = validate(payload);
  return ok ? [] : validate.errors.map((e) => `${e.instancePath} ${e.message}`);
};

describe("the fixtures are payloads Python could send", () => {
  for (const [name, view] of Object.entries(views)) {
    it(`view: ${name}`, () => expect(check("View", view)).toEqual([]));
  }
  it("clock, trace, notice", () => {
    expect(check("Clock", clock)).toEqual([]);
    expect(check("TraceUpdate", trace)).toEqual([]);
    expect(check("Notice", notice)).toEqual([]);
  });
  it("the schema refuses what Python never sends", () => {
    expect(check("View", { ...views.base, player: 0 })).not.toEqual([]);
    expect(check("View", { ...views.base, phase: "flying" })).not.toEqual([]);
    expect(check("Clock", { ...clock, beat: undefined })).not.toEqual([]);
  });
});

describe("the messages the front end sends fit the schema", () => {
  const actions = schema.$defs.View.properties.allowed.items.enum;
  for (const action of actions) {
    it(action, () => {
      expect(check("Message", actionMessage(action, 1.25, { agree: true }))).toEqual([]);
    });
  }
  it("tick", () => expect(check("Message", tickMessage({ t: 3.5, seq: 4 }))).toEqual([]));
  it("a class page's actions carry no time (the server stamps them)", () => {
    for (const action of actions) {
      const msg = actionMessage(action, null, { agree: true });
      expect(msg).not.toHaveProperty("t");
      expect(check("PupilMessage", msg)).toEqual([]);
    }
    expect(check("PupilMessage", actionMessage("play", 1.25))).not.toEqual([]);
  });
  it("a setting", () => expect(check("SettingUpdate", { lang: "nl", speed: 2 })).toEqual([]));
});

/** The @property names of a typedef in js/wire.gen.js: {name: optional}. */
function typedef(name) {
  const text = readFileSync(new URL("./wire.gen.js", import.meta.url), "utf8");
  const block = text.split("/**").find((b) => b.includes(`@typedef {object} ${name}`));
  const out = {};
  for (const m of block.matchAll(/@property \{.*\} (\[?)(\w+)\]?/g)) out[m[2]] = m[1] === "[";
  return out;
}

describe("js/wire.gen.js says what the schema says", () => {
  it("View: the same fields, the same ones required", () => {
    const view = schema.$defs.View;
    const props = typedef("View");
    expect(Object.keys(props).sort()).toEqual(Object.keys(view.properties).sort());
    const required = Object.keys(props).filter((k) => !props[k]);
    expect(required.sort()).toEqual([...view.required].sort());
  });
});
