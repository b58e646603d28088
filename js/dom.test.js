import { describe, expect, it } from "vitest";
import { passes, passesButRun } from "./dom.js";
import { leaveHint } from "./parts.js";

const key = (k, mods = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
});

describe("no keyboard trap: the keys a board lets through to JupyterLab", () => {
  it("Shift+Enter, Ctrl/Cmd+Enter and Escape pass; so does every Ctrl, Alt or Meta combination", () => {
    expect(passes(key("Enter", { shiftKey: true }))).toBe(true);
    expect(passes(key("Enter", { ctrlKey: true }))).toBe(true);
    expect(passes(key("Enter", { metaKey: true }))).toBe(true);
    expect(passes(key("Escape"))).toBe(true);
    expect(passes(key("s", { ctrlKey: true }))).toBe(true);
  });

  it("the board's own plain keys stay (Enter on a button, arrows, letters, Space, Shift+letter)", () => {
    for (const k of ["Enter", "ArrowRight", "ArrowDown", "a", "b", "m", " ", "Home"])
      expect(passes(key(k))).toBe(false);
    expect(passes(key("P", { shiftKey: true }))).toBe(false);
  });

  it("the dashboard lets Escape and Ctrl+S through, but no key that runs its cell (a second class)", () => {
    expect(passesButRun(key("Escape"))).toBe(true);
    expect(passesButRun(key("s", { ctrlKey: true }))).toBe(true);
    for (const mods of [{ shiftKey: true }, { ctrlKey: true }, { metaKey: true }, { altKey: true }])
      expect(passesButRun(key("Enter", mods))).toBe(false);
    expect(passesButRun(key("ArrowDown"))).toBe(false);
  });

  it("the board says how to leave it, in the board's language", () => {
    expect(leaveHint("nl")).toContain("Esc: terug naar het notebook");
    expect(leaveHint("de")).toContain("Esc: zurück zum Notebook.");
    expect(leaveHint("en")).toMatch(/data-testid="leave-hint"[^>]*>Esc: back to the notebook/);
  });
});
